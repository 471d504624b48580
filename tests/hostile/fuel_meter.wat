;; Measures the fuel accounting from inside: the test runs it with different inputs and
;; compares the fuel used. stdin holds three u32 (little-endian): N, K, J. The bot
;;   - asks random_get for N bytes and writes those N bytes to stderr (2N bytes moved);
;;   - calls sched_yield K times in a loop;
;;   - runs the same loop J times with `i32.const 0` in place of the call (the same
;;     instruction costs, without the host call);
;;   - reads the monotonic clock last and prints it (8 bytes) on stdout.
;; Every other instruction is the same whatever the input, so the fuel used differs by
;; exactly one per byte moved and 100 per host call.
(module
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sched_yield" (func $sched_yield (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
  (memory (export "memory") 2)
  (func (export "_start")
    (local $k i32) (local $j i32)
    ;; stdin -> 64..76
    (i32.store (i32.const 40) (i32.const 64))
    (i32.store (i32.const 44) (i32.const 12))
    (drop (call $fd_read (i32.const 0) (i32.const 40) (i32.const 1) (i32.const 48)))
    ;; N random bytes at 4096, then the same N bytes to stderr.
    (drop (call $random_get (i32.const 4096) (i32.load (i32.const 64))))
    (i32.store (i32.const 40) (i32.const 4096))
    (i32.store (i32.const 44) (i32.load (i32.const 64)))
    (drop (call $fd_write (i32.const 2) (i32.const 40) (i32.const 1) (i32.const 48)))
    ;; K host calls.
    (local.set $k (i32.load (i32.const 68)))
    (block $done
      (loop $more
        (br_if $done (i32.eqz (local.get $k)))
        (drop (call $sched_yield))
        (local.set $k (i32.sub (local.get $k) (i32.const 1)))
        (br $more)))
    ;; J iterations of the same loop without the call.
    (local.set $j (i32.load (i32.const 72)))
    (block $done
      (loop $more
        (br_if $done (i32.eqz (local.get $j)))
        (drop (i32.const 0))
        (local.set $j (i32.sub (local.get $j) (i32.const 1)))
        (br $more)))
    ;; The monotonic clock, printed.
    (drop (call $clock_time_get (i32.const 1) (i64.const 1) (i32.const 16)))
    (i32.store (i32.const 40) (i32.const 16))
    (i32.store (i32.const 44) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 40) (i32.const 1) (i32.const 48)))))
