;; The control bot: after every attack, this must still run to `ok` on the same sandbox.
;; It prints "ok", and when it has a directory (fd 3 is a preopen) it prints " " and the
;; history file's content, then writes "hello" to its scratch file note.txt.
;; stdout: "ok I\n" with the Coup directory, "ok\n" without a directory.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_read" (func $fd_read (param i32 i32 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_close" (func $fd_close (param i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_prestat_get" (func $fd_prestat_get (param i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "proc_exit" (func $proc_exit (param i32)))
  (memory (export "memory") 1)
  (data (i32.const 256) "ok")
  (data (i32.const 264) " ")
  (data (i32.const 272) "\n")
  (data (i32.const 280) "history.txt")
  (data (i32.const 296) "note.txt")
  (data (i32.const 312) "hello")

  ;; Write `len` bytes at `ptr` to `fd`; exit with the errno on failure.
  (func $write (param $fd i32) (param $ptr i32) (param $len i32)
    (local $e i32)
    (i32.store (i32.const 40) (local.get $ptr))
    (i32.store (i32.const 44) (local.get $len))
    (local.set $e (call $fd_write (local.get $fd) (i32.const 40) (i32.const 1) (i32.const 48)))
    (if (local.get $e) (then (call $proc_exit (i32.add (i32.const 100) (local.get $e))))))

  (func (export "_start")
    (local $e i32) (local $fd i32)
    (call $write (i32.const 1) (i32.const 256) (i32.const 2))
    (if (i32.eqz (call $fd_prestat_get (i32.const 3) (i32.const 64)))
      (then
        (call $write (i32.const 1) (i32.const 264) (i32.const 1))
        ;; Read the history file (read right only) into 4096 and echo it.
        (local.set $e (call $path_open (i32.const 3) (i32.const 1) (i32.const 280) (i32.const 11)
          (i32.const 0) (i64.const 2) (i64.const 0) (i32.const 0) (i32.const 32)))
        (if (local.get $e) (then (call $proc_exit (i32.add (i32.const 200) (local.get $e)))))
        (local.set $fd (i32.load (i32.const 32)))
        (i32.store (i32.const 40) (i32.const 4096))
        (i32.store (i32.const 44) (i32.const 1024))
        (local.set $e (call $fd_read (local.get $fd) (i32.const 40) (i32.const 1) (i32.const 48)))
        (if (local.get $e) (then (call $proc_exit (i32.add (i32.const 300) (local.get $e)))))
        (call $write (i32.const 1) (i32.const 4096) (i32.load (i32.const 48)))
        (drop (call $fd_close (local.get $fd)))
        ;; Create note.txt (creat|trunc, write right) and write "hello".
        (local.set $e (call $path_open (i32.const 3) (i32.const 1) (i32.const 296) (i32.const 8)
          (i32.const 9) (i64.const 64) (i64.const 0) (i32.const 0) (i32.const 32)))
        (if (local.get $e) (then (call $proc_exit (i32.add (i32.const 400) (local.get $e)))))
        (call $write (i32.load (i32.const 32)) (i32.const 312) (i32.const 5)))
      (else
        (call $write (i32.const 1) (i32.const 272) (i32.const 1))))))
