;; Attack: grow a table by 2^31 - 1 elements. The grow would be refused (-1), but wasmtime
;; charges table.grow one fuel per element requested before it is refused, so this single
;; instruction costs more than the default billion units of fuel: `out of fuel`, at once.
;; Emits the result of the grow if it ever gets there.
(module
  (import "wasi_snapshot_preview1" "fd_write" (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (table $t 1 funcref)
  (func $emit (param $v i32)
    (i64.store (i32.const 16) (i64.extend_i32_s (local.get $v)))
    (i32.store (i32.const 0) (i32.const 16))
    (i32.store (i32.const 4) (i32.const 8))
    (drop (call $fd_write (i32.const 1) (i32.const 0) (i32.const 1) (i32.const 8))))
  (func (export "_start")
    (call $emit (table.grow $t (ref.null func) (i32.const 0x7fffffff)))))
