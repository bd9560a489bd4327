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

; `typedef struct tag name;` declares the name a program uses for the type (hashtable_t for struct hashtable),
; and `typedef struct tag { ... } name;` a second name beside the tag.
(type_definition
  type: [(struct_specifier !body) (union_specifier !body)]
  declarator: (type_identifier) @name) @definition.struct

(type_definition
  type: (enum_specifier !body)
  declarator: (type_identifier) @name) @definition.enum

(type_definition
  type: [
    (struct_specifier name: (type_identifier) @_tag body: (_))
    (union_specifier name: (type_identifier) @_tag body: (_))
  ]
  declarator: (type_identifier) @name
  (#not-eq? @_tag @name)) @definition.struct

(type_definition
  type: (enum_specifier name: (type_identifier) @_tag body: (_))
  declarator: (type_identifier) @name
  (#not-eq? @_tag @name)) @definition.enum

; Other typedefs name a type the way an interface does (TypeScript's `type` aliases are interfaces too):
; a scalar (`typedef long long json_int_t;`) or a callback's function pointer
; (`typedef int (*get_func)(void *data);`, `typedef void *(*malloc_t)(size_t);`).
(type_definition
  type: [(primitive_type) (sized_type_specifier) (type_identifier)]
  declarator: (type_identifier) @name) @definition.interface

(type_definition
  declarator: [
    (_ declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))
      parameters: (parameter_list))
    (pointer_declarator declarator: (_
      declarator: (parenthesized_declarator (pointer_declarator declarator: (type_identifier) @name))
      parameters: (parameter_list)))
  ]) @definition.interface

; An enum's members are named constants of the whole file, as an object-like macro is; their text joins the enum's.
(enumerator
  name: (identifier) @name) @definition.constant

; A function's declarator is written `(_ declarator: ... parameters: (parameter_list))`, not `(function_declarator
; ...)`: only a function declarator has those two fields with a concrete declarator in the first (an abstract one's is
; abstract), and tree-sitter analyses every typed step that has children against the grammar's parse table when the
; query compiles, once per place it is written (22 in C++'s query, a third of its compile: 0.35 -> 0.25 s). A step
; under ERROR keeps its type: an ERROR node's children follow no rule.
(function_definition
  declarator: [
    (_ declarator: (identifier) @name parameters: (parameter_list))
    (pointer_declarator declarator: (_ declarator: (identifier) @name parameters: (parameter_list)))
    (pointer_declarator declarator: (pointer_declarator
      declarator: (_ declarator: (identifier) @name parameters: (parameter_list))))
  ]) @definition.function

(declaration
  declarator: [
    (_ declarator: (identifier) @name parameters: (parameter_list))
    (pointer_declarator declarator: (_ declarator: (identifier) @name parameters: (parameter_list)))
  ]) @definition.function

(preproc_function_def
  name: (identifier) @name) @definition.function

; A prototype followed by an attribute macro (`int init(t *x) JANSSON_ATTRS((warn_unused_result));`,
; `int f(void) __THROW;`) does not parse: its type and declarator end an ERROR node of their own.
(ERROR
  [(primitive_type) (sized_type_specifier) (type_identifier)]
  .
  (function_declarator declarator: (identifier) @name)
  .) @definition.function

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
; and `const` declarations at file or namespace level (C++'s `constexpr` too), not a function's locals. The places
; a file-level declaration sits are one `#parent-type?` (captures.py) rather than one pattern under each parent:
; every parent step costs the query's compile an analysis of the whole pattern below it from each parse state
; the parent can be in (five copies were a third of C++'s compile).
(preproc_def
  name: (identifier) @name
  value: (_)) @definition.constant

((declaration
  (type_qualifier) @_const
  declarator: (init_declarator
    declarator: [
      (identifier) @name
      (array_declarator declarator: (identifier) @name)
      (pointer_declarator declarator: [(identifier) @name (array_declarator declarator: (identifier) @name)])
    ])) @definition.constant
  (#any-of? @_const "const" "constexpr")
  (#parent-type? @definition.constant "translation_unit" "preproc_ifdef" "preproc_if" "preproc_else"
    "declaration_list"))
