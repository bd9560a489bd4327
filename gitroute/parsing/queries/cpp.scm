; C++ tags, on top of c.scm. Upstream tags miss methods defined inside the class body: they are
; function_definitions whose declarator names a field_identifier. Out-of-line `void T::m() {}`
; carries T as @receiver. Namespaces are not symbols, so their functions stay functions. A function's declarator
; is matched by its fields, `(_ declarator: ... parameters: (parameter_list))` (c.scm says why).

(class_specifier
  name: [
    (type_identifier) @name
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
  ]
  body: (_)) @definition.class

(struct_specifier
  name: [
    (template_type name: (type_identifier) @name)
    (qualified_identifier name: (type_identifier) @name)
  ]
  body: (_)) @definition.struct

; Methods defined in the class body (inline), including operators and destructors.
(function_definition
  declarator: [
    (_ declarator: [(field_identifier) (operator_name) (destructor_name)] @name parameters: (parameter_list))
    (pointer_declarator declarator: (_ declarator: (field_identifier) @name parameters: (parameter_list)))
    (reference_declarator (_ declarator: (field_identifier) @name parameters: (parameter_list)))
  ]) @definition.method

; Methods declared in the class body (`void close();`).
(field_declaration
  declarator: [
    (_ declarator: [(field_identifier) (operator_name) (destructor_name)] @name parameters: (parameter_list))
    (pointer_declarator declarator: (_ declarator: (field_identifier) @name parameters: (parameter_list)))
    (reference_declarator (_ declarator: (field_identifier) @name parameters: (parameter_list)))
  ]) @definition.method

; Constructors and destructors declared in the class body.
(declaration
  declarator: (_ declarator: [(identifier) (destructor_name)] @name parameters: (parameter_list))) @definition.function

; A free function returning a reference (`const string_view_t &to_string_view(level_enum l)`, spdlog's level
; names): c.scm knows no references. Methods are matched above by their field_identifier.
(function_definition
  declarator: (reference_declarator
    (_ declarator: (identifier) @name parameters: (parameter_list)))) @definition.function

(declaration
  declarator: (reference_declarator
    (_ declarator: (identifier) @name parameters: (parameter_list)))) @definition.function

; Out-of-line definitions: `void Client::close() {}`, `ns::Client::Client() {}`.
(function_definition
  declarator: [
    (_ declarator: (qualified_identifier
      scope: [(namespace_identifier) (template_type name: (type_identifier))] @receiver
      name: [(identifier) (destructor_name) (operator_name)] @name) parameters: (parameter_list))
    (_ declarator: (qualified_identifier
      name: (qualified_identifier
        scope: (namespace_identifier) @receiver
        name: [(identifier) (destructor_name) (operator_name)] @name)) parameters: (parameter_list))
    ; `bool spdlog::sinks::sink::should_log() {}`: two namespaces before the class (spdlog's sink-inl.h).
    (_ declarator: (qualified_identifier
      name: (qualified_identifier
        name: (qualified_identifier
          scope: (namespace_identifier) @receiver
          name: [(identifier) (destructor_name) (operator_name)] @name))) parameters: (parameter_list))
    (pointer_declarator declarator: (_ declarator: (qualified_identifier
      scope: (namespace_identifier) @receiver
      name: (identifier) @name) parameters: (parameter_list)))
    (reference_declarator (_ declarator: (qualified_identifier
      scope: (namespace_identifier) @receiver
      name: (identifier) @name) parameters: (parameter_list)))
  ]) @definition.method

(call_expression
  function: [
    (qualified_identifier name: (identifier) @name)
    (qualified_identifier name: (qualified_identifier name: (identifier) @name))
    (template_function name: (identifier) @name)
    (qualified_identifier name: (template_function name: (identifier) @name))
    (field_expression field: (template_method name: (field_identifier) @name))
  ]) @reference.call

(new_expression
  type: [
    (type_identifier) @name
    (qualified_identifier name: (type_identifier) @name)
    (template_type name: (type_identifier) @name)
  ]) @reference.call

(using_declaration
  [(identifier) (qualified_identifier)] @name) @reference.import

(base_class_clause [
  (type_identifier) @name
  (qualified_identifier name: (type_identifier) @name)
  (template_type name: (type_identifier) @name)
]) @reference.type

(template_argument_list
  (type_descriptor type: (type_identifier) @name)) @reference.type

(parameter_declaration
  type: (qualified_identifier name: (type_identifier) @name)) @reference.type

; A member's type: a class that holds another (`details::file_helper file_helper_;`) depends on it.
(field_declaration
  type: [
    (type_identifier) @name
    (qualified_identifier name: (type_identifier) @name)
    (template_type name: (type_identifier) @name)
  ]) @reference.type

; A class's `static const`/`static constexpr` members are constants owned by it; other fields are state.
((field_declaration
  (storage_class_specifier) @_static
  (type_qualifier) @_const
  declarator: (field_identifier) @name) @definition.constant
  (#eq? @_static "static")
  (#any-of? @_const "const" "constexpr")
  (#parent-type? @definition.constant "field_declaration_list"))
