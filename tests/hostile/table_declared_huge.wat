;; Load-time attack: declare a table of 10,001 elements, above the 10,000 cap.
(module
  (memory (export "memory") 1)
  (table 10001 funcref)
  (func (export "_start")))
