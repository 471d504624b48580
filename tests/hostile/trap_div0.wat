;; Trap: integer division by zero (the divisor comes from memory so nothing folds it).
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (i32.div_u (i32.const 7) (i32.load (i32.const 0))))))
