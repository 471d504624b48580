;; Load-time attack: a 64-bit memory (memory64 is off).
(module
  (memory (export "memory") i64 1)
  (func (export "_start")))
