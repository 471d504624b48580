;; Conformance: the errnos of trailing slashes, dots and links that the differential test
;; against wasmtime-wasi found (tests/wasi-diff), each as Linux and wasmtime-wasi agree or,
;; where they differ only in the errno, as wasmtime-wasi says.
;; Emits one errno per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_rename" (func $rename (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func $unlink (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $mkdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_remove_directory" (func $rmdir (param i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "n/")
  (data (i32.const 288) "history.txt/")
  (data (i32.const 320) "loop")
  (data (i32.const 352) "loop/")
  (data (i32.const 384) "n/.")
  (data (i32.const 416) ".")
  (data (i32.const 448) "s")
  (data (i32.const 512) "dl")
  (data (i32.const 544) "z")
  (data (i32.const 576) "n/f")
  (data (i32.const 608) "n")
  (data (i32.const 640) "x")
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $open (param $p i32) (param $l i32) (param $follow i32) (param $oflags i32) (result i32)
    (call $path_open (i32.const 3) (local.get $follow) (local.get $p) (local.get $l) (local.get $oflags)
      (i64.const 0x42) (i64.const 0) (i32.const 0) (i32.const 32)))
  (func (export "_start")
    ;; 1. mkdir "n/" creates n; 2. a symlink at "history.txt/": ENOTDIR (resolving it as a
    ;; folder fails); 3. loop -> loop; 4. a symlink at "loop/": ELOOP; 5. unlink "loop/": ELOOP.
    (call $emit (call $mkdir (i32.const 3) (i32.const 256) (i32.const 2)))
    (call $emit (call $symlink (i32.const 640) (i32.const 1) (i32.const 3) (i32.const 288) (i32.const 12)))
    (call $emit (call $symlink (i32.const 320) (i32.const 4) (i32.const 3) (i32.const 320) (i32.const 4)))
    (call $emit (call $symlink (i32.const 640) (i32.const 1) (i32.const 3) (i32.const 352) (i32.const 5)))
    (call $emit (call $unlink (i32.const 3) (i32.const 352) (i32.const 5)))
    ;; 6. rename "n/." to x: EBUSY; 7. rmdir ".": EINVAL; 8. unlink ".": EISDIR.
    (call $emit (call $rename (i32.const 3) (i32.const 384) (i32.const 3) (i32.const 3) (i32.const 640) (i32.const 1)))
    (call $emit (call $rmdir (i32.const 3) (i32.const 416) (i32.const 1)))
    (call $emit (call $unlink (i32.const 3) (i32.const 416) (i32.const 1)))
    ;; 9. s -> history.txt; 10. open s with O_DIRECTORY, not following: ELOOP.
    (call $emit (call $symlink (i32.const 288) (i32.const 11) (i32.const 3) (i32.const 448) (i32.const 1)))
    (call $emit (call $open (i32.const 448) (i32.const 1) (i32.const 0) (i32.const 2)))
    ;; 11. dl -> z (missing); 12. O_CREAT through dl, following, creates z.
    (call $emit (call $symlink (i32.const 544) (i32.const 1) (i32.const 3) (i32.const 512) (i32.const 2)))
    (call $emit (call $open (i32.const 512) (i32.const 2) (i32.const 1) (i32.const 1)))
    ;; 13. create n/f; 14. rename n/f onto n, the folder holding it: ENOTEMPTY.
    (call $emit (call $open (i32.const 576) (i32.const 3) (i32.const 0) (i32.const 1)))
    (call $emit (call $rename (i32.const 3) (i32.const 576) (i32.const 3) (i32.const 3) (i32.const 608) (i32.const 1)))
  )
)
