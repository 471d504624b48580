;; Load-time attack: a shared memory (threads are off).
(module
  (memory (export "memory") 1 1 shared)
  (func (export "_start")))
