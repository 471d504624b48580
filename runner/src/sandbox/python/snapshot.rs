//! The interpreter's snapshot: made once per machine by running [`LAUNCHER`] to its exit and
//! pre-initialising it (`sandbox::preinit`), found again in the code cache, and resumed by
//! every invocation of a Python bot; and each script compiled once, inside it, when its bot is
//! loaded.

use super::{python_command, INTERPRETER_SHA256};
use crate::sandbox::loader::LoadError;
use crate::sandbox::preinit::{self, ArgvSlot, Resume};
use crate::sandbox::vfs::ReadOnlyLayer;
use crate::sandbox::wasi::state::HostState;
use crate::sandbox::{Bot, Code, Entry, Invocation, Limits, ModuleCode, Outcome, Sandbox};
use serde::{Deserialize, Serialize};
use sha2::{Digest, Sha256};
use std::sync::Arc;
use wasmtime::{InstancePre, ModuleExport};

/// The interpreter pre-initialised by [`LAUNCHER`], and where an invocation resumes it.
#[derive(Clone)]
pub(super) struct Warm {
    /// SHA-256 of the pre-initialised module, in hex.
    pub sha256: String,
    /// The compiled snapshot.
    pub pre: InstancePre<HostState>,
    /// Its memory.
    pub memory_export: ModuleExport,
    /// Where an invocation resumes it.
    pub resume: Resume,
}

/// The launcher the snapshot is taken from: it imports common modules, reports where to
/// resume, and exits; resumed, it runs the bot's script.
const LAUNCHER: &str = include_str!("launcher.py");
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

/// Room the compiled script leaves in the argument buffer for a game's arguments.
const ARGV_ROOM: usize = 256 << 10;

/// Compile the script once, in the snapshot (`--koth-compile`): its code, marshalled, for
/// every invocation to load instead of compiling the source again. A script that does not
/// compile (a syntax error, or any other error of `compile`) refuses the bot with the
/// interpreter's message, and so does a compile that does not finish within 20 times an
/// invocation's fuel; code too large for the argument buffer leaves the invocations to
/// compile the source themselves.
pub(super) fn compile_script(
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
    let inv = setup_invocation(warm.resume.argv.capacity);
    let r = compiler.invoke(&inv, None);
    match r.outcome {
        Outcome::Ok if warm.resume.fits(&r.stdout, ARGV_ROOM) => Ok(Arc::from(r.stdout)),
        Outcome::Ok | Outcome::OutputLimit => Ok(Arc::from(&[][..])),
        Outcome::Exit(1) => Err(LoadError::Python(format!(
            "the script does not compile:\n{}",
            String::from_utf8_lossy(&r.stderr).trim_end()
        ))),
        other => Err(LoadError::Python(format!(
            "compiling the script ended {other}{}",
            match String::from_utf8_lossy(&r.stderr).trim_end() {
                "" => String::new(),
                e => format!(":\n{e}"),
            }
        ))),
    }
}

/// The snapshot's compiled module and where it resumes: from the code cache, or made now.
pub(super) fn warm(sb: &Sandbox, interpreter: &[u8]) -> Result<Warm, String> {
    let mut h = Sha256::new();
    for part in [
        SNAPSHOT_FORMAT,
        crate::VERSION,
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
            let module = crate::sandbox::loader::compile(
                &sb.engine,
                &wasm,
                &key,
                sb.cache.as_ref(),
                &sb.load,
                sb.compiler.as_ref(),
            )
            .map_err(|e| e.to_string())?;
            if let Some(c) = &sb.cache {
                if let Ok(text) = serde_json::to_vec(&meta) {
                    c.put_note(&key, &text);
                }
            }
            (module, meta)
        }
    };
    // Every invocation starts with the snapshot's memory: a limit below it would fail every
    // one of them, so it is refused now, with the figure.
    if let Some(wasmtime::ExternType::Memory(m)) = module.get_export("memory") {
        let start = m.minimum().saturating_mul(m.page_size());
        if start > sb.load.memory_bytes {
            return Err(format!(
                "every Python bot starts with the snapshot's {start} bytes ({} MiB) of memory, above the {} MiB limit; give them more, e.g. --memory {}",
                start >> 20,
                sb.load.memory_bytes >> 20,
                (start >> 20) + 8
            ));
        }
    }
    let pre = sb
        .linker
        .instantiate_pre(&module)
        .map_err(|e| format!("cannot link it: {e:#}"))?;
    let export = |name: &str| preinit::export_index(&module, name);
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

/// What koth's own runs of the interpreter get (making the snapshot, compiling a script): a
/// fixed seed and clock, 20 times an invocation's fuel, a 10-minute backstop, and room for
/// `stdout_bytes` of output.
fn setup_invocation(stdout_bytes: u32) -> Invocation {
    Invocation {
        args: Vec::new(),
        stdin: Vec::new(),
        seed: [0; 32],
        clock_start_ns: 0,
        limits: Limits {
            fuel: 20 * Limits::default().fuel,
            stdout_bytes,
            wall_clock_ms: 600_000,
            ..Limits::default()
        },
    }
}

/// Run the launcher in the interpreter and snapshot it; find where to resume in its memory.
fn make_snapshot(sb: &Sandbox, interpreter: &[u8]) -> Result<(Vec<u8>, SnapshotMeta), String> {
    let layer = ReadOnlyLayer::new()
        .with_file(LAUNCHER_FILE, LAUNCHER.as_bytes().to_vec())
        .ok_or("the launcher's file name")?;
    let lead_args = python_command(format!("/{LAUNCHER_FILE}").into_bytes());
    let inv = setup_invocation(Limits::default().stdout_bytes);
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
    // The 32-bit word at `base + offset`.
    let word = |base: u32, offset: u32| -> Result<u32, String> {
        let at = base as usize + offset as usize;
        memory
            .get(at..at + 4)
            .map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
            .ok_or_else(|| format!("address {at} is outside the snapshot's memory"))
    };
    let layout = |what: &str| {
        format!("{what}: the interpreter's objects are not laid out as CPython 3.12's on wasm32")
    };
    // PyObject: ob_refcnt, ob_type.
    if word(function, 4)? != function_type {
        return Err(layout("the function's type"));
    }
    // PyTypeObject: ob_refcnt, ob_type, ob_size, tp_name, tp_basicsize, tp_itemsize,
    // tp_dealloc, tp_vectorcall_offset.
    let offset = word(function_type, 28)?;
    if !(8..256).contains(&offset) || offset % 4 != 0 {
        return Err(layout("tp_vectorcall_offset"));
    }
    let vectorcall = word(function, offset)?;
    // PyByteArrayObject: ob_refcnt, ob_type, ob_size, ob_alloc, ob_bytes.
    let argv_addr = word(argv, 16)?;
    let marker = b"KOTH-ARGV\0";
    if word(argv, 8)? != capacity
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

#[cfg(test)]
mod tests {
    use super::*;

    /// A memory laid out as the launcher's objects are in CPython 3.12 on wasm32: a function
    /// at 1000 whose type at 2000 puts the vectorcall slot at offset 48, holding table index
    /// 77; a bytearray at 3000 of 64 bytes at 4000, starting with the marker.
    fn memory() -> Vec<u8> {
        let mut m = vec![0u8; 8192];
        let mut put = |at: usize, v: u32| m[at..at + 4].copy_from_slice(&v.to_le_bytes());
        put(1004, 2000);
        put(2028, 48);
        put(1048, 77);
        put(3008, 64);
        put(3016, 4000);
        m[4000..4010].copy_from_slice(b"KOTH-ARGV\0");
        m
    }

    #[test]
    fn the_resume_point_is_found_by_following_the_layout() {
        let meta = find_resume(b"KOTH-SNAPSHOT 1000 2000 3000 64\n", &memory()).expect("found");
        assert_eq!(
            (
                meta.function,
                meta.vectorcall,
                meta.argv_addr,
                meta.argv_capacity
            ),
            (1000, 77, 4000, 64)
        );
    }

    #[test]
    fn a_layout_that_does_not_match_is_refused_with_the_step() {
        let report = b"KOTH-SNAPSHOT 1000 2000 3000 64\n";
        let mut wrong_type = memory();
        wrong_type[1004] = 1;
        let e = find_resume(report, &wrong_type).unwrap_err();
        assert!(e.contains("the function's type"), "{e}");
        let mut odd_offset = memory();
        odd_offset[2028] = 47;
        let e = find_resume(report, &odd_offset).unwrap_err();
        assert!(e.contains("tp_vectorcall_offset"), "{e}");
        let mut no_marker = memory();
        no_marker[4000] = b'X';
        let e = find_resume(report, &no_marker).unwrap_err();
        assert!(e.contains("argument buffer"), "{e}");
        let e = find_resume(b"KOTH-SNAPSHOT 1000 2000 3000 65", &memory()).unwrap_err();
        assert!(e.contains("argument buffer"), "{e}");
        let e = find_resume(b"KOTH-SNAPSHOT 9000 2000 3000 64", &memory()).unwrap_err();
        assert!(e.contains("outside"), "{e}");
        let e = find_resume(b"hello", &memory()).unwrap_err();
        assert!(e.contains("not its report"), "{e}");
        let e = find_resume(b"KOTH-SNAPSHOT 1 2", &memory()).unwrap_err();
        assert!(e.contains("four numbers"), "{e}");
    }
}
