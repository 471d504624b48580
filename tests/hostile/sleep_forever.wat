;; Attack: sleep for u64::MAX nanoseconds with poll_oneoff. No host call may block: the
;; sleep returns at once and the *virtual* clock jumps instead.
;;
;; Subscription (48 bytes at 1024): userdata u64 @0, tag u8 @8 (0 = clock), clock id u32 @16,
;; timeout u64 @24, precision u64 @32, flags u16 @40 (0 = relative).
;; Event (32 bytes at 2048): userdata u64 @0, error u16 @8, type u8 @10.
;;
;; Emits: t0 = monotonic; then for a 1-hour sleep: poll errno, events, event userdata, event
;; error, event type; t1 = monotonic; then the same five for a u64::MAX sleep; then
;; t2 = monotonic and realtime.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)

  (func $emit (param $v i64)
    (i64.store (i32.const 16) (local.get $v))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))

  (func $now (param $clock i32) (result i64)
    (drop (call $clock_time_get (local.get $clock) (i64.const 1) (i32.const 56)))
    (i64.load (i32.const 56)))

  ;; Sleep `ns` (relative) on the monotonic clock and report the poll.
  (func $sleep (param $userdata i64) (param $ns i64)
    (i64.store (i32.const 1024) (local.get $userdata))
    (i32.store8 (i32.const 1032) (i32.const 0))
    (i32.store (i32.const 1040) (i32.const 1))
    (i64.store (i32.const 1048) (local.get $ns))
    (i64.store (i32.const 1056) (i64.const 0))
    (i32.store16 (i32.const 1064) (i32.const 0))
    (call $emit (i64.extend_i32_u
      (call $poll_oneoff (i32.const 1024) (i32.const 2048) (i32.const 1) (i32.const 60))))
    (call $emit (i64.load32_u (i32.const 60)))
    (call $emit (i64.load (i32.const 2048)))
    (call $emit (i64.load16_u (i32.const 2056)))
    (call $emit (i64.load8_u (i32.const 2058))))

  (func (export "_start")
    (call $emit (call $now (i32.const 1)))
    (call $sleep (i64.const 0x1111) (i64.const 3600000000000))
    (call $emit (call $now (i32.const 1)))
    (call $sleep (i64.const 0x2222) (i64.const -1))
    (call $emit (call $now (i32.const 1)))
    (call $emit (call $now (i32.const 0)))))
