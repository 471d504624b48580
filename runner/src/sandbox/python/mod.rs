//! Plain Python bots: a `.py` file becomes a bot run by CPython built for WASI.
//!
//! The interpreter is one pinned preview-1 module (CPython 3.12.0, VMware Wasm Labs' build, with
//! its standard library packed inside the module). Every invocation of a Python bot resumes
//! the interpreter's snapshot ([`snapshot`]): started up, common modules imported, the script
//! compiled when the bot was loaded. The script sits in a [`ReadOnlyLayer`] mounted in the root
//! of the bot's directory (a directory with only the layer and no quota when the game gives
//! none, as Bank Heist), and runs as `python -S -B /<script> ARGS...` would. The interpreter
//! can still start cold ([`PythonStart::Cold`]), for measuring what the snapshot saves.

mod snapshot;

use super::loader::LoadError;
use super::vfs::ReadOnlyLayer;
use super::{Bot, Code, Entry, ModuleCode, Sandbox};
use sha2::{Digest, Sha256};
use snapshot::{compile_script, warm, Warm};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use wasmtime::{InstancePre, ModuleExport};

/// File name of the pinned interpreter.
pub const INTERPRETER_FILE: &str = "python-3.12.0.wasm";
/// SHA-256 of the pinned interpreter: any other file is refused.
pub const INTERPRETER_SHA256: &str =
    "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763";
/// The one-line install, quoted in every "interpreter missing" error.
pub const INSTALL: &str = "koth setup python";
/// Interpreter options before the script: no `site` (nothing to find there, and it halves the
/// start-up), no `.pyc` writes.
const PYTHON_FLAGS: [&str; 2] = ["-S", "-B"];

/// Where the interpreter is looked for: `$KOTH_PYTHON_WASM`, else
/// `$XDG_CACHE_HOME/koth/python/` or `~/.cache/koth/python/` (where `koth setup python`
/// puts it).
pub fn default_interpreter() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("KOTH_PYTHON_WASM") {
        return Some(PathBuf::from(p));
    }
    let base = match std::env::var_os("XDG_CACHE_HOME") {
        Some(d) => PathBuf::from(d),
        None => Path::new(&std::env::var_os("HOME")?).join(".cache"),
    };
    Some(base.join("koth").join("python").join(INTERPRETER_FILE))
}

/// The interpreter, shared by every Python bot of a sandbox: its snapshot, and the
/// interpreter itself compiled only if a bot is to start cold.
pub(crate) struct Interpreter {
    /// The checked file, read again (and checked again) only for a cold start: the 26 MB are
    /// not kept for a use most runs never make.
    path: PathBuf,
    cold: OnceLock<Result<Cold, LoadError>>,
    warm: Warm,
}

/// The interpreter as a WASI command.
#[derive(Clone)]
struct Cold {
    pre: InstancePre<crate::sandbox::wasi::state::HostState>,
    start_export: ModuleExport,
    memory_export: ModuleExport,
}

/// How a Python bot's invocations start.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum PythonStart {
    /// From the snapshot of an interpreter that has started up and imported the modules bots
    /// commonly use (what every tournament does).
    #[default]
    Snapshot,
    /// `_start`: the interpreter starts up in every invocation (for measuring the snapshot).
    Cold,
}

/// Load and check the interpreter at `path` (its hash must be the pinned one), and its
/// snapshot (made, or taken from the code cache).
pub(crate) fn load_interpreter(
    sb: &Sandbox,
    path: Option<&Path>,
) -> Result<Interpreter, LoadError> {
    let Some(path) = path else {
        return Err(LoadError::Python(format!(
            "no CPython interpreter for Python bots: neither KOTH_PYTHON_WASM nor HOME is set; install it with `{INSTALL}` and pass --python PATH"
        )));
    };
    let bytes = read_checked(path)?;
    let warm = warm(sb, &bytes)
        .map_err(|e| LoadError::Python(format!("the CPython interpreter's snapshot: {e}")))?;
    Ok(Interpreter {
        path: path.to_path_buf(),
        cold: OnceLock::new(),
        warm,
    })
}

/// The interpreter file at `path`, refused unless its hash is the pinned one.
fn read_checked(path: &Path) -> Result<Vec<u8>, LoadError> {
    let bytes = std::fs::read(path).map_err(|e| {
        LoadError::Python(format!(
            "cannot read the CPython interpreter {}: {e}; install it with `{INSTALL}` (or point --python / KOTH_PYTHON_WASM at {INTERPRETER_FILE})",
            path.display()
        ))
    })?;
    let sha: [u8; 32] = Sha256::digest(&bytes).into();
    if hex::encode(sha) != INTERPRETER_SHA256 {
        return Err(LoadError::Python(format!(
            "the CPython interpreter {} has SHA-256 {}, not the pinned {INTERPRETER_SHA256}; reinstall it with `{INSTALL}`",
            path.display(),
            hex::encode(sha)
        )));
    }
    Ok(bytes)
}

/// `python -S -B SCRIPT`'s arguments after `argv[0]`.
fn python_command(script_path: Vec<u8>) -> Vec<Vec<u8>> {
    let mut args: Vec<Vec<u8>> = PYTHON_FLAGS.iter().map(|f| f.as_bytes().to_vec()).collect();
    args.push(script_path);
    args
}

impl Interpreter {
    /// SHA-256 of the pre-initialised interpreter, in hex.
    pub(crate) fn snapshot_sha256(&self) -> &str {
        &self.warm.sha256
    }
}

/// The interpreter compiled as a WASI command (or taken from the code cache).
fn cold(sb: &Sandbox, path: &Path) -> Result<Cold, LoadError> {
    let bot = sb
        .load_bytes("python", &read_checked(path)?)
        .map_err(|e| LoadError::Python(format!("the CPython interpreter: {}", e.error)))?;
    match bot.code {
        Code::Module(ModuleCode {
            pre,
            entry: Entry::Start(start_export),
            memory_export,
            ..
        }) => Ok(Cold {
            pre,
            start_export,
            memory_export,
        }),
        _ => Err(LoadError::Python(
            "the CPython interpreter is not the pinned WASI command".into(),
        )),
    }
}

/// A Python bot: the script at `path` (its name is the file stem unless `name` is given),
/// run by `interp`. Its SHA-256 is the script's.
pub(crate) fn script_bot(
    sb: &Sandbox,
    interp: &Interpreter,
    path: &Path,
    name: &str,
    start: PythonStart,
) -> Result<Bot, LoadError> {
    const MAX_SCRIPT: u64 = 1 << 20;
    let size = std::fs::metadata(path)
        .map_err(|e| LoadError::Io(e.to_string()))?
        .len();
    if size > MAX_SCRIPT {
        return Err(LoadError::TooLarge {
            size,
            limit: MAX_SCRIPT,
        });
    }
    let script = std::fs::read(path).map_err(|e| LoadError::Io(e.to_string()))?;
    let file = path
        .file_name()
        .and_then(|f| f.to_str())
        .ok_or_else(|| LoadError::Python("the script's file name must be UTF-8".into()))?;
    let sha256: [u8; 32] = Sha256::digest(&script).into();
    let layer = ReadOnlyLayer::new()
        .with_file(file, script)
        .ok_or_else(|| {
            LoadError::Python(format!("`{file}` cannot be a file name in the sandbox"))
        })?;
    let script_path = format!("/{file}").into_bytes();
    let layer = Arc::new(layer);
    let code = match start {
        PythonStart::Snapshot => {
            let compiled = compile_script(&interp.warm, &layer, &script_path)?;
            ModuleCode {
                pre: interp.warm.pre.clone(),
                entry: Entry::Resume(interp.warm.resume.clone(), compiled),
                memory_export: interp.warm.memory_export,
                // The options are the snapshot's; the launcher reads the script from argv.
                lead_args: vec![script_path],
                layer: Some(layer),
            }
        }
        PythonStart::Cold => {
            let cold = interp.cold.get_or_init(|| cold(sb, &interp.path)).clone()?;
            ModuleCode {
                pre: cold.pre,
                entry: Entry::Start(cold.start_export),
                memory_export: cold.memory_export,
                lead_args: python_command(script_path),
                layer: Some(layer),
            }
        }
    };
    Ok(Bot {
        name: name.to_string(),
        sha256,
        code: Code::Module(code),
    })
}
