;; Bot B of the isolation test: tries every path it can think of to reach bot A's secret.
;; Its directory is its own: the names do not exist there (ENOENT), and going up or an
;; absolute path is ENOTCAPABLE. No descriptor beyond 0-3 exists, and its root lists only ".", ".." and its own
;; history file.
;; Emits one errno per path, in the order of the strings; the count of valid descriptors among
;; 4..63 (0); the bytes fd_readdir returns for the root (86: three 24-byte headers and the
;; names ".", "..", "history.txt"); the count of entries in that listing (3).
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
  (import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fd_fdstat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (memory (export "memory") 1)

  ;; Strings, NUL-terminated; each global holds one's address.
  (global $p1 i32 (i32.const 256)) (data (i32.const 256) "secret.txt")
  (global $p2 i32 (i32.const 288)) (data (i32.const 288) "/secret.txt")
  (global $p3 i32 (i32.const 320)) (data (i32.const 320) "../secret.txt")
  (global $p4 i32 (i32.const 352)) (data (i32.const 352) "hidden/secret.txt")
  (global $p5 i32 (i32.const 384)) (data (i32.const 384) "../A/secret.txt")
  (global $p6 i32 (i32.const 416)) (data (i32.const 416) "/../secret.txt")
  (global $p7 i32 (i32.const 448)) (data (i32.const 448) "//secret.txt")
  (global $p8 i32 (i32.const 480)) (data (i32.const 480) "./hidden/../secret.txt")
  (global $p9 i32 (i32.const 512)) (data (i32.const 512) "../../hidden/secret.txt")

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
    (local $fd i32) (local $valid i32) (local $at i32) (local $entries i32)
    (call $emit (call $open (i32.const 3) (global.get $p1) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p2) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p3) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p4) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p5) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p6) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p7) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p8) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $p9) (i32.const 0) (i32.const 0)))
    (local.set $fd (i32.const 4))
    (loop $each
      (if (i32.eqz (call $fd_fdstat_get (local.get $fd) (i32.const 64)))
        (then (local.set $valid (i32.add (local.get $valid) (i32.const 1)))))
      (local.set $fd (i32.add (local.get $fd) (i32.const 1)))
      (br_if $each (i32.lt_u (local.get $fd) (i32.const 64))))
    (call $emit (local.get $valid))
    (drop (call $fd_readdir (i32.const 3) (i32.const 4096) (i32.const 4096) (i64.const 0) (i32.const 48)))
    (call $emit (call $count))
    ;; Walk the dirents: 24-byte header, name length at +16.
    (block $done
      (loop $next
        (br_if $done (i32.ge_u (local.get $at) (call $count)))
        (local.set $entries (i32.add (local.get $entries) (i32.const 1)))
        (local.set $at (i32.add (local.get $at)
          (i32.add (i32.const 24) (i32.load (i32.add (i32.const 4112) (local.get $at))))))
        (br $next)))
    (call $emit (local.get $entries))
  )
)
