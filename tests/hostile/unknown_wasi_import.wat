;; Load-time attack: import a function under the WASI module name that preview 1 does not
;; have (`wasi_snapshot_preview1::path_chroot_escape`).
(module
  (import "wasi_snapshot_preview1" "path_chroot_escape" (func $escape (result i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (call $escape))))
