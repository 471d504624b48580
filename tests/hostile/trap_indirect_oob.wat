;; Trap: call_indirect with an index past the end of the table (index 1000, table of 2).
(module
  (type $v (func))
  (memory (export "memory") 1)
  (table 2 funcref)
  (elem (i32.const 0) $nothing $nothing)
  (func $nothing)
  (func (export "_start")
    (call_indirect (type $v) (i32.const 1000))))
