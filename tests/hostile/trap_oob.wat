;; Trap: a load far outside the one-page linear memory.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (i32.load (i32.const 0x7ffffff0)))))
