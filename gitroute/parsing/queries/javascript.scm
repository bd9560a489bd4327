; JavaScript-only tags, on top of ecmascript.scm (TypeScript wraps heritage in extends/implements clauses).

(class_heritage
  (identifier) @name) @reference.type

(class_heritage
  (member_expression property: (property_identifier) @name)) @reference.type

; JSX: a capitalised element is a component use, recorded as a call of that component.

(jsx_opening_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.call

(jsx_self_closing_element
  name: (identifier) @name
  (#match? @name "^[A-Z]")) @reference.call
