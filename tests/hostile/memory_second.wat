;; Load-time attack: a second linear memory (multi-memory is off).
(module
  (memory (export "memory") 1)
  (memory $other 1)
  (func (export "_start")))
