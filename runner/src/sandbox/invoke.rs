//! One invocation: a fresh instance, entered once (`_start`, or a pre-initialised module's
//! resume function), the instance dropped, an [`Outcome`].

use super::component::{BotKind, ComponentCode};
use super::engine::epoch_ticks;
use super::limits::Limits;
use super::outcome::{Outcome, TrapKind};
use super::vfs::{Vfs, VfsLimits};
use super::wasi::fds::FdTable;
use super::wasi::state::{Argv, HostState, Limiter, Stop};
use super::{Bot, Code, Entry, ModuleCode};
use serde::{Deserialize, Serialize};
use std::cell::Cell;
use wasmtime::{Instance, Store, Trap};

/// What one invocation gets: everything the bot can observe besides its directory.
#[derive(Debug, Clone)]
pub struct Invocation {
    /// Arguments after `argv[0]` (which is the bot's name), byte for byte.
    pub args: Vec<Vec<u8>>,
    /// Standard input.
    pub stdin: Vec<u8>,
    /// Seed of this invocation's `random_get` stream; derive it from the tournament seed and
    /// the invocation's identity (game, seat, invocation number).
    pub seed: [u8; 32],
    /// Virtual monotonic time at the start, in nanoseconds.
    pub clock_start_ns: u64,
    /// Limits for this invocation.
    pub limits: Limits,
}

/// How an invocation went.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Report {
    /// How it ended.
    pub outcome: Outcome,
    /// Fuel consumed (guest instructions plus host-call charges).
    pub fuel_used: u64,
    /// Everything written to stdout (at most the cap).
    pub stdout: Vec<u8>,
    /// The first bytes written to stderr (at most the cap).
    pub stderr: Vec<u8>,
    /// Bytes of stderr dropped past the cap.
    pub stderr_dropped: u64,
}

impl Bot {
    /// Run one invocation. `dir` is the bot's virtual directory (preopened as `/`), or `None`
    /// for a bot with no filesystem at all. Never panics on anything the bot does; every
    /// failure is an [`Outcome`].
    pub fn invoke(&self, inv: &Invocation, dir: Option<&mut Vfs>) -> Report {
        self.invoke_then(inv, dir, |_, _| ()).0
    }

    /// [`Bot::invoke`], then `then` looks at the instance as the invocation left it (before
    /// the store is dropped); it gets `None` when instantiation failed, and is not called for
    /// a component.
    pub(crate) fn invoke_then<T>(
        &self,
        inv: &Invocation,
        dir: Option<&mut Vfs>,
        then: impl FnOnce(&mut Store<HostState>, Option<Instance>) -> T,
    ) -> (Report, Option<T>) {
        let code = match &self.code {
            Code::Module(m) => m,
            Code::Component(c) => return (invoke_component(self, c, inv), None),
        };
        let limits = inv.limits;
        let with_fs = dir.is_some() || code.layer.is_some();
        let argv = || {
            std::iter::once(self.name.as_bytes())
                .chain(code.lead_args.iter().map(Vec::as_slice))
                .chain(inv.args.iter().map(Vec::as_slice))
        };
        let (mut args, fds) = match SPARE.with(Cell::take) {
            Some(spare) => (
                spare.args,
                spare.fds.reuse(with_fs, Vfs::ROOT, limits.open_fds),
            ),
            None => (
                Argv::default(),
                FdTable::new(with_fs, Vfs::ROOT, limits.open_fds),
            ),
        };
        args.reserve(
            inv.args.len() + code.lead_args.len() + 1,
            argv().map(<[u8]>::len).sum(),
        );
        argv().for_each(|a| args.push(a));
        let mut dir = dir;
        // The tree moves into the store for the invocation and back after it; what holds its
        // place meanwhile is never looked at.
        let mut fs = dir
            .as_deref_mut()
            .map(|d| std::mem::replace(d, Vfs::placeholder(d.limits())));
        if let Some(layer) = &code.layer {
            // A game that gives no directory still shows the layer, in a directory where the
            // bot can create nothing.
            let fs = fs.get_or_insert_with(|| {
                Vfs::new(VfsLimits {
                    max_bytes: 0,
                    max_nodes: 0,
                    max_depth: 1,
                })
            });
            fs.mount_layer(layer);
        }
        if let Some(fs) = &fs {
            // Work the host did on the tree between invocations is not the guest's to pay.
            fs.take_work();
        }
        let state = host_state(inv, args, fds, fs);
        let mut store = Store::new(code.pre.module().engine(), state);
        store.limiter(|s| &mut s.limiter);
        let (outcome, instance) = run(code, &mut store, limits);
        let seen = then(&mut store, instance);
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let state = store.into_data();
        if let (Some(d), Some(mut fs)) = (dir, state.fs) {
            // The invocation's descriptors are gone: removed files they held go too. A
            // read-only layer stays mounted: the next invocation finds it in place.
            fs.let_go_all();
            *d = fs;
        }
        let mut args = state.args;
        args.clear();
        SPARE.with(|s| {
            s.set(Some(Spare {
                args,
                fds: state.fds,
            }))
        });
        let report = Report {
            outcome,
            fuel_used,
            stdout: state.stdout,
            stderr: state.stderr,
            stderr_dropped: state.stderr_dropped,
        };
        (report, Some(seen))
    }
}

/// What the last invocation on this thread finished with, emptied, for the next one: its
/// argv and descriptor table. Allocating and freeing them every time was a measurable share
/// of a small bot's invocation. Holds at most the largest argv and the most descriptors a
/// limit allows.
struct Spare {
    args: Argv,
    fds: FdTable,
}

thread_local! {
    static SPARE: Cell<Option<Spare>> = const { Cell::new(None) };
}

/// The store's data for one invocation of a core module: `args` is its whole argv, `fds` its
/// descriptor table, `fs` its directory.
pub(crate) fn host_state(inv: &Invocation, args: Argv, fds: FdTable, fs: Option<Vfs>) -> HostState {
    let limits = inv.limits;
    HostState {
        limiter: Limiter::module(&limits),
        memory: None,
        limits,
        args,
        stdin: inv.stdin.clone(),
        stdin_pos: 0,
        stdout: Vec::new(),
        stderr: Vec::new(),
        stderr_dropped: 0,
        fs,
        fds,
        seed: inv.seed,
        rng: None,
        clock_start_ns: inv.clock_start_ns,
        slept_ns: 0,
        fuel_left: limits.fuel,
        pending_fuel: 0,
    }
}

/// A component invoked as a command: `wasi:cli/run`. A component has no files (its loader
/// refuses `wasi:filesystem/preopens`), so the bot's directory is left as it was.
fn invoke_component(bot: &Bot, code: &ComponentCode, inv: &Invocation) -> Report {
    match &code.kind {
        BotKind::Command => code.run_command(&bot.name, inv),
        kind => Report {
            outcome: Outcome::HostFault(format!(
                "bot `{}` is a {kind}: only its game's world adapter can call it",
                bot.name
            )),
            fuel_used: 0,
            stdout: Vec::new(),
            stderr: Vec::new(),
            stderr_dropped: 0,
        },
    }
}

fn run(
    bot: &ModuleCode,
    store: &mut Store<HostState>,
    limits: Limits,
) -> (Outcome, Option<Instance>) {
    if let Err(e) = store.set_fuel(limits.fuel) {
        return (Outcome::HostFault(format!("cannot set fuel: {e}")), None);
    }
    store.set_epoch_deadline(epoch_ticks(limits.wall_clock_ms));
    let instance = match bot.pre.instantiate(&mut *store) {
        Ok(i) => i,
        Err(e) => return (classify(e, store.data(), true), None),
    };
    (enter(bot, store, instance), Some(instance))
}

/// Call the module's entry on a fresh instance.
fn enter(bot: &ModuleCode, store: &mut Store<HostState>, instance: Instance) -> Outcome {
    let memory = match instance.get_module_export(&mut *store, &bot.memory_export) {
        Some(wasmtime::Extern::Memory(m)) => m,
        _ => return Outcome::HostFault("memory export vanished".into()),
    };
    store.data_mut().memory = Some(memory);
    let called = match &bot.entry {
        Entry::Start(export) => {
            let start = match instance.get_module_export(&mut *store, export) {
                Some(wasmtime::Extern::Func(f)) => f,
                _ => return Outcome::HostFault("_start export vanished".into()),
            };
            match start.typed::<(), ()>(&*store) {
                Ok(f) => f.call(&mut *store, ()),
                Err(_) => return Outcome::HostFault("_start has parameters or results".into()),
            }
        }
        Entry::Resume(resume, data) => {
            let argv = resume.argv_bytes(&store.data().args);
            match resume.call(&mut *store, instance, memory, &argv, data) {
                // The resumed code ends the invocation through `proc_exit`; returning instead
                // is the guest's failure, not a clean exit.
                Ok(Ok(())) => return Outcome::Trap(TrapKind::Other),
                Ok(r) => r,
                Err(fault) => return Outcome::HostFault(fault),
            }
        }
    };
    match called {
        Ok(()) => Outcome::Ok,
        Err(e) => classify(e, store.data(), false),
    }
}

/// The outcome of a trap, for modules and components alike. `grow_refused`: the limiter
/// refused a memory grow, so the trap that followed is the bot running out of memory; `what`
/// the backstop's message names ("module" or "component").
pub(super) fn trap_outcome(
    trap: &Trap,
    grow_refused: bool,
    wall_clock_ms: u64,
    what: &str,
) -> Outcome {
    let kind = match trap {
        Trap::OutOfFuel => return Outcome::OutOfFuel,
        Trap::Interrupt => {
            return Outcome::HostFault(format!(
                "the {wall_clock_ms} ms wall-clock backstop fired before its fuel ran out: a koth \
                 bug (fuel pays for all of a bot's work); keep this bot's {what} and report it"
            ))
        }
        _ if grow_refused => return Outcome::OutOfMemory,
        Trap::StackOverflow => TrapKind::StackOverflow,
        Trap::MemoryOutOfBounds | Trap::HeapMisaligned => TrapKind::MemoryOutOfBounds,
        Trap::TableOutOfBounds => TrapKind::TableOutOfBounds,
        Trap::IndirectCallToNull => TrapKind::IndirectCallToNull,
        Trap::BadSignature => TrapKind::BadSignature,
        Trap::IntegerOverflow => TrapKind::IntegerOverflow,
        Trap::IntegerDivisionByZero => TrapKind::DivisionByZero,
        Trap::BadConversionToInteger => TrapKind::BadConversion,
        Trap::UnreachableCodeReached => TrapKind::Unreachable,
        _ => TrapKind::Other,
    };
    Outcome::Trap(kind)
}

/// Name the outcome of a failed instantiation or entry call.
fn classify(err: wasmtime::Error, st: &HostState, instantiating: bool) -> Outcome {
    if let Some(stop) = err.downcast_ref::<Stop>() {
        return match *stop {
            Stop::Exit(0) => Outcome::Ok,
            Stop::Exit(n) => Outcome::Exit(n),
            Stop::OutputLimit => Outcome::OutputLimit,
            Stop::OutOfFuel => Outcome::OutOfFuel,
            Stop::NoMemory => Outcome::HostFault("no memory export".into()),
        };
    }
    if let Some(trap) = err.downcast_ref::<Trap>() {
        return trap_outcome(
            trap,
            st.limiter.grow_refused,
            st.limits.wall_clock_ms,
            "module",
        );
    }
    if instantiating || st.limiter.table_refused {
        // Instantiation refused by a limit (memory, table, instance count, pool slots).
        let msg = format!("{err:#}");
        if msg.contains("pooling") || msg.contains("concurrent") {
            return Outcome::HostFault(msg);
        }
        return Outcome::LimitExceeded;
    }
    Outcome::HostFault(format!("{err:#}"))
}
