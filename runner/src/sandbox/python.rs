//! Plain Python bots: a `.py` file becomes a bot run by CPython built for WASI.
//!
//! The interpreter is one pinned preview-1 module (CPython 3.12.0, VMware Wasm Labs' build, with
//! its standard library packed inside the module), compiled once per sandbox and once per
//! machine through the compiled-code cache. Each script becomes a [`Bot`] that shares the
//! interpreter's compiled code and runs `python -S -B /<script> ARGS...`: the script sits in a
//! [`ReadOnlyLayer`] mounted in the root of the bot's directory (a directory with only the
//! layer and no quota when the game gives none, as Bank Heist).

use super::loader::LoadError;
use super::preinit::{self, ArgvSlot, Resume};
use super::vfs::ReadOnlyLayer;
use super::{Bot, Code, Entry, Invocation, Limits, ModuleCode, Outcome, Sandbox};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
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

/// The interpreter, shared by every Python bot of a sandbox: its snapshot, and the
/// interpreter itself compiled only if a bot is to start cold.
pub(crate) struct Interpreter {
    /// The checked file.
    bytes: Vec<u8>,
    cold: OnceLock<Result<Cold, LoadError>>,
    warm: Warm,
}

/// The interpreter as a WASI command.
#[derive(Clone)]
struct Cold {
    pre: InstancePre<super::wasi::state::HostState>,
    start_export: ModuleExport,
    memory_export: ModuleExport,
}

/// The interpreter pre-initialised by [`LAUNCHER`], and where an invocation resumes it.
#[derive(Clone)]
struct Warm {
    /// SHA-256 of the pre-initialised module, in hex.
    sha256: String,
    pre: InstancePre<super::wasi::state::HostState>,
    memory_export: ModuleExport,
    resume: Resume,
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

/// The launcher the snapshot is taken from: it imports common modules, reports where to
/// resume, and exits; resumed, it runs the bot's script.
const LAUNCHER: &str = include_str!("python_launcher.py");
/// Its file in the pre-initialisation run's read-only layer.
const LAUNCHER_FILE: &str = "koth_launcher.py";
/// Bumped when the snapshot's making changes in a way the inputs below do not show.
const SNAPSHOT_FORMAT: &str = "koth python snapshot 1";

/// Where the launcher's snapshot resumes, as found in its memory (cached beside the compiled
/// snapshot).
#[derive(Debug, Clone, Serialize, Deserialize, PartialEq, Eq)]
struct SnapshotMeta {
    /// `_koth_main`, a Python function object.
    function: u32,
    /// Its vectorcall entry: an index in the function table.
    vectorcall: u32,
    /// The argument buffer's bytes.
    argv_addr: u32,
    /// Their number.
    argv_capacity: u32,
    /// SHA-256 of the pre-initialised module, in hex.
    sha256: String,
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
    let warm = warm(sb, &bytes)
        .map_err(|e| LoadError::Python(format!("the CPython interpreter's snapshot: {e}")))?;
    Ok(Interpreter {
        bytes,
        cold: OnceLock::new(),
        warm,
    })
}

impl Interpreter {
    /// SHA-256 of the pre-initialised interpreter, in hex.
    pub(crate) fn snapshot_sha256(&self) -> &str {
        &self.warm.sha256
    }
}

/// Room the compiled script leaves in the argument buffer for a game's arguments.
const ARGV_ROOM: usize = 256 << 10;

/// Compile the script once, in the snapshot (`--koth-compile`): its code, marshalled, for
/// every invocation to load instead of compiling the source again. A syntax error refuses the
/// bot, with the interpreter's message; code too large for the argument buffer, or a compile
/// that runs out of fuel or memory, leaves the invocations to compile the source themselves.
fn compile_script(
    warm: &Warm,
    layer: &Arc<ReadOnlyLayer>,
    script_path: &[u8],
) -> Result<Arc<[u8]>, LoadError> {
    let compiler = Bot {
        name: "python".into(),
        sha256: [0; 32],
        code: Code::Module(ModuleCode {
            pre: warm.pre.clone(),
            entry: Entry::Resume(warm.resume.clone(), Arc::from(&[][..])),
            memory_export: warm.memory_export,
            lead_args: vec![b"--koth-compile".to_vec(), script_path.to_vec()],
            layer: Some(layer.clone()),
        }),
    };
    let inv = Invocation {
        args: Vec::new(),
        stdin: Vec::new(),
        seed: [0; 32],
        clock_start_ns: 0,
        limits: Limits {
            fuel: 20_000_000_000,
            stdout_bytes: warm.resume.argv.capacity,
            wall_clock_ms: 600_000,
            ..Limits::default()
        },
    };
    let r = compiler.invoke(&inv, None);
    match r.outcome {
        Outcome::Ok if warm.resume.fits(&r.stdout, ARGV_ROOM) => Ok(Arc::from(r.stdout)),
        Outcome::Exit(1) => Err(LoadError::Python(format!(
            "the script does not compile:\n{}",
            String::from_utf8_lossy(&r.stderr).trim_end()
        ))),
        _ => Ok(Arc::from(&[][..])),
    }
}

/// The interpreter compiled as a WASI command (or taken from the code cache).
fn cold(sb: &Sandbox, interpreter: &[u8]) -> Result<Cold, LoadError> {
    let bot = sb
        .load_bytes("python", interpreter)
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

/// The snapshot's compiled module and where it resumes: from the code cache, or made now.
fn warm(sb: &Sandbox, interpreter: &[u8]) -> Result<Warm, String> {
    let mut h = Sha256::new();
    for part in [
        SNAPSHOT_FORMAT,
        env!("CARGO_PKG_VERSION"),
        INTERPRETER_SHA256,
        LAUNCHER,
    ] {
        h.update((part.len() as u64).to_le_bytes());
        h.update(part);
    }
    let key: [u8; 32] = h.finalize().into();
    let cached = sb.cache.as_ref().and_then(|c| {
        let meta = serde_json::from_slice::<SnapshotMeta>(&c.get_note(&key)?).ok()?;
        Some((c.get(&sb.engine, &key)?, meta))
    });
    let (module, meta) = match cached {
        Some(hit) => hit,
        None => {
            let (wasm, meta) = make_snapshot(sb, interpreter)?;
            let module =
                super::loader::compile(&sb.engine, &wasm, &key, sb.cache.as_ref(), &sb.load)
                    .map_err(|e| e.to_string())?;
            if let Some(c) = &sb.cache {
                if let Ok(text) = serde_json::to_vec(&meta) {
                    c.put_note(&key, &text);
                }
            }
            (module, meta)
        }
    };
    let pre = sb
        .linker
        .instantiate_pre(&module)
        .map_err(|e| format!("cannot link it: {e:#}"))?;
    let export = |name: &str| {
        module
            .get_export_index(name)
            .ok_or_else(|| format!("it has no `{name}` export"))
    };
    let resume = Resume {
        table: export(preinit::TABLE_EXPORT)?,
        index: meta.vectorcall,
        // _PyFunction_Vectorcall(function, no arguments, 0, no keywords).
        params: [meta.function as i32, 0, 0, 0],
        argv: ArgvSlot {
            addr: meta.argv_addr,
            capacity: meta.argv_capacity,
        },
    };
    resume.check(sb, &pre)?;
    Ok(Warm {
        sha256: meta.sha256,
        memory_export: export("memory")?,
        pre,
        resume,
    })
}

/// Run the launcher in the interpreter and snapshot it; find where to resume in its memory.
fn make_snapshot(sb: &Sandbox, interpreter: &[u8]) -> Result<(Vec<u8>, SnapshotMeta), String> {
    let layer = ReadOnlyLayer::new()
        .with_file(LAUNCHER_FILE, LAUNCHER.as_bytes().to_vec())
        .ok_or("the launcher's file name")?;
    let mut lead_args: Vec<Vec<u8>> = PYTHON_FLAGS.iter().map(|f| f.as_bytes().to_vec()).collect();
    lead_args.push(format!("/{LAUNCHER_FILE}").into_bytes());
    let inv = Invocation {
        args: Vec::new(),
        stdin: Vec::new(),
        seed: [0; 32],
        clock_start_ns: 0,
        limits: Limits {
            fuel: 20_000_000_000,
            wall_clock_ms: 600_000,
            ..Limits::default()
        },
    };
    let done = preinit::preinitialise(sb, interpreter, &inv, lead_args, Some(Arc::new(layer)))?;
    let mut meta = find_resume(&done.report.stdout, &done.memory)?;
    meta.sha256 = hex::encode(Sha256::digest(&done.wasm));
    Ok((done.wasm, meta))
}

/// Read the launcher's report (`KOTH-SNAPSHOT function type argv-bytearray capacity`) and
/// follow CPython 3.12's object layout in `memory` to the function's vectorcall entry and the
/// buffer's bytes, checking each step.
fn find_resume(stdout: &[u8], memory: &[u8]) -> Result<SnapshotMeta, String> {
    let text = String::from_utf8_lossy(stdout);
    let nums: Vec<u32> = text
        .trim()
        .strip_prefix("KOTH-SNAPSHOT ")
        .ok_or_else(|| format!("the launcher printed {text:?}, not its report"))?
        .split(' ')
        .map(|n| {
            n.parse::<u32>()
                .map_err(|e| format!("the launcher's report {text:?}: {e}"))
        })
        .collect::<Result<_, _>>()?;
    let &[function, function_type, argv, capacity] = nums.as_slice() else {
        return Err(format!(
            "the launcher's report {text:?} has not four numbers"
        ));
    };
    let word = |addr: u32| -> Result<u32, String> {
        let at = addr as usize;
        memory
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("address {addr} is outside the snapshot's memory"))
    };
    let layout = |what: &str| {
        format!("{what}: the interpreter's objects are not laid out as CPython 3.12's on wasm32")
    };
    // PyObject: ob_refcnt, ob_type.
    if word(function + 4)? != function_type {
        return Err(layout("the function's type"));
    }
    // PyTypeObject: ob_refcnt, ob_type, ob_size, tp_name, tp_basicsize, tp_itemsize,
    // tp_dealloc, tp_vectorcall_offset.
    let offset = word(function_type + 28)?;
    if !(8..256).contains(&offset) || offset % 4 != 0 {
        return Err(layout("tp_vectorcall_offset"));
    }
    let vectorcall = word(function + offset)?;
    // PyByteArrayObject: ob_refcnt, ob_type, ob_size, ob_alloc, ob_bytes.
    let argv_addr = word(argv + 16)?;
    let marker = b"KOTH-ARGV\0";
    if word(argv + 8)? != capacity
        || memory.get(argv_addr as usize..argv_addr as usize + marker.len()) != Some(&marker[..])
    {
        return Err(layout("the argument buffer"));
    }
    Ok(SnapshotMeta {
        function,
        vectorcall,
        argv_addr,
        argv_capacity: capacity,
        sha256: String::new(),
    })
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
            let cold = interp
                .cold
                .get_or_init(|| cold(sb, &interp.bytes))
                .clone()?;
            let mut lead_args: Vec<Vec<u8>> =
                PYTHON_FLAGS.iter().map(|f| f.as_bytes().to_vec()).collect();
            lead_args.push(script_path);
            ModuleCode {
                pre: cold.pre,
                entry: Entry::Start(cold.start_export),
                memory_export: cold.memory_export,
                lead_args,
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
