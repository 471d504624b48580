;; Attack: fill the whole 64 MiB (touching every 4 KiB page, so the host really has to back
;; it), ask for one page more, and when refused (-1) abort with `unreachable`, the way
;; Rust's allocation-failure handler does. The sandbox must call this `out of memory`.
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (local $at i32)
    (drop (memory.grow (i32.const 1023)))
    (loop $touch
      (i32.store8 (local.get $at) (i32.const 0xaa))
      (local.set $at (i32.add (local.get $at) (i32.const 4096)))
      (br_if $touch (i32.lt_u (local.get $at) (i32.const 0x4000000))))
    (if (i32.eq (memory.grow (i32.const 1)) (i32.const -1))
      (then unreachable))))
