;; Attack: an endless loop in the module's start function, which runs while the instance is
;; being created, before `_start`. Fuel must bound instantiation too.
(module
  (memory (export "memory") 1)
  (func $spin
    (loop $forever
      (br $forever)))
  (start $spin)
  (func (export "_start")))
