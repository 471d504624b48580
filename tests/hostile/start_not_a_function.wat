;; Load-time attack: `_start` exported, but as a global, not a function.
(module
  (memory (export "memory") 1)
  (global (export "_start") i32 (i32.const 0)))
