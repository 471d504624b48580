;; Attack: an endless loop of the cheapest host calls. The guest spends almost no
;; instructions per iteration, so only the host-call charge (100 fuel per call) stops it;
;; a host that charged nothing for calls would spin here until the backstop.
(module
  (import "wasi_snapshot_preview1" "sched_yield" (func $sched_yield (result i32)))
  (import "wasi_snapshot_preview1" "clock_time_get" (func $clock_time_get (param i32 i64 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start")
    (loop $forever
      (drop (call $sched_yield))
      (drop (call $clock_time_get (i32.const 1) (i64.const 0) (i32.const 0)))
      (br $forever))))
