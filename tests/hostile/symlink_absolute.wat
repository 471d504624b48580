;; Attack: absolute symlink targets ("/history.txt", "/etc/passwd", "/"). Making one is
;; EPERM, as in wasmtime-wasi, so none exists to be opened, stat'ed or read (following one,
;; were it there, would be ENOTCAPABLE). (The step comments below say what each step tries;
;; the test says what it gets.)
;; Emits one value per step, in the order of the comments.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open" (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_create_directory" (func $path_create_directory (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_remove_directory" (func $path_remove_directory (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_unlink_file" (func $path_unlink_file (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_rename" (func $path_rename (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_symlink" (func $path_symlink (param i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_readlink" (func $path_readlink (param i32 i32 i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_filestat_get" (func $path_filestat_get (param i32 i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)

  ;; Strings, NUL-terminated; each global holds one's address.
  (global $slash_history i32 (i32.const 256)) (data (i32.const 256) "/history.txt")
  (global $abs i32 (i32.const 288)) (data (i32.const 288) "abs")
  (global $sub i32 (i32.const 320)) (data (i32.const 320) "sub")
  (global $sub_abs i32 (i32.const 352)) (data (i32.const 352) "sub/abs")
  (global $etc_passwd i32 (i32.const 384)) (data (i32.const 384) "/etc/passwd")
  (global $pw i32 (i32.const 416)) (data (i32.const 416) "pw")
  (global $slash i32 (i32.const 448)) (data (i32.const 448) "/")
  (global $root i32 (i32.const 480)) (data (i32.const 480) "root")
  (global $root_history i32 (i32.const 512)) (data (i32.const 512) "root/history.txt")
  (global $root_up_x i32 (i32.const 544)) (data (i32.const 544) "root/../x")

  ;; ---- helpers, the same in every filesystem attack ----
  ;; Memory: 0..24 emit scratch, 32 new descriptor, 40 iovec, 48 byte count, 56 u64 result,
  ;; 64..128 stat buffer, 256..4095 NUL-terminated strings (32-byte slots), 4096.. buffers.
  ;; Flags: oflags CREAT 1, DIRECTORY 2, EXCL 4, TRUNC 8; fdflags APPEND 1;
  ;; rights FD_READ 0x2, FD_WRITE 0x40.

  ;; Report one value on stdout: 8 bytes, little-endian.
  (func $emit (param $v i32)
    (call $emit64 (i64.extend_i32_s (local.get $v))))
  (func $emit64 (param $v i64)
    (i64.store (i32.const 16) (local.get $v))
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

  ;; path_open from $dir, following symlinks, with read and write rights (only read with
  ;; O_DIRECTORY: a directory opened for writing is EISDIR): the errno. The new descriptor
  ;; is left at 32 ($fd).
  (func $open (param $dir i32) (param $path i32) (param $oflags i32) (param $fdflags i32) (result i32)
    (call $path_open (local.get $dir) (i32.const 1) (local.get $path) (call $len (local.get $path))
      (local.get $oflags)
      (select (i64.const 0x2) (i64.const 0x42) (i32.and (local.get $oflags) (i32.const 2)))
      (i64.const 0) (local.get $fdflags) (i32.const 32)))
  (func $fd (result i32)
    (i32.load (i32.const 32)))

  ;; Write the NUL-terminated string $s to $fd: the errno.
  (func $write (param $fd i32) (param $s i32) (result i32)
    (i32.store (i32.const 40) (local.get $s))
    (i32.store (i32.const 44) (call $len (local.get $s)))
    (call $fd_write (local.get $fd) (i32.const 40) (i32.const 1) (i32.const 48)))

  ;; Read up to 1024 bytes from $fd into 4096: the errno; the count is left at 48 ($count).
  (func $read (param $fd i32) (result i32)
    (i32.store (i32.const 40) (i32.const 4096))
    (i32.store (i32.const 44) (i32.const 1024))
    (call $fd_read (local.get $fd) (i32.const 40) (i32.const 1) (i32.const 48)))
  (func $count (result i32)
    (i32.load (i32.const 48)))

  ;; Path calls on NUL-terminated strings.
  (func $mkdir (param $dir i32) (param $path i32) (result i32)
    (call $path_create_directory (local.get $dir) (local.get $path) (call $len (local.get $path))))
  (func $unlink (param $dir i32) (param $path i32) (result i32)
    (call $path_unlink_file (local.get $dir) (local.get $path) (call $len (local.get $path))))
  (func $rmdir (param $dir i32) (param $path i32) (result i32)
    (call $path_remove_directory (local.get $dir) (local.get $path) (call $len (local.get $path))))
  (func $rename (param $from i32) (param $to i32) (result i32)
    (call $path_rename (i32.const 3) (local.get $from) (call $len (local.get $from))
      (i32.const 3) (local.get $to) (call $len (local.get $to))))
  ;; A symlink at $path (in the root) holding $target.
  (func $symlink (param $target i32) (param $path i32) (result i32)
    (call $path_symlink (local.get $target) (call $len (local.get $target))
      (i32.const 3) (local.get $path) (call $len (local.get $path))))
  ;; readlink into 4096: the errno; the count is left at 48.
  (func $readlink (param $path i32) (result i32)
    (call $path_readlink (i32.const 3) (local.get $path) (call $len (local.get $path))
      (i32.const 4096) (i32.const 1024) (i32.const 48)))
  ;; path_filestat_get into 64 ($follow: 1 follows a final symlink): the errno.
  (func $stat (param $follow i32) (param $path i32) (result i32)
    (call $path_filestat_get (i32.const 3) (local.get $follow) (local.get $path) (call $len (local.get $path))
      (i32.const 64)))
  ;; From the last stat: the file type (3 directory, 4 regular file, 7 symlink) and size.
  (func $stat_type (result i32)
    (i32.load8_u (i32.const 80)))
  (func $stat_size (result i32)
    (i32.wrap_i64 (i64.load (i32.const 96))))
  ;; ---- end of helpers ----

  (func (export "_start")
    ;; 1. symlink abs -> /history.txt; 2. open it, 3. read, 4. two bytes, 5. "I\n".
    (call $emit (call $symlink (global.get $slash_history) (global.get $abs)))
    (call $emit (call $open (i32.const 3) (global.get $abs) (i32.const 0) (i32.const 0)))
    (call $emit (call $read (call $fd)))
    (call $emit (call $count))
    (call $emit (i32.load16_u (i32.const 4096)))
    ;; 6. mkdir sub; 7. sub/abs -> /history.txt; 8. open; 9. read; 10. still two bytes: the
    ;; target is resolved from the virtual root, not from sub.
    (call $emit (call $mkdir (i32.const 3) (global.get $sub)))
    (call $emit (call $symlink (global.get $slash_history) (global.get $sub_abs)))
    (call $emit (call $open (i32.const 3) (global.get $sub_abs) (i32.const 0) (i32.const 0)))
    (call $emit (call $read (call $fd)))
    (call $emit (call $count))
    ;; 11. pw -> /etc/passwd; 12. opening it: ENOENT.
    (call $emit (call $symlink (global.get $etc_passwd) (global.get $pw)))
    (call $emit (call $open (i32.const 3) (global.get $pw) (i32.const 0) (i32.const 0)))
    ;; 13. root -> /; 14. root/history.txt opens; 15. root/../x is above the root.
    (call $emit (call $symlink (global.get $slash) (global.get $root)))
    (call $emit (call $open (i32.const 3) (global.get $root_history) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $root_up_x) (i32.const 0) (i32.const 0)))
    ;; 16. stat abs following the link: 17. a regular file (4) 18. of 2 bytes;
    ;; 19. without following: 20. a symlink (7) 21. of 12 bytes (its target's length).
    (call $emit (call $stat (i32.const 1) (global.get $abs)))
    (call $emit (call $stat_type))
    (call $emit (call $stat_size))
    (call $emit (call $stat (i32.const 0) (global.get $abs)))
    (call $emit (call $stat_type))
    (call $emit (call $stat_size))
    ;; 22. readlink abs: 23. 12 bytes, the target as written.
    (call $emit (call $readlink (global.get $abs)))
    (call $emit (call $count))
  )
)
