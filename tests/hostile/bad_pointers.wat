;; Attack: hand the host pointers and lengths outside linear memory (one page, 65,536
;; bytes). Each call must fail with EFAULT (or EINVAL / ENAMETOOLONG where a count or length
;; is refused before any pointer is looked at); the host never reads or writes outside the
;; guest's memory and never panics. Results go into a table at 1024 (the emit helper reuses
;; scratch at 0..24 that the attacks below must not rely on) and are emitted at the end.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "random_get" (func $random_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_sizes_get" (func $args_sizes_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "args_get" (func $args_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "poll_oneoff" (func $poll_oneoff (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_dir_name" (func $fd_prestat_dir_name (param i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_readdir" (func $fd_readdir (param i32 i32 i32 i64 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_fdstat_get" (func $fd_fdstat_get (param i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "history.txt")

  (global $n (mut i32) (i32.const 0))
  ;; Record a result.
  (func $rec (param $v i32)
    (i32.store (i32.add (i32.const 1024) (i32.shl (global.get $n) (i32.const 2))) (local.get $v))
    (global.set $n (i32.add (global.get $n) (i32.const 1))))

  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))

  (func (export "_start")
    (local $i i32)
    ;; 1. fd_write: the iovec array itself is out of bounds.
    (call $rec (call $fd_write (i32.const 1) (i32.const 0xfffffff8) (i32.const 1) (i32.const 32)))
    ;; 2. fd_write: the iovec points at a buffer past the end.
    (i32.store (i32.const 64) (i32.const 0xffff0))
    (i32.store (i32.const 68) (i32.const 100))
    (call $rec (call $fd_write (i32.const 2) (i32.const 64) (i32.const 1) (i32.const 32)))
    ;; 3. fd_write: a buffer that starts inside and runs past the end by one byte.
    (i32.store (i32.const 64) (i32.const 65000))
    (i32.store (i32.const 68) (i32.const 537))
    (call $rec (call $fd_write (i32.const 2) (i32.const 64) (i32.const 1) (i32.const 32)))
    ;; 4. fd_write: more iovecs than any host accepts (IOV_MAX is 1024).
    (call $rec (call $fd_write (i32.const 1) (i32.const 64) (i32.const 5000) (i32.const 32)))
    ;; 5. fd_write: an iovec count whose byte size overflows 32 bits.
    (call $rec (call $fd_write (i32.const 1) (i32.const 64) (i32.const 0x20000001) (i32.const 32)))
    ;; 6. fd_read from stdin into a buffer out of bounds.
    (i32.store (i32.const 64) (i32.const 0x7fffffff))
    (i32.store (i32.const 68) (i32.const 10))
    (call $rec (call $fd_read (i32.const 0) (i32.const 64) (i32.const 1) (i32.const 32)))
    ;; 7. clock_time_get: the result pointer out of bounds, and 8. straddling the end.
    (call $rec (call $clock_time_get (i32.const 1) (i64.const 0) (i32.const 0xfffffffc)))
    (call $rec (call $clock_time_get (i32.const 1) (i64.const 0) (i32.const 65532)))
    ;; 9. random_get straddling the end.
    (call $rec (call $random_get (i32.const 65530) (i32.const 16)))
    ;; 10. args_sizes_get, 11. args_get with out-of-bounds pointers.
    (call $rec (call $args_sizes_get (i32.const 0x10000) (i32.const 32)))
    (call $rec (call $args_get (i32.const 0xfffffff0) (i32.const 128)))
    ;; 12. args_get: the string buffer runs past the end (argv[0] alone is longer than 2 bytes).
    (call $rec (call $args_get (i32.const 128) (i32.const 65534)))
    ;; 13. path_open: the path out of bounds; 14. a path length above 4096 (ENAMETOOLONG
    ;; before the pointer is read); 15. the result pointer out of bounds (the open fails
    ;; with EFAULT).
    (call $rec (call $path_open (i32.const 3) (i32.const 1) (i32.const 0xffffff00) (i32.const 10)
      (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 32)))
    (call $rec (call $path_open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 0x7fffffff)
      (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 32)))
    (call $rec (call $path_open (i32.const 3) (i32.const 1) (i32.const 256) (i32.const 11)
      (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 0xfffffff0)))
    ;; 16. poll_oneoff: subscriptions out of bounds; 17. none; 18. too many.
    (call $rec (call $poll_oneoff (i32.const 0xffffff00) (i32.const 2048) (i32.const 1) (i32.const 32)))
    (call $rec (call $poll_oneoff (i32.const 2048) (i32.const 4096) (i32.const 0) (i32.const 32)))
    (call $rec (call $poll_oneoff (i32.const 2048) (i32.const 4096) (i32.const 100000) (i32.const 32)))
    ;; 19. poll_oneoff: events array runs past the end of memory.
    (call $rec (call $poll_oneoff (i32.const 2048) (i32.const 65520) (i32.const 1) (i32.const 32)))
    ;; 20. fd_prestat_dir_name into an out-of-bounds buffer.
    (call $rec (call $fd_prestat_dir_name (i32.const 3) (i32.const 0xfffffff0) (i32.const 1)))
    ;; 21. fd_readdir into an out-of-bounds buffer.
    (call $rec (call $fd_readdir (i32.const 3) (i32.const 0xffffff00) (i32.const 100) (i64.const 0) (i32.const 32)))
    ;; 22. fd_fdstat_get into a buffer straddling the end.
    (call $rec (call $fd_fdstat_get (i32.const 1) (i32.const 65530)))
    ;; Report.
    (loop $out
      (call $emit (i32.load (i32.add (i32.const 1024) (i32.shl (local.get $i) (i32.const 2)))))
      (local.set $i (i32.add (local.get $i) (i32.const 1)))
      (br_if $out (i32.lt_u (local.get $i) (global.get $n))))))
