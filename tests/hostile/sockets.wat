;; Attack: use sockets. There are none: every socket call on a valid descriptor is ENOTSOCK,
;; on an invalid one EBADF.
;; Emits the errno of: sock_accept(3), sock_accept(0), sock_send(1), sock_recv(2),
;; sock_shutdown(3), sock_accept(77), sock_recv(-1).
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sock_accept" (func $sock_accept (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sock_recv" (func $sock_recv (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sock_send" (func $sock_send (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "sock_shutdown" (func $sock_shutdown (param i32 i32) (result i32)))
  (memory (export "memory") 1)

  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))

  (func (export "_start")
    ;; An iovec for send/recv at 64: {ptr 128, len 16}.
    (i32.store (i32.const 64) (i32.const 128))
    (i32.store (i32.const 68) (i32.const 16))
    (call $emit (call $sock_accept (i32.const 3) (i32.const 0) (i32.const 32)))
    (call $emit (call $sock_accept (i32.const 0) (i32.const 0) (i32.const 32)))
    (call $emit (call $sock_send (i32.const 1) (i32.const 64) (i32.const 1) (i32.const 0) (i32.const 32)))
    (call $emit (call $sock_recv (i32.const 2) (i32.const 64) (i32.const 1) (i32.const 0) (i32.const 32) (i32.const 36)))
    (call $emit (call $sock_shutdown (i32.const 3) (i32.const 2)))
    (call $emit (call $sock_accept (i32.const 77) (i32.const 0) (i32.const 32)))
    (call $emit (call $sock_recv (i32.const -1) (i32.const 64) (i32.const 1) (i32.const 0) (i32.const 32) (i32.const 36)))))
