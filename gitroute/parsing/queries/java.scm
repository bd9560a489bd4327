; Java tags. Constructors count as methods of their class (named like it).

(class_declaration
  name: (identifier) @name) @definition.class

(record_declaration
  name: (identifier) @name) @definition.class

(interface_declaration
  name: (identifier) @name) @definition.interface

(annotation_type_declaration
  name: (identifier) @name) @definition.interface

(enum_declaration
  name: (identifier) @name) @definition.enum

(method_declaration
  name: (identifier) @name) @definition.method

(constructor_declaration
  name: (identifier) @name) @definition.method

(compact_constructor_declaration
  name: (identifier) @name) @definition.method

(method_invocation
  name: (identifier) @name) @reference.call @callee

(object_creation_expression
  type: [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
    (scoped_type_identifier (type_identifier) @name .)
  ]) @reference.call

; `import a.b.C;`, `import a.b.*;` (names a.b), `import static a.B.m;`
(import_declaration
  [(scoped_identifier) (identifier)] @name) @reference.import

(superclass
  [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
    (scoped_type_identifier (type_identifier) @name .)
  ]) @reference.type

(super_interfaces
  (type_list [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
  ])) @reference.type

(extends_interfaces
  (type_list [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
  ])) @reference.type

(field_declaration
  type: [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
  ]) @reference.type

(formal_parameter
  type: [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
  ]) @reference.type

(method_declaration
  type: [
    (type_identifier) @name
    (generic_type (type_identifier) @name)
  ]) @reference.type

(type_arguments
  (type_identifier) @name) @reference.type

; Bindings: `import a.b.C;` binds C from a.b; `import static a.B.m;` binds m from a.B; `import a.b.*;` all of a.b.
(import_declaration
  (scoped_identifier
    scope: (_) @module
    name: (identifier) @name) .) @reference.bind

(import_declaration
  (scoped_identifier) @module
  (asterisk) @name) @reference.bind

; Constants: `static final` fields, interface fields (static and final by rule) and enum constants, owned by
; their type. Instance fields are state, not something a reader looks up: they stay out.
(class_body
  (field_declaration
    (modifiers) @_modifiers
    declarator: (variable_declarator name: (identifier) @name)) @definition.constant
  (#match? @_modifiers "\\bstatic\\b")
  (#match? @_modifiers "\\bfinal\\b"))

(interface_body
  (constant_declaration
    declarator: (variable_declarator name: (identifier) @name)) @definition.constant)

(enum_constant
  name: (identifier) @name) @definition.constant
