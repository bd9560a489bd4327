; ECMAScript tags shared by JavaScript, TypeScript and TSX: every pattern here compiles on all three grammars.
; Grammar-specific patterns live in javascript.scm, typescript.scm and tsx.scm.

(class_declaration
  name: (_) @name) @definition.class

(class
  name: (_) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(generator_function_declaration
  name: (identifier) @name) @definition.function

(method_definition
  name: [(property_identifier) (private_property_identifier)] @name) @definition.method

; Functions held by a name: the capture is the function value itself, so that when several patterns
; claim one function the earliest below wins, and the named-function-expression fallback (in
; ecmascript_fallback.scm, after every language's own patterns) only names what nothing else did.

; `const f = () => {}`, `let g = function () {}`, `var h = function* () {}`: named by the variable.
(variable_declarator
  name: (identifier) @name
  value: [(arrow_function) (function_expression) (generator_function)] @definition.function)

; CommonJS module exports: `module.exports = function query(opts) {}` is named by the function's own name;
; an anonymous one by the variable it is also assigned to (`var proto = module.exports = function () {}`
; is `proto`), and otherwise it is no symbol: `exports` is a name no caller uses. tags.py does the
; naming for the `@exported` capture; the same holds for a bare `exports = function () {}`.
(assignment_expression
  left: [(member_expression) (identifier)] @_left
  right: [(arrow_function) (function_expression) (generator_function)] @exported @definition.function
  (#match? @_left "^(module[.])?exports$"))

; `Layer.prototype.match = function match() {}`: named by the property (the name callers use, even for
; `res.type = function contentType() {}`), owned by `Layer`. tags.py makes it a method of `Layer` when
; the file defines a `Layer` visible there, else a plain function.
(assignment_expression
  left: (member_expression
    object: (member_expression
      object: (identifier) @owner
      property: (property_identifier) @_prototype)
    property: [(property_identifier) (private_property_identifier)] @name)
  right: [(arrow_function) (function_expression) (generator_function)] @definition.function
  (#eq? @_prototype "prototype"))

; `res.send = function send(body) {}`, `exports.foo = () => {}`: owned by the object (see above).
(assignment_expression
  left: (member_expression
    object: (identifier) @owner
    property: [(property_identifier) (private_property_identifier)] @name)
  right: [(arrow_function) (function_expression) (generator_function)] @definition.function
  (#not-eq? @owner "module"))

; Any other member: `this.render = () => {}`, `app.locals.fmt = function () {}`, `module.foo = ...`.
(assignment_expression
  left: (member_expression
    property: [(property_identifier) (private_property_identifier)] @name) @_left
  right: [(arrow_function) (function_expression) (generator_function)] @definition.function
  (#not-eq? @_left "module.exports"))

; A bare assignment `b = function () {}` (also inside `var a = b = function () {}`: named `b`).
(assignment_expression
  left: (identifier) @name
  right: [(arrow_function) (function_expression) (generator_function)] @definition.function
  (#not-eq? @name "exports"))

; Object literals: `{ send: function (x) {}, 'on-end': () => {} }` (shorthand `json(y) {}` is a
; method_definition above); a function whose nearest symbol is not a type stays a function. Keys `get`
; and `set` are left out: in a property descriptor (`Object.defineProperty(o, 'x', { get: function () {} })`,
; which compiled CommonJS repeats for every re-export) they name no callable.
(pair
  key: [(property_identifier) @name (string (string_fragment) @name)]
  value: [(arrow_function) (function_expression) (generator_function)] @definition.function
  (#not-match? @name "^[gs]et$"))

; @callee: the name or the node holding it, so that the receiver is read without walking up the tree.
(call_expression
  function: [
    (identifier) @name
    (member_expression property: [(property_identifier) (private_property_identifier)] @name)
  ] @callee) @reference.call

(new_expression
  constructor: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ] @callee) @reference.call

(import_statement
  source: (string) @name) @reference.import

(export_statement
  source: (string) @name) @reference.import

; CommonJS and dynamic imports: `require("x")`, `import("x")`.
(call_expression
  function: (identifier) @_require
  arguments: (arguments . (string) @name)
  (#eq? @_require "require")) @reference.import

(call_expression
  function: (import)
  arguments: (arguments . (string) @name)) @reference.import

; Bindings: the names imports bind (@name), where from (@module), and what under an alias (@original).
(import_statement
  (import_clause (identifier) @name)
  source: (string) @module) @reference.bind

(import_statement
  (import_clause (namespace_import (identifier) @name))
  source: (string) @module) @reference.bind

(import_statement
  (import_clause (named_imports (import_specifier name: (_) @name !alias)))
  source: (string) @module) @reference.bind

(import_statement
  (import_clause (named_imports (import_specifier name: (_) @original alias: (_) @name)))
  source: (string) @module) @reference.bind

(variable_declarator
  name: (identifier) @name
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @module))
  (#eq? @_require "require")) @reference.bind

(variable_declarator
  name: (object_pattern [
    (shorthand_property_identifier_pattern) @name
    (pair_pattern key: (_) @original value: (identifier) @name)
  ])
  value: (call_expression
    function: (identifier) @_require
    arguments: (arguments . (string) @module))
  (#eq? @_require "require")) @reference.bind

; Module-level constants and variables bound to a value that is no function: `export const ZodObject =
; core.$constructor(...)`, `const defaults = { ... }`, `var view = new View()`. A `require(...)`, or a member
; of one (`var Emitter = require('events').EventEmitter`), is an import, not a definition; a function value is
; a function above. `var` (a variable_declaration) binds as `const` and `let` (a lexical_declaration) do: the
; CommonJS style declares its module constants with it; the parent is either (`_`: no other node of a program or an
; export holds a declarator).
(program
  (_
    (variable_declarator
      name: (identifier) @name
      value: [(new_expression) (object) (array) (string) (template_string) (number) (regex) (member_expression)
              (binary_expression) (ternary_expression) (await_expression) (class)
              (parenthesized_expression)] @_value) @definition.constant)
  (#not-match? @_value "^require"))

(program
  (export_statement
    declaration: (_
      (variable_declarator
        name: (identifier) @name
        value: [(new_expression) (object) (array) (string) (template_string) (number) (regex) (member_expression)
                (binary_expression) (ternary_expression) (await_expression) (class)
              (parenthesized_expression)] @_value) @definition.constant))
  (#not-match? @_value "^require"))

(program
  (_
    (variable_declarator
      name: (identifier) @name
      value: (call_expression function: (_) @_callee)) @definition.constant)
  (#not-eq? @_callee "require"))

(program
  (export_statement
    declaration: (_
      (variable_declarator
        name: (identifier) @name
        value: (call_expression)) @definition.constant)))
