//! koth's WASI preview 1 against wasmtime-wasi's: the sequence generator lives here, the
//! comparison in `tests/differential.rs`.

pub mod sequence;
