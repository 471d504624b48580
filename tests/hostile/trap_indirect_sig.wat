;; Trap: call_indirect through a type that is not the function's type.
(module
  (type $v (func))
  (type $i (func (param i32) (result i32)))
  (memory (export "memory") 1)
  (table 1 funcref)
  (elem (i32.const 0) $nothing)
  (func $nothing)
  (func (export "_start")
    (drop (call_indirect (type $i) (i32.const 5) (i32.const 0)))))
