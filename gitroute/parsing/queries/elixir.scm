; Elixir tags. Everything is a call: `defmodule Foo do ... end` is a call of `defmodule`. A module (or protocol, or a
; protocol's implementation) is recorded as an "object", a named namespace of functions as Ruby's modules are, so its
; `def`s are its methods. Clauses of one function (`def f(0)`, `def f(n)`) are merged by the family.

(call
  target: (identifier) @_define
  (arguments . (alias) @name)
  (#match? @_define "^(defmodule|defprotocol|defimpl)$")) @definition.object

; `def name(args)`, `def name(args) when guard`, `def name` with no parentheses; macros, guards and delegations too.
(call
  target: (identifier) @_define
  (arguments . [
    (identifier) @name
    (call target: (identifier) @name)
    (binary_operator left: (call target: (identifier) @name) operator: "when")
    (binary_operator left: (identifier) @name operator: "when")
  ])
  (#match? @_define "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp)$")) @definition.function

; Module attributes that hold a value (`@default_timeout 5_000`) are the module's constants; the attributes that
; document or annotate (`@doc`, `@spec`, `@impl`) are not.
(unary_operator
  operator: "@"
  operand: (call
    target: (identifier) @name
    (arguments . [(integer) (float) (string) (atom) (list) (map) (tuple) (keywords) (sigil) (charlist)]))
  (#not-match? @name "^(doc|moduledoc|typedoc|spec|impl|type|typep|opaque|callback|macrocallback|behaviour|derive|deprecated|since|dialyzer|compile|on_load|vsn|external_resource|before_compile|after_compile|on_definition|optional_callbacks|enforce_keys|fallback_to_any|tag|moduletag|describetag)$")) @definition.constant

(call
  target: (identifier) @_import
  (arguments . (alias) @name)
  (#match? @_import "^(alias|import|require|use)$")) @reference.import

; Aliases as bindings, read by the graph (the module a local name stands for): `alias Foo.Bar` binds Bar to Foo.Bar,
; `alias Foo.Bar, as: B` (or `require Foo.Bar, as: B`) binds B to it, `alias Foo.{Bar, Baz}` binds Bar and Baz of Foo.
(call
  target: (identifier) @_alias
  (arguments . (alias) @module @name .)
  (#eq? @_alias "alias")) @reference.bind

(call
  target: (identifier) @_alias
  (arguments . (alias) @module (keywords (pair key: (keyword) @_as value: (alias) @name)))
  (#match? @_alias "^(alias|require)$")
  (#match? @_as "^as:")) @reference.bind

(call
  target: (identifier) @_alias
  (arguments . (dot left: (alias) @module right: (tuple (alias) @name)))
  (#eq? @_alias "alias")) @reference.bind

; Calls, without the special forms and definitions that only look like calls.
(call
  target: [
    (identifier) @name
    (dot left: [(alias) (identifier)] right: (identifier) @name)
  ] @callee
  (#not-match? @name "^(def|defp|defmacro|defmacrop|defguard|defguardp|defdelegate|defn|defnp|defmodule|defprotocol|defimpl|defstruct|defexception|defoverridable|alias|import|require|use|if|unless|case|cond|with|for|fn|quote|unquote|unquote_splicing|receive|try|raise|reraise|throw|super)$")) @reference.call

; A pipe into a bare name (`x |> inc`) calls it.
(binary_operator
  operator: "|>"
  right: (identifier) @name) @reference.call

; `Baz.plus(...)`: the module a function is called on is a type reference.
(call
  target: (dot left: (alias) @name)) @reference.type
