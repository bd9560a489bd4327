; ECMAScript patterns that must lose to every more specific one: listed last for JavaScript, TypeScript
; and TSX (when several patterns claim one node the earliest wins). A function expression that has a
; name of its own and is held by nothing that names it (an argument: `defineGetter(req, 'hostname',
; function hostname() {})`, an IIFE) is a function by that name.

(function_expression
  name: (identifier) @name) @definition.function

(generator_function
  name: (identifier) @name) @definition.function
