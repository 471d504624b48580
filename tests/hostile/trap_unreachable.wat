;; Trap: `unreachable` (what a Rust panic ends in).
(module
  (memory (export "memory") 1)
  (func (export "_start")
    unreachable))
