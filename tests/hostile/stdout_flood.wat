;; Attack: write 1 GiB to stdout, 4 KiB per call (262,144 calls). The 17th call would pass
;; the 64 KiB cap: the invocation ends there with `output limit`, keeping exactly the
;; 16 calls (64 KiB) written before.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (local $i i32) (local $e i32)
    (memory.fill (i32.const 4096) (i32.const 0x6f) (i32.const 4096))
    (i32.store (i32.const 0) (i32.const 4096))
    (i32.store (i32.const 4) (i32.const 4096))
    (loop $flood
      (local.set $e (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))
      (if (local.get $e) (then (call $proc_exit (local.get $e))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $flood (i32.lt_u (local.get $i) (i32.const 262144))))))
