//! Compiling in a child process. wasmtime cannot stop a compile once it started, so one that
//! overruns its deadline on a thread goes on using every core and its memory until it ends
//! (a compile bomb: minutes and gigabytes). In a child process it is killed at the deadline
//! and takes its CPU and memory with it.
//!
//! The child is this program again, run as a worker (the `koth` command's hidden
//! `compile-worker`; see [`worker`]): it builds the same engine from the same
//! [`EngineOptions`], compiles the file it is given, and writes the serialised code to its
//! stdout, which the parent deserialises on its own engine (wasmtime checks that the code was
//! made by a compatible engine). Where the child cannot be started, the caller compiles on a
//! thread as before.

use super::engine::{self, EngineOptions};
use super::loader::LoadError;
use std::io::Read;
use std::path::PathBuf;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What a compile makes: a core module or a component (each on its own engine).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeKind {
    /// A core module, on the module engine.
    Module,
    /// A component, on the component engine.
    Component,
}

impl CodeKind {
    /// Its name on the worker's command line.
    pub fn name(self) -> &'static str {
        match self {
            CodeKind::Module => "module",
            CodeKind::Component => "component",
        }
    }

    /// The kind a worker's command line names.
    pub fn from_name(name: &str) -> Option<CodeKind> {
        match name {
            "module" => Some(CodeKind::Module),
            "component" => Some(CodeKind::Component),
            _ => None,
        }
    }
}

/// Where compiles run: the program to run as a worker, and the engine options it rebuilds
/// the engines from.
#[derive(Debug, Clone)]
pub struct Compiler {
    /// The program (`koth`), run as `PROGRAM compile-worker --kind K --engine JSON FILE`.
    pub program: PathBuf,
    /// The sandbox's engine options.
    pub engine: EngineOptions,
}

/// The serialised code of a compile run in a child, or `None` when no child could be
/// started (the caller compiles on a thread instead).
pub(crate) fn compile_in_child(
    compiler: &Compiler,
    kind: CodeKind,
    bytes: &[u8],
    deadline: Duration,
) -> Option<Result<Vec<u8>, LoadError>> {
    let started = Instant::now();
    let mut input = tempfile::NamedTempFile::new().ok()?;
    std::io::Write::write_all(&mut input, bytes).ok()?;
    let engine = serde_json::to_string(&compiler.engine).ok()?;
    let mut cmd = Command::new(&compiler.program);
    cmd.args(["compile-worker", "--kind", kind.name(), "--engine", &engine])
        .arg(input.path())
        .stdin(Stdio::null())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped());
    #[cfg(target_os = "linux")]
    {
        use std::os::unix::process::CommandExt;
        // SAFETY: prctl is async-signal-safe; nothing else runs between fork and exec.
        unsafe {
            cmd.pre_exec(|| {
                // The worker dies with its parent (a killed `koth` leaves no compile behind).
                libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
                Ok(())
            });
        }
    }
    let mut child = cmd.spawn().ok()?;
    let mut stdout = child.stdout.take()?;
    let mut stderr = child.stderr.take()?;
    // Read both pipes while the child runs: the code is megabytes, past a pipe's buffer.
    let out = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stdout.read_to_end(&mut v);
        v
    });
    let err = std::thread::spawn(move || {
        let mut v = Vec::new();
        let _ = stderr.by_ref().take(64 * 1024).read_to_end(&mut v);
        v
    });
    let status = loop {
        match child.try_wait() {
            Ok(Some(status)) => break Some(status),
            Ok(None) if started.elapsed() >= deadline => break None,
            Ok(None) => std::thread::sleep(Duration::from_millis(5)),
            Err(_) => break None,
        }
    };
    let Some(status) = status else {
        // Past the deadline: the child goes, and its CPU and memory with it.
        let _ = child.kill();
        let _ = child.wait();
        let _ = out.join();
        let _ = err.join();
        return Some(Err(LoadError::CompileTimeout(deadline.as_millis() as u64)));
    };
    let code = out.join().unwrap_or_default();
    let why = String::from_utf8_lossy(&err.join().unwrap_or_default())
        .trim()
        .to_string();
    Some(match status.code() {
        Some(0) => Ok(code),
        Some(WORKER_REFUSED) => Err(LoadError::Compile(why)),
        // Killed from outside, or the worker could not work: the caller compiles here.
        _ => return None,
    })
}

/// Compile `bytes` as `kind` within `deadline`, the one way modules and components are
/// compiled: in a child process where `compiler` says so (killed at the deadline; `load`
/// deserialises its code on the caller's engine), else on a thread given up after the
/// deadline. A compiler that panics refuses the bot with its message; only the deadline
/// reads as a timeout.
pub(crate) fn compile_with_deadline<T: Send + 'static>(
    compiler: Option<&Compiler>,
    kind: CodeKind,
    bytes: &[u8],
    deadline: Duration,
    load: impl FnOnce(Vec<u8>) -> Option<T>,
    compile: impl FnOnce(&[u8]) -> Result<T, String> + Send + 'static,
) -> Result<T, LoadError> {
    if let Some(code) = compiler.and_then(|c| compile_in_child(c, kind, bytes, deadline)) {
        if let Some(compiled) = load(code?) {
            return Ok(compiled);
        }
    }
    let (tx, rx) = std::sync::mpsc::channel();
    let owned = bytes.to_vec();
    std::thread::Builder::new()
        .name("koth-compile".into())
        .spawn(move || {
            let _ = tx.send(catch_panic(|| compile(&owned)));
        })
        .map_err(|e| LoadError::Compile(format!("cannot start the compiler thread: {e}")))?;
    match rx.recv_timeout(deadline) {
        Ok(done) => done.map_err(LoadError::Compile),
        Err(std::sync::mpsc::RecvTimeoutError::Timeout) => {
            Err(LoadError::CompileTimeout(deadline.as_millis() as u64))
        }
        Err(std::sync::mpsc::RecvTimeoutError::Disconnected) => Err(LoadError::Compile(
            "the compiler thread ended without a result".into(),
        )),
    }
}

/// `compile()`, with a panic turned into its error: wasmtime may panic on code it cannot
/// translate (wasmtime 48 does on a component adapter it generated and then found invalid),
/// and that is a refused bot, not a crash.
pub(crate) fn catch_panic<T>(compile: impl FnOnce() -> Result<T, String>) -> Result<T, String> {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(compile)).unwrap_or_else(|panic| {
        let why = panic
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| panic.downcast_ref::<&str>().copied())
            .unwrap_or("no message");
        Err(format!("wasmtime could not compile it: {why}"))
    })
}

/// The worker's exit status when the code does not compile (its reason on stderr).
pub const WORKER_REFUSED: i32 = 3;

/// The worker's side: compile `bytes` on the engine `engine` builds for `kind`, and return
/// the serialised code. `Err(why)` when it does not compile.
pub fn worker(kind: CodeKind, engine: &EngineOptions, bytes: &[u8]) -> Result<Vec<u8>, String> {
    #[cfg(target_os = "linux")]
    // SAFETY: plain system calls on this process.
    unsafe {
        libc::prctl(libc::PR_SET_PDEATHSIG, libc::SIGKILL);
        if libc::getppid() == 1 {
            // The parent died before the request above took effect.
            std::process::exit(1);
        }
    }
    match kind {
        CodeKind::Module => {
            let (engine, _) = engine::build_engine(engine).map_err(|e| format!("{e:#}"))?;
            let module = catch_panic(|| {
                wasmtime::Module::new(&engine, bytes).map_err(|e| format!("{e:#}"))
            })?;
            module.serialize().map_err(|e| format!("{e:#}"))
        }
        CodeKind::Component => {
            let engine = engine::build_component_engine(engine).map_err(|e| format!("{e:#}"))?;
            let compiled = super::component::new_component(&engine, bytes)?;
            compiled.serialize().map_err(|e| format!("{e:#}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn compile(
        deadline_ms: u64,
        f: impl FnOnce(&[u8]) -> Result<u8, String> + Send + 'static,
    ) -> Result<u8, LoadError> {
        compile_with_deadline(
            None,
            CodeKind::Module,
            b"code",
            Duration::from_millis(deadline_ms),
            |_| None,
            f,
        )
    }

    #[test]
    fn a_panicking_compiler_refuses_the_bot_and_only_the_deadline_is_a_timeout() {
        assert!(matches!(compile(5_000, |b| Ok(b.len() as u8)), Ok(4)));
        match compile(5_000, |_| Err("bad code".into())) {
            Err(LoadError::Compile(why)) => assert_eq!(why, "bad code"),
            other => panic!("{other:?}"),
        }
        match compile(5_000, |_| panic!("translation failed")) {
            Err(LoadError::Compile(why)) => assert!(why.contains("translation failed"), "{why}"),
            other => panic!("a panic read as {other:?}"),
        }
        match compile(50, |_| {
            std::thread::sleep(Duration::from_millis(2_000));
            Ok(0)
        }) {
            Err(LoadError::CompileTimeout(50)) => {}
            other => panic!("{other:?}"),
        }
    }
}
