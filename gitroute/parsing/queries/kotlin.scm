; Kotlin tags. The grammar has few field names: the declaration keyword tells a class from an
; interface or an enum, so those patterns come first (the earliest pattern claiming a node wins).

(class_declaration
  "interface"
  (type_identifier) @name) @definition.interface

(class_declaration
  "enum"
  (type_identifier) @name) @definition.enum

(class_declaration
  (type_identifier) @name) @definition.class

(object_declaration
  (type_identifier) @name) @definition.object

; `companion object Factory { }`; an unnamed companion is no symbol, its functions stay the class's methods.
(companion_object
  (type_identifier) @name) @definition.object

; Extension functions (`fun String.shout()`) are methods bound to their receiver type.
(function_declaration
  (receiver_type [
    (user_type (type_identifier) @receiver)
    (nullable_type (user_type (type_identifier) @receiver))
  ])
  (simple_identifier) @name) @definition.method

(function_declaration
  (simple_identifier) @name) @definition.function

(call_expression
  [
    (simple_identifier) @name
    (navigation_expression (navigation_suffix (simple_identifier) @name))
  ]) @reference.call

(import_header
  (identifier) @name) @reference.import

(delegation_specifier [
  (user_type (type_identifier) @name)
  (constructor_invocation (user_type (type_identifier) @name))
]) @reference.type

(parameter
  (user_type (type_identifier) @name)) @reference.type

(class_parameter
  (user_type (type_identifier) @name)) @reference.type

(function_declaration
  (user_type (type_identifier) @name)) @reference.type

(property_declaration
  (variable_declaration (user_type (type_identifier) @name))) @reference.type

(type_arguments
  (type_projection (user_type (type_identifier) @name))) @reference.type

; Bindings: only an alias is recorded here (`import a.b.C as D` binds D to C of a.b); the graph reads
; the other imports' bindings off their text.
(import_header
  (identifier (simple_identifier) @original .) @module
  (import_alias (type_identifier) @name)) @reference.bind

; Constants: top-level properties (`const val MAX = 3`, `val defaultClient = Client()`) and the properties of an
; object or companion object, Kotlin's statics (owned by it). A class's own properties are instance state.
(source_file
  (property_declaration
    (variable_declaration (simple_identifier) @name)) @definition.constant)

(object_declaration
  (class_body
    (property_declaration
      (variable_declaration (simple_identifier) @name)) @definition.constant))

(companion_object
  (class_body
    (property_declaration
      (variable_declaration (simple_identifier) @name)) @definition.constant))
