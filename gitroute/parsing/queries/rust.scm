; Rust tags. `impl T { ... }` is captured as @impl with @name = T: functions inside it become methods
; of T (parented to T's definition when this file has it). Modules are not symbols, so a function in
; `mod tests { ... }` stays a function.

(struct_item
  name: (type_identifier) @name) @definition.struct

(union_item
  name: (type_identifier) @name) @definition.struct

(enum_item
  name: (type_identifier) @name) @definition.enum

(trait_item
  name: (type_identifier) @name) @definition.trait

(function_item
  name: (identifier) @name) @definition.function

(function_signature_item
  name: (identifier) @name) @definition.function

(macro_definition
  name: (identifier) @name) @definition.function

(impl_item
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
    (reference_type type: (type_identifier) @name)
  ]) @impl

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
    (scoped_identifier name: (identifier) @name)
    (generic_function function: (identifier) @name)
    (generic_function function: (scoped_identifier name: (identifier) @name))
    (generic_function function: (field_expression field: (field_identifier) @name))
  ]) @reference.call

(macro_invocation
  macro: [
    (identifier) @name
    (scoped_identifier name: (identifier) @name)
  ]) @reference.call

; `use a::b::C;` names a::b::C; `use a::b::{C, D}` names a::b; `mod geo;` pulls in geo.rs.
(use_declaration
  argument: [
    (identifier) @name
    (scoped_identifier) @name
    (use_as_clause path: (_) @name)
    (scoped_use_list path: (_) @name)
    (use_wildcard (_) @name)
  ]) @reference.import

(mod_item
  name: (identifier) @name
  !body) @reference.import

(extern_crate_declaration
  name: (identifier) @name) @reference.import

; Type references: trait impls, fields, parameters, returns, struct literals, `Type::function()`.
(impl_item
  trait: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (scoped_type_identifier name: (type_identifier) @name)
  ]) @reference.type

(field_declaration
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (reference_type type: (type_identifier) @name)
  ]) @reference.type

(parameter
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
    (reference_type type: (type_identifier) @name)
  ]) @reference.type

(function_item
  return_type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.type

(struct_expression
  name: (type_identifier) @name) @reference.type

(call_expression
  function: (scoped_identifier
    path: (identifier) @name)) @reference.type

(type_arguments
  (type_identifier) @name) @reference.type

; Bindings: `use a::b::C;`, `use a::b::C as D;`, `use a::b::{C, D as E};`, `use a::b::*;`.
(use_declaration
  argument: (scoped_identifier
    path: (_) @module
    name: (identifier) @name)) @reference.bind

(use_declaration
  argument: (use_as_clause
    path: (scoped_identifier
      path: (_) @module
      name: (identifier) @original)
    alias: (identifier) @name)) @reference.bind

(use_declaration
  argument: (scoped_use_list
    path: (_) @module
    list: (use_list (identifier) @name))) @reference.bind

(use_declaration
  argument: (scoped_use_list
    path: (_) @module
    list: (use_list (use_as_clause
      path: (identifier) @original
      alias: (identifier) @name)))) @reference.bind

(use_declaration
  argument: (use_wildcard (_) @module) @name) @reference.bind

; `const` and `static` items of a module, an `impl` (owned by its type, as methods are) or a trait; not the
; ones inside a function body, which are locals.
(source_file
  [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant)

(declaration_list
  [(const_item name: (identifier) @name) (static_item name: (identifier) @name)] @definition.constant)
