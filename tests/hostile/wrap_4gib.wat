;; Attack: with a full 4 GiB memory every address is in bounds, so pointer arithmetic that
;; wraps past 2^32 would land at the bottom of memory instead of failing. Arrays that would
;; run past the end are EFAULT, and nothing is written at their wrapped-around tail.
;; Emits: the grow's old size (1), then one errno per call, then the word at 0x100.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $fd_prestat_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func (export "_start")
    ;; 1. grow to 65536 pages (4 GiB): the old size, 1.
    (call $emit (memory.grow (i32.const 65535)))
    ;; 2. argv array in the last 4 bytes (two arguments need 8); 3. the strings there.
    (call $emit (call $args_get (i32.const 0xfffffffc) (i32.const 0x1000)))
    (call $emit (call $args_get (i32.const 0x2000) (i32.const 0xfffffff8)))
    ;; 4. two subscriptions from 48 bytes before the end; 5. their events likewise.
    (call $emit (call $poll_oneoff (i32.const 0xffffffd0) (i32.const 0x3000) (i32.const 2) (i32.const 0x40)))
    (call $emit (call $poll_oneoff (i32.const 0x3000) (i32.const 0xffffffe0) (i32.const 2) (i32.const 0x40)))
    ;; 6. the 8-byte prestat in the last 4 bytes.
    (call $emit (call $fd_prestat_get (i32.const 3) (i32.const 0xfffffffc)))
    ;; 7. nothing wrapped around to the bottom of memory.
    (call $emit (i32.load (i32.const 0x100)))
  )
)
