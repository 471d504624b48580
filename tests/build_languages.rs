//! Part of `build.rs`: the example bots written in C++, Zig, AssemblyScript and Go, each built
//! with its own toolchain into a WASI preview 1 module `<bots_dir>/<name>.wasm`, beside the
//! Rust and C bots.
//!
//! | folder | bots | toolchain |
//! | --- | --- | --- |
//! | `example-bots/cpp` | every `*.cpp`, by stem | clang++-14 + Debian's wasm32 libc++ |
//! | `example-bots/zig` | every `*.zig`, by stem | Zig 0.14.1 (PyPI `ziglang`, pinned) |
//! | `example-bots/assemblyscript` | every `*.ts`, by stem | its `npm ci` (assemblyscript + wasi-shim) |
//! | `example-bots/go` | the module, named by its path's last element | Go 1.21+ (`GOOS=wasip1`) |
//! | `example-bots/components/python-coup` | `coup_python_component` (a `coup-bot` component) | componentize-py 0.25.1 (PyPI, in a venv) |
//! | `example-bots/components/js-coup` | `coup_js_component` (a `coup-bot` component) | its `npm install --no-save` (componentize-qjs 0.4.5) |
//! | `referees/<game>/` holding `app.py` | `<game>_referee` (a `koth:game/referee` component; `-` becomes `_`) | componentize-py, as above |
//!
//! A missing toolchain fails the build with the command that installs it, as for C. The way
//! around is explicit: a language named in `KOTH_SKIP_LANGUAGES=go,zig` (keys `cpp`, `zig`,
//! `assemblyscript`, `go`, `componentize_py`, `componentize_qjs`, or `all`) or in `target/koth-skip-languages` (where
//! `scripts/setup` records a toolchain it could not install) is left unbuilt, its bots listed
//! in `SKIPPED_LANGUAGE_BOTS` (the Python referees in `SKIPPED_LANGUAGE_REFEREES`) with the reason, and `cfg(koth_skip_<key>)` set, with which each
//! such bot's test marks itself ignored: `cargo test` names every skipped bot instead of
//! passing without it.

use std::fmt::Write as _;
use std::path::{Path, PathBuf};
use std::process::Command;

/// The Zig release the bots are written for: Zig's std API changes between releases.
const ZIG_VERSION: &str = "0.14.1";
/// The componentize-py release the Python component is built with (`scripts/setup` installs it).
const COMPONENTIZE_PY_VERSION: &str = "0.25.1";
/// The world the component bots implement.
const COUP_WORLD: &str = "coup-bot";
/// The world a referee implements (`wit/referee.wit`, nested in `wit/`: componentize-py reads
/// the nested package from the folder and finds the world by its full name).
const REFEREE_WORLD: &str = "koth:game/referee-with-pages@0.1.0";
/// clang++ for the C++ bots (override with `KOTH_CLANGXX`).
const DEFAULT_CLANGXX: &str = "clang++-14";
/// Where Debian's `golang-1.2x-go` packages put `go`, newest first, when `go` on PATH is
/// missing or too old for `GOOS=wasip1` (Go 1.21+).
const DEBIAN_GOS: [&str; 5] = [
    "/usr/lib/go-1.25/bin/go",
    "/usr/lib/go-1.24/bin/go",
    "/usr/lib/go-1.23/bin/go",
    "/usr/lib/go-1.22/bin/go",
    "/usr/lib/go-1.21/bin/go",
];

#[derive(Clone, Copy, PartialEq, Eq)]
enum Lang {
    Cpp,
    Zig,
    AssemblyScript,
    Go,
    /// Python, as a typed-world component.
    ComponentizePy,
    /// JavaScript, as a typed-world component.
    ComponentizeQjs,
    /// Python referees (games as plugins), built with componentize-py: the same toolchain
    /// and skip key as [`Lang::ComponentizePy`].
    PythonReferee,
}

const LANGS: [Lang; 7] = [
    Lang::Cpp,
    Lang::Zig,
    Lang::AssemblyScript,
    Lang::Go,
    Lang::ComponentizePy,
    Lang::ComponentizeQjs,
    Lang::PythonReferee,
];

impl Lang {
    /// Its key in `KOTH_SKIP_LANGUAGES` and in `cfg(koth_skip_<key>)`.
    fn key(self) -> &'static str {
        match self {
            Lang::Cpp => "cpp",
            Lang::Zig => "zig",
            Lang::AssemblyScript => "assemblyscript",
            Lang::Go => "go",
            Lang::ComponentizePy | Lang::PythonReferee => "componentize_py",
            Lang::ComponentizeQjs => "componentize_qjs",
        }
    }

    /// Whether its bots are components (tested in `components.rs`, not `languages.rs`).
    fn component(self) -> bool {
        matches!(self, Lang::ComponentizePy | Lang::ComponentizeQjs)
    }

    /// Whether it builds referees rather than bots.
    fn referee(self) -> bool {
        self == Lang::PythonReferee
    }

    fn title(self) -> &'static str {
        match self {
            Lang::Cpp => "C++",
            Lang::Zig => "Zig",
            Lang::AssemblyScript => "AssemblyScript",
            Lang::Go => "Go",
            Lang::ComponentizePy => "componentize-py",
            Lang::ComponentizeQjs => "componentize-qjs",
            Lang::PythonReferee => "componentize-py (referees)",
        }
    }

    fn folder(self) -> &'static str {
        match self {
            Lang::Cpp => "example-bots/cpp",
            Lang::Zig => "example-bots/zig",
            Lang::AssemblyScript => "example-bots/assemblyscript",
            Lang::Go => "example-bots/go",
            Lang::ComponentizePy => "example-bots/components/python-coup",
            Lang::ComponentizeQjs => "example-bots/components/js-coup",
            Lang::PythonReferee => "referees",
        }
    }

    /// How to install the toolchain by hand (`scripts/setup` does it all).
    fn install(self) -> &'static str {
        match self {
            Lang::Cpp => {
                "apt-get install -y --no-install-recommends clang-14 lld-14 wasi-libc \
                 libclang-rt-14-dev-wasm32 libc++-14-dev-wasm32 libc++abi-14-dev-wasm32"
            }
            Lang::Zig => "python3 -m pip install ziglang==0.14.1",
            Lang::AssemblyScript => "(cd example-bots/assemblyscript && npm ci)",
            Lang::Go => {
                "add bookworm-backports to apt's sources, then \
                 apt-get install -y -t bookworm-backports golang-1.23-go"
            }
            Lang::ComponentizePy | Lang::PythonReferee => {
                "python3 -m venv ~/.cache/koth/componentize-py && \
                 ~/.cache/koth/componentize-py/bin/pip install componentize-py==0.25.1"
            }
            Lang::ComponentizeQjs => {
                "(cd example-bots/components/js-coup && npm install --no-save)"
            }
        }
    }

    /// The bots in `dir`: name and source (a file, or for Go the module's folder), sorted.
    fn sources(self, dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
        if self == Lang::PythonReferee {
            return python_referees(dir);
        }
        // One component per folder, from its entry file.
        let entry = match self {
            Lang::ComponentizePy => Some(("coup_python_component", "app.py")),
            Lang::ComponentizeQjs => Some(("coup_js_component", "coup.js")),
            _ => None,
        };
        if let Some((name, file)) = entry {
            let src = dir.join(file);
            return Ok(if src.is_file() {
                vec![(name.to_string(), src)]
            } else {
                Vec::new()
            });
        }
        if self == Lang::Go {
            let go_mod = dir.join("go.mod");
            let text = match std::fs::read_to_string(&go_mod) {
                Ok(t) => t,
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
                Err(e) => return Err(format!("reading {}: {e}", go_mod.display())),
            };
            let module = text
                .lines()
                .find_map(|l| l.trim().strip_prefix("module "))
                .ok_or_else(|| format!("{} has no `module` line", go_mod.display()))?;
            let name = module.trim().rsplit('/').next().unwrap_or_default();
            return Ok(vec![(name.to_string(), dir.to_path_buf())]);
        }
        let ext = match self {
            Lang::Cpp => "cpp",
            Lang::Zig => "zig",
            _ => "ts",
        };
        let mut out = Vec::new();
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(out),
            Err(e) => return Err(format!("reading {}: {e}", dir.display())),
        };
        for path in entries.filter_map(|e| e.ok().map(|e| e.path())) {
            if path.extension().is_some_and(|x| x == ext) && path.is_file() {
                let stem = path
                    .file_stem()
                    .and_then(|s| s.to_str())
                    .ok_or_else(|| format!("{}: the file name must be UTF-8", path.display()))?;
                out.push((stem.to_string(), path.clone()));
            }
        }
        out.sort();
        Ok(out)
    }

    /// The toolchain's command (program and leading arguments), checked to be usable.
    fn toolchain(self, dir: &Path) -> Result<Vec<String>, String> {
        match self {
            Lang::Cpp => {
                let clangxx =
                    std::env::var("KOTH_CLANGXX").unwrap_or_else(|_| DEFAULT_CLANGXX.to_string());
                if !runs(&clangxx, &["--version"]) {
                    return Err(format!("`{clangxx}` is not installed."));
                }
                for lib in ["libc.a", "libc++.a", "libc++abi.a"] {
                    let path = Path::new("/usr/lib/wasm32-wasi").join(lib);
                    if !path.is_file() {
                        return Err(format!(
                            "no {}: the wasm32 C/C++ libraries are missing.",
                            path.display()
                        ));
                    }
                }
                Ok(vec![clangxx])
            }
            Lang::Zig => {
                let zig = match std::env::var("KOTH_ZIG") {
                    Ok(z) => vec![z],
                    Err(_) => vec!["python3".into(), "-m".into(), "ziglang".into()],
                };
                let version = output(&zig, &["version"])
                    .ok_or_else(|| format!("`{}` does not run.", zig.join(" ")))?;
                if version.trim() != ZIG_VERSION {
                    return Err(format!(
                        "`{}` is Zig {}, but the bots are written for Zig {ZIG_VERSION}.",
                        zig.join(" "),
                        version.trim()
                    ));
                }
                Ok(zig)
            }
            Lang::AssemblyScript => {
                if !runs("node", &["--version"]) {
                    return Err("`node` (Node.js) is not installed.".into());
                }
                let asc = dir.join("node_modules/assemblyscript/bin/asc.js");
                let shim = dir.join("node_modules/@assemblyscript/wasi-shim/asconfig.json");
                if !asc.is_file() || !shim.is_file() {
                    return Err(format!(
                        "the AssemblyScript compiler is not installed in {} (no {} or {}).",
                        dir.display(),
                        asc.display(),
                        shim.display()
                    ));
                }
                Ok(vec!["node".into(), asc.display().to_string()])
            }
            Lang::Go => {
                let mut candidates = vec![std::env::var("KOTH_GO").unwrap_or_else(|_| "go".into())];
                if std::env::var_os("KOTH_GO").is_none() {
                    candidates.extend(DEBIAN_GOS.iter().map(|s| s.to_string()));
                }
                let mut seen = Vec::new();
                for go in candidates {
                    let Some(v) = output(std::slice::from_ref(&go), &["env", "GOVERSION"]) else {
                        continue;
                    };
                    let v = v.trim().to_string();
                    // "go1.23.5": wasip1 arrived in Go 1.21.
                    let minor = v
                        .strip_prefix("go1.")
                        .and_then(|r| r.split(|c: char| !c.is_ascii_digit()).next())
                        .and_then(|m| m.parse::<u32>().ok());
                    if minor.is_some_and(|m| m >= 21) {
                        return Ok(vec![go]);
                    }
                    seen.push(format!("{go} is {v}"));
                }
                Err(if seen.is_empty() {
                    "Go is not installed.".into()
                } else {
                    format!("no Go 1.21+ (needed for GOOS=wasip1): {}.", seen.join(", "))
                })
            }
            Lang::ComponentizePy | Lang::PythonReferee => {
                let tool = componentize_py();
                let version = output(std::slice::from_ref(&tool), &["--version"])
                    .ok_or_else(|| format!("`{tool}` does not run."))?;
                if version.split_whitespace().last() != Some(COMPONENTIZE_PY_VERSION) {
                    return Err(format!(
                        "`{tool}` is {}, but the bot is built with componentize-py \
                         {COMPONENTIZE_PY_VERSION}.",
                        version.trim()
                    ));
                }
                Ok(vec![tool])
            }
            Lang::ComponentizeQjs => {
                if !runs("node", &["--version"]) {
                    return Err("`node` (Node.js) is not installed.".into());
                }
                let cli = dir.join("node_modules/componentize-qjs/bin/componentize-qjs");
                if !cli.is_file() {
                    return Err(format!(
                        "componentize-qjs is not installed in {} (no {}).",
                        dir.display(),
                        cli.display()
                    ));
                }
                Ok(vec![cli.display().to_string()])
            }
        }
    }

    /// Compile one bot into `out` (a temporary name, renamed by the caller).
    fn compile(
        self,
        tool: &[String],
        dir: &Path,
        src: &Path,
        out: &Path,
        target_dir: &Path,
    ) -> Result<(), String> {
        let mut cmd = Command::new(&tool[0]);
        cmd.args(&tool[1..]).current_dir(dir);
        match self {
            Lang::Cpp => {
                cmd.args([
                    "--target=wasm32-wasi",
                    "--sysroot=/usr",
                    "-std=c++17",
                    "-O2",
                    // No exceptions: wasm32-wasi's libc++ is built without them.
                    "-fno-exceptions",
                    "-Wall",
                    "-Wextra",
                    "-Werror",
                    "-Wl,--strip-all",
                    "-o",
                ])
                .arg(out)
                .arg(src);
            }
            Lang::Zig => {
                // Its cache in our target dir: nothing is written beside the sources.
                cmd.args([
                    "build-exe",
                    "-target",
                    "wasm32-wasi",
                    "-O",
                    "ReleaseSmall",
                    "-fstrip",
                ])
                .arg("--cache-dir")
                .arg(target_dir.join("zig-cache"))
                .arg(format!("-femit-bin={}", out.display()))
                .arg(src);
            }
            Lang::AssemblyScript => {
                cmd.arg(src)
                    .args([
                        "--config",
                        "./node_modules/@assemblyscript/wasi-shim/asconfig.json",
                        "-O3",
                        "--noAssert",
                        "-o",
                    ])
                    .arg(out);
            }
            Lang::Go => {
                cmd.args(["build", "-trimpath", "-ldflags=-s", "-o"])
                    .arg(out)
                    .arg(".")
                    .env("GOOS", "wasip1")
                    .env("GOARCH", "wasm")
                    // Never download another Go release, whatever go.mod asks for.
                    .env("GOTOOLCHAIN", "local")
                    .env_remove("GOFLAGS");
                if ["GOCACHE", "XDG_CACHE_HOME", "HOME"]
                    .iter()
                    .all(|v| std::env::var_os(v).is_none())
                {
                    cmd.env("GOCACHE", target_dir.join("go-cache"));
                }
            }
            Lang::ComponentizePy | Lang::PythonReferee => {
                // componentize-py compiles the app where it finds it, leaving `__pycache__`:
                // it builds from a copy in the target dir (one per component, as the two
                // languages build at the same time), so nothing is written beside the
                // sources. A referee's copy holds every module of its folder but its tests.
                let module = src.file_stem().and_then(|s| s.to_str()).unwrap_or("app");
                let folder = src.parent().unwrap_or(dir);
                let stage = target_dir
                    .join("componentize-py-src")
                    .join(folder.file_name().unwrap_or_default());
                let _ = std::fs::remove_dir_all(&stage);
                std::fs::create_dir_all(&stage)
                    .map_err(|e| format!("creating {}: {e}", stage.display()))?;
                let files = if self.referee() {
                    python_modules(folder)?
                } else {
                    vec![src.to_path_buf()]
                };
                for file in files {
                    std::fs::copy(&file, stage.join(file.file_name().unwrap_or_default()))
                        .map_err(|e| format!("copying {}: {e}", file.display()))?;
                }
                let (wit, world) = if self.referee() {
                    (dir.join("../wit"), REFEREE_WORLD)
                } else {
                    (wit_dir(dir), COUP_WORLD)
                };
                cmd.current_dir(&stage)
                    .arg("-d")
                    .arg(wit)
                    .args(["-w", world, "componentize", module, "-o"])
                    .arg(out);
            }
            Lang::ComponentizeQjs => {
                // `--sync`: the host does not enable the component model's async ABI.
                cmd.args(["--sync", "-n", COUP_WORLD, "-w"])
                    .arg(wit_dir(dir))
                    .arg("-j")
                    .arg(src)
                    .arg("-o")
                    .arg(out);
            }
        }
        let result = cmd
            .output()
            .map_err(|e| format!("cannot run {}: {e}", tool.join(" ")))?;
        if !result.status.success() {
            return Err(format!(
                "{} failed on {}:\n{}{}",
                tool.join(" "),
                src.display(),
                String::from_utf8_lossy(&result.stdout),
                String::from_utf8_lossy(&result.stderr)
            ));
        }
        Ok(())
    }

    /// Build every bot of this language; the sorted names built.
    fn build(
        self,
        workspace: &Path,
        target_dir: &Path,
        bots_dir: &Path,
    ) -> Result<Vec<String>, String> {
        let dir = workspace.join(self.folder());
        let sources = self.sources(&dir)?;
        if sources.is_empty() {
            return Ok(Vec::new());
        }
        let tool = self.toolchain(&dir).map_err(|why| {
            format!(
                "The {} toolchain (for {}) is not usable: {why}\n\
                 Install it with:  {}\n\
                 or run scripts/setup, which installs everything the tests need; or, where it \
                 cannot be installed, set KOTH_SKIP_LANGUAGES={} to report its bots' tests as \
                 skipped.",
                self.title(),
                self.folder(),
                self.install(),
                self.key()
            )
        })?;
        std::fs::create_dir_all(bots_dir)
            .map_err(|e| format!("creating {}: {e}", bots_dir.display()))?;
        let mut names = Vec::new();
        for (name, src) in sources {
            let out = bots_dir.join(format!("{name}.wasm"));
            // A temporary name, then a rename: a concurrent build never sees half a module.
            let tmp = bots_dir.join(format!(
                "{name}.{}.tmp{}.wasm",
                self.key(),
                std::process::id()
            ));
            let compiled = self.compile(&tool, &dir, &src, &tmp, target_dir);
            // Zig leaves its object file beside the module.
            let _ = std::fs::remove_file(tmp.with_extension("wasm.o"));
            if let Err(e) = compiled {
                let _ = std::fs::remove_file(&tmp);
                return Err(e);
            }
            std::fs::rename(&tmp, &out)
                .map_err(|e| format!("renaming {} to {}: {e}", tmp.display(), out.display()))?;
            names.push(name);
        }
        Ok(names)
    }
}

/// The Python referees of `referees/`: every folder holding an `app.py`, named after the
/// folder (`liars-dice` builds `liars_dice_referee`), sorted.
fn python_referees(dir: &Path) -> Result<Vec<(String, PathBuf)>, String> {
    let entries = match std::fs::read_dir(dir) {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(format!("reading {}: {e}", dir.display())),
    };
    let mut out = Vec::new();
    for folder in entries.filter_map(|e| e.ok().map(|e| e.path())) {
        let app = folder.join("app.py");
        if !app.is_file() {
            continue;
        }
        let game = folder
            .file_name()
            .and_then(|s| s.to_str())
            .ok_or_else(|| format!("{}: the folder name must be UTF-8", folder.display()))?;
        out.push((format!("{}_referee", game.replace('-', "_")), app));
    }
    out.sort();
    Ok(out)
}

/// The modules a Python referee is built from: every `*.py` of its folder but `test_*.py`.
fn python_modules(folder: &Path) -> Result<Vec<PathBuf>, String> {
    let mut out: Vec<PathBuf> = std::fs::read_dir(folder)
        .map_err(|e| format!("reading {}: {e}", folder.display()))?
        .filter_map(|e| e.ok().map(|e| e.path()))
        .filter(|p| {
            p.extension().is_some_and(|x| x == "py")
                && !p
                    .file_name()
                    .and_then(|n| n.to_str())
                    .is_some_and(|n| n.starts_with("test_"))
        })
        .collect();
    out.sort();
    Ok(out)
}

/// The workspace's `wit/`, from a component bot's folder (`example-bots/components/<bot>`).
fn wit_dir(bot_dir: &Path) -> PathBuf {
    bot_dir.join("../../../wit")
}

/// componentize-py: `$KOTH_COMPONENTIZE_PY`, else the venv `scripts/setup` makes in
/// `${XDG_CACHE_HOME:-~/.cache}/koth/componentize-py`, else `componentize-py` on PATH.
fn componentize_py() -> String {
    if let Ok(p) = std::env::var("KOTH_COMPONENTIZE_PY") {
        return p;
    }
    let cache = std::env::var_os("XDG_CACHE_HOME")
        .map(PathBuf::from)
        .or_else(|| std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache")));
    if let Some(venv) = cache.map(|c| c.join("koth/componentize-py/bin/componentize-py")) {
        if venv.is_file() {
            return venv.display().to_string();
        }
    }
    "componentize-py".into()
}

fn runs(program: &str, args: &[&str]) -> bool {
    Command::new(program)
        .args(args)
        .output()
        .is_ok_and(|o| o.status.success())
}

/// The stdout of `program args`, if it ran and succeeded.
fn output(program: &[String], args: &[&str]) -> Option<String> {
    let o = Command::new(&program[0])
        .args(&program[1..])
        .args(args)
        .output()
        .ok()?;
    o.status
        .success()
        .then(|| String::from_utf8_lossy(&o.stdout).into_owned())
}

/// The sources to watch. AssemblyScript's folder is watched file by file: as a folder, cargo
/// would scan its whole `node_modules` on every build (so a new `*.ts` there is picked up at
/// the next change of any watched file).
pub fn rerun_if_changed(workspace: &Path) {
    for lang in LANGS {
        let dir = workspace.join(lang.folder());
        if matches!(lang, Lang::AssemblyScript | Lang::ComponentizeQjs) {
            for (_, src) in lang.sources(&dir).unwrap_or_default() {
                println!("cargo:rerun-if-changed={}", src.display());
            }
            for f in [
                "package.json",
                "package-lock.json",
                "node_modules/.package-lock.json",
            ] {
                println!("cargo:rerun-if-changed={}", dir.join(f).display());
            }
        } else {
            println!("cargo:rerun-if-changed={}", dir.display());
        }
    }
    // Created empty when missing: cargo would rerun this script on every build for a
    // watched file that does not exist.
    let record = skip_record(workspace);
    if !record.exists() {
        let _ = std::fs::create_dir_all(workspace.join("target"));
        let _ = std::fs::write(&record, "");
    }
    println!("cargo:rerun-if-changed={}", record.display());
    // componentize-qjs builds from the shared WIT files.
    println!("cargo:rerun-if-changed={}", workspace.join("wit").display());
    for var in [
        "KOTH_SKIP_LANGUAGES",
        "KOTH_CLANGXX",
        "KOTH_ZIG",
        "KOTH_GO",
        "KOTH_COMPONENTIZE_PY",
    ] {
        println!("cargo:rerun-if-env-changed={var}");
    }
}

/// Where scripts/setup records the toolchains it could not install, one `key<TAB>why` a line.
fn skip_record(workspace: &Path) -> PathBuf {
    workspace.join("target").join("koth-skip-languages")
}

/// What [`build_all`] did for each language.
pub struct LanguageBots {
    built: Vec<(Lang, Vec<String>)>,
    /// Language, its bots, and why they were not built.
    skipped: Vec<(Lang, Vec<String>, String)>,
    /// Why the Python bots' tests are skipped, if they are.
    python_skipped: Option<String>,
}

/// Build every language's bots, the four toolchains in parallel (the machine has few cores
/// and each compiler mostly waits on one).
pub fn build_all(
    workspace: &Path,
    target_dir: &Path,
    bots_dir: &Path,
) -> Result<LanguageBots, String> {
    // (key, why) for each language not to build: from the environment, and from what
    // scripts/setup could not install.
    let mut skip: Vec<(String, String)> = Vec::new();
    let skip_var = std::env::var("KOTH_SKIP_LANGUAGES").unwrap_or_default();
    for key in skip_var.split(',').map(str::trim).filter(|s| !s.is_empty()) {
        skip.push((key.to_string(), format!("KOTH_SKIP_LANGUAGES={skip_var}")));
    }
    let record = skip_record(workspace);
    let recorded = std::fs::read_to_string(&record).unwrap_or_default();
    for line in recorded.lines().filter(|l| !l.trim().is_empty()) {
        let (key, why) = line.split_once('\t').unwrap_or((line, ""));
        skip.push((
            key.trim().to_string(),
            format!(
                "scripts/setup could not install it: {why}; recorded in {}",
                record.display()
            ),
        ));
    }
    if let Some((bad, from)) = skip
        .iter()
        .find(|(k, _)| k != "all" && k != "python" && !LANGS.iter().any(|l| l.key() == k))
    {
        return Err(format!(
            "{from} names `{bad}`; the keys are cpp, zig, assemblyscript, go, \
             componentize_py, componentize_qjs, python and all"
        ));
    }
    // Python bots need no build, only the interpreter `koth setup python` fetches.
    let python_skipped = skip
        .iter()
        .find(|(k, _)| k == "all" || k == "python")
        .map(|(_, from)| {
            format!("CPython for WASI unavailable ({from}; install: koth setup python)")
        });
    let mut result = LanguageBots {
        built: Vec::new(),
        skipped: Vec::new(),
        python_skipped,
    };
    let mut to_build = Vec::new();
    for lang in LANGS {
        if let Some((_, from)) = skip.iter().find(|(k, _)| k == "all" || k == lang.key()) {
            let names = lang
                .sources(&workspace.join(lang.folder()))?
                .into_iter()
                .map(|(n, _)| n)
                .collect();
            let why = format!(
                "{} toolchain unavailable ({from}; install: {})",
                lang.title(),
                lang.install()
            );
            result.skipped.push((lang, names, why));
        } else {
            to_build.push(lang);
        }
    }
    let outcomes: Vec<Result<Vec<String>, String>> = std::thread::scope(|s| {
        let handles: Vec<_> = to_build
            .iter()
            .map(|lang| s.spawn(move || lang.build(workspace, target_dir, bots_dir)))
            .collect();
        handles
            .into_iter()
            .map(|h| {
                h.join()
                    .unwrap_or_else(|_| Err("a build thread panicked".into()))
            })
            .collect()
    });
    let mut errors = Vec::new();
    for (lang, outcome) in to_build.into_iter().zip(outcomes) {
        match outcome {
            Ok(names) => result.built.push((lang, names)),
            Err(e) => errors.push(e),
        }
    }
    if !errors.is_empty() {
        return Err(errors.join("\n\n"));
    }
    Ok(result)
}

impl LanguageBots {
    /// Every built bot's name, with the folder it comes from.
    pub fn all_names(&self) -> impl Iterator<Item = (&str, &'static str)> {
        self.built
            .iter()
            .flat_map(|(l, names)| names.iter().map(move |n| (n.as_str(), l.folder())))
    }

    /// The constants of `bots.rs`, and the cfgs that mark skipped languages' tests ignored.
    pub fn write_consts(&self, code: &mut String) {
        // Which kind of output each list holds: plain modules, component bots, referees.
        let modules_only = |l: Lang| !l.component() && !l.referee();
        let components_only = |l: Lang| l.component();
        let referees_only = |l: Lang| l.referee();
        let built = |pick: &dyn Fn(Lang) -> bool| {
            let mut v: Vec<(&str, &str)> = self
                .built
                .iter()
                .filter(|(l, _)| pick(*l))
                .flat_map(|(l, names)| names.iter().map(move |n| (n.as_str(), l.title())))
                .collect();
            v.sort();
            v
        };
        let skipped = |pick: &dyn Fn(Lang) -> bool| -> Vec<(&str, &str)> {
            self.skipped
                .iter()
                .filter(|(l, _, _)| pick(*l))
                .flat_map(|(_, names, why)| names.iter().map(move |n| (n.as_str(), why.as_str())))
                .collect()
        };
        let (modules, components) = (built(&modules_only), built(&components_only));
        let names: Vec<&str> = modules.iter().map(|(n, _)| *n).collect();
        let component_names: Vec<&str> = components.iter().map(|(n, _)| *n).collect();
        let referee_names: Vec<&str> = built(&referees_only).iter().map(|(n, _)| *n).collect();
        writeln!(
            code,
            "/// Every bot of `example-bots/{{cpp,zig,assemblyscript,go}}` built this time, sorted.\n\
             pub const LANGUAGE_BOTS: &[&str] = &{names:?};\n\
             /// Each of [`LANGUAGE_BOTS`] with its language.\n\
             pub const LANGUAGE_BOT_LANGUAGES: &[(&str, &str)] = &{modules:?};\n\
             /// The language bots not built because `KOTH_SKIP_LANGUAGES` named their language:\n\
             /// (bot, why). Their tests report themselves ignored.\n\
             pub const SKIPPED_LANGUAGE_BOTS: &[(&str, &str)] = &{:?};\n\
             /// The component bots built with another language's toolchain (componentize-py,\n\
             /// componentize-qjs), sorted.\n\
             pub const LANGUAGE_COMPONENT_BOTS: &[&str] = &{component_names:?};\n\
             /// Those not built, and why; their tests report themselves ignored.\n\
             pub const SKIPPED_LANGUAGE_COMPONENT_BOTS: &[(&str, &str)] = &{:?};\n\
             /// The Python referees of `referees/` (componentize-py), sorted.\n\
             pub const LANGUAGE_REFEREES: &[&str] = &{referee_names:?};\n\
             /// Those not built, and why; their tests report themselves ignored.\n\
             pub const SKIPPED_LANGUAGE_REFEREES: &[(&str, &str)] = &{:?};\n\
             /// Why the plain Python bots' tests are skipped (`cfg(koth_skip_python)`), if they are.\n\
             pub const PYTHON_SKIPPED: Option<&str> = {:?};",
            skipped(&modules_only),
            skipped(&components_only),
            skipped(&referees_only),
            self.python_skipped
        )
        .unwrap();
        let mut keys: Vec<String> = LANGS
            .iter()
            .map(|l| format!("koth_skip_{}", l.key()))
            .collect();
        keys.push("koth_skip_python".into());
        // Two languages share componentize-py's key.
        keys.sort();
        keys.dedup();
        if self.python_skipped.is_some() {
            println!("cargo:rustc-cfg=koth_skip_python");
        }
        println!("cargo:rustc-check-cfg=cfg({})", keys.join(", "));
        for (lang, _, _) in &self.skipped {
            println!("cargo:rustc-cfg=koth_skip_{}", lang.key());
        }
    }
}
