;; Conformance: what the differential test against wasmtime-wasi (tests/wasi-diff) found.
;; Emits one errno per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_filestat_set_size" (func $fd_filestat_set_size (param i32 i64) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "history.txt")
  (data (i32.const 288) "d")
  (data (i32.const 320) ".")
  (data (i32.const 352) "s")
  ;; An iovec of 8 bytes at 1024.
  (data (i32.const 40) "\00\04\00\00\08\00\00\00")
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $open (param $p i32) (param $l i32) (param $oflags i32) (result i32)
    (call $path_open (i32.const 3) (i32.const 0) (local.get $p) (local.get $l) (local.get $oflags)
      (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 32)))
  (func (export "_start")
    ;; 1-3. O_DIRECTORY with O_CREAT, O_EXCL or O_TRUNC is EINVAL, before the path is looked
    ;; at (here "d" does not exist), and nothing is created.
    (call $emit (call $open (i32.const 288) (i32.const 1) (i32.const 3)))
    (call $emit (call $open (i32.const 288) (i32.const 1) (i32.const 6)))
    (call $emit (call $open (i32.const 288) (i32.const 1) (i32.const 10)))
    ;; 4. open history.txt; 5. fd_readdir of a file descriptor: EBADF.
    (call $emit (call $open (i32.const 256) (i32.const 11) (i32.const 0)))
    (call $emit (call $fd_readdir (i32.load (i32.const 32)) (i32.const 1024) (i32.const 64) (i64.const 0) (i32.const 48)))
    ;; 6. O_CREAT of an existing folder: EISDIR. 7. open "."; 8. fd_read of it: EBADF.
    (call $emit (call $open (i32.const 320) (i32.const 1) (i32.const 1)))
    (call $emit (call $open (i32.const 320) (i32.const 1) (i32.const 0)))
    (call $emit (call $fd_read (i32.load (i32.const 32)) (i32.const 40) (i32.const 1) (i32.const 48)))
    ;; 9. fd_filestat_set_size of the folder: EBADF.
    (call $emit (call $fd_filestat_set_size (i32.load (i32.const 32)) (i64.const 0)))
    ;; 10. s -> history.txt; 11. O_CREAT|O_EXCL of s: EEXIST (the link is not followed).
    (call $emit (call $path_symlink (i32.const 256) (i32.const 11) (i32.const 3) (i32.const 352) (i32.const 1)))
    (call $emit (call $open (i32.const 352) (i32.const 1) (i32.const 5)))
  )
)
