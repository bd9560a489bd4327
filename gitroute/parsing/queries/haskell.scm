; Haskell tags. A function is its type signature (`foo :: Int -> Int`, the line its haddock sits above) and the
; equations after it, merged by the family; one with no signature is its equations. Only top-level definitions and
; the members of a class or an instance: a `where` clause's helpers (`go`) are the function's own business.
; A data type or newtype is a struct, a type synonym a class (a name types are written with), a type class an
; interface, and an instance binds its functions to the instance's type, as an impl block does.

(declarations (signature name: [(variable) @name (prefix_id) @name]) @definition.function)
(declarations (function name: (variable) @name) @definition.function)
(declarations (bind name: (variable) @name) @definition.function)
(declarations (function (infix operator: (_) @name)) @definition.function)

(class_declarations (signature name: [(variable) @name (prefix_id) @name]) @definition.function)
(class_declarations (function name: (variable) @name) @definition.function)
(class_declarations (bind name: (variable) @name) @definition.function)
(instance_declarations (function name: (variable) @name) @definition.function)
(instance_declarations (bind name: (variable) @name) @definition.function)

(data_type name: (name) @name) @definition.struct
(newtype name: (name) @name) @definition.struct
(type_synomym name: (name) @name) @definition.class
(class name: (name) @name) @definition.interface

(instance
  patterns: (type_patterns . [
    (name) @name
    (parens (apply constructor: (name) @name))
    (apply constructor: (name) @name)
  ])) @impl

(import module: (module) @name) @reference.import

(apply function: [
  (variable) @name
  (qualified id: (variable) @name)
] @callee) @reference.call

(infix operator: (infix_id [
  (variable) @name
  (qualified id: (variable) @name)
]) @callee) @reference.call

; Type names in signatures: `Client -> String -> IO Forecast` nests as function types and applications.
(signature type: (name) @name) @reference.type
(function parameter: (name) @name) @reference.type
(function result: (name) @name) @reference.type
(apply constructor: (name) @name) @reference.type
(apply argument: (name) @name) @reference.type
