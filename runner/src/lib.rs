//! koth: King-of-the-Hill tournaments with every bot sandboxed in WebAssembly.
