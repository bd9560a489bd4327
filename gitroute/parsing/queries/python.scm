; Python tags for gitroute. Captures: @definition.<kind> + @name, @reference.call/.import/.type + @name.
; Methods are not captured separately: a function whose innermost enclosing symbol is a class
; becomes a method in tags.py, so nested defs inside methods stay functions.

(class_definition
  name: (identifier) @name) @definition.class

(function_definition
  name: (identifier) @name) @definition.function

; Calls: `f()` names f, `obj.attr.m()` names m (the by-name graph resolves the last segment). @callee is
; the name or the node holding it, so that the receiver is read without walking up the tree.
(call
  function: [
    (identifier) @name
    (attribute attribute: (identifier) @name)
  ] @callee) @reference.call

; Imports name the module as written: `import os.path`, `import a.b as c`, `from ..pkg import x`.
(import_statement
  name: (dotted_name) @name) @reference.import

(import_statement
  name: (aliased_import
    name: (dotted_name) @name)) @reference.import

(import_from_statement
  module_name: (_) @name) @reference.import

; Base classes and annotations are type references, the edges impact analysis follows.
(class_definition
  superclasses: (argument_list [
    (identifier) @name
    (attribute attribute: (identifier) @name)
  ] @callee)) @reference.type

(type [
  (identifier) @name
  (attribute attribute: (identifier) @name)
  (generic_type (identifier) @name)
  (subscript value: (identifier) @name)
] @callee) @reference.type

; Bindings: the names imports bind (@name), where from (@module), and what under an alias (@original).
(import_from_statement
  module_name: (_) @module
  name: (dotted_name) @name) @reference.bind

(import_from_statement
  module_name: (_) @module
  name: (aliased_import
    name: (dotted_name) @original
    alias: (identifier) @name)) @reference.bind

(import_from_statement
  module_name: (_) @module
  (wildcard_import) @name) @reference.bind

(import_statement
  name: (aliased_import
    name: (dotted_name) @module
    alias: (identifier) @name)) @reference.bind

(import_statement
  name: (dotted_name) @module @name) @reference.bind

; Module-level constants and objects: `default_handler = logging.StreamHandler(...)`, `MAX_AGE = 3600`,
; `request_started = _signals.signal("request-started")`, `DEBUG = False`, `PY_3_10_PLUS = sys.version_info >= (3, 10)`. Not `__all__`-style dunders, not plain aliases of
; another name (`x = y`), which define nothing new.
(module
  (assignment
    left: (identifier) @name
    right: [(call) (dictionary) (list) (set) (tuple) (string) (integer) (float) (lambda) (attribute)
            (binary_operator) (list_comprehension) (dictionary_comprehension) (conditional_expression)
            (comparison_operator) (boolean_operator) (not_operator) (unary_operator) (true) (false) (none)
            (subscript) (concatenated_string) (set_comprehension) (generator_expression)])
  @definition.constant
  (#not-match? @name "^__.*__$"))
