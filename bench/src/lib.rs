//! What `koth-bench` measures with, shared with the test suite: the hostile host-call and
//! instruction loops (every WASI function's costliest call, looped until the fuel runs out)
//! and the floor under an invocation (bare wasmtime on the sandbox's engine). Kept out of the
//! `koth` library and binary: none of it runs in a tournament.
#![warn(missing_docs)]

pub mod floor;
pub mod hostcall_loops;
pub mod instruction_loops;
