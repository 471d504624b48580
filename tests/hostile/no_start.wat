;; Load-time attack: a library (reactor) with no `_start`.
(module
  (memory (export "memory") 1)
  (func (export "_initialize")))
