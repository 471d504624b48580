;; Load-time attack: declare a minimum memory of 1025 pages (64 MiB + 64 KiB), above the cap.
(module
  (memory (export "memory") 1025)
  (func (export "_start")))
