//! Attack: allocate 1 MiB blocks (and touch them) until the allocator fails. Rust's default
//! handler prints "memory allocation of 1048576 bytes failed" to stderr and aborts with a wasm
//! `unreachable`; the sandbox refused the `memory.grow` before, so it must report the
//! invocation as `out of memory`, not as a plain trap.

fn main() {
    let mut kept: Vec<Vec<u8>> = Vec::new();
    loop {
        let mut block = Vec::with_capacity(1 << 20);
        block.resize(1 << 20, kept.len() as u8 | 1);
        kept.push(block);
        println!("{} MiB", kept.len());
    }
}
