;; Conformance: a trailing slash on a path naming a symlink whose target is missing asks for
;; what the link names, and nothing is there: ENOENT for every call, never ENOTDIR; except
;; rename, where Linux's renameat never follows the link and says the source is not a
;; directory (ENOTDIR, as wasmtime-wasi; found by tests/wasi-diff).
;; Emits one errno per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_get" (func $path_filestat_get (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_readlink" (func $path_readlink (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func $path_unlink_file (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_remove_directory" (func $path_remove_directory (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_rename" (func $path_rename (param i32 i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "missing")
  (data (i32.const 288) "dl/")
  (data (i32.const 320) "x")
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func (export "_start")
    ;; 1. dl -> missing.
    (call $emit (call $path_symlink (i32.const 256) (i32.const 7) (i32.const 3) (i32.const 288) (i32.const 2)))
    ;; 2. stat "dl/" without following (the slash follows); 3. open "dl/"; 4. as a directory;
    ;; 5. readlink "dl/"; 6. unlink "dl/"; 7. rmdir "dl/"; 8. rename "dl/" to x (ENOTDIR).
    (call $emit (call $path_filestat_get (i32.const 3) (i32.const 0) (i32.const 288) (i32.const 3) (i32.const 64)))
    (call $emit (call $path_open (i32.const 3) (i32.const 0) (i32.const 288) (i32.const 3) (i32.const 0)
      (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 32)))
    (call $emit (call $path_open (i32.const 3) (i32.const 0) (i32.const 288) (i32.const 3) (i32.const 2)
      (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 32)))
    (call $emit (call $path_readlink (i32.const 3) (i32.const 288) (i32.const 3) (i32.const 1024) (i32.const 64) (i32.const 48)))
    (call $emit (call $path_unlink_file (i32.const 3) (i32.const 288) (i32.const 3)))
    (call $emit (call $path_remove_directory (i32.const 3) (i32.const 288) (i32.const 3)))
    (call $emit (call $path_rename (i32.const 3) (i32.const 288) (i32.const 3) (i32.const 3) (i32.const 320) (i32.const 1)))
    ;; 9. without the slash, the link itself is removed.
    (call $emit (call $path_unlink_file (i32.const 3) (i32.const 288) (i32.const 2)))
  )
)
