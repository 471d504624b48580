//! Builds every bot the integration tests load, before the tests compile:
//!
//! - every bin of `koth-example-bots` and `koth-test-bots`, for `wasm32-wasip1` in release, by
//!   one nested `cargo build` into its own target dir (`<workspace>/target/wasm-bots`): the
//!   outer cargo holds the lock on its own target dir for as long as this script runs, so a
//!   nested build there would wait forever;
//! - every `example-bots/c/*.c` (Coup bots) and the C bots of the games played by referee
//!   plugins ([`GAME_C_BOTS`]) with clang and Debian's wasi-libc, into the same folder, as
//!   `<stem>.wasm`;
//! - the C++, Zig, AssemblyScript and Go bots of `example-bots/{cpp,zig,assemblyscript,go}`,
//!   each with its own toolchain, into the same folder (`build_languages.rs`).
//!
//! It hands the tests the folder (`KOTH_WASM_BOTS_DIR`) and the exact lists of bots
//! (`$OUT_DIR/bots.rs`, included by `src/lib.rs`). The lists come from what this build
//! produced, not from the folder's contents, so a bot that was deleted from the sources does
//! not linger as a stale `.wasm` in the tests.
//!
//! A missing toolchain fails the build with the command that installs it: a test suite that
//! silently skipped its bots would pass without testing anything.

use std::collections::BTreeSet;
use std::ffi::OsString;
use std::fmt::Write as _;
use std::io::BufRead;
use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};

// The C++, Zig, AssemblyScript and Go bots (example-bots/{cpp,zig,assemblyscript,go}).
#[path = "build_languages.rs"]
mod languages;

const WASM_TARGET: &str = "wasm32-wasip1";
/// The crates whose every bin is built for the tests: package name, folder in the workspace,
/// and the constant listing its bins in the generated `bots.rs`.
const BOT_CRATES: [(&str, &str, &str); 2] = [
    ("koth-example-bots", "example-bots", "EXAMPLE_BOTS"),
    ("koth-test-bots", "tests/bots", "TEST_BOTS"),
];
/// The C compiler (override with `KOTH_CLANG`, e.g. on a system whose clang has another name).
const DEFAULT_CLANG: &str = "clang-14";
/// The C toolchain's Debian packages.
const C_PACKAGES: &str = "clang-14 lld-14 wasi-libc libclang-rt-14-dev-wasm32";
/// The C bots of games played by referee plugins, one folder per game (their other bots are
/// Rust bins of `koth-example-bots` and plain Python scripts): the folder, and the constant
/// listing them in `bots.rs`. Kept apart from `example-bots/c`, whose bots all play Coup.
const GAME_C_BOTS: [(&str, &str); 1] = [("example-bots/liars-dice", "LIARS_DICE_C_BOTS")];

fn main() {
    if let Err(message) = run() {
        // A plain message and exit(1) rather than a panic: cargo prints the stderr of a failed
        // build script verbatim, and a backtrace would bury what to install.
        eprintln!("\nerror: cannot build the test bots\n\n{message}\n");
        std::process::exit(1);
    }
}

/// Host programs that some tests drive. A missing one sets `cfg(koth_no_<name>)`, with which
/// its tests mark themselves ignored with the reason, so `cargo test` names them instead of
/// passing without testing.
fn host_programs() {
    println!("cargo:rustc-check-cfg=cfg(koth_no_gnu_parallel)");
    let found = std::env::var_os("PATH").and_then(|paths| {
        std::env::split_paths(&paths)
            .map(|d| d.join("parallel"))
            .find(|p| p.is_file())
    });
    let gnu = found.as_ref().is_some_and(|p| {
        std::process::Command::new(p)
            .arg("--version")
            .output()
            .is_ok_and(|o| String::from_utf8_lossy(&o.stdout).contains("GNU parallel"))
    });
    // Watch the program (or where it would be installed, which reruns this script until it
    // is), so installing it later is noticed.
    let watch = found.unwrap_or_else(|| PathBuf::from("/usr/bin/parallel"));
    println!("cargo:rerun-if-changed={}", watch.display());
    println!("cargo:rerun-if-env-changed=PATH");
    if !gnu {
        println!("cargo:rustc-cfg=koth_no_gnu_parallel");
    }
}

fn run() -> Result<(), String> {
    let manifest_dir = PathBuf::from(env("CARGO_MANIFEST_DIR")?);
    let workspace = manifest_dir
        .parent()
        .ok_or("tests/ has no parent directory")?
        .to_path_buf();
    let target_dir = workspace.join("target").join("wasm-bots");
    let out_dir = PathBuf::from(env("OUT_DIR")?);

    for path in [
        "Cargo.toml",
        "Cargo.lock",
        "guest-sdk/Cargo.toml",
        "guest-sdk/src",
        "rules/Cargo.toml",
        "rules/src",
        "example-bots/Cargo.toml",
        "example-bots/src",
        "example-bots/c",
        "example-bots/liars-dice",
        "tests/bots/Cargo.toml",
        "tests/bots/src",
        "tests/build.rs",
        "tests/build_languages.rs",
        "wit",
        "example-bots/components/rust-coup/Cargo.toml",
        "example-bots/components/rust-coup/Cargo.lock",
        "example-bots/components/rust-coup/src",
        "example-bots/components/rust-bank-heist/Cargo.toml",
        "example-bots/components/rust-bank-heist/Cargo.lock",
        "example-bots/components/rust-bank-heist/src",
        "example-bots/components/rust-euchre/Cargo.toml",
        "example-bots/components/rust-euchre/Cargo.lock",
        "example-bots/components/rust-euchre/src",
        "tests/components/hostile/Cargo.toml",
        "tests/components/hostile/src",
        "referee-sdk/Cargo.toml",
        "referee-sdk/src",
        "tests/referees/hostile/Cargo.toml",
        "tests/referees/hostile/Cargo.lock",
        "tests/referees/hostile/src",
        "referees/euchre/Cargo.toml",
        "referees/euchre/src",
        "referees/euchre/component/Cargo.toml",
        "referees/euchre/component/Cargo.lock",
        "referees/euchre/component/src",
        "referees/coup/Cargo.toml",
        "referees/coup/src",
        "referees/coup/component/Cargo.toml",
        "referees/coup/component/Cargo.lock",
        "referees/coup/component/src",
        "referees/bank-heist/Cargo.toml",
        "referees/bank-heist/src",
        "referees/bank-heist/component/Cargo.toml",
        "referees/bank-heist/component/Cargo.lock",
        "referees/bank-heist/component/src",
    ] {
        println!("cargo:rerun-if-changed={}", workspace.join(path).display());
    }
    println!("cargo:rerun-if-env-changed=KOTH_CLANG");
    languages::rerun_if_changed(&workspace);
    setup_skips(&workspace);

    host_programs();

    let bots_dir = target_dir.join(WASM_TARGET).join("release");
    let rust_bots = build_rust_bots(&workspace, &target_dir, &bots_dir)?;
    let c_bots = build_c_bots(&workspace.join("example-bots").join("c"), &bots_dir)?;
    let game_c_bots = GAME_C_BOTS
        .iter()
        .map(|(folder, _)| build_c_bots(&workspace.join(folder), &bots_dir))
        .collect::<Result<Vec<_>, _>>()?;
    let language_bots = languages::build_all(&workspace, &target_dir, &bots_dir)?;
    let component_bots = build_components(&workspace, &target_dir, &bots_dir, &COMPONENTS)?;
    let referees = build_components(&workspace, &target_dir, &bots_dir, &REFEREES)?;

    // A C bot named like a Rust bin would silently overwrite it (or be overwritten).
    let rust_names: BTreeSet<&str> = rust_bots.iter().flatten().map(String::as_str).collect();
    if let Some(clash) = c_bots.iter().find(|c| rust_names.contains(c.as_str())) {
        return Err(format!(
            "example-bots/c/{clash}.c and a Rust bin are both named `{clash}`: they would share \
             {}/{clash}.wasm. Rename the C file.",
            bots_dir.display()
        ));
    }
    // Likewise for the other languages' bots, among themselves too.
    let mut taken: BTreeSet<&str> = rust_names.clone();
    taken.extend(c_bots.iter().map(String::as_str));
    for ((folder, _), names) in GAME_C_BOTS.iter().zip(&game_c_bots) {
        for name in names {
            if !taken.insert(name) {
                return Err(format!(
                    "{folder}/{name}.c and another bot are both named `{name}`: they would share \
                     {}/{name}.wasm. Rename the C file.",
                    bots_dir.display()
                ));
            }
        }
    }
    for (name, source) in language_bots.all_names() {
        if !taken.insert(name) {
            return Err(format!(
                "{source} builds a bot named `{name}`, and another bot already has that name: \
                 they would share {}/{name}.wasm. Rename it.",
                bots_dir.display()
            ));
        }
    }

    let mut code = String::from("// Generated by tests/build.rs: the bots this build produced.\n");
    for ((krate, _, konst), names) in BOT_CRATES.iter().zip(&rust_bots) {
        writeln!(
            code,
            "/// Every bin of `{krate}`, sorted.\npub const {konst}: &[&str] = &{names:?};"
        )
        .unwrap();
    }
    writeln!(code, "/// Every `example-bots/c/*.c`, by stem, sorted.\npub const C_BOTS: &[&str] = &{c_bots:?};").unwrap();
    for ((folder, konst), names) in GAME_C_BOTS.iter().zip(&game_c_bots) {
        writeln!(
            code,
            "/// Every `{folder}/*.c`, by stem, sorted.\npub const {konst}: &[&str] = &{names:?};"
        )
        .unwrap();
    }
    language_bots.write_consts(&mut code);
    writeln!(code, "/// The component bots (`example-bots/components/`), by name.\npub const COMPONENT_BOTS: &[&str] = &{component_bots:?};").unwrap();
    writeln!(code, "/// The referee components (games as plugins), by name.\npub const REFEREES: &[&str] = &{referees:?};").unwrap();
    std::fs::write(out_dir.join("bots.rs"), code).map_err(|e| format!("writing bots.rs: {e}"))?;
    println!("cargo:rustc-env=KOTH_WASM_BOTS_DIR={}", bots_dir.display());
    Ok(())
}

fn env(name: &str) -> Result<OsString, String> {
    std::env::var_os(name).ok_or_else(|| format!("cargo did not set {name}"))
}

/// The nested cargo build of every bin of [`BOT_CRATES`]. Returns, for each crate in that
/// order, the sorted names of the bins cargo reported building (fresh or not).
fn build_rust_bots(
    workspace: &Path,
    target_dir: &Path,
    bots_dir: &Path,
) -> Result<Vec<Vec<String>>, String> {
    let cargo = env("CARGO")?;
    check_rust_target()?;

    let mut cmd = Command::new(&cargo);
    cmd.current_dir(workspace)
        .arg("build")
        .arg("--release")
        .args(["--target", WASM_TARGET])
        .arg("--manifest-path")
        .arg(workspace.join("Cargo.toml"))
        .arg("--target-dir")
        .arg(target_dir)
        // JSON on stdout tells exactly which bins were built; diagnostics still go to
        // stderr as text, which cargo shows if this script fails.
        .arg("--message-format=json-render-diagnostics")
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit());
    for (krate, _, _) in BOT_CRATES {
        cmd.args(["-p", krate]);
    }
    scrub_outer_cargo_env(&mut cmd);

    let mut child = cmd.spawn().map_err(|e| {
        format!(
            "cannot run {} (from $CARGO): {e}",
            Path::new(&cargo).display()
        )
    })?;
    let stdout = child.stdout.take().expect("stdout is piped");
    let mut bins = vec![Vec::new(); BOT_CRATES.len()];
    for line in std::io::BufReader::new(stdout).lines() {
        let line = line.map_err(|e| format!("reading cargo's output: {e}"))?;
        if let Some((krate, bin)) = built_bin(&line, workspace, bots_dir)? {
            bins[krate].push(bin);
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("waiting for cargo: {e}"))?;
    if !status.success() {
        return Err(format!(
            "`cargo build --release --target {WASM_TARGET} -p {} -p {}` failed ({status}); \
             its errors are above.",
            BOT_CRATES[0].0, BOT_CRATES[1].0
        ));
    }
    for names in &mut bins {
        names.sort();
        names.dedup();
    }
    Ok(bins)
}

/// Remove what the outer cargo (and the user's environment for it) set to configure the
/// *outer* build, so that it does not leak into the nested one: rustflags for the host (e.g.
/// `-C target-cpu=native`, which wasm rejects), a different target or target dir, the outer
/// jobserver, rustc wrappers (`cargo clippy` sets one, with lint levels in `CLIPPY_ARGS`), and
/// the per-package variables cargo gives build scripts. `CARGO_HOME`, `RUSTUP_TOOLCHAIN` and
/// `RUSTC` stay, so the nested build uses the same toolchain and registry cache.
fn scrub_outer_cargo_env(cmd: &mut Command) {
    const EXACT: &[&str] = &[
        "CARGO_ENCODED_RUSTFLAGS",
        "RUSTFLAGS",
        "CARGO_BUILD_RUSTFLAGS",
        "CARGO_ENCODED_RUSTDOCFLAGS",
        "RUSTDOCFLAGS",
        "CARGO_TARGET_DIR",
        "CARGO_BUILD_TARGET_DIR",
        "CARGO_BUILD_TARGET",
        "CARGO_MAKEFLAGS",
        "MAKEFLAGS",
        "MFLAGS",
        "RUSTC_WRAPPER",
        "RUSTC_WORKSPACE_WRAPPER",
        "CARGO_BUILD_RUSTC_WRAPPER",
        "CARGO_BUILD_RUSTC_WORKSPACE_WRAPPER",
        "CARGO_PRIMARY_PACKAGE",
        "CARGO_CRATE_NAME",
        "CARGO_BIN_NAME",
        "CLIPPY_ARGS",
        "CLIPPY_CONF_DIR",
        "RUSTC_LINKER",
        "TARGET",
        "HOST",
        "OUT_DIR",
        "OPT_LEVEL",
        "DEBUG",
        "PROFILE",
        "NUM_JOBS",
    ];
    const PREFIXES: &[&str] = &[
        "CARGO_CFG_",
        "CARGO_FEATURE_",
        "CARGO_PKG_",
        "CARGO_MANIFEST_",
        "__CARGO",
    ];
    for (key, _) in std::env::vars_os() {
        let Some(key) = key.to_str() else { continue };
        if EXACT.contains(&key) || PREFIXES.iter().any(|p| key.starts_with(p)) {
            cmd.env_remove(key);
        }
    }
}

/// The Rust components (the example bots of `example-bots/components/`, the hostile one of
/// `tests/components/`): (folder, the cdylib's file stem, the
/// bot's name). Each is its own cargo workspace, built for wasm32-wasip2.
const COMPONENTS: [(&str, &str, &str); 4] = [
    (
        "example-bots/components/rust-coup",
        "coup_component",
        "coup_rust_component",
    ),
    (
        "example-bots/components/rust-bank-heist",
        "bank_heist_component",
        "heist_rust_component",
    ),
    (
        "example-bots/components/rust-euchre",
        "euchre_component",
        "euchre_rust_component",
    ),
    (
        "tests/components/hostile",
        "hostile_component",
        "hostile_component",
    ),
];

/// The Rust referee components (games as plugins, `wit/referee.wit`), built like the
/// component bots: (folder, the cdylib's file stem, the referee's name). Euchre's is the
/// proof that the interface is complete: its archive must equal `koth euchre`'s. Coup's and
/// Bank Heist's must equal `koth coup`'s and `koth bank-heist`'s the same way.
const REFEREES: [(&str, &str, &str); 4] = [
    (
        "tests/referees/hostile",
        "hostile_referee",
        "hostile_referee",
    ),
    (
        "referees/euchre/component",
        "euchre_referee",
        "euchre_referee",
    ),
    ("referees/coup/component", "coup_referee", "coup_referee"),
    (
        "referees/bank-heist/component",
        "bank_heist_referee",
        "bank_heist_referee",
    ),
];

/// Build each Rust component of `list` into `bots_dir` as `<name>.wasm`; returns the names.
fn build_components(
    workspace: &Path,
    target_dir: &Path,
    bots_dir: &Path,
    list: &[(&str, &str, &str)],
) -> Result<Vec<String>, String> {
    const TARGET: &str = "wasm32-wasip2";
    check_target(TARGET)?;
    let cargo = env("CARGO")?;
    let mut names = Vec::new();
    for &(folder, stem, name) in list {
        let manifest = workspace.join(folder).join("Cargo.toml");
        let mut cmd = Command::new(&cargo);
        cmd.current_dir(workspace)
            .args([
                "build",
                "--release",
                "--locked",
                "--target",
                TARGET,
                "--manifest-path",
            ])
            .arg(&manifest)
            .arg("--target-dir")
            .arg(target_dir)
            .stderr(Stdio::inherit());
        scrub_outer_cargo_env(&mut cmd);
        let status = cmd.status().map_err(|e| format!("cannot run cargo: {e}"))?;
        if !status.success() {
            return Err(format!(
                "`cargo build --release --target {TARGET} --manifest-path {}` failed ({status}); its errors are above.",
                manifest.display()
            ));
        }
        let built = target_dir
            .join(TARGET)
            .join("release")
            .join(format!("{stem}.wasm"));
        std::fs::create_dir_all(bots_dir)
            .map_err(|e| format!("creating {}: {e}", bots_dir.display()))?;
        std::fs::copy(&built, bots_dir.join(format!("{name}.wasm")))
            .map_err(|e| format!("copying {}: {e}", built.display()))?;
        names.push(name.to_string());
    }
    Ok(names)
}

/// Is the wasm target's standard library installed for the rustc cargo uses?
fn check_rust_target() -> Result<(), String> {
    check_target(WASM_TARGET)
}

/// Is `target`'s standard library installed for the rustc cargo uses?
fn check_target(target: &str) -> Result<(), String> {
    let rustc = std::env::var_os("RUSTC").unwrap_or_else(|| "rustc".into());
    let out = Command::new(&rustc)
        .args(["--print", "sysroot"])
        .output()
        .map_err(|e| format!("cannot run {}: {e}", Path::new(&rustc).display()))?;
    let sysroot = String::from_utf8_lossy(&out.stdout).trim().to_string();
    let lib = Path::new(&sysroot)
        .join("lib/rustlib")
        .join(target)
        .join("lib");
    if out.status.success() && lib.is_dir() {
        return Ok(());
    }
    Err(format!(
        "The Rust target {target} is not installed (no {}).\n\
         Install it with:  rustup target add {target}\n\
         or run scripts/test, which installs everything the tests need.",
        lib.display()
    ))
}

/// From one line of cargo's JSON messages, the index in [`BOT_CRATES`] and the name of a
/// built bin.
fn built_bin(
    line: &str,
    workspace: &Path,
    bots_dir: &Path,
) -> Result<Option<(usize, String)>, String> {
    if !line.starts_with('{') {
        return Ok(None);
    }
    let msg: serde_json::Value = serde_json::from_str(line)
        .map_err(|e| format!("cargo printed invalid JSON ({e}): {line}"))?;
    if msg["reason"] != "compiler-artifact" {
        return Ok(None);
    }
    let target = &msg["target"];
    let is_bin = target["kind"]
        .as_array()
        .is_some_and(|k| k.iter().any(|k| k == "bin"));
    let (Some(manifest), Some(name), true) = (
        msg["manifest_path"].as_str(),
        target["name"].as_str(),
        is_bin,
    ) else {
        return Ok(None);
    };
    // Which crate, by manifest path (package ids omit the name when it matches the folder's).
    let Some(krate) = BOT_CRATES
        .iter()
        .position(|(_, dir, _)| Path::new(manifest) == workspace.join(dir).join("Cargo.toml"))
    else {
        return Ok(None);
    };
    // The tests find a bot at `<bots_dir>/<bin name>.wasm` (a `-` in the name stays): make
    // sure that is where cargo put it, rather than let a test report a missing bot.
    let expected = bots_dir.join(format!("{name}.wasm"));
    if msg["executable"].as_str().map(Path::new) != Some(expected.as_path()) {
        return Err(format!(
            "cargo built bin `{name}` of {} as {}, not {}",
            BOT_CRATES[krate].0,
            msg["executable"],
            expected.display()
        ));
    }
    Ok(Some((krate, name.to_string())))
}

/// Compile every `*.c` of `c_dir` into `bots_dir/<stem>.wasm`. Returns the sorted stems.
fn build_c_bots(c_dir: &Path, bots_dir: &Path) -> Result<Vec<String>, String> {
    let mut sources: Vec<PathBuf> = match std::fs::read_dir(c_dir) {
        Ok(entries) => entries
            .filter_map(|e| e.ok().map(|e| e.path()))
            .filter(|p| p.extension().is_some_and(|x| x == "c"))
            .collect(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Vec::new(),
        Err(e) => return Err(format!("reading {}: {e}", c_dir.display())),
    };
    sources.sort();
    if sources.is_empty() {
        return Ok(Vec::new());
    }
    let clang = std::env::var("KOTH_CLANG").unwrap_or_else(|_| DEFAULT_CLANG.to_string());
    check_c_toolchain(&clang)?;
    std::fs::create_dir_all(bots_dir)
        .map_err(|e| format!("creating {}: {e}", bots_dir.display()))?;

    let mut stems = Vec::new();
    for src in sources {
        let stem = src
            .file_stem()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("{}: the file name must be UTF-8", src.display()))?
            .to_string();
        let out = bots_dir.join(format!("{stem}.wasm"));
        // Link to a temporary name and rename: another build running this script at the same
        // time (say `cargo test` and `cargo clippy`) never sees a half-written module.
        let tmp = bots_dir.join(format!("{stem}.wasm.tmp{}", std::process::id()));
        let result = Command::new(&clang)
            .args([
                "--target=wasm32-wasi",
                "--sysroot=/usr",
                "-O2",
                "-Wall",
                "-Wextra",
                "-Werror",
                "-Wl,--strip-all",
                "-o",
            ])
            .arg(&tmp)
            .arg(&src)
            .output()
            .map_err(|e| format!("cannot run {clang}: {e}"))?;
        if !result.status.success() {
            let _ = std::fs::remove_file(&tmp);
            return Err(format!(
                "{clang} failed on {}:\n{}",
                src.display(),
                String::from_utf8_lossy(&result.stderr)
            ));
        }
        std::fs::rename(&tmp, &out)
            .map_err(|e| format!("renaming {} to {}: {e}", tmp.display(), out.display()))?;
        stems.push(stem);
    }
    Ok(stems)
}

/// Is clang there, and are wasi-libc and the wasm32 builtins where `--sysroot=/usr` finds
/// them (Debian's layout)? Checked up front to say which package is missing, instead of a
/// linker error.
fn check_c_toolchain(clang: &str) -> Result<(), String> {
    let install = format!(
        "Install it with:  apt-get install -y --no-install-recommends {C_PACKAGES}\n\
         or run scripts/test, which installs everything the tests need."
    );
    match Command::new(clang).arg("--version").output() {
        Ok(o) if o.status.success() => {}
        _ => {
            return Err(format!(
                "The C compiler `{clang}` (for example-bots/c/*.c) is not installed.\n{install}"
            ))
        }
    }
    if !Path::new("/usr/lib/wasm32-wasi/libc.a").is_file() {
        return Err(format!(
            "wasi-libc is not installed (no /usr/lib/wasm32-wasi/libc.a).\n{install}"
        ));
    }
    // Where clang looks for the builtins: `--print-libgcc-file-name` names the exact file.
    let builtins = Command::new(clang)
        .args([
            "--target=wasm32-wasi",
            "--sysroot=/usr",
            "--rtlib=compiler-rt",
            "--print-libgcc-file-name",
        ])
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| PathBuf::from(String::from_utf8_lossy(&o.stdout).trim()));
    match builtins {
        Some(path) if path.is_file() => Ok(()),
        Some(path) => Err(format!(
            "The wasm32 compiler builtins are not installed (no {}).\n{install}",
            path.display()
        )),
        None => Err(format!(
            "`{clang} --print-libgcc-file-name` failed.\n{install}"
        )),
    }
}

/// The tests that need a program scripts/setup installs from Debian and may fail to: the
/// HTML report's browser test (`tests/tests/report.rs`, Chromium) and the real-Slurm test
/// (`tests/tests/resume_shards.rs`, slurm-wlm and munge). When scripts/setup could not install
/// one, it says why in `target/<record>`; then `cfg(<cfg>)` marks that test ignored, by name,
/// instead of letting it pass without the program. An empty record (or none) means the program
/// must be there.
const SETUP_SKIPS: [(&str, &str, &str); 2] = [
    (
        "koth-skip-browser",
        "koth_skip_chromium",
        "report_in_chromium",
    ),
    (
        "koth-skip-slurm",
        "koth_skip_slurm",
        "the_slurm_recipe_on_a_real_one_node_cluster_gives_the_single_run",
    ),
];

fn setup_skips(workspace: &Path) {
    for (record, cfg, test) in SETUP_SKIPS {
        let record = workspace.join("target").join(record);
        // Created empty when missing: cargo reruns a build script whose watched file is missing.
        if !record.exists() {
            let _ = std::fs::create_dir_all(workspace.join("target"));
            let _ = std::fs::write(&record, "");
        }
        println!("cargo:rerun-if-changed={}", record.display());
        println!("cargo:rustc-check-cfg=cfg({cfg})");
        let why = std::fs::read_to_string(&record).unwrap_or_default();
        if !why.trim().is_empty() {
            println!("cargo:rustc-cfg={cfg}");
            println!("cargo:warning=SKIPPED: {test}: {}", why.trim());
        }
    }
}
