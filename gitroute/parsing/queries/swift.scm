; Swift tags. One node type holds class/struct/enum/actor/extension, told apart by its keyword;
; a protocol is an interface. `extension T { ... }` is captured as @impl with @name = T, so its
; functions become methods of T (parented to T when this file declares it).

(class_declaration
  declaration_kind: "struct"
  name: (type_identifier) @name) @definition.struct

(class_declaration
  declaration_kind: "enum"
  name: (type_identifier) @name) @definition.enum

(class_declaration
  declaration_kind: ["class" "actor"]
  name: (type_identifier) @name) @definition.class

(class_declaration
  declaration_kind: "extension"
  name: [
    (user_type (type_identifier) @name)
    (user_type (type_identifier) (type_identifier) @name .)
  ]) @impl

(protocol_declaration
  name: (type_identifier) @name) @definition.interface

(function_declaration
  name: (simple_identifier) @name) @definition.function

(protocol_function_declaration
  name: (simple_identifier) @name) @definition.method

(init_declaration
  "init" @name) @definition.method

(call_expression
  [
    (simple_identifier) @name
    (navigation_expression suffix: (navigation_suffix suffix: (simple_identifier) @name))
  ]) @reference.call

(import_declaration
  (identifier) @name) @reference.import

(inheritance_specifier
  inherits_from: (user_type (type_identifier) @name)) @reference.type

; Types of properties and parameters (no field names: this grammar files them under `name`).
(type_annotation
  (user_type (type_identifier) @name)) @reference.type

(parameter
  (user_type (type_identifier) @name)) @reference.type

(class_declaration
  declaration_kind: "extension"
  name: (user_type (type_identifier) @name)) @reference.type

; Constants: top-level `let`/`var` and a type's `static` ones (`static let shared = S()`, owned by it);
; instance properties are state.
(source_file
  (property_declaration
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant)

(class_body
  (property_declaration
    (modifiers (property_modifier) @_static)
    name: (pattern bound_identifier: (simple_identifier) @name)) @definition.constant
  (#eq? @_static "static"))
