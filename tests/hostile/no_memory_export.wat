;; Load-time attack: a module that keeps its memory to itself (WASI needs it exported).
(module
  (memory 1)
  (func (export "_start")))
