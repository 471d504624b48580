;; proc_exit(3) after printing: the outcome is exit(3) and what was printed is kept.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "bye\n")
  (func (export "_start")
    (i32.store (i32.const 0) (i32.const 256))
    (i32.store (i32.const 4) (i32.const 4))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
    (call $proc_exit (i32.const 3))
    ;; Never reached: proc_exit does not return.
    unreachable))
