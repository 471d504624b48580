//! The floor under an invocation, for `koth bench invoke`: bare wasmtime on the sandbox's own
//! engine (same settings, same pooling allocator) instantiating a module that does nothing,
//! through an `InstancePre` over a linker of stub imports. What koth adds on top of it (the
//! store's data, WASI state, the virtual directory, argv, the outcome) is the rest of an
//! invocation's time.

use koth::sandbox::engine::epoch_ticks;
use koth::sandbox::preview1::MODULE;
use koth::sandbox::Limits;
use wasmtime::{Caller, Engine, Extern, InstancePre, Linker, ModuleExport, Store};

/// The same two imports as [`MINIMAL_WAT`] (stubs, never called), one page of memory, and a
/// `_start` that returns at once.
const FLOOR_WAT: &str = r#"(module
  (import "wasi_snapshot_preview1" "path_open"
    (func (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write" (func (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (func (export "_start")))"#;

/// The least a Coup bot can do: open the history file (`bench_history.txt`, in the preopened
/// directory, fd 3) for appending, write one byte to it, return. Traps if either call fails.
pub const MINIMAL_WAT: &str = r#"(module
  (import "wasi_snapshot_preview1" "path_open"
    (func $path_open (param i32 i32 i32 i32 i32 i64 i64 i32 i32) (result i32)))
  (import "wasi_snapshot_preview1" "fd_write"
    (func $fd_write (param i32 i32 i32 i32) (result i32)))
  (memory (export "memory") 1)
  (data (i32.const 16) "bench_history.txt")
  (data (i32.const 48) "\40\00\00\00\01\00\00\00")
  (data (i32.const 64) "I")
  (func (export "_start")
    ;; path_open(3, follow, "bench_history.txt", no oflags, FD_WRITE, 0, APPEND, &fd at 0)
    (if (call $path_open (i32.const 3) (i32.const 1) (i32.const 16) (i32.const 17)
          (i32.const 0) (i64.const 64) (i64.const 0) (i32.const 1) (i32.const 0))
      (then unreachable))
    ;; fd_write(fd, one iovec at 48 = {64, 1}, &written at 8)
    (if (call $fd_write (i32.load (i32.const 0)) (i32.const 48) (i32.const 1) (i32.const 8))
      (then unreachable))))"#;

/// Fuel the floor's store starts with (its `_start` burns almost none).
const FLOOR_FUEL: u64 = 1_000_000;

/// A module ready to instantiate bare on the sandbox's engine, as bare as wasmtime allows.
pub struct Floor {
    pre: InstancePre<()>,
    start: ModuleExport,
}

impl Floor {
    /// The empty module, its imports resolved against stubs that do nothing.
    pub fn new(engine: &Engine) -> wasmtime::Result<Floor> {
        Floor::with(engine, FLOOR_WAT)
    }

    /// [`MINIMAL_WAT`] on the same stubs, except that `path_open` stores a descriptor
    /// number as a host must: wasmtime's share of the minimal module's invocation (its
    /// memory image, the page the host writes) without koth's host work.
    pub fn minimal(engine: &Engine) -> wasmtime::Result<Floor> {
        Floor::with(engine, MINIMAL_WAT)
    }

    fn with(engine: &Engine, wat: &str) -> wasmtime::Result<Floor> {
        let wasm = wat::parse_str(wat).map_err(|e| wasmtime::Error::msg(e.to_string()))?;
        let module = wasmtime::Module::new(engine, wasm)?;
        let mut linker: Linker<()> = Linker::new(engine);
        linker.func_wrap(
            MODULE,
            "path_open",
            |mut c: Caller<'_, ()>,
             _: i32,
             _: i32,
             _: i32,
             _: i32,
             _: i32,
             _: i64,
             _: i64,
             _: i32,
             out: i32| {
                if let Some(Extern::Memory(m)) = c.get_export("memory") {
                    // Out of bounds is the stub's caller's bug: it then reads garbage.
                    let _ = m.write(&mut c, out as u32 as usize, &4u32.to_le_bytes());
                }
                0i32
            },
        )?;
        linker.func_wrap(MODULE, "fd_write", |_: i32, _: i32, _: i32, _: i32| 0i32)?;
        let pre = linker.instantiate_pre(&module)?;
        let start = module
            .get_export_index("_start")
            .ok_or_else(|| wasmtime::Error::msg("the floor module has no `_start`"))?;
        Ok(Floor { pre, start })
    }

    /// One bare invocation: a store (fuel and epoch deadline set, as koth's are), the
    /// instance, a call of `_start`, the store dropped.
    pub fn run(&self) -> wasmtime::Result<()> {
        let mut store = Store::new(self.pre.module().engine(), ());
        store.set_fuel(FLOOR_FUEL)?;
        store.set_epoch_deadline(epoch_ticks(Limits::default().wall_clock_ms));
        let instance = self.pre.instantiate(&mut store)?;
        let start = match instance.get_module_export(&mut store, &self.start) {
            Some(wasmtime::Extern::Func(f)) => f.typed::<(), ()>(&store)?,
            _ => return Err(wasmtime::Error::msg("the floor's `_start` vanished")),
        };
        start.call(&mut store, ())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use koth::sandbox::{Invocation, Sandbox, SandboxOptions, Vfs, VfsLimits};

    #[test]
    fn the_floor_runs_and_the_minimal_module_appends_one_byte() {
        let sandbox = Sandbox::new(SandboxOptions::default()).expect("sandbox");
        let floor = Floor::new(sandbox.engine()).expect("floor");
        floor.run().expect("the floor runs");
        floor.run().expect("and again");
        let bare = Floor::minimal(sandbox.engine()).expect("bare minimal");
        bare.run().expect("the minimal module runs on stubs");
        let wasm = wat::parse_str(MINIMAL_WAT).expect("wat");
        let bot = sandbox.load_bytes("minimal", &wasm).expect("loads");
        let mut dir = Vfs::new(VfsLimits::default());
        dir.put_host_file("bench_history.txt", b"I\n");
        let inv = Invocation {
            args: Vec::new(),
            stdin: Vec::new(),
            seed: [0; 32],
            clock_start_ns: 0,
            limits: Limits::default(),
        };
        let r = bot.invoke(&inv, Some(&mut dir));
        assert!(r.outcome.is_ok(), "{}", r.outcome);
        assert_eq!(dir.host_file("bench_history.txt"), Some(&b"I\nI"[..]));
        // Without the file the open fails and the module traps.
        let r = bot.invoke(&inv, Some(&mut Vfs::new(VfsLimits::default())));
        assert!(!r.outcome.is_ok());
    }
}
