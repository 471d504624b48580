;; Conformance: asking for a directory (O_DIRECTORY) together with the right to write it
;; (FD_WRITE) is EISDIR, as wasmtime-wasi and POSIX's open(dir, O_DIRECTORY|O_RDWR) answer;
;; the same folder still opens without FD_WRITE, and without O_DIRECTORY (rights are a mask:
;; the descriptor opens without the write right). Self-contained (it makes what it opens), so
;; tests/wasi-diff runs it under wasmtime-wasi too.
;; Emits one errno per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $mkdir (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "d")
  (data (i32.const 288) ".")
  (data (i32.const 320) "f")
  (data (i32.const 352) "nope")
  (data (i32.const 384) "ld")
  ;; An iovec of 1 byte at 1024.
  (data (i32.const 40) "\00\04\00\00\01\00\00\00")
  ;; Memory: 0..24 emit scratch, 32 new descriptor, 36 a kept descriptor, 40 iovec, 48 count.
  ;; Rights: FD_WRITE 0x40, FD_READDIR 0x4000, all 0x1fffffff. oflags: CREAT 1, DIRECTORY 2.
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  ;; path_open of $p ($l bytes) from $dir: the errno; the descriptor is left at 32.
  (func $open (param $dir i32) (param $follow i32) (param $p i32) (param $l i32) (param $oflags i32) (param $rights i64) (param $inheriting i64) (result i32)
    (call $path_open (local.get $dir) (local.get $follow) (local.get $p) (local.get $l) (local.get $oflags)
      (local.get $rights) (local.get $inheriting) (i32.const 0) (i32.const 32)))
  (func $fd (result i32) (i32.load (i32.const 32)))
  (func (export "_start")
    ;; 1. mkdir d.
    (call $emit (call $mkdir (i32.const 3) (i32.const 256) (i32.const 1)))
    ;; 2. d with O_DIRECTORY and FD_WRITE: EISDIR; 3. with every right: EISDIR.
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 2) (i64.const 0x40) (i64.const 0x1fffffff)))
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 2) (i64.const 0x1fffffff) (i64.const 0x1fffffff)))
    ;; 4. d with O_DIRECTORY and FD_READDIR opens; 5. close it.
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 2) (i64.const 0x4000) (i64.const 0x1fffffff)))
    (call $emit (call $fd_close (call $fd)))
    ;; 6. "." (the preopen itself) with O_DIRECTORY and FD_WRITE: EISDIR.
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 288) (i32.const 1) (i32.const 2) (i64.const 0x40) (i64.const 0x1fffffff)))
    ;; 7. create the file f; 8. close it; 9. f with O_DIRECTORY and FD_WRITE: ENOTDIR (not a
    ;; folder: the kind is looked at first); 10. a missing name: ENOENT.
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 320) (i32.const 1) (i32.const 1) (i64.const 0x40) (i64.const 0)))
    (call $emit (call $fd_close (call $fd)))
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 320) (i32.const 1) (i32.const 2) (i64.const 0x40) (i64.const 0)))
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 352) (i32.const 4) (i32.const 2) (i64.const 0x40) (i64.const 0)))
    ;; 11. ld -> d; 12. followed, with O_DIRECTORY and FD_WRITE: EISDIR; 13. not followed:
    ;; ELOOP (a symlink is never opened).
    (call $emit (call $path_symlink (i32.const 256) (i32.const 1) (i32.const 3) (i32.const 384) (i32.const 2)))
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 384) (i32.const 2) (i32.const 2) (i64.const 0x40) (i64.const 0)))
    (call $emit (call $open (i32.const 3) (i32.const 0) (i32.const 384) (i32.const 2) (i32.const 2) (i64.const 0x40) (i64.const 0)))
    ;; 14. d opened as a folder that passes no right on (inheriting 0), kept at 36;
    ;; 15. "." from it with O_DIRECTORY and FD_WRITE: still EISDIR (the request decides);
    ;; 16. "." from it with O_DIRECTORY alone opens; 17. close it.
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 2) (i64.const 0x4000) (i64.const 0)))
    (i32.store (i32.const 36) (call $fd))
    (call $emit (call $open (i32.load (i32.const 36)) (i32.const 1) (i32.const 288) (i32.const 1) (i32.const 2) (i64.const 0x40) (i64.const 0)))
    (call $emit (call $open (i32.load (i32.const 36)) (i32.const 1) (i32.const 288) (i32.const 1) (i32.const 2) (i64.const 0x4000) (i64.const 0)))
    (call $emit (call $fd_close (call $fd)))
    ;; The one step where koth and wasmtime-wasi differ on purpose, last so nothing after it
    ;; depends on it: 18. d with FD_WRITE but without O_DIRECTORY opens in koth (rights are a
    ;; mask), EISDIR in wasmtime-wasi; 19. writing it: EBADF (a folder; in wasmtime-wasi the
    ;; descriptor of step 16, closed); 20. close it (EBADF in wasmtime-wasi).
    (call $emit (call $open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 1) (i32.const 0) (i64.const 0x40) (i64.const 0)))
    (call $emit (call $fd_write (call $fd) (i32.const 40) (i32.const 1) (i32.const 48)))
    (call $emit (call $fd_close (call $fd)))
  )
)
