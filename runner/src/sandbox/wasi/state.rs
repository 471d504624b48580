//! Everything one invocation's guest can reach through WASI, held in the wasmtime store.

use super::fds::FdTable;
use crate::sandbox::errno::Errno;
use crate::sandbox::limits::Limits;
use crate::sandbox::vfs::Vfs;
use rand_chacha::ChaCha12Rng;
use rand_core::SeedableRng;
use std::fmt;
use wasmtime::{Memory, ResourceLimiter};

/// 2000-01-01T00:00:00Z: the virtual realtime clock's origin, in nanoseconds since the Unix epoch.
pub const REALTIME_ORIGIN_NS: u64 = 946_684_800 * 1_000_000_000;
/// Fuel charged for every host call, on top of the guest's own instructions.
pub const HOST_CALL_FUEL: u64 = 100;
/// Fuel per iovec a read or write passes (decoded, bounds-checked, gathered).
pub const IOVEC_FUEL: u64 = 32;
/// Fuel per `poll_oneoff` subscription (decoded, answered with a 32-byte event).
pub const SUBSCRIPTION_FUEL: u64 = 64;
/// Fuel per argument `args_get` and `args_sizes_get` go through.
pub const ARG_FUEL: u64 = 32;

/// Why a host call ends the invocation (returned to wasmtime as the trap's error).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Stop {
    /// `proc_exit(code)`.
    Exit(u32),
    /// stdout went past its cap.
    OutputLimit,
    /// Host-call fuel charges exhausted the budget.
    OutOfFuel,
    /// The module has no memory export to pass data through.
    NoMemory,
}

impl fmt::Display for Stop {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Stop::Exit(c) => write!(f, "proc_exit({c})"),
            Stop::OutputLimit => f.write_str("stdout limit exceeded"),
            Stop::OutOfFuel => f.write_str("out of fuel in a host call"),
            Stop::NoMemory => f.write_str("module has no memory export"),
        }
    }
}

impl std::error::Error for Stop {}

/// A host call's failure: an errno the guest sees, or the end of the invocation.
pub(crate) enum Fail {
    Errno(Errno),
    Stop(Stop),
}

impl From<Errno> for Fail {
    fn from(e: Errno) -> Self {
        Fail::Errno(e)
    }
}

impl From<Stop> for Fail {
    fn from(s: Stop) -> Self {
        Fail::Stop(s)
    }
}

/// Result of a host call body.
pub(crate) type CallResult = Result<(), Fail>;

/// Memory and table limits for one store, a core module's or a component's, remembering
/// whether a grow was refused so that the trap which usually follows is reported as `out of
/// memory`. The memory limit is on the sum of the store's memories (a component may hold
/// several core instances, each with its own memory; a module has one).
pub(crate) struct Limiter {
    pub memory_bytes: usize,
    pub table_elements: usize,
    /// Bytes of memory the store's memories hold now.
    pub used: usize,
    pub grow_refused: bool,
    pub table_refused: bool,
    /// How many instances, tables and memories the store may hold: one each for a core
    /// module, wasmtime's defaults for a component.
    pub count: usize,
}

impl Limiter {
    /// The limiter of a core module's store: one instance, one table, one memory.
    pub(crate) fn module(limits: &crate::sandbox::Limits) -> Limiter {
        Limiter {
            count: 1,
            ..Limiter::component(limits)
        }
    }

    /// The limiter of a component's store.
    pub(crate) fn component(limits: &crate::sandbox::Limits) -> Limiter {
        Limiter {
            memory_bytes: usize::try_from(limits.memory_bytes).unwrap_or(usize::MAX),
            table_elements: usize::try_from(limits.table_elements).unwrap_or(usize::MAX),
            used: 0,
            grow_refused: false,
            table_refused: false,
            count: wasmtime::DEFAULT_INSTANCE_LIMIT,
        }
    }
}

impl ResourceLimiter for Limiter {
    fn memory_growing(
        &mut self,
        current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        let total = self.used.saturating_add(desired.saturating_sub(current));
        if total > self.memory_bytes {
            self.grow_refused = true;
            return Ok(false);
        }
        self.used = total;
        Ok(true)
    }

    fn table_growing(
        &mut self,
        _current: usize,
        desired: usize,
        _maximum: Option<usize>,
    ) -> wasmtime::Result<bool> {
        if desired > self.table_elements {
            self.table_refused = true;
            return Ok(false);
        }
        Ok(true)
    }

    fn instances(&self) -> usize {
        self.count
    }

    fn tables(&self) -> usize {
        self.count
    }

    fn memories(&self) -> usize {
        self.count
    }
}

/// A whole argv, `argv[0]` included, laid out as `args_get` writes it: every argument
/// followed by a NUL, in one buffer (one allocation per invocation instead of one per
/// argument).
#[derive(Debug, Default)]
pub(crate) struct Argv {
    /// The arguments, each followed by its terminating NUL.
    bytes: Vec<u8>,
    /// Where each argument starts in `bytes`.
    starts: Vec<u32>,
}

impl Argv {
    /// Empty it, keeping its memory for the next invocation's argv.
    pub fn clear(&mut self) {
        self.bytes.clear();
        self.starts.clear();
    }

    /// Make room for `count` more arguments of `bytes` bytes in all (NULs not counted).
    pub fn reserve(&mut self, count: usize, bytes: usize) {
        self.bytes.reserve(bytes + count);
        self.starts.reserve(count);
    }

    /// Append one argument.
    pub fn push(&mut self, arg: &[u8]) {
        // Arguments are a few KiB at most (the game's protocol): offsets fit in u32.
        self.starts.push(self.bytes.len() as u32);
        self.bytes.extend_from_slice(arg);
        self.bytes.push(0);
    }

    /// Number of arguments.
    pub fn len(&self) -> usize {
        self.starts.len()
    }

    /// Every argument with its NUL, back to back: what `args_get` copies into the guest.
    pub fn bytes(&self) -> &[u8] {
        &self.bytes
    }

    /// Where each argument starts in [`Argv::bytes`].
    pub fn starts(&self) -> &[u32] {
        &self.starts
    }

    /// Each argument, without its NUL.
    pub fn iter(&self) -> impl Iterator<Item = &[u8]> {
        let ends = self.starts.iter().skip(1).map(|&e| e as usize - 1);
        let ends = ends.chain(self.bytes.len().checked_sub(1));
        self.starts
            .iter()
            .zip(ends)
            .map(|(&start, end)| &self.bytes[start as usize..end])
    }
}

/// The store's data for one invocation.
pub(crate) struct HostState {
    pub limiter: Limiter,
    pub memory: Option<Memory>,
    pub limits: Limits,
    /// argv including argv[0].
    pub args: Argv,
    pub stdin: Vec<u8>,
    pub stdin_pos: usize,
    pub stdout: Vec<u8>,
    pub stderr: Vec<u8>,
    pub stderr_dropped: u64,
    pub fs: Option<Vfs>,
    pub fds: FdTable,
    /// Seed of the `random_get` stream.
    pub seed: [u8; 32],
    /// The stream, made at the first `random_get` (most bots never call it); boxed, so that
    /// its 320 bytes are not moved in and out of every store.
    pub rng: Option<Box<ChaCha12Rng>>,
    /// Virtual monotonic time at the start of the invocation.
    pub clock_start_ns: u64,
    /// Virtual time added by sleeps (`poll_oneoff` on clocks returns at once).
    pub slept_ns: u64,
    /// Fuel left when the current host call was entered.
    pub fuel_left: u64,
    /// Fuel the current host call charges for the bytes it moves.
    pub pending_fuel: u64,
}

impl HostState {
    /// Nanoseconds of virtual time this invocation has used: one per unit of fuel burnt,
    /// plus sleeps. Deterministic, and a guest that "thinks for 100 ms" stops at 100M fuel.
    pub fn elapsed_ns(&self) -> u64 {
        self.limits
            .fuel
            .saturating_sub(self.fuel_left)
            .saturating_add(self.slept_ns)
    }

    /// The virtual monotonic clock.
    pub fn monotonic_ns(&self) -> u64 {
        self.clock_start_ns.saturating_add(self.elapsed_ns())
    }

    /// The virtual realtime clock.
    pub fn realtime_ns(&self) -> u64 {
        REALTIME_ORIGIN_NS.saturating_add(self.monotonic_ns())
    }

    /// Charge fuel for `bytes` moved by this host call.
    pub fn charge_bytes(&mut self, bytes: u64) {
        self.pending_fuel = self.pending_fuel.saturating_add(bytes);
    }

    /// Charge fuel for other host work of this call (iovecs, subscriptions, arguments).
    pub fn charge_fuel(&mut self, fuel: u64) {
        self.pending_fuel = self.pending_fuel.saturating_add(fuel);
    }

    /// The invocation's random stream.
    pub fn rng(&mut self) -> &mut ChaCha12Rng {
        let seed = self.seed;
        self.rng
            .get_or_insert_with(|| Box::new(ChaCha12Rng::from_seed(seed)))
    }

    /// The virtual directory with its clock set to now, or `EBADF` if this bot has none.
    pub fn fs_now(&mut self) -> Result<&mut Vfs, Errno> {
        let now = self.realtime_ns();
        let fs = self.fs.as_mut().ok_or(Errno::Badf)?;
        fs.set_now(now);
        Ok(fs)
    }

    /// The virtual directory for reading.
    pub fn fs(&self) -> Result<&Vfs, Errno> {
        self.fs.as_ref().ok_or(Errno::Badf)
    }
}
