//! The `koth-rules` crate stays what referees and bots need it to be: it builds for every
//! wasm target a referee or a bot is built for, with and without its `engine`, and without
//! the engine it (and so the guest SDK) depends on nothing else.
//!
//! Each check runs a real `cargo build` into its own target folder (`target/rules-wasm`), so a
//! dependency that stops building for wasm (say, a `getrandom` pulled in by a default
//! feature) fails here rather than in a referee's build. A missing Rust target fails with the
//! command that installs it, as the test bots' build does.

use std::path::{Path, PathBuf};
use std::process::Command;

/// The targets: bots (`wasm32-wasip1`), components and referees (`wasm32-wasip2`), and a
/// bare wasm without WASI (`wasm32-unknown-unknown`), which a referee written for the
/// browser's report or another host would use.
const TARGETS: [&str; 3] = ["wasm32-wasip1", "wasm32-wasip2", "wasm32-unknown-unknown"];

fn workspace() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR"))
        .parent()
        .expect("tests/ is inside the workspace")
        .to_path_buf()
}

/// `cargo` with only what this check sets: the outer cargo's variables (its target folder,
/// flags, the test crate's package variables) would otherwise steer the nested build.
fn cargo() -> Command {
    let mut cmd = Command::new(env!("CARGO"));
    cmd.current_dir(workspace());
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        if key.starts_with("CARGO_") && key != "CARGO_HOME" || key.starts_with("RUSTFLAGS") {
            cmd.env_remove(key);
        }
    }
    cmd
}

fn target_installed(target: &str) -> Result<(), String> {
    let out = Command::new("rustc")
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run rustc: {e}"))?;
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let lib = Path::new(&sysroot)
        .join("lib/rustlib")
        .join(target)
        .join("lib");
    if lib.is_dir() {
        Ok(())
    } else {
        Err(format!(
            "the Rust target {target} is not installed (no {}); install it with \
             `rustup target add {target}` or run scripts/setup",
            lib.display()
        ))
    }
}

fn build(target: &str, engine: bool) {
    target_installed(target).unwrap_or_else(|e| panic!("{e}"));
    let mut cmd = cargo();
    cmd.args(["build", "--locked", "-p", "koth-rules", "--target", target])
        .arg("--target-dir")
        .arg(workspace().join("target").join("rules-wasm"));
    if engine {
        cmd.args(["--features", "engine"]);
    }
    let out = cmd.output().expect("cargo runs");
    assert!(
        out.status.success(),
        "koth-rules does not build for {target} (engine: {engine}):\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
}

#[test]
fn builds_for_wasm32_wasip1() {
    build(TARGETS[0], false);
    build(TARGETS[0], true);
}

#[test]
fn builds_for_wasm32_wasip2() {
    build(TARGETS[1], false);
    build(TARGETS[1], true);
}

#[test]
fn builds_for_wasm32_unknown_unknown() {
    build(TARGETS[2], false);
    build(TARGETS[2], true);
}

/// The packages `package` depends on (normal dependencies, every level), per `cargo tree`.
fn dependencies(package: &str) -> Vec<String> {
    let out = cargo()
        .args([
            "tree", "--locked", "-p", package, "-e", "normal", "--prefix", "none", "--format",
            "{p}",
        ])
        .output()
        .expect("cargo runs");
    assert!(
        out.status.success(),
        "cargo tree -p {package}: {}",
        String::from_utf8_lossy(&out.stderr)
    );
    let mut names: Vec<String> = String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| line.split_whitespace().next())
        .filter(|name| *name != package)
        .map(str::to_string)
        .collect();
    names.sort();
    names.dedup();
    names
}

/// A bot built with the guest SDK pulls in koth's rules and nothing else.
#[test]
fn the_guest_sdk_depends_on_the_plain_rules_alone() {
    assert_eq!(dependencies("koth-rules"), Vec::<String>::new());
    assert_eq!(dependencies("koth-guest"), ["koth-rules"]);
}
