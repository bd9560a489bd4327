; Lua tags. A module is a table (`local M = {}` at the top of a file): recorded as an "object", so that the functions
; defined onto it (`function M.f()`, `function M:m()`, `M.f = function`) are its methods, named `f` as callers
; write them (`M.f(x)`, `obj:m()`), not `M.f`. Onto a table the file does not create, a function keeps the table
; as its owner.

(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name)
      (expression_list . value: (table_constructor)))) @definition.object)

(chunk
  (assignment_statement
    (variable_list . name: (identifier) @name)
    (expression_list . value: (table_constructor))) @definition.object)

; A class made by a class library's call (Penlight's `local Date = class()`, `Date.Format = class()`, middleclass's
; `local Point = class('Point')`): a class, its methods those defined onto it.
(chunk
  (variable_declaration
    (assignment_statement
      (variable_list . name: (identifier) @name)
      (expression_list . value: (function_call
        name: [(identifier) @_class (dot_index_expression field: (identifier) @_class)]))))
  @definition.class
  (#eq? @_class "class"))

(chunk
  (assignment_statement
    (variable_list . name: [
      (identifier) @name
      (dot_index_expression table: (_) @owner field: (identifier) @name)
    ])
    (expression_list . value: (function_call
      name: [(identifier) @_class (dot_index_expression field: (identifier) @_class)])))
  @definition.class
  (#eq? @_class "class"))

(function_declaration
  name: [
    (dot_index_expression table: (_) @owner field: (identifier) @name)
    (method_index_expression table: (_) @owner method: (identifier) @name)
  ]) @definition.function

(function_declaration
  name: (identifier) @name) @definition.function

(assignment_statement
  (variable_list . name: [
    (dot_index_expression table: (_) @owner field: (identifier) @name)
    (identifier) @name
  ])
  (expression_list . value: (function_definition))) @definition.function

; A function written as a field of a table (`local match = { is_matcher = function(o) … end }`, luassert's modules;
; a metatable's `__index = function`): defined onto that table, whose definition holds it.
(assignment_statement
  (expression_list . value: (table_constructor
    (field name: (identifier) @name value: (function_definition)) @definition.function)))

(function_call
  name: (identifier) @_require
  arguments: [
    (arguments . (string content: (string_content) @name))
    (string content: (string_content) @name)
  ]
  (#eq? @_require "require")) @reference.import

(function_call
  name: [
    (identifier) @name
    (dot_index_expression field: (identifier) @name)
    (method_index_expression method: (identifier) @name)
  ] @callee) @reference.call
