;; Attack: 1 GiB to stdout in a single fd_write: 1024 iovecs, each the same 1 MiB buffer.
;; The call is refused as a whole (`output limit`): nothing of it is kept.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 17)
  (func (export "_start")
    (local $i i32)
    (memory.fill (i32.const 0x10000) (i32.const 0x6f) (i32.const 0x100000))
    ;; 1024 iovecs at 8192: {ptr 64 KiB, len 1 MiB}.
    (loop $iovs
      (i32.store (i32.add (i32.const 8192) (i32.shl (local.get $i) (i32.const 3))) (i32.const 0x10000))
      (i32.store (i32.add (i32.const 8196) (i32.shl (local.get $i) (i32.const 3))) (i32.const 0x100000))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $iovs (i32.lt_u (local.get $i) (i32.const 1024))))
    (call $proc_exit (call $fd_write (i32.const 1) (i32.const 8192) (i32.const 1024) (i32.const 8)))))
