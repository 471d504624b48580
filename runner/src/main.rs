//! The `koth` command.

mod cli;

/// mimalloc rather than the system allocator: see `runner/Cargo.toml`.
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> std::process::ExitCode {
    cli::main()
}
