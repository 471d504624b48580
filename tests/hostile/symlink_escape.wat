;; Attack: relative symlinks whose targets climb out of the virtual directory. Creating them
;; is allowed (a target is only text); following one above the root is ENOTCAPABLE, and a
;; relative target that stays inside works. Symlink loops end in ELOOP.
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
  (global $esc_target i32 (i32.const 256)) (data (i32.const 256) "../../etc/passwd")
  (global $esc i32 (i32.const 288)) (data (i32.const 288) "esc")
  (global $dotdot i32 (i32.const 320)) (data (i32.const 320) "..")
  (global $up i32 (i32.const 352)) (data (i32.const 352) "up")
  (global $up_history i32 (i32.const 384)) (data (i32.const 384) "up/history.txt")
  (global $a i32 (i32.const 416)) (data (i32.const 416) "a")
  (global $up_history_target i32 (i32.const 448)) (data (i32.const 448) "../history.txt")
  (global $a_ok i32 (i32.const 480)) (data (i32.const 480) "a/ok")
  (global $up_up_x i32 (i32.const 512)) (data (i32.const 512) "../../x")
  (global $a_bad i32 (i32.const 544)) (data (i32.const 544) "a/bad")
  (global $a_up_up i32 (i32.const 576)) (data (i32.const 576) "a/../..")
  (global $sneaky i32 (i32.const 608)) (data (i32.const 608) "sneaky")
  (global $sneaky_history i32 (i32.const 640)) (data (i32.const 640) "sneaky/history.txt")
  (global $l1 i32 (i32.const 672)) (data (i32.const 672) "l1")
  (global $l2 i32 (i32.const 704)) (data (i32.const 704) "l2")
  (global $slash_up i32 (i32.const 736)) (data (i32.const 736) "/..")
  (global $slash_up_link i32 (i32.const 768)) (data (i32.const 768) "slash_up")
  (global $slash_up_passwd i32 (i32.const 800)) (data (i32.const 800) "slash_up/etc/passwd")

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
    ;; 1. esc -> ../../etc/passwd is created; 2. following it and 3. creating through it
    ;; are ENOTCAPABLE.
    (call $emit (call $symlink (global.get $esc_target) (global.get $esc)))
    (call $emit (call $open (i32.const 3) (global.get $esc) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $esc) (i32.const 1) (i32.const 0)))
    ;; 4. up -> ..; 5. up/history.txt and 6. up itself are above the root.
    (call $emit (call $symlink (global.get $dotdot) (global.get $up)))
    (call $emit (call $open (i32.const 3) (global.get $up_history) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $up) (i32.const 2) (i32.const 0)))
    ;; 7. mkdir a; 8. a/ok -> ../history.txt (inside); 9. opens; 10. reads 11. two bytes.
    (call $emit (call $mkdir (i32.const 3) (global.get $a)))
    (call $emit (call $symlink (global.get $up_history_target) (global.get $a_ok)))
    (call $emit (call $open (i32.const 3) (global.get $a_ok) (i32.const 0) (i32.const 0)))
    (call $emit (call $read (call $fd)))
    (call $emit (call $count))
    ;; 12. a/bad -> ../../x; 13. open and 14. create through it: ENOTCAPABLE.
    (call $emit (call $symlink (global.get $up_up_x) (global.get $a_bad)))
    (call $emit (call $open (i32.const 3) (global.get $a_bad) (i32.const 0) (i32.const 0)))
    (call $emit (call $open (i32.const 3) (global.get $a_bad) (i32.const 1) (i32.const 0)))
    ;; 15. sneaky -> a/../..; 16. sneaky/history.txt: ENOTCAPABLE.
    (call $emit (call $symlink (global.get $a_up_up) (global.get $sneaky)))
    (call $emit (call $open (i32.const 3) (global.get $sneaky_history) (i32.const 0) (i32.const 0)))
    ;; 17. l1 -> l2, 18. l2 -> l1; 19. open l1: ELOOP.
    (call $emit (call $symlink (global.get $l2) (global.get $l1)))
    (call $emit (call $symlink (global.get $l1) (global.get $l2)))
    (call $emit (call $open (i32.const 3) (global.get $l1) (i32.const 0) (i32.const 0)))
    ;; 20. slash_up -> /.. (an absolute target: EPERM); 21. slash_up/etc/passwd: nothing
    ;; there.
    (call $emit (call $symlink (global.get $slash_up) (global.get $slash_up_link)))
    (call $emit (call $open (i32.const 3) (global.get $slash_up_passwd) (i32.const 0) (i32.const 0)))
    ;; 22. stat esc following it: ENOTCAPABLE; 23. the link itself: fine.
    (call $emit (call $stat (i32.const 1) (global.get $esc)))
    (call $emit (call $stat (i32.const 0) (global.get $esc)))
    ;; 24. readlink esc: 25. its 16 bytes.
    (call $emit (call $readlink (global.get $esc)))
    (call $emit (call $count))
  )
)
