; Go tags. A method's receiver type is captured as @receiver so tags.py can parent it to that type.

(type_spec
  name: (type_identifier) @name
  type: (struct_type)) @definition.struct

(type_spec
  name: (type_identifier) @name
  type: (interface_type)) @definition.interface

; Other defined types (`type HandlerFunc func(...)`, `type Celsius float64`) carry methods the way
; classes do; aliases (`type A = B`) are a separate node and are not definitions.
(type_spec
  name: (type_identifier) @name) @definition.class

(function_declaration
  name: (identifier) @name) @definition.function

(method_declaration
  receiver: (parameter_list
    (parameter_declaration
      type: [
        (type_identifier) @receiver
        (pointer_type (type_identifier) @receiver)
        (generic_type type: (type_identifier) @receiver)
        (pointer_type (generic_type type: (type_identifier) @receiver))
      ]))
  name: (field_identifier) @name) @definition.method

(method_elem
  name: (field_identifier) @name) @definition.method

; @callee: the name or the node holding it, so that the receiver is read without walking up the tree.
(call_expression
  function: [
    (identifier) @name
    (selector_expression field: (field_identifier) @name)
    (parenthesized_expression (identifier) @name)
  ] @callee) @reference.call

(import_spec
  path: (interpreted_string_literal) @name) @reference.import

(import_spec
  path: (raw_string_literal) @name) @reference.import

; Type references where dependency matters: fields, parameters, results, literals, embedding.
(field_declaration
  type: [
    (type_identifier) @name
    (pointer_type (type_identifier) @name)
    (qualified_type name: (type_identifier) @name)
    (pointer_type (qualified_type name: (type_identifier) @name))
  ]) @reference.type

(parameter_declaration
  type: [
    (type_identifier) @name
    (pointer_type (type_identifier) @name)
    (qualified_type name: (type_identifier) @name)
    (pointer_type (qualified_type name: (type_identifier) @name))
  ]) @reference.type

(composite_literal
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
  ]) @reference.type

(function_declaration
  result: [
    (type_identifier) @name
    (pointer_type (type_identifier) @name)
    (qualified_type name: (type_identifier) @name)
  ]) @reference.type

(type_alias
  type: [
    (type_identifier) @name
    (qualified_type name: (type_identifier) @name)
  ]) @reference.type

; Bindings: the package name an import binds (the alias, else the path's last element; tags.py decides).
(import_spec
  name: (_) @name
  path: (_) @module) @reference.bind

(import_spec
  !name
  path: (_) @module @name) @reference.bind

; Package-level constants and variables (`const DebugMode = "debug"`, `var ErrAbortHandler = errors.New(...)`,
; each name of a `const ( ... )` group and of `const a, b = 1, 2`); not the blank `var _ I = (*T)(nil)`, not
; locals inside functions. A const_spec's names are its only identifier children (its values sit in a list):
; matched without the field, since the grammar's `name` field also covers the commas and then stops the
; query at the first name.
(source_file
  (const_declaration
    (const_spec (identifier) @name) @definition.constant)
  (#not-eq? @name "_"))

(source_file
  (var_declaration [
    (var_spec name: (identifier) @name) @definition.constant
    (var_spec_list (var_spec name: (identifier) @name) @definition.constant)
  ])
  (#not-eq? @name "_"))
