;; Attack: look for what an earlier instance left in linear memory. Grows to the full
;; 64 MiB, counts the non-zero 8-byte words (anything a previous bot, or a previous run of
;; this bot, left behind in a reused memory slot), then sprays the whole memory with 0x5a so
;; that the next instance would find it if memory were not wiped (the fill costs 64 Mi fuel:
;; wasmtime charges bulk memory operations per byte).
;; Emits: the memory size in pages after growing (1024), the count of non-zero words (0).
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)

  (func $emit (param $v i64)
    (i64.store (i32.const 16) (local.get $v))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))

  (func (export "_start")
    (local $at i32) (local $dirty i64)
    (drop (memory.grow (i32.const 1023)))
    (loop $scan
      (if (i64.ne (i64.load (local.get $at)) (i64.const 0))
        (then (local.set $dirty (i64.add (local.get $dirty) (i64.const 1)))))
      (local.set $at (i32.add (local.get $at) (i32.const 8)))
      (br_if $scan (i32.lt_u (local.get $at) (i32.const 0x4000000))))
    ;; Report only after the scan: the emit helper writes to memory itself.
    (call $emit (i64.extend_i32_u (memory.size)))
    (call $emit (local.get $dirty))
    (memory.fill (i32.const 0) (i32.const 0x5a) (i32.const 0x4000000))))
