;; Attack: ask random_get for 1 GiB (and other sizes around the 1 MiB per-call cap).
;; Memory: 17 pages (1 MiB + 64 KiB), so a 1 MiB request at 64 KiB fits exactly.
;;
;; Emits the errno of each call:
;;   1. random_get(0, 1 GiB)                    EINVAL (above the per-call cap; nothing moved)
;;   2. random_get(0, 1 MiB + 1)                EINVAL
;;   3. random_get(64 KiB, 1 MiB)               success (exactly the cap, fits in memory)
;;   4. random_get(0, 0)                        success
;;   5. random_get(0x10fff8, 16)                EFAULT (straddles the end of memory)
;;   6. random_get(0xfffffff0, 16)              EFAULT
;; then the first 8 random bytes at 64 KiB, and whether bytes 0..64 KiB are still all zero (1).
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (memory (export "memory") 17)

  (func $emit (param $v i64)
    (i64.store (i32.const 16) (local.get $v))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $emit32 (param $v i32) (call $emit (i64.extend_i32_s (local.get $v))))

  (func (export "_start")
    (local $at i32) (local $clean i32)
    (call $emit32 (call $random_get (i32.const 0) (i32.const 0x40000000)))
    (call $emit32 (call $random_get (i32.const 0) (i32.const 0x100001)))
    (call $emit32 (call $random_get (i32.const 0x10000) (i32.const 0x100000)))
    (call $emit32 (call $random_get (i32.const 0) (i32.const 0)))
    (call $emit32 (call $random_get (i32.const 0x10fff8) (i32.const 16)))
    (call $emit32 (call $random_get (i32.const 0xfffffff0) (i32.const 16)))
    (call $emit (i64.load (i32.const 0x10000)))
    ;; The refused calls wrote nothing: memory below 64 KiB (but the emit scratch) is zero.
    (local.set $clean (i32.const 1))
    (local.set $at (i32.const 64))
    (loop $check
      (if (i64.ne (i64.load (local.get $at)) (i64.const 0)) (then (local.set $clean (i32.const 0))))
      (local.set $at (i32.add (local.get $at) (i32.const 8)))
      (br_if $check (i32.lt_u (local.get $at) (i32.const 0x10000))))
    (call $emit32 (local.get $clean))))
