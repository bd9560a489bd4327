; PHP tags. Traits are traits; enums are enums.

(class_declaration
  name: (name) @name) @definition.class

(interface_declaration
  name: (name) @name) @definition.interface

(trait_declaration
  name: (name) @name) @definition.trait

(enum_declaration
  name: (name) @name) @definition.enum

(function_definition
  name: (name) @name) @definition.function

(method_declaration
  name: (name) @name) @definition.method

(function_call_expression
  function: [
    (name) @name
    (qualified_name (name) @name .)
  ]) @reference.call

(member_call_expression
  name: (name) @name) @reference.call

(nullsafe_member_call_expression
  name: (name) @name) @reference.call

(scoped_call_expression
  name: (name) @name) @reference.call

(object_creation_expression [
  (name) @name
  (qualified_name (name) @name .)
]) @reference.call

; `use A\B\C;` names A\B\C; `require 'x.php'` names x.php (dynamic paths are skipped).
(namespace_use_clause [
  (qualified_name) @name
  (name) @name
]) @reference.import

(require_expression (string (string_content) @name)) @reference.import
(require_once_expression (string (string_content) @name)) @reference.import
(include_expression (string (string_content) @name)) @reference.import
(include_once_expression (string (string_content) @name)) @reference.import

(base_clause [
  (name) @name
  (qualified_name (name) @name .)
]) @reference.type

(class_interface_clause [
  (name) @name
  (qualified_name (name) @name .)
]) @reference.type

(use_declaration [
  (name) @name
  (qualified_name (name) @name .)
]) @reference.type

(named_type [
  (name) @name
  (qualified_name (name) @name .)
]) @reference.type

(scoped_call_expression
  scope: [
    (name) @name
    (qualified_name (name) @name .)
  ]) @reference.type

; Constants: `const MAX = 3;` at file level or in a class (owned by it), a file-level `define('MAX', 3)`, and
; an enum's cases (`case Hearts = 'H';`, owned by the enum, as Java's enum constants are by theirs).
(const_declaration
  (const_element (name) @name) @definition.constant)

(enum_case
  name: (name) @name) @definition.constant

(program
  (expression_statement
    (function_call_expression
      function: (name) @_define
      arguments: (arguments . (argument [(string (string_content) @name) (encapsed_string (string_content) @name)])))
    @definition.constant)
  (#eq? @_define "define"))
