//! What a component's WASI imports see: wasmtime-wasi's preview-2 host, with koth's virtual
//! clocks, seeded randomness, capped in-memory stdio, no network and no files.

use super::super::limits::Limits;
use super::super::wasi::state::Limiter;
use rand_chacha::ChaCha12Rng;
use rand_core::{RngCore, SeedableRng};
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;
use wasmtime::component::{Linker, Resource, ResourceTable};
use wasmtime::StoreContextMut;
use wasmtime_wasi::cli::{IsTerminal, StdoutStream};
use wasmtime_wasi::p2::pipe::{MemoryInputPipe, MemoryOutputPipe};
use wasmtime_wasi::p2::{DynPollable, OutputStream, Pollable, StreamError};
use wasmtime_wasi::{HostMonotonicClock, HostWallClock, WasiCtx, WasiCtxView, WasiView};

/// The virtual wall clock's epoch: 2000-01-01T00:00:00Z, in seconds since 1970.
const WALL_EPOCH_S: u64 = 946_684_800;

/// Fuel a host call costs, as for a core module's WASI call, on top of its work.
pub(crate) const HOST_CALL_FUEL: u64 = 100;

/// Fuel per argument `get-arguments` returns (on top of a fuel per byte), as for a core
/// module's `args_get`.
const ARG_FUEL: usize = crate::sandbox::wasi::state::ARG_FUEL as usize;

/// Fuel per pollable `wasi:io/poll.poll` goes through (looked up, grouped, its future made
/// and polled): about the host time of 128 fuel of the slowest guest code.
const POLLABLE_FUEL: usize = 128;

/// Host work of the current call beyond the flat fee, in fuel: one per byte written to stdout
/// or stderr (kept or dropped), drawn from a random generator (wasmtime-wasi draws a 32-bit
/// word per random byte, so a random byte costs 4) or returned by `get-arguments` (plus
/// [`ARG_FUEL`] per argument), and [`POLLABLE_FUEL`] per pollable.
/// Charged when the call returns; shared by the store's call hook and the streams and
/// generators given to wasmtime-wasi.
pub(crate) type HostWork = Arc<AtomicU64>;

pub(crate) fn charge(work: &HostWork, fuel: usize) {
    // One store's thread at a time: a plain load and store, not a locked add, since
    // wasmtime-wasi draws random bytes one at a time.
    let total = work.load(Ordering::Relaxed).saturating_add(fuel as u64);
    work.store(total, Ordering::Relaxed);
}

/// Host resources (streams, pollables, descriptors) a component may hold at once, per open
/// descriptor allowed to a core module: without a cap, a loop of cheap host calls that each
/// create a handle would grow host memory until fuel runs out.
const RESOURCES_PER_FD: usize = 16;

/// The store's data for one component invocation.
pub(crate) struct ComponentState {
    pub ctx: WasiCtx,
    pub table: ResourceTable,
    pub limiter: Limiter,
    pub clock: Arc<VirtualTime>,
    pub fuel_budget: u64,
    pub work: HostWork,
    /// argv, as `get-arguments` returns it.
    pub argv: Vec<String>,
    pub stdout: CappedOutput,
    pub stderr: CappedOutput,
}

impl WasiView for ComponentState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        WasiCtxView {
            ctx: &mut self.ctx,
            table: &mut self.table,
        }
    }
}

/// A store's data that holds a component's WASI state: a bot's [`ComponentState`] itself, or
/// a referee's state beside its match (`crate::referee`), so both get the same WASI host.
pub(crate) trait WasiHost: WasiView + Send + 'static {
    /// The WASI state.
    fn wasi(&self) -> &ComponentState;
    /// The WASI state, to change.
    fn wasi_mut(&mut self) -> &mut ComponentState;
}

impl WasiHost for ComponentState {
    fn wasi(&self) -> &ComponentState {
        self
    }
    fn wasi_mut(&mut self) -> &mut ComponentState {
        self
    }
}

/// Virtual time: one nanosecond per unit of fuel burnt (sampled at every host call) plus
/// every sleep. Shared between the store's call hook and the clocks given to wasmtime-wasi.
#[derive(Debug, Default)]
pub(crate) struct VirtualTime {
    start_ns: AtomicU64,
    burnt: AtomicU64,
    slept: AtomicU64,
}

impl VirtualTime {
    pub fn new(start_ns: u64) -> Self {
        let t = VirtualTime::default();
        t.start_ns.store(start_ns, Ordering::Relaxed);
        t
    }

    /// Nanoseconds on the monotonic clock now.
    pub fn now_ns(&self) -> u64 {
        self.start_ns
            .load(Ordering::Relaxed)
            .saturating_add(self.burnt.load(Ordering::Relaxed))
            .saturating_add(self.slept.load(Ordering::Relaxed))
    }

    fn sleep(&self, ns: u64) {
        // Saturating: a guest asking to sleep for u64::MAX must not wrap the clock.
        let slept = self.slept.load(Ordering::Relaxed).saturating_add(ns);
        self.slept.store(slept, Ordering::Relaxed);
    }
}

struct Monotonic(Arc<VirtualTime>);
impl HostMonotonicClock for Monotonic {
    fn resolution(&self) -> u64 {
        1
    }
    fn now(&self) -> u64 {
        self.0.now_ns()
    }
}

struct Wall(Arc<VirtualTime>);
impl HostWallClock for Wall {
    fn resolution(&self) -> Duration {
        Duration::from_nanos(1)
    }
    fn now(&self) -> Duration {
        Duration::from_secs(WALL_EPOCH_S) + Duration::from_nanos(self.0.now_ns())
    }
}

/// koth's ChaCha12 stream behind the `rand` 0.10 trait wasmtime-wasi takes; every byte drawn
/// is host work.
struct SeededRandom(ChaCha12Rng, HostWork);
impl rand_core_wasi::TryRng for SeededRandom {
    type Error = std::convert::Infallible;
    fn try_next_u32(&mut self) -> Result<u32, Self::Error> {
        charge(&self.1, 4);
        Ok(self.0.next_u32())
    }
    fn try_next_u64(&mut self) -> Result<u64, Self::Error> {
        charge(&self.1, 8);
        Ok(self.0.next_u64())
    }
    fn try_fill_bytes(&mut self, dst: &mut [u8]) -> Result<(), Self::Error> {
        charge(&self.1, dst.len());
        self.0.fill_bytes(dst);
        Ok(())
    }
}

/// Stdout or stderr in host memory. Stdout past its cap ends the call (`output limit`);
/// stderr past its cap is counted and dropped.
#[derive(Clone)]
pub(crate) struct CappedOutput {
    inner: Arc<Mutex<Captured>>,
    cap: usize,
    fatal: bool,
    work: HostWork,
    /// Set when a fatal stream overflowed, so the outcome can be named.
    pub overflowed: Arc<AtomicBool>,
}

#[derive(Default)]
struct Captured {
    bytes: Vec<u8>,
    dropped: u64,
}

impl CappedOutput {
    pub fn new(cap: u32, fatal: bool, work: HostWork) -> Self {
        CappedOutput {
            inner: Arc::default(),
            cap: cap as usize,
            fatal,
            work,
            overflowed: Arc::default(),
        }
    }

    /// What was written (at most the cap), and how many bytes were dropped.
    pub fn take(&self) -> (Vec<u8>, u64) {
        match self.inner.lock() {
            Ok(mut c) => (std::mem::take(&mut c.bytes), c.dropped),
            Err(_) => (Vec::new(), 0),
        }
    }
}

impl OutputStream for CappedOutput {
    fn write(&mut self, bytes: bytes::Bytes) -> Result<(), StreamError> {
        // The bytes were copied out of the guest whether kept or dropped.
        charge(&self.work, bytes.len());
        let Ok(mut c) = self.inner.lock() else {
            return Err(StreamError::trap("output buffer poisoned"));
        };
        let room = self.cap.saturating_sub(c.bytes.len());
        if bytes.len() > room {
            if self.fatal {
                self.overflowed.store(true, Ordering::Relaxed);
                return Err(StreamError::trap("output limit"));
            }
            c.bytes.extend_from_slice(&bytes[..room]);
            c.dropped += (bytes.len() - room) as u64;
            return Ok(());
        }
        c.bytes.extend_from_slice(&bytes);
        Ok(())
    }
    fn flush(&mut self) -> Result<(), StreamError> {
        Ok(())
    }
    fn check_write(&mut self) -> Result<usize, StreamError> {
        // Always room for one more write: an overflowing one is what ends the call.
        Ok(1 << 20)
    }
}

#[async_trait::async_trait]
impl Pollable for CappedOutput {
    async fn ready(&mut self) {}
}

impl IsTerminal for CappedOutput {
    fn is_terminal(&self) -> bool {
        false
    }
}

impl StdoutStream for CappedOutput {
    fn p2_stream(&self) -> Box<dyn OutputStream> {
        Box::new(self.clone())
    }
    fn async_stream(&self) -> Box<dyn tokio::io::AsyncWrite + Send + Sync> {
        // Only WASI preview 3 uses this path, which koth does not link; an empty sink keeps
        // the trait satisfied without a second buffer.
        Box::new(MemoryOutputPipe::new(0))
    }
}

/// Everything one invocation needs to build its store data.
pub(crate) struct Setup<'a> {
    pub name: &'a str,
    pub args: &'a [Vec<u8>],
    pub stdin: &'a [u8],
    pub seed: [u8; 32],
    pub clock_start_ns: u64,
    pub limits: Limits,
}

/// The store data for one invocation.
pub(crate) fn state(setup: Setup<'_>) -> ComponentState {
    let clock = Arc::new(VirtualTime::new(setup.clock_start_ns));
    let work = HostWork::default();
    let stdout = CappedOutput::new(setup.limits.stdout_bytes, true, work.clone());
    let stderr = CappedOutput::new(setup.limits.stderr_bytes, false, work.clone());
    let mut rng = ChaCha12Rng::from_seed(setup.seed);
    // The insecure stream and seed come from the same generator, after the secure one's
    // seed: all three are a function of the invocation's seed alone.
    let mut secure_seed = [0u8; 32];
    rng.fill_bytes(&mut secure_seed);
    let mut insecure_seed = [0u8; 32];
    rng.fill_bytes(&mut insecure_seed);
    let hashmap_seed = (u128::from(rng.next_u64()) << 64) | u128::from(rng.next_u64());
    let mut b = WasiCtx::builder();
    let mut argv: Vec<String> = vec![setup.name.to_string()];
    // WASI preview 2 arguments are strings: bytes that are not UTF-8 are replaced.
    argv.extend(
        setup
            .args
            .iter()
            .map(|a| String::from_utf8_lossy(a).into_owned()),
    );
    b.args(&argv)
        .stdin(MemoryInputPipe::new(setup.stdin.to_vec()))
        .stdout(stdout.clone())
        .stderr(stderr.clone())
        .wall_clock(Wall(clock.clone()))
        .monotonic_clock(Monotonic(clock.clone()))
        .secure_random(SeededRandom(
            ChaCha12Rng::from_seed(secure_seed),
            work.clone(),
        ))
        .insecure_random(SeededRandom(
            ChaCha12Rng::from_seed(insecure_seed),
            work.clone(),
        ))
        .insecure_random_seed(hashmap_seed)
        .max_random_size(u64::from(setup.limits.random_bytes_per_call))
        .allow_tcp(false)
        .allow_udp(false)
        .allow_ip_name_lookup(false)
        .socket_addr_check(|_, _| Box::pin(async { false }));
    let mut table = ResourceTable::new();
    table.set_max_capacity(setup.limits.open_fds as usize * RESOURCES_PER_FD);
    ComponentState {
        ctx: b.build(),
        table,
        limiter: Limiter::component(&setup.limits),
        clock,
        fuel_budget: setup.limits.fuel,
        work,
        argv,
        stdout,
        stderr,
    }
}

/// On every call into the host: charge the flat fee going in and the call's work coming out
/// (ending the call `out of fuel` if the work is more than is left), and move the virtual
/// clock to the fuel burnt so far.
pub(crate) fn call_hook<T: WasiHost>(
    mut store: StoreContextMut<'_, T>,
    hook: wasmtime::CallHook,
) -> wasmtime::Result<()> {
    let cost = match hook {
        wasmtime::CallHook::CallingHost => HOST_CALL_FUEL,
        wasmtime::CallHook::ReturningFromHost => {
            store.data().wasi().work.swap(0, Ordering::Relaxed)
        }
        _ => return Ok(()),
    };
    let left = store.get_fuel()?;
    if cost > left {
        store.set_fuel(0)?;
        return Err(wasmtime::Trap::OutOfFuel.into());
    }
    store.set_fuel(left - cost)?;
    let data = store.data().wasi();
    data.clock.burnt.store(
        data.fuel_budget.saturating_sub(left - cost),
        Ordering::Relaxed,
    );
    Ok(())
}

/// A pollable that is always ready: a sleep has already moved the virtual clock.
struct Elapsed;
#[async_trait::async_trait]
impl Pollable for Elapsed {
    async fn ready(&mut self) {}
}

fn elapsed<T: WasiHost>(
    store: &mut StoreContextMut<'_, T>,
    ns: u64,
) -> wasmtime::Result<(Resource<DynPollable>,)> {
    store.data().wasi().clock.sleep(ns);
    let table = &mut store.data_mut().wasi_mut().table;
    let r = table.push(Elapsed)?;
    Ok((wasmtime_wasi::p2::subscribe(table, r)?,))
}

/// The linker: every WASI 0.2 interface from wasmtime-wasi, then the two sleeping
/// functions replaced so that a sleep never blocks the host (it moves the virtual clock),
/// `poll` replaced by wasmtime-wasi's own with a charge per pollable (a flat fee would let one
/// call make the host visit hundreds of pollables), and `get-arguments` by one that charges
/// for what it copies.
pub(crate) fn linker<T: WasiHost>(engine: &wasmtime::Engine) -> wasmtime::Result<Linker<T>> {
    let mut linker: Linker<T> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)?;
    linker.allow_shadowing(true);
    let mut clock = linker.instance("wasi:clocks/monotonic-clock@0.2.12")?;
    clock.func_wrap("subscribe-duration", |mut store, (ns,): (u64,)| {
        elapsed(&mut store, ns)
    })?;
    clock.func_wrap("subscribe-instant", |mut store, (when,): (u64,)| {
        let now = store.data().wasi().clock.now_ns();
        elapsed(&mut store, when.saturating_sub(now))
    })?;
    let mut env = linker.instance("wasi:cli/environment@0.2.12")?;
    env.func_wrap("get-arguments", |store: StoreContextMut<'_, T>, (): ()| {
        let wasi = store.data().wasi();
        let argv = wasi.argv.clone();
        // As a core module's `args_get`: per argument, and per byte copied.
        let bytes: usize = argv.iter().map(String::len).sum();
        charge(&wasi.work, argv.len() * ARG_FUEL + bytes);
        Ok((argv,))
    })?;
    let mut poll = linker.instance("wasi:io/poll@0.2.12")?;
    poll.func_wrap(
        "poll",
        |mut store: StoreContextMut<'_, T>, (pollables,): (Vec<Resource<DynPollable>>,)| {
            charge(
                &store.data().wasi().work,
                pollables.len().saturating_mul(POLLABLE_FUEL),
            );
            let ready = wasmtime_wasi::p2::bindings::sync::io::poll::Host::poll(
                &mut store.data_mut().wasi_mut().table,
                pollables,
            )?;
            Ok((ready,))
        },
    )?;
    Ok(linker)
}
