;; Attack: grow linear memory past the 64 MiB cap. The grow must fail inside the guest
;; (memory.grow returns -1, as a real OS refuses an allocation) and the guest carries on.
;;
;; Emits on stdout, each as an i64 (little-endian):
;;   1. growing from 1 page to exactly 1024 pages (64 MiB): the old size, 1
;;   2. growing one page more: -1
;;   3. growing by 65535 pages (4 GiB): -1
;;   4. memory.size afterwards: 1024
;;   5. a byte stored at and read back from the last address of the 64 MiB: 7
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)

  ;; Report one value: 8 bytes on stdout (iovec at 0, value at 16).
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))

  (func (export "_start")
    (call $emit (memory.grow (i32.const 1023)))
    (call $emit (memory.grow (i32.const 1)))
    (call $emit (memory.grow (i32.const 65535)))
    (call $emit (memory.size))
    (i32.store8 (i32.const 0x3ffffff) (i32.const 7))
    (call $emit (i32.load8_u (i32.const 0x3ffffff)))))
