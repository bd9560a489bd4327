; TypeScript and TSX tags, on top of ecmascript.scm. Namespaces (`namespace Geo {}`) are not symbols,
; as in C++ and C#: a function in one stays a function.

(interface_declaration
  name: (type_identifier) @name) @definition.interface

(abstract_class_declaration
  name: (type_identifier) @name) @definition.class

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_signature
  name: (property_identifier) @name) @definition.method

(abstract_method_signature
  name: (property_identifier) @name) @definition.method

(function_signature
  name: (identifier) @name) @definition.function

; Type references: heritage clauses, annotations and type arguments.
(implements_clause [
  (type_identifier) @name
  (generic_type name: (type_identifier) @name)
  (nested_type_identifier name: (type_identifier) @name)
]) @reference.type

(extends_clause
  value: [
    (identifier) @name
    (member_expression property: (property_identifier) @name)
  ]) @reference.type

(extends_type_clause
  type: [
    (type_identifier) @name
    (generic_type name: (type_identifier) @name)
  ]) @reference.type

(type_annotation [
  (type_identifier) @name
  (generic_type name: (type_identifier) @name)
  (nested_type_identifier name: (type_identifier) @name)
  (array_type (type_identifier) @name)
]) @reference.type

(type_arguments
  (type_identifier) @name) @reference.type

(union_type
  (type_identifier) @name) @reference.type

; A type alias names a type the way an interface does, and gitroute has no separate kind for it:
; `type Props = { city: string }` and `export type Id = string` are interfaces.
(type_alias_declaration
  name: (type_identifier) @name) @definition.interface

; Class fields holding functions: `class A { run = () => {}; static b = function () {} }` are methods of A.
(public_field_definition
  name: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression) (generator_function)] @definition.method)

; Module-level constants whose value is cast or checked: `export const email: RegExp = /.../ as RegExp`.
(program
  (export_statement
    declaration: (lexical_declaration
      (variable_declarator
        name: (identifier) @name
        value: [(as_expression) (satisfies_expression) (non_null_expression)]) @definition.constant)))
