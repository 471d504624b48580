;; Attack: write 1 GiB to stderr, 1 MiB per call (1024 calls). stderr is never a violation:
;; the host keeps the first 64 KiB and only counts the rest. Each call costs 100 fuel plus
;; one per byte (and filling the buffer costs one per byte too), so with the default billion
;; units of fuel the 953rd call runs out; with more fuel the loop ends and the bot prints
;; "done" on stdout.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 17)
  (data (i32.const 256) "done")
  (func (export "_start")
    (local $i i32) (local $e i32)
    (memory.fill (i32.const 0x10000) (i32.const 0x65) (i32.const 0x100000))
    (i32.store (i32.const 0) (i32.const 0x10000))
    (i32.store (i32.const 4) (i32.const 0x100000))
    (loop $flood
      (local.set $e (call $fd_write (i32.const 2) (i32.const 0) (i32.const 1) (i32.const 8)))
      (if (local.get $e) (then (call $proc_exit (local.get $e))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $flood (i32.lt_u (local.get $i) (i32.const 1024))))
    (i32.store (i32.const 0) (i32.const 256))
    (i32.store (i32.const 4) (i32.const 4))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8)))))
