//! Plain Python bots: a `.py` file becomes a bot run by CPython built for WASI.
//!
//! The interpreter is one pinned preview-1 module (CPython 3.12.0, VMware Wasm Labs' build, with
//! its standard library packed inside the module), compiled once per sandbox and once per
//! machine through the compiled-code cache. Each script becomes a [`Bot`] that shares the
//! interpreter's compiled code and runs `python -S -B /<script> ARGS...`: the script sits in a
//! [`ReadOnlyLayer`] mounted in the root of the bot's directory (a directory with only the
//! layer and no quota when the game gives none, as Bank Heist).

use super::loader::LoadError;
use super::vfs::ReadOnlyLayer;
use super::{Bot, Code, ModuleCode, Sandbox};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use wasmtime::{InstancePre, ModuleExport};

/// File name of the pinned interpreter.
pub const INTERPRETER_FILE: &str = "python-3.12.0.wasm";
/// SHA-256 of the pinned interpreter: any other file is refused.
pub const INTERPRETER_SHA256: &str =
    "e5dc5a398b07b54ea8fdb503bf68fb583d533f10ec3f930963e02b9505f7a763";
/// The one-line install, quoted in every "interpreter missing" error.
pub const INSTALL: &str = "bash scripts/install-python";
/// Interpreter options before the script: no `site` (nothing to find there, and it halves the
/// start-up), no `.pyc` writes.
const PYTHON_FLAGS: [&str; 2] = ["-S", "-B"];

/// Where the interpreter is looked for: `$KOTH_PYTHON_WASM`, else
/// `$XDG_CACHE_HOME/koth/python/` or `~/.cache/koth/python/` (where `scripts/install-python`
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

/// The compiled interpreter, shared by every Python bot of a sandbox.
#[derive(Clone)]
pub(crate) struct Interpreter {
    pre: InstancePre<super::wasi::state::HostState>,
    start_export: ModuleExport,
    memory_export: ModuleExport,
}

/// Load and check the interpreter at `path` (its hash must be the pinned one).
pub(crate) fn load_interpreter(
    sb: &Sandbox,
    path: Option<&Path>,
) -> Result<Interpreter, LoadError> {
    let Some(path) = path else {
        return Err(LoadError::Python(format!(
            "no CPython interpreter for Python bots: neither KOTH_PYTHON_WASM nor HOME is set; install it with `{INSTALL}` and pass --python PATH"
        )));
    };
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
    let bot = sb
        .load_bytes("python", &bytes)
        .map_err(|e| LoadError::Python(format!("the CPython interpreter: {}", e.error)))?;
    match bot.code {
        Code::Module(m) => Ok(Interpreter {
            pre: m.pre,
            start_export: m.start_export,
            memory_export: m.memory_export,
        }),
        Code::Component(_) => Err(LoadError::Python(
            "the CPython interpreter is a component, not the pinned core module".into(),
        )),
    }
}

/// A Python bot: the script at `path` (its name is the file stem unless `name` is given),
/// run by `interp`. Its SHA-256 is the script's.
pub(crate) fn script_bot(interp: &Interpreter, path: &Path, name: &str) -> Result<Bot, LoadError> {
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
    let mut lead_args: Vec<Vec<u8>> = PYTHON_FLAGS.iter().map(|f| f.as_bytes().to_vec()).collect();
    lead_args.push(format!("/{file}").into_bytes());
    Ok(Bot {
        name: name.to_string(),
        sha256,
        code: Code::Module(ModuleCode {
            pre: interp.pre.clone(),
            start_export: interp.start_export,
            memory_export: interp.memory_export,
            lead_args,
            layer: Some(Arc::new(layer)),
        }),
    })
}
