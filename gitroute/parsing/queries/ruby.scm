; Ruby tags. A class is a class; a module is recorded as an "object" (a named namespace of
; methods that can be mixed in, with no instances): its `def self.x` and `module_function` defs
; are then its methods.

(class
  name: [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ]) @definition.class

(module
  name: [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ]) @definition.object

(method
  name: (_) @name) @definition.function

(singleton_method
  name: (_) @name) @definition.method

; Methods a class declares by a call, as RDoc documents them: `attr_reader :apps, :root` defines `apps` and `root`
; (the doc above the call is theirs), `define_method(:go) do ... end` defines `go` (its block is the body). The
; names are the symbols without their colon (the Ruby family's definition_name).
(call
  method: (identifier) @_declares
  arguments: (argument_list (simple_symbol) @name)
  (#match? @_declares "^attr_(reader|writer|accessor)$")) @definition.method

; An alias is a method of its own name: `alias_method :to_a, :finish` and `alias each_pair each` define `to_a` and
; `each_pair` (what a caller types), whose body is the aliased method's. `define_method` and `alias_method` are one
; pattern: every pattern on `call` costs the query's compile about 0.02 s (Ruby's grammar has `call` in many states).
(call
  method: (identifier) @_declares
  arguments: (argument_list . (simple_symbol) @name)
  (#any-of? @_declares "define_method" "alias_method")) @definition.method

(alias
  name: [(identifier) (simple_symbol)] @name) @definition.method

(call
  method: (identifier) @_require
  arguments: (argument_list . (string (string_content) @name))
  (#match? @_require "^(require|require_relative|load|autoload)$")) @reference.import

(call
  method: (identifier) @name) @reference.call

(superclass [
  (constant) @name
  (scope_resolution name: (constant) @name)
]) @reference.type

(call
  method: (identifier) @_mixin
  arguments: (argument_list [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ])
  (#match? @_mixin "^(include|extend|prepend)$")) @reference.type

; `Session.new`, `Weather::Client.create`: the constant receiving the call is a type reference.
(call
  receiver: [
    (constant) @name
    (scope_resolution name: (constant) @name)
  ]) @reference.type

; Constants (`MAX_RETRIES = 3` in a module, a class or the file; Ruby allows them nowhere else), owned by
; the module or class they are set in.
(assignment
  left: (constant) @name) @definition.constant
