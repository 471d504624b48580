;; Load-time attack: `_start` exported with the wrong type (a parameter and a result). It can
;; never run as a WASI command; the contract says such a bot is rejected when it is loaded,
;; not discovered at its first invocation.
(module
  (memory (export "memory") 1)
  (func (export "_start") (param i32) (result i32)
    (local.get 0)))
