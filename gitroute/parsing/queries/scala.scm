; Scala 2/3 tags. `case class` is a class_definition; `object` is a symbol of kind object, so its
; defs are methods (`def main` in an object is the entry point, as is `object X extends App`).

(class_definition
  name: (identifier) @name) @definition.class

(trait_definition
  name: (identifier) @name) @definition.trait

(object_definition
  name: (identifier) @name) @definition.object

; `package object symtab { ... }` holds a package's shared vals, defs and implicits: an object named for it.
(package_object
  name: (identifier) @name) @definition.object

(enum_definition
  name: (identifier) @name) @definition.enum

(function_definition
  name: (identifier) @name) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (identifier) @name)
    (generic_function function: (identifier) @name)
    (generic_function function: (field_expression field: (identifier) @name))
  ]) @reference.call

(instance_expression [
  (type_identifier) @name
  (generic_type type: (type_identifier) @name)
]) @reference.call

; The path is split into segment nodes; tags.py reads the path from the statement's text.
(import_declaration) @reference.import @name

; No `type:` field here: with `extends A with B` a field pattern only ever meets the first type.
(extends_clause [
  (type_identifier) @name
  (generic_type type: (type_identifier) @name)
]) @reference.type

(parameter
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.type

(class_parameter
  type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.type

(function_definition
  return_type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.type

(function_declaration
  return_type: [
    (type_identifier) @name
    (generic_type type: (type_identifier) @name)
  ]) @reference.type

(type_arguments
  (type_identifier) @name) @reference.type

; Bindings: only renames are recorded here (`import a.b.{C => D}`, Scala 3 `import a.b.C as D` bind D to
; C of a.b); the graph reads the other imports' bindings off their text.
(import_declaration
  (namespace_selectors
    (arrow_renamed_identifier name: (identifier) @original alias: (identifier) @name))) @module @reference.bind

(import_declaration
  (as_renamed_identifier name: (identifier) @original alias: (identifier) @name)) @module @reference.bind

; Constants: top-level `val`/`var` and an object's or a package object's (owned by it), each name of
; `val a, b = 1`; a class's are instance state.
(compilation_unit
  [(val_definition pattern: [(identifier) @name (identifiers (identifier) @name)])
   (var_definition pattern: [(identifier) @name (identifiers (identifier) @name)])] @definition.constant)

(object_definition
  body: (template_body
    [(val_definition pattern: [(identifier) @name (identifiers (identifier) @name)])
     (var_definition pattern: [(identifier) @name (identifiers (identifier) @name)])]
    @definition.constant))

(package_object
  body: (template_body
    [(val_definition pattern: [(identifier) @name (identifiers (identifier) @name)])
     (var_definition pattern: [(identifier) @name (identifiers (identifier) @name)])]
    @definition.constant))
