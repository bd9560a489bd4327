; JavaScript-only tags, on top of ecmascript.scm (TypeScript wraps heritage in extends/implements clauses).

(class_heritage
  (identifier) @name) @reference.type

(class_heritage
  (member_expression property: (property_identifier) @name)) @reference.type
