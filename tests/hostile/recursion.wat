;; Attack: unbounded (non-tail) recursion, until the wasm stack (512 KiB) is exhausted.
(module
  (memory (export "memory") 1)
  (func $down (param $depth i64) (result i64)
    (i64.add
      (call $down (i64.add (local.get $depth) (i64.const 1)))
      (local.get $depth)))
  (func (export "_start")
    (drop (call $down (i64.const 0)))))
