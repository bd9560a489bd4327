; C# tags. Records are classes (record structs too: both are types with members); constructors
; are methods of their type. Namespaces are not symbols.

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(struct_declaration
  name: (identifier) @name) @definition.struct

(interface_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

; A property or an event is a pair of accessors, as a TypeScript getter or a Python @property is a method: callers
; name it, and its XML doc says what it holds (Json.NET's settings are nearly all properties). An event declared as
; a field (`public event EventHandler<ErrorEventArgs> Error;`) is one too.
(property_declaration
  name: (identifier) @name) @definition.method

(event_declaration
  name: (identifier) @name) @definition.method

(event_field_declaration
  (variable_declaration
    (variable_declarator name: (identifier) @name))) @definition.method

; An indexer and an operator are methods of their type too (Json.NET documents JObject's `this[string]` and JValue's
; `operator ==`); the family names them as C# code calls them: `this[]`, `operator ==`, `operator JToken`.
(indexer_declaration
  "this" @name) @definition.method

(operator_declaration
  operator: _ @name) @definition.method

(conversion_operator_declaration
  type: _ @name) @definition.method

; An enum member is a constant of its enum, as a Java enum constant is (its doc says what the choice does).
(enum_member_declaration
  name: (identifier) @name) @definition.constant

; `#if` splitting an `if`/`else if` chain leaves `else if (x)` to read as a local function `if` of type `else`
; (#not-any-of? does not filter in the pinned tree-sitter binding; #not-match? does).
(local_function_statement
  name: (identifier) @name
  (#not-match? @name "^(if|while|for|foreach|switch|lock|using|fixed|catch|return)$")) @definition.function

; A delegate names a function type, as a C typedef of a function pointer or a TypeScript function type does.
(delegate_declaration
  name: (identifier) @name) @definition.interface

(invocation_expression
  function: [
    (identifier) @name
    (member_access_expression name: (identifier) @name)
    (generic_name (identifier) @name)
    (member_access_expression name: (generic_name (identifier) @name))
  ]) @reference.call

(object_creation_expression
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
    (qualified_name name: (identifier) @name)
  ]) @reference.call

; `using A.B;`, `using static A.B;`, `using X = A.B;` (the target is the last child).
(using_directive
  [(identifier) (qualified_name)] @name .) @reference.import

(base_list [
  (identifier) @name
  (generic_name (identifier) @name)
  (qualified_name name: (identifier) @name)
]) @reference.type

(parameter
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
  ]) @reference.type

(method_declaration
  returns: [
    (identifier) @name
    (generic_name (identifier) @name)
  ]) @reference.type

(property_declaration
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
  ]) @reference.type

(variable_declaration
  type: [
    (identifier) @name
    (generic_name (identifier) @name)
  ]) @reference.type

(type_argument_list
  (identifier) @name) @reference.type

; Bindings: only an alias is recorded here (`using D = A.B.C;` binds D to C of A.B); the graph reads the
; other using directives' bindings off their text.
(using_directive
  name: (identifier) @name
  (qualified_name name: (identifier) @original) @module .) @reference.bind

; Constants: `const` and `static readonly` fields, owned by their type; other fields are instance state.
(field_declaration
  (modifier) @_const
  (variable_declaration
    (variable_declarator name: (identifier) @name))
  (#eq? @_const "const")) @definition.constant

(field_declaration
  (modifier) @_static
  (modifier) @_readonly
  (variable_declaration
    (variable_declarator name: (identifier) @name))
  (#eq? @_static "static")
  (#eq? @_readonly "readonly")) @definition.constant
