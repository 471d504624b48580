;; Trap: converting NaN to an integer.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (drop (i32.trunc_f64_s (f64.div (f64.load (i32.const 0)) (f64.load (i32.const 0)))))))
