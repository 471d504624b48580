;; Attack: spin forever without ever calling the host. Only fuel can stop it
;; (and, with fuel switched off by a careless host, the wall-clock backstop).
(module
  (memory (export "memory") 1)
  (func (export "_start")
    (loop $forever
      (br $forever))))
