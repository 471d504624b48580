//! Pre-initialisation: run a WASI command once, up to its exit, and turn the memory and
//! globals it leaves into a new module that starts in that state (wasmtime-wizer's instrument
//! and snapshot steps). Every invocation then gets a fresh instance of that state and resumes
//! at one function of the module's table, with its arguments delivered into a buffer in
//! memory.
//!
//! Game-blind and language-blind: the caller says what to run, reads from the run's stdout and
//! memory where to resume, and owns what the resumed function does.

use super::invoke::{host_state, Invocation, Report};
use super::vfs::{ReadOnlyLayer, Vfs, VfsLimits};
use super::wasi::fds::FdTable;
use super::wasi::state::{Argv, HostState};
use super::{Bot, Code, Entry, ModuleCode, Sandbox};
use std::future::Future;
use std::sync::Arc;
use std::task::{Context, Poll, Waker};
use wasm_encoder::{ExportKind, ExportSection, RawSection};
use wasmparser::{Parser, Payload};
use wasmtime::{Instance, Memory, ModuleExport, Ref, Store, Val};
use wasmtime_wizer::{InstanceState, SnapshotVal, Wizer};

/// The export under which a pre-initialised module's function table is reachable.
pub(crate) const TABLE_EXPORT: &str = "koth:table";

/// Where and how an invocation resumes a pre-initialised module: `table[index](params)`, a
/// function of type `(i32, i32, i32, i32) -> i32`, after the arguments are written to `argv`.
/// It must end the invocation with `proc_exit`: a return is reported as a trap.
#[derive(Clone)]
pub(crate) struct Resume {
    /// The table export.
    pub table: ModuleExport,
    /// The function's index in the table.
    pub index: u32,
    /// Its arguments.
    pub params: [i32; 4],
    /// Where the invocation's arguments go.
    pub argv: ArgvSlot,
}

/// A buffer in the snapshot's memory that receives an invocation's whole argv and the bot's
/// data: a little-endian `u32` length and the arguments joined by NUL bytes, then a
/// little-endian `u32` length and the data.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ArgvSlot {
    /// Its address in linear memory.
    pub addr: u32,
    /// Its size in bytes, length prefix included.
    pub capacity: u32,
}

impl Resume {
    /// The arguments as the slot holds them. Each is cut at its first NUL byte, as a C
    /// program reading `args_get` sees it, so that a NUL never makes two arguments of one.
    pub(crate) fn argv_bytes(&self, args: &Argv) -> Vec<u8> {
        let cut = |a: &[u8]| a.split(|&b| b == 0).next().unwrap_or_default().to_vec();
        args.iter().map(cut).collect::<Vec<_>>().join(&0u8)
    }

    /// Whether `data` leaves room in the buffer for `argv_room` bytes of arguments.
    pub(crate) fn fits(&self, data: &[u8], argv_room: usize) -> bool {
        data.len().saturating_add(argv_room).saturating_add(8) <= self.argv.capacity as usize
    }

    /// Deliver `argv` and `data` and call the function. The outer error is the host's (the
    /// buffer is too small, or the module is not what was snapshotted); the inner one is the
    /// call's.
    pub(crate) fn call(
        &self,
        store: &mut Store<HostState>,
        instance: Instance,
        memory: Memory,
        argv: &[u8],
        data: &[u8],
    ) -> Result<Result<(), wasmtime::Error>, String> {
        if !self.fits(data, argv.len()) {
            return Err(format!(
                "the arguments take {} bytes, more than the {} bytes left for them in this pre-initialised bot's argument buffer",
                argv.len(),
                (self.argv.capacity as usize).saturating_sub(data.len() + 8)
            ));
        }
        let mut slot = Vec::with_capacity(argv.len() + data.len() + 8);
        for part in [argv, data] {
            // Both fit in the u32-sized buffer (checked above).
            slot.extend_from_slice(&(part.len() as u32).to_le_bytes());
            slot.extend_from_slice(part);
        }
        memory
            .write(&mut *store, self.argv.addr as usize, &slot)
            .map_err(|e| format!("the argument buffer is outside memory: {e}"))?;
        let func = self.func(store, instance)?;
        Ok(func.call(&mut *store, self.params.into()).map(|_| ()))
    }

    /// The function to resume at, checked for its type.
    fn func(&self, store: &mut Store<HostState>, instance: Instance) -> Result<ResumeFunc, String> {
        let table = match instance.get_module_export(&mut *store, &self.table) {
            Some(wasmtime::Extern::Table(t)) => t,
            _ => return Err("the pre-initialised module's table export vanished".into()),
        };
        match table.get(&mut *store, u64::from(self.index)) {
            Some(Ref::Func(Some(f))) => f
                .typed(&*store)
                .map_err(|e| format!("table entry {} has the wrong type: {e}", self.index)),
            _ => Err(format!("table entry {} is not a function", self.index)),
        }
    }

    /// Check on a throwaway instance of `pre` that the function is there with its type.
    pub(crate) fn check(
        &self,
        sb: &Sandbox,
        pre: &wasmtime::InstancePre<HostState>,
    ) -> Result<(), String> {
        let inv = Invocation {
            args: Vec::new(),
            stdin: Vec::new(),
            seed: [0; 32],
            clock_start_ns: 0,
            limits: super::Limits::default(),
        };
        let mut store = Store::new(
            &sb.engine,
            host_state(
                &inv,
                Argv::default(),
                FdTable::new(false, Vfs::ROOT, inv.limits.open_fds),
                None,
            ),
        );
        store.limiter(|s| &mut s.limiter);
        let _ = store.set_fuel(0);
        let instance = pre
            .instantiate(&mut store)
            .map_err(|e| format!("cannot instantiate the pre-initialised module: {e:#}"))?;
        self.func(&mut store, instance).map(|_| ())
    }
}

/// The type of the function a pre-initialised module resumes at.
type ResumeFunc = wasmtime::TypedFunc<(i32, i32, i32, i32), i32>;

/// The index of `module`'s export `name`, or an error naming it.
pub(crate) fn export_index(module: &wasmtime::Module, name: &str) -> Result<ModuleExport, String> {
    module
        .get_export_index(name)
        .ok_or_else(|| format!("the module has no `{name}` export"))
}

/// What a pre-initialisation run produced.
pub(crate) struct Preinitialised {
    /// The new module: the run's memory as data segments, its globals' final values, the
    /// function table exported as [`TABLE_EXPORT`], `_start` no longer exported.
    pub wasm: Vec<u8>,
    /// How the run went; its stdout is how the guest tells the caller where to resume.
    pub report: Report,
    /// The run's linear memory as it exited.
    pub memory: Vec<u8>,
}

/// Run `wasm`'s `_start` once as `inv` says, with `lead_args` before the invocation's and
/// `layer` mounted in an empty directory, until it exits; then snapshot it.
pub(crate) fn preinitialise(
    sb: &Sandbox,
    wasm: &[u8],
    inv: &Invocation,
    lead_args: Vec<Vec<u8>>,
    layer: Option<Arc<ReadOnlyLayer>>,
) -> Result<Preinitialised, String> {
    let wasm = export_table(wasm)?;
    let mut wizer = Wizer::new();
    wizer.init_func("_start");
    let (cx, instrumented) = wizer
        .instrument(&wasm)
        .map_err(|e| format!("cannot instrument the module: {e:#}"))?;
    let module = wasmtime::Module::new(&sb.engine, &instrumented)
        .map_err(|e| format!("cannot compile the instrumented module: {e:#}"))?;
    let pre = sb
        .linker
        .instantiate_pre(&module)
        .map_err(|e| format!("cannot link the instrumented module: {e:#}"))?;
    let export = |name: &str| export_index(&module, name);
    let bot = Bot {
        name: "preinit".into(),
        sha256: [0; 32],
        code: Code::Module(ModuleCode {
            pre,
            entry: Entry::Start(export("_start")?),
            memory_export: export("memory")?,
            lead_args,
            layer,
        }),
    };
    let mut dir = Vfs::new(VfsLimits::default());
    let (report, taken) = bot.invoke_then(inv, Some(&mut dir), |store, instance| {
        let instance = instance.ok_or("the module did not instantiate")?;
        let memory = instance
            .get_memory(&mut *store, "memory")
            .ok_or("the module has no memory")?
            .data(&*store)
            .to_vec();
        let mut state = Captured {
            store,
            instance,
            missing: None,
        };
        let wasm = block_on(wizer.snapshot(&cx, &mut state))
            .ok_or("the snapshot did not complete")?
            .map_err(|e| format!("cannot snapshot: {e:#}"))?;
        if let Some(m) = state.missing {
            return Err(format!("cannot snapshot: {m}"));
        }
        Ok::<_, String>((wasm, memory))
    });
    if !report.outcome.is_ok() {
        return Err(format!(
            "the pre-initialisation run ended {} (stderr: {})",
            report.outcome,
            String::from_utf8_lossy(&report.stderr)
        ));
    }
    let (wasm, memory) = taken.ok_or("the module is a component")??;
    Ok(Preinitialised {
        wasm,
        report,
        memory,
    })
}

/// `wasm` with its table 0 exported as [`TABLE_EXPORT`]; sections are copied as they are.
fn export_table(wasm: &[u8]) -> Result<Vec<u8>, String> {
    let mut out = wasm_encoder::Module::new();
    let mut has_table = false;
    let mut exported = false;
    for payload in Parser::new(0).parse_all(wasm) {
        let payload = payload.map_err(|e| format!("invalid module: {e}"))?;
        match &payload {
            Payload::TableSection(r) => has_table |= r.count() > 0,
            Payload::ImportSection(r) => {
                for imports in r.clone() {
                    let imports = imports.map_err(|e| format!("invalid module: {e}"))?;
                    for import in imports {
                        let (_, import) = import.map_err(|e| format!("invalid module: {e}"))?;
                        has_table |= matches!(import.ty, wasmparser::TypeRef::Table(_));
                    }
                }
            }
            Payload::ExportSection(r) => {
                if !has_table {
                    return Err("the module has no function table".into());
                }
                let mut exports = ExportSection::new();
                for e in r.clone() {
                    let e = e.map_err(|e| format!("invalid module: {e}"))?;
                    if e.name == TABLE_EXPORT {
                        return Err(format!("the module already exports `{TABLE_EXPORT}`"));
                    }
                    let kind = match e.kind {
                        wasmparser::ExternalKind::Func | wasmparser::ExternalKind::FuncExact => {
                            ExportKind::Func
                        }
                        wasmparser::ExternalKind::Table => ExportKind::Table,
                        wasmparser::ExternalKind::Memory => ExportKind::Memory,
                        wasmparser::ExternalKind::Global => ExportKind::Global,
                        wasmparser::ExternalKind::Tag => ExportKind::Tag,
                    };
                    exports.export(e.name, kind, e.index);
                }
                exports.export(TABLE_EXPORT, ExportKind::Table, 0);
                out.section(&exports);
                exported = true;
                continue;
            }
            _ => {}
        }
        if let Some((id, range)) = payload.as_section() {
            out.section(&RawSection {
                id,
                data: &wasm[range],
            });
        }
    }
    if !exported {
        // A WASI command exports at least `_start` and `memory`.
        return Err("the module exports nothing".into());
    }
    Ok(out.finish())
}

/// wasmtime-wizer's view of an instance: its globals and memory by export name.
struct Captured<'a> {
    store: &'a mut Store<HostState>,
    instance: Instance,
    /// An export the snapshot asked for and did not find.
    missing: Option<String>,
}

impl InstanceState for Captured<'_> {
    fn global_get(
        &mut self,
        name: &str,
        _type_hint: wasmtime_wizer::ValType,
    ) -> impl Future<Output = SnapshotVal> + Send {
        let value = self
            .instance
            .get_global(&mut *self.store, name)
            .map(|g| g.get(&mut *self.store));
        let value = match value {
            Some(Val::I32(x)) => SnapshotVal::I32(x),
            Some(Val::I64(x)) => SnapshotVal::I64(x),
            Some(Val::F32(x)) => SnapshotVal::F32(x),
            Some(Val::F64(x)) => SnapshotVal::F64(x),
            Some(Val::V128(x)) => SnapshotVal::V128(x.as_u128()),
            _ => {
                self.missing = Some(format!("no numeric global `{name}`"));
                SnapshotVal::I32(0)
            }
        };
        std::future::ready(value)
    }

    fn memory_contents(
        &mut self,
        name: &str,
        contents: impl FnOnce(&[u8]) + Send,
    ) -> impl Future<Output = ()> + Send {
        match self.instance.get_memory(&mut *self.store, name) {
            Some(m) => contents(m.data(&*self.store)),
            None => {
                self.missing = Some(format!("no memory `{name}`"));
                contents(&[]);
            }
        }
        std::future::ready(())
    }
}

/// Poll `f` once: wizer's snapshot only awaits [`Captured`]'s futures, which are ready.
fn block_on<F: Future>(f: F) -> Option<F::Output> {
    let mut f = std::pin::pin!(f);
    match f.as_mut().poll(&mut Context::from_waker(Waker::noop())) {
        Poll::Ready(v) => Some(v),
        Poll::Pending => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_table_export_is_added_and_the_rest_kept() {
        let wasm = wat::parse_str(
            r#"(module (memory (export "memory") 1) (table 2 funcref)
                 (func (export "_start")))"#,
        )
        .expect("wat");
        let out = export_table(&wasm).expect("exported");
        let engine = wasmtime::Engine::default();
        let m = wasmtime::Module::new(&engine, &out).expect("valid");
        let names: Vec<_> = m.exports().map(|e| e.name().to_string()).collect();
        assert_eq!(names, ["memory", "_start", TABLE_EXPORT]);
        let no_table = wat::parse_str(r#"(module (func (export "_start")))"#).expect("wat");
        assert!(export_table(&no_table)
            .unwrap_err()
            .contains("no function table"));
        let no_exports = wat::parse_str("(module (table 1 funcref))").expect("wat");
        assert!(export_table(&no_exports)
            .unwrap_err()
            .contains("exports nothing"));
    }

    #[test]
    fn arguments_are_cut_at_a_nul_as_c_strings_are() {
        let module = wasmtime::Module::new(
            &wasmtime::Engine::default(),
            wat::parse_str(r#"(module (table (export "t") 1 funcref))"#).expect("wat"),
        )
        .expect("module");
        let r = Resume {
            table: module.get_export_index("t").expect("export"),
            index: 0,
            params: [0; 4],
            argv: ArgvSlot {
                addr: 0,
                capacity: 64,
            },
        };
        let mut args = Argv::default();
        for a in [&b"bot"[..], b"a\0b", b"", b"c"] {
            args.push(a);
        }
        assert_eq!(
            args.iter().collect::<Vec<_>>(),
            [&b"bot"[..], b"a\0b", b"", b"c"]
        );
        assert_eq!(args.bytes(), b"bot\0a\0b\0\0c\0");
        assert_eq!(args.starts(), [0, 4, 8, 9]);
        let argv = r.argv_bytes(&args);
        assert_eq!(argv, b"bot\0a\0\0c");
        // 8 bytes of lengths, the data, the arguments: 64 in all at most.
        assert!(r.fits(&[0; 20], 36));
        assert!(!r.fits(&[0; 20], 37));
    }
}
