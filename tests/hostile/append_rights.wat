;; Conformance: APPEND says where writes go, not that a file may be written, and in append
;; mode fd_pwrite appends too, as Linux (hence wasmtime-wasi; found by tests/wasi-diff).
;; Emits one value per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_pwrite" (func $fd_pwrite (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_filestat_set_size" (func $set_size (param i32 i64) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "history.txt")
  (data (i32.const 1024) "XY")
  (data (i32.const 40) "\00\04\00\00\02\00\00\00")
  (func $emit (param $v i64)
    (i64.store (i32.const 16) (local.get $v))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $e (param $v i32) (call $emit (i64.extend_i32_s (local.get $v))))
  (func $open (param $rights i64) (result i32)
    (call $path_open (i32.const 3) (i32.const 0) (i32.const 256) (i32.const 11) (i32.const 0)
      (local.get $rights) (i64.const 0) (i32.const 1) (i32.const 32)))
  (func (export "_start")
    ;; 1. open history.txt with APPEND and FD_READ only; 2. a write is EBADF;
    ;; 3. truncating is EINVAL (ftruncate of a read-only descriptor).
    (call $e (call $open (i64.const 0x2)))
    (call $e (call $fd_write (i32.load (i32.const 32)) (i32.const 40) (i32.const 1) (i32.const 24)))
    (call $e (call $set_size (i32.load (i32.const 32)) (i64.const 0)))
    ;; 4. open it with APPEND and FD_WRITE; 5. fd_pwrite "XY" at offset 0 appends.
    (call $e (call $open (i64.const 0x42)))
    (call $e (call $fd_pwrite (i32.load (i32.const 32)) (i32.const 40) (i32.const 1) (i64.const 0) (i32.const 24)))
  )
)
