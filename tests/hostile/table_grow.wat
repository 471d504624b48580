;; Attack: grow a table past 10,000 elements at run time. The guest sees -1 and carries on.
;; Emits: growing 1 -> 10,000 (the old size, 1), growing one more (-1), growing by a
;; million (-1), table.size afterwards (10,000).
;; (wasmtime charges table.grow one fuel per element *requested*, refused or not: the
;; million-element attempt costs a million fuel; see table_grow_huge.wat.)
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
    (call $emit (table.grow $t (ref.null func) (i32.const 9999)))
    (call $emit (table.grow $t (ref.null func) (i32.const 1)))
    (call $emit (table.grow $t (ref.null func) (i32.const 1000000)))
    (call $emit (table.size $t))))
