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

; `const f = () => {}` and `let g = function () {}` are how much modern code defines functions.
(lexical_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

(variable_declaration
  (variable_declarator
    name: (identifier) @name
    value: [(arrow_function) (function_expression) (generator_function)])) @definition.function

; `Foo.prototype.bar = function () {}` and `exports.baz = () => {}`
(assignment_expression
  left: (member_expression
    property: (property_identifier) @name)
  right: [(arrow_function) (function_expression)]) @definition.function

(call_expression
  function: [
    (identifier) @name
    (member_expression property: [(property_identifier) (private_property_identifier)] @name)
  ]) @reference.call

(new_expression
  constructor: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.call

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
