//! One component invocation: a fresh store and instance, one call, an [`Outcome`].

use super::super::engine::epoch_ticks;
use super::super::invoke::{Invocation, Report};
use super::super::outcome::{Outcome, TrapKind};
use super::host::{self, ComponentState, Setup};
use super::ComponentCode;
use std::sync::atomic::Ordering;
use wasmtime::component::{ComponentNamedList, Lift, Lower, ResourceTableError};
use wasmtime::{Store, Trap};
use wasmtime_wasi::I32Exit;

/// Where a failed call stood, to name its outcome.
enum Failure {
    Instantiating(wasmtime::Error),
    Running(wasmtime::Error),
}

impl ComponentCode {
    /// Run a `wasi:cli/command` component's `run`; `run` returning `err` is `exit(1)`, as
    /// `wasi:cli/exit`'s `exit(err)` is.
    pub(crate) fn run_command(&self, name: &str, inv: &Invocation) -> Report {
        let (mut report, result) = self.call::<(), (Result<(), ()>,)>(name, inv, ());
        if let Some((Err(()),)) = result {
            report.outcome = Outcome::Exit(1);
        }
        report
    }

    /// Instantiate, call the component's function with `params`, and return what it
    /// returned when the call ended `ok`. Never panics on anything the guest does.
    pub(crate) fn call<P, R>(&self, name: &str, inv: &Invocation, params: P) -> (Report, Option<R>)
    where
        P: ComponentNamedList + Lower + Send + Sync,
        R: ComponentNamedList + Lift + Send + Sync + 'static,
    {
        let limits = inv.limits;
        let state = host::state(Setup {
            name,
            args: &inv.args,
            stdin: &inv.stdin,
            seed: inv.seed,
            clock_start_ns: inv.clock_start_ns,
            limits,
        });
        let mut store = Store::new(self.pre.engine(), state);
        store.limiter(|s| &mut s.limiter);
        store.call_hook(host::call_hook);
        let result = run::<P, R>(self, &mut store, params, limits.wall_clock_ms);
        let fuel_used = limits.fuel.saturating_sub(store.get_fuel().unwrap_or(0));
        let st = store.into_data();
        let (outcome, value) = match result {
            Ok(v) => (Outcome::Ok, Some(v)),
            Err(e) => (classify(e, &st, limits.wall_clock_ms), None),
        };
        let (stdout, _) = st.stdout.take();
        let (stderr, stderr_dropped) = st.stderr.take();
        let report = Report {
            outcome,
            fuel_used,
            stdout,
            stderr,
            stderr_dropped,
        };
        (report, value)
    }
}

fn run<P, R>(
    code: &ComponentCode,
    store: &mut Store<ComponentState>,
    params: P,
    wall_clock_ms: u64,
) -> Result<R, Failure>
where
    P: ComponentNamedList + Lower + Send + Sync,
    R: ComponentNamedList + Lift + Send + Sync + 'static,
{
    let budget = store.data().fuel_budget;
    store.set_fuel(budget).map_err(Failure::Instantiating)?;
    store.set_epoch_deadline(epoch_ticks(wall_clock_ms));
    let instance = code
        .pre
        .instantiate(&mut *store)
        .map_err(Failure::Instantiating)?;
    let func = instance
        .get_typed_func::<P, R>(&mut *store, &code.func)
        .map_err(|e| Failure::Running(e.context("the export's type changed after loading")))?;
    func.call(&mut *store, params).map_err(Failure::Running)
}

/// Name the outcome of a failed instantiation or call, as for core modules.
fn classify(failure: Failure, st: &ComponentState, wall_clock_ms: u64) -> Outcome {
    let (err, instantiating) = match failure {
        Failure::Instantiating(e) => (e, true),
        Failure::Running(e) => (e, false),
    };
    if let Some(exit) = err.downcast_ref::<I32Exit>() {
        return match exit.0 {
            0 => Outcome::Ok,
            n => Outcome::Exit(n as u32),
        };
    }
    if st.stdout.overflowed.load(Ordering::Relaxed) {
        return Outcome::OutputLimit;
    }
    if matches!(
        err.downcast_ref::<ResourceTableError>(),
        Some(ResourceTableError::Full)
    ) {
        return Outcome::LimitExceeded;
    }
    if let Some(trap) = err.downcast_ref::<Trap>() {
        return super::super::invoke::trap_outcome(
            trap,
            st.limiter.grow_refused,
            wall_clock_ms,
            "component",
        );
    }
    if instantiating || st.limiter.table_refused {
        return Outcome::LimitExceeded;
    }
    // Anything else the guest caused through the canonical ABI (an invalid string, a
    // resource misused, a value out of range) is the guest's fault, never the host's.
    Outcome::Trap(TrapKind::Other)
}
