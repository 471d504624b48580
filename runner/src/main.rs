//! The `koth` command.

mod cli;

fn main() -> std::process::ExitCode {
    cli::main()
}
