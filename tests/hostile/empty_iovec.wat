;; Conformance: an empty first iovec is skipped, not taken for the end of the read: fd_read
;; and fd_pread of the history file ("I\n") through [(64, 0), (64, 16)] read its 2 bytes.
;; Emits: open's errno, then for fd_read and fd_pread their errno and byte count.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_pread" (func $fd_pread (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "history.txt")
  ;; Two iovecs at 32: (64, 0) then (64, 16).
  (data (i32.const 32) "\40\00\00\00\00\00\00\00\40\00\00\00\10\00\00\00")
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func (export "_start")
    (local $fd i32)
    (call $emit (call $path_open (i32.const 3) (i32.const 0) (i32.const 256) (i32.const 11)
      (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 128)))
    (local.set $fd (i32.load (i32.const 128)))
    (call $emit (call $fd_read (local.get $fd) (i32.const 32) (i32.const 2) (i32.const 132)))
    (call $emit (i32.load (i32.const 132)))
    (call $emit (call $fd_pread (local.get $fd) (i32.const 32) (i32.const 2) (i64.const 0) (i32.const 132)))
    (call $emit (i32.load (i32.const 132)))
  )
)
