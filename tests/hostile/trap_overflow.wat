;; Trap: signed division overflow, INT_MIN / -1.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (i32.div_s (i32.const 0x80000000) (i32.sub (i32.load (i32.const 0)) (i32.const 1))))))
