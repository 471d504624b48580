;; Trap: call_indirect to a table slot that holds no function (slot 1 of 2 is null).
(module
  (type $v (func))
  (memory (export "memory") 1)
  (table 2 funcref)
  (elem (i32.const 0) $nothing)
  (func $nothing)
  (func (export "_start")
    (call_indirect (type $v) (i32.const 1))))
