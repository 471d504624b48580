;; Attack: a refused table grow followed by a trap (calling the slot it failed to get).
;; A refused *table* grow is not running out of memory: the trap is reported as it is.
(module
  (type $v (func))
  (memory (export "memory") 1)
  (table $t 1 funcref)
  (func (export "_start")
    (if (i32.eq (table.grow $t (ref.null func) (i32.const 10000)) (i32.const -1))
      (then (call_indirect (type $v) (i32.const 5000))))))
