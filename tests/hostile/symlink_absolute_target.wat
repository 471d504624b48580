;; Conformance: path_symlink with an absolute target is refused with EPERM, wasmtime-wasi's
;; answer (cap-std: "a path led outside of the filesystem"), before the new name is looked
;; at; nothing is created. A target that is not UTF-8 is EILSEQ first; relative targets still
;; work. Self-contained, so tests/wasi-diff runs it under wasmtime-wasi too.
;; Emits one value per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_readlink" (func $path_readlink (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_get" (func $path_filestat_get (param i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  ;; NUL-terminated strings, 32 bytes apart.
  (data (i32.const 256) "/")
  (data (i32.const 288) "/etc/passwd")
  (data (i32.const 320) "//x")
  (data (i32.const 352) "/..")
  (data (i32.const 384) "r")
  (data (i32.const 416) "f")
  (data (i32.const 448) "/x")
  (data (i32.const 480) "/\ff")
  (data (i32.const 512) "a")
  (data (i32.const 544) "rel")
  ;; Memory: 0..24 emit scratch, 32 new descriptor, 48 count, 64..128 stat, 1024.. buffer.
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  ;; Length of the NUL-terminated string at $s.
  (func $len (param $s i32) (result i32)
    (local $n i32)
    (block $end
      (loop $next
        (br_if $end (i32.eqz (i32.load8_u (i32.add (local.get $s) (local.get $n)))))
        (local.set $n (i32.add (local.get $n) (i32.const 1)))
        (br $next)))
    (local.get $n))
  ;; A symlink at $path (from the root descriptor) holding $target: the errno.
  (func $symlink (param $target i32) (param $path i32) (result i32)
    (call $path_symlink (local.get $target) (call $len (local.get $target))
      (i32.const 3) (local.get $path) (call $len (local.get $path))))
  (func (export "_start")
    ;; 1. create the file f; 2. close it.
    (call $emit (call $path_open (i32.const 3) (i32.const 0) (i32.const 416) (i32.const 1) (i32.const 1)
      (i64.const 0x40) (i64.const 0) (i32.const 0) (i32.const 32)))
    (call $emit (call $fd_close (i32.load (i32.const 32))))
    ;; 3-6. r -> "/", "/etc/passwd", "//x", "/..": EPERM each.
    (call $emit (call $symlink (i32.const 256) (i32.const 384)))
    (call $emit (call $symlink (i32.const 288) (i32.const 384)))
    (call $emit (call $symlink (i32.const 320) (i32.const 384)))
    (call $emit (call $symlink (i32.const 352) (i32.const 384)))
    ;; 7. at an existing name: EPERM, not EEXIST; 8. at an absolute name: EPERM, not the
    ;; name's ENOTCAPABLE (the target is checked first).
    (call $emit (call $symlink (i32.const 256) (i32.const 416)))
    (call $emit (call $symlink (i32.const 256) (i32.const 448)))
    ;; 9. "/" then the byte 0xff: not UTF-8, EILSEQ.
    (call $emit (call $symlink (i32.const 480) (i32.const 384)))
    ;; 10. rel -> a, a relative target: made.
    (call $emit (call $symlink (i32.const 512) (i32.const 544)))
    ;; 11. r, not followed: ENOENT (no link was made).
    (call $emit (call $path_filestat_get (i32.const 3) (i32.const 0) (i32.const 384) (i32.const 1) (i32.const 64)))
    ;; 12. readlink rel; 13. one byte.
    (call $emit (call $path_readlink (i32.const 3) (i32.const 544) (i32.const 3) (i32.const 1024) (i32.const 64) (i32.const 48)))
    (call $emit (i32.load (i32.const 48)))
  )
)
