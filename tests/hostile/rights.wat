;; Conformance: rights are a mask modelled per descriptor type, and fdflags are reported.
;; Emits one value per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_seek" (func $fd_seek (param i32 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_tell" (func $fd_tell (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fd_fdstat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_fdstat_set_rights" (func $fd_fdstat_set_rights (param i32 i64 i64) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $path_create_directory (param i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) ".")
  (data (i32.const 288) "f")
  (data (i32.const 320) "d")

  ;; Memory: 0..24 emit scratch, 32 new descriptor, 40 iovec, 48 count, 56 u64, 64 fdstat.
  (func $emit64 (param $v i64)
    (i64.store (i32.const 16) (local.get $v))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func $emit (param $v i32)
    (call $emit64 (i64.extend_i32_s (local.get $v))))
  ;; path_open of the 1-byte name at $p from $dir with every right and $fdflags.
  (func $open (param $dir i32) (param $p i32) (param $oflags i32) (param $fdflags i32) (result i32)
    (call $path_open (local.get $dir) (i32.const 1) (local.get $p) (i32.const 1) (local.get $oflags)
      (i64.const 0x1fffffff) (i64.const 0x1fffffff) (local.get $fdflags) (i32.const 32)))
  (func $fd (result i32) (i32.load (i32.const 32)))
  ;; fd_fdstat_get into 64: the errno.
  (func $fdstat (param $fd i32) (result i32)
    (call $fd_fdstat_get (local.get $fd) (i32.const 64)))
  (func $base (result i64) (i64.load (i32.const 72)))

  (func (export "_start")
    (local $dir i32) (local $file i32) (local $base i64)
    ;; 1. "." asked for with every right (FD_WRITE included) but without O_DIRECTORY opens
    ;; (with O_DIRECTORY it is EISDIR: dir_write_rights.wat).
    (call $emit (call $open (i32.const 3) (i32.const 256) (i32.const 0) (i32.const 0)))
    (local.set $dir (call $fd))
    ;; 2. fdstat: filetype 3; 3. the directory's base rights hold none of FD_READ, FD_SEEK,
    ;; FD_WRITE, FD_FILESTAT_SET_SIZE (0x400046); 4. but PATH_OPEN (0x2000).
    (drop (call $fdstat (local.get $dir)))
    (call $emit (i32.load8_u (i32.const 64)))
    (call $emit64 (i64.and (call $base) (i64.const 0x400046)))
    (call $emit64 (i64.and (call $base) (i64.const 0x2000)))
    ;; 5. a file opened with O_CREAT and SYNC|DSYNC|RSYNC (0x1a); 6. fdstat reports 0x1a.
    (call $emit (call $open (i32.const 3) (i32.const 288) (i32.const 1) (i32.const 0x1a)))
    (local.set $file (call $fd))
    (drop (call $fdstat (local.get $file)))
    (call $emit (i32.load16_u (i32.const 66)))
    ;; 7. its rights hold FD_SEEK (4) and FD_WRITE (0x40) but no directory right (PATH_OPEN).
    (local.set $base (call $base))
    (call $emit64 (i64.and (local.get $base) (i64.const 0x2044)))
    ;; 8. drop FD_SEEK: ok; 9. seek is now ENOTCAPABLE; 10. tell still works.
    (call $emit (call $fd_fdstat_set_rights (local.get $file)
      (i64.and (local.get $base) (i64.const -5)) (i64.const 0)))
    (call $emit (call $fd_seek (local.get $file) (i64.const 1) (i32.const 0) (i32.const 56)))
    (call $emit (call $fd_tell (local.get $file) (i32.const 56)))
    ;; 11. taking FD_SEEK back: ENOTCAPABLE.
    (call $emit (call $fd_fdstat_set_rights (local.get $file) (local.get $base) (i64.const 0)))
    ;; 12. drop FD_WRITE too; 13. a write is ENOTCAPABLE.
    (call $emit (call $fd_fdstat_set_rights (local.get $file)
      (i64.and (local.get $base) (i64.const -69)) (i64.const 0)))
    (i32.store (i32.const 40) (i32.const 256))
    (i32.store (i32.const 44) (i32.const 1))
    (call $emit (call $fd_write (local.get $file) (i32.const 40) (i32.const 1) (i32.const 48)))
    ;; 14. the directory drops PATH_OPEN (0x2000); 15. opening through it is ENOTCAPABLE.
    (drop (call $fdstat (local.get $dir)))
    (call $emit (call $fd_fdstat_set_rights (local.get $dir)
      (i64.and (call $base) (i64.const -8193)) (i64.load (i32.const 80))))
    (call $emit (call $open (local.get $dir) (i32.const 288) (i32.const 0) (i32.const 0)))
    ;; 16. mkdir d; 17. O_CREAT|O_EXCL of that folder is EEXIST.
    (call $emit (call $path_create_directory (i32.const 3) (i32.const 320) (i32.const 1)))
    (call $emit (call $open (i32.const 3) (i32.const 320) (i32.const 5) (i32.const 0)))
  )
)
