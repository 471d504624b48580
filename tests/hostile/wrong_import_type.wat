;; Load-time attack: import a real WASI function with the wrong signature (fd_write taking a
;; single i64), hoping the host reads arguments that are not there.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i64) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (call $fd_write (i64.const 1)))))
