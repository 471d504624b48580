;; Trap: a 4-byte store straddling the end of the one-page linear memory by one byte.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (i32.store (i32.const 65533) (i32.const -1))))
