; C tags (also run for C++, whose grammar extends C's). A struct/union/enum is a definition only
; with a body; `struct foo x;` is a type reference. Prototypes count as function definitions so
; that headers, where the API is declared, have symbols.

(struct_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(union_specifier
  name: (type_identifier) @name
  body: (_)) @definition.struct

(enum_specifier
  name: (type_identifier) @name
  body: (_)) @definition.enum

; `typedef struct { ... } session_t;` is named by its typedef.
(type_definition
  type: (struct_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (union_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier !name body: (_))
  declarator: (type_identifier) @name) @definition.enum

(function_definition
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
    (pointer_declarator declarator: (pointer_declarator declarator: (function_declarator declarator: (identifier) @name)))
  ]) @definition.function

(declaration
  declarator: [
    (function_declarator declarator: (identifier) @name)
    (pointer_declarator declarator: (function_declarator declarator: (identifier) @name))
  ]) @definition.function

(preproc_function_def
  name: (identifier) @name) @definition.function

(call_expression
  function: [
    (identifier) @name
    (field_expression field: (field_identifier) @name)
  ]) @reference.call

(preproc_include
  path: [(string_literal) (system_lib_string)] @name) @reference.import

(struct_specifier
  name: (type_identifier) @name
  !body) @reference.type

(parameter_declaration
  type: (type_identifier) @name) @reference.type

(field_declaration
  type: (type_identifier) @name) @reference.type

(declaration
  type: (type_identifier) @name) @reference.type

(function_definition
  type: (type_identifier) @name) @reference.type

(type_definition
  type: (type_identifier) @name) @reference.type

; Constants: object-like macros with a value (`#define MAX_PATH 4096`, not an include guard's bare `#define`)
; and `const` declarations at file or namespace level (C++'s `constexpr` too), not a function's locals. A query
; cannot list alternative parents: the same pattern follows under each place a file-level declaration sits.
(preproc_def
  name: (identifier) @name
  value: (_)) @definition.constant

(translation_unit
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      ])) @definition.constant
  (#any-of? @_const "const" "constexpr"))

(preproc_ifdef
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      ])) @definition.constant
  (#any-of? @_const "const" "constexpr"))

(preproc_if
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      ])) @definition.constant
  (#any-of? @_const "const" "constexpr"))

(preproc_else
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      ])) @definition.constant
  (#any-of? @_const "const" "constexpr"))

(declaration_list
  (declaration
    (type_qualifier) @_const
    declarator: (init_declarator
      declarator: [
        (identifier) @name
        (array_declarator declarator: (identifier) @name)
        (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
      ])) @definition.constant
  (#any-of? @_const "const" "constexpr"))
