; JavaScript-only tags, on top of ecmascript.scm (TypeScript wraps heritage in extends/implements clauses).

(class_heritage
  (identifier) @name) @reference.type

(class_heritage
  (member_expression property: (property_identifier) @name)) @reference.type

; Class fields holding functions: `class A { run = () => {}; static b = function () {} }` are methods of A.
(field_definition
  property: [(property_identifier) (private_property_identifier)] @name
  value: [(arrow_function) (function_expression) (generator_function)] @definition.method)
