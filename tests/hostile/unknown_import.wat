;; Load-time attack: import a function the sandbox does not provide (`env::system`). Must be
;; rejected at load, with a message naming the import.
(module
  (import "env" "system" (func $system (param i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (call $system (i32.const 0)))))
