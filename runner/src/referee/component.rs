//! A referee that is a WebAssembly component of the `koth:game/referee` world: loaded and
//! checked like a bot, run sandboxed like one (its own fuel per match, a memory limit,
//! koth's clocks and randomness, no files, no network), a fresh instance per match.
//!
//! Whatever it does, a match ends with a result or as a referee fault naming why: a trap,
//! fuel or memory run out, a call koth refuses (see [`super::host`]), a result that does
//! not fit the match.

use super::host::MatchHost;
use super::pages::Pages;
use super::shape::check_description;
use super::Referee;
use crate::sandbox::component::{self as host_wasi, ComponentState, Setup, WasiHost};
use crate::sandbox::engine::epoch_ticks;
use crate::sandbox::{Limits, LoadError, Sandbox, VfsLimits};
use crate::tournament::RefereeEntry;
use koth_referee as sdk;
use koth_referee::{Abort, Description, MatchResult, MatchSetup};
use std::path::{Path, PathBuf};
use std::sync::atomic::Ordering;
use thiserror::Error;
use wasmtime::component::{ComponentExportIndex, HasSelf, Linker};
use wasmtime::{Store, StoreContextMut, Trap};
use wasmtime_wasi::{WasiCtxView, WasiView};

/// The world's Rust types, generated from `wit/referee.wit`.
#[allow(missing_docs)]
mod bindings {
    wasmtime::component::bindgen!({
        path: "../wit",
        world: "koth:game/referee@0.1.0",
        imports: { default: trappable },
    });
}

use bindings::koth::game::host as wh;
use bindings::koth::game::types as wt;

/// The optional interface of the `referee-with-pages` world, and its two functions.
const PAGES: &str = "koth:game/pages@0.1.0";
const PAGE_FUNCS: [&str; 2] = ["protocol", "viewer"];

/// The optional interface of the `referee-with-scratch` world, and its one function.
const SCRATCH: &str = "koth:game/scratch@0.1.0";
const SCRATCH_FUNC: &str = "per-bot";

/// The interfaces a referee may import beside WASI 0.2, and their version prefix.
const REFEREE_IMPORTS: &[(&str, &str)] = &[("koth:game/host", "0.1."), ("koth:game/types", "0.1.")];

/// How much a referee may use per match.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct RefereeLimits {
    /// Fuel for the whole match: the referee's own instructions and the host's work it
    /// asks for (each decision costs it [`super::host::DECIDE_FUEL`] plus the bytes passed).
    pub fuel: u64,
    /// Linear memory in all, in bytes.
    pub memory_bytes: u64,
}

impl Default for RefereeLimits {
    fn default() -> Self {
        RefereeLimits {
            fuel: 10_000_000_000,
            memory_bytes: 256 << 20,
        }
    }
}

/// Wall-clock backstop for one stretch of the referee's own code between two host calls:
/// with fuel on it fires only on a host bug.
const BACKSTOP_MS: u64 = 120_000;

/// A referee that could not be loaded.
#[derive(Debug, Error)]
pub enum RefereeLoadError {
    /// The file could not be read, compiled or linked.
    #[error("referee `{}`: {error}", path.display())]
    Load {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        error: LoadError,
    },
    /// Its `describe` failed or described a game koth cannot run.
    #[error("referee `{}`: {why}", path.display())]
    Description {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        why: String,
    },
    /// It is not the referee a manifest (or a contest) names: another SHA-256.
    #[error(
        "the referee {} has SHA-256 {found}, the manifest says {expected}: not the referee that played",
        path.display()
    )]
    NotTheOne {
        /// The file.
        path: PathBuf,
        /// Its SHA-256.
        found: String,
        /// The one recorded.
        expected: String,
    },
}

/// The store's data: the referee's WASI state and the match it plays.
struct RefereeState {
    wasi: ComponentState,
    host: Option<MatchHost>,
}

impl WasiView for RefereeState {
    fn ctx(&mut self) -> WasiCtxView<'_> {
        self.wasi.ctx()
    }
}

impl WasiHost for RefereeState {
    fn wasi(&self) -> &ComponentState {
        &self.wasi
    }
    fn wasi_mut(&mut self) -> &mut ComponentState {
        &mut self.wasi
    }
}

impl RefereeState {
    /// Run `f` on the match, charging the referee for the host's work; a refused call
    /// traps the referee (the match already knows why).
    fn with<T>(
        &mut self,
        f: impl FnOnce(&mut MatchHost) -> Result<T, Abort>,
    ) -> wasmtime::Result<T> {
        let Some(host) = self.host.as_mut() else {
            return Err(wasmtime::Error::msg(
                "the referee called the host outside a match",
            ));
        };
        let r = f(host);
        host_wasi::charge(&self.wasi.work, host.take_work() as usize);
        r.map_err(|abort| wasmtime::Error::msg(abort.reason().to_string()))
    }
}

impl wt::Host for RefereeState {}

impl wh::Host for RefereeState {
    fn decide(&mut self, r: wt::DecisionRequest) -> wasmtime::Result<wt::DecisionReport> {
        let req = sdk::DecisionRequest {
            seat: r.seat,
            phase: r.phase,
            args: r.args,
            stdin: r.stdin,
        };
        let report = self.with(|h| sdk::Host::decide(h, req))?;
        Ok(wt::DecisionReport {
            outcome: match report.outcome {
                sdk::Outcome::Ok => wt::Outcome::Ok,
                sdk::Outcome::Exit(n) => wt::Outcome::Exit(n),
                sdk::Outcome::Trap(k) => wt::Outcome::Trap(k),
                sdk::Outcome::OutOfFuel => wt::Outcome::OutOfFuel,
                sdk::Outcome::OutOfMemory => wt::Outcome::OutOfMemory,
                sdk::Outcome::OutputLimit => wt::Outcome::OutputLimit,
                sdk::Outcome::LimitExceeded => wt::Outcome::LimitExceeded,
            },
            stdout: report.stdout,
            stderr_tail: report.stderr_tail,
            fuel: report.fuel,
        })
    }

    fn judge(&mut self, v: wt::Verdict) -> wasmtime::Result<()> {
        let verdict = sdk::Verdict {
            answer: v.answer,
            failure: v.failure.map(|f| sdk::Failure {
                kind: f.kind,
                detail: f.detail,
            }),
            events: v.events,
        };
        self.with(|h| sdk::Host::judge(h, verdict))
    }

    fn show(&mut self, state: String) -> wasmtime::Result<()> {
        self.with(|h| sdk::Host::show(h, &state))
    }

    fn log(&mut self, line: String) -> wasmtime::Result<()> {
        self.with(|h| sdk::Host::log(h, &line))
    }

    fn read_file(&mut self, seat: u32, path: String) -> wasmtime::Result<Option<Vec<u8>>> {
        self.with(|h| sdk::Host::read_file(h, seat, &path))
    }

    fn write_file(&mut self, seat: u32, path: String, data: Vec<u8>) -> wasmtime::Result<()> {
        self.with(|h| sdk::Host::write_file(h, seat, &path, &data))
    }

    fn remove_file(&mut self, seat: u32, path: String) -> wasmtime::Result<bool> {
        self.with(|h| sdk::Host::remove_file(h, seat, &path))
    }

    fn list_files(&mut self, seat: u32) -> wasmtime::Result<Vec<(String, u64)>> {
        self.with(|h| sdk::Host::list_files(h, seat))
    }

    fn random(&mut self, len: u32) -> wasmtime::Result<Vec<u8>> {
        self.with(|h| sdk::Host::random(h, len))
    }
}

/// The component call hook, and a fresh backstop after every host call: the time a
/// referee spends waiting on bots is not its own.
fn call_hook(
    mut store: StoreContextMut<'_, RefereeState>,
    hook: wasmtime::CallHook,
) -> wasmtime::Result<()> {
    let returning = matches!(hook, wasmtime::CallHook::ReturningFromHost);
    host_wasi::call_hook(store.as_context_mut(), hook)?;
    if returning {
        store.set_epoch_deadline(epoch_ticks(BACKSTOP_MS));
    }
    Ok(())
}

use wasmtime::AsContextMut;

/// Whether `bytes` is a component that imports or exports `koth:game` interfaces: a
/// referee, not a bot (for `koth check`, which names each file's kind).
pub fn is_referee(bytes: &[u8]) -> bool {
    use wasmparser::{Parser, Payload};
    if !Parser::is_component(bytes) {
        return false;
    }
    let mut depth = 0usize;
    for payload in Parser::new(0).parse_all(bytes) {
        let Ok(payload) = payload else { return false };
        match payload {
            Payload::Version { .. } => depth += 1,
            Payload::End(_) => depth = depth.saturating_sub(1),
            Payload::ComponentImportSection(r)
                if depth == 1
                    && r.clone()
                        .into_iter()
                        .flatten()
                        .any(|i| i.name.name.starts_with("koth:game/")) =>
            {
                return true;
            }
            Payload::ComponentExportSection(r)
                if depth == 1
                    && r.clone()
                        .into_iter()
                        .flatten()
                        .any(|e| e.name.name.starts_with("koth:game/")) =>
            {
                return true;
            }
            _ => {}
        }
    }
    false
}

/// A loaded referee component.
pub struct ComponentReferee {
    name: String,
    sha256: [u8; 32],
    pre: bindings::RefereePre<RefereeState>,
    description: Description,
    pages: Pages,
    per_bot_scratch: bool,
    limits: RefereeLimits,
}

impl std::fmt::Debug for ComponentReferee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ComponentReferee")
            .field("name", &self.name)
            .field("sha256", &hex::encode(self.sha256))
            .finish()
    }
}

impl ComponentReferee {
    /// Load the referee `entry` records (a run's manifest, a contest's configuration) from
    /// `path`, with the limits it records, and check that it is that referee: its SHA-256.
    pub fn load_pinned(
        sandbox: &Sandbox,
        path: &Path,
        entry: &RefereeEntry,
    ) -> Result<ComponentReferee, RefereeLoadError> {
        let limits = RefereeLimits {
            fuel: entry.fuel,
            memory_bytes: entry.memory_bytes,
        };
        let referee = ComponentReferee::load(sandbox, path, limits, &VfsLimits::default())?;
        if referee.sha256_hex() != entry.sha256 {
            return Err(RefereeLoadError::NotTheOne {
                path: path.to_path_buf(),
                found: referee.sha256_hex(),
                expected: entry.sha256.clone(),
            });
        }
        Ok(referee)
    }

    /// Load the referee at `path`: checked and compiled as a bot component is (its imports
    /// may add `koth:game`), linked, and described; the description must pass
    /// [`check_description`] with directories within `caps`.
    pub fn load(
        sandbox: &Sandbox,
        path: &Path,
        limits: RefereeLimits,
        caps: &VfsLimits,
    ) -> Result<ComponentReferee, RefereeLoadError> {
        let fail = |error| RefereeLoadError::Load {
            path: path.to_path_buf(),
            error,
        };
        let load = sandbox.load_limits();
        let size = std::fs::metadata(path)
            .map_err(|e| fail(LoadError::Io(e.to_string())))?
            .len();
        if size > load.module_bytes {
            return Err(fail(LoadError::TooLarge {
                size,
                limit: load.module_bytes,
            }));
        }
        let bytes = std::fs::read(path).map_err(|e| fail(LoadError::Io(e.to_string())))?;
        let (component, sha256) = sandbox
            .compile_component(&bytes, REFEREE_IMPORTS, load)
            .map_err(fail)?;
        let engine = sandbox.component_engine();
        let linked = (|| {
            let mut linker: Linker<RefereeState> = host_wasi::linker(engine)?;
            bindings::Referee::add_to_linker::<_, HasSelf<_>>(&mut linker, |s| s)?;
            let pre = linker.instantiate_pre(&component)?;
            bindings::RefereePre::new(pre)
        })()
        .map_err(|e| {
            fail(LoadError::WrongType(format!(
                "not a referee of the koth:game/referee@0.1.0 world (wit/referee.wit): {e:#}"
            )))
        })?;
        let name = path
            .file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_else(|| "referee".into());
        let mut referee = ComponentReferee {
            name,
            sha256,
            pre: linked,
            description: placeholder(),
            pages: Pages::default(),
            per_bot_scratch: false,
            limits,
        };
        let describe = |why: String| RefereeLoadError::Description {
            path: path.to_path_buf(),
            why,
        };
        let d = referee.describe().map_err(describe)?;
        check_description(&d, caps).map_err(describe)?;
        referee.description = d;
        // The pages are optional: a referee of the plain `referee` world has none.
        let funcs = component.get_export_index(None, PAGES).and_then(|pages| {
            let f = |name| component.get_export_index(Some(&pages), name);
            Some([f(PAGE_FUNCS[0])?, f(PAGE_FUNCS[1])?])
        });
        if let Some(funcs) = funcs {
            let pages = referee.pages_of(&funcs).map_err(describe)?;
            pages
                .check()
                .map_err(|e| describe(format!("{PAGES}: {e}")))?;
            referee.pages = pages;
        }
        // So is the scratch policy: without it, directories live for one match.
        let per_bot = component
            .get_export_index(None, SCRATCH)
            .and_then(|scratch| component.get_export_index(Some(&scratch), SCRATCH_FUNC));
        if let Some(per_bot) = per_bot {
            referee.per_bot_scratch = referee.per_bot_of(&per_bot).map_err(describe)?;
        }
        Ok(referee)
    }

    /// The file's SHA-256.
    pub fn sha256_hex(&self) -> String {
        hex::encode(self.sha256)
    }

    /// The referee as a run's manifest records it, loaded from `path`: its file's name, its
    /// SHA-256 and its limits.
    pub fn manifest_entry(&self, path: &Path) -> RefereeEntry {
        RefereeEntry {
            file: path
                .file_name()
                .map(|f| f.to_string_lossy().into_owned())
                .unwrap_or_default(),
            sha256: self.sha256_hex(),
            fuel: self.limits.fuel,
            memory_bytes: self.limits.memory_bytes,
        }
    }

    /// The referee's name (its file stem).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// A store for one call, with the referee's limits.
    fn store(&self, seed: u64, host: Option<MatchHost>) -> Store<RefereeState> {
        let limits = Limits {
            fuel: self.limits.fuel,
            memory_bytes: self.limits.memory_bytes,
            wall_clock_ms: BACKSTOP_MS,
            ..Limits::default()
        };
        let wasi = host_wasi::state(Setup {
            name: &self.name,
            args: &[],
            stdin: &[],
            seed: crate::seed::derive(seed, "referee/wasi", &[]),
            clock_start_ns: 0,
            limits,
        });
        let mut store = Store::new(self.pre.engine(), RefereeState { wasi, host });
        store.limiter(|s| &mut s.wasi.limiter);
        store.call_hook(call_hook);
        store.set_epoch_deadline(epoch_ticks(BACKSTOP_MS));
        store
    }

    fn describe(&self) -> Result<Description, String> {
        let mut store = self.store(0, None);
        let r = (|| {
            store.set_fuel(self.limits.fuel)?;
            let inst = self.pre.instantiate(&mut store)?;
            inst.koth_game_game().call_describe(&mut store)
        })();
        match r {
            Ok(d) => Ok(description(d)),
            Err(e) => Err(format!(
                "its describe failed: {}",
                why(&e, &store, &self.limits)
            )),
        }
    }

    /// Ask a fresh instance for its protocol and viewer (`funcs`, found in its `pages`
    /// export), within the referee's limits for a match.
    fn pages_of(&self, funcs: &[ComponentExportIndex; 2]) -> Result<Pages, String> {
        let mut store = self.store(0, None);
        let r = (|| {
            store.set_fuel(self.limits.fuel)?;
            let inst = self.pre.instance_pre().instantiate(&mut store)?;
            let mut texts = [String::new(), String::new()];
            for (text, f) in texts.iter_mut().zip(funcs) {
                let f = inst.get_typed_func::<(), (String,)>(&mut store, f)?;
                (*text,) = f.call(&mut store, ())?;
            }
            Ok(texts)
        })();
        match r {
            Ok([protocol, viewer]) => Ok(Pages { protocol, viewer }),
            Err(e) => Err(format!(
                "its {PAGES} failed: {}",
                why(&e, &store, &self.limits)
            )),
        }
    }
}

impl ComponentReferee {
    /// Ask a fresh instance whether its game keeps each bot's directory for the whole run
    /// (`f`, found in its `scratch` export), within the referee's limits for a match.
    fn per_bot_of(&self, f: &ComponentExportIndex) -> Result<bool, String> {
        let mut store = self.store(0, None);
        let r = (|| {
            store.set_fuel(self.limits.fuel)?;
            let inst = self.pre.instance_pre().instantiate(&mut store)?;
            let f = inst.get_typed_func::<(), (bool,)>(&mut store, f)?;
            Ok(f.call(&mut store, ())?.0)
        })();
        r.map_err(|e: wasmtime::Error| {
            format!("its {SCRATCH} failed: {}", why(&e, &store, &self.limits))
        })
    }
}

impl Referee for ComponentReferee {
    fn description(&self) -> &Description {
        &self.description
    }

    fn pages(&self) -> &Pages {
        &self.pages
    }

    fn per_bot_scratch(&self) -> bool {
        self.per_bot_scratch
    }

    fn play(&self, setup: &MatchSetup, host: MatchHost) -> (MatchHost, Result<MatchResult, Abort>) {
        let mut store = self.store(setup.seed, Some(host));
        let r = (|| {
            store.set_fuel(self.limits.fuel)?;
            let inst = self.pre.instantiate(&mut store)?;
            inst.koth_game_game()
                .call_play(&mut store, &setup_to_wit(setup))
        })();
        let why = r.as_ref().err().map(|e| why(e, &store, &self.limits));
        let Some(mut host) = store.into_data().host else {
            unreachable!("the match host is only taken here");
        };
        match (r, why) {
            (Ok(m), _) => (host, Ok(result(m))),
            (Err(_), why) => {
                // A call koth refused has already named the fault; anything else is named
                // from how the referee stopped.
                let abort = host.fault(why.unwrap_or_default());
                (host, Err(abort))
            }
        }
    }
}

/// Why a referee's call failed, in words for the host: the trap, fuel or memory, its
/// stdout past the cap, with the end of what it wrote to stderr.
fn why(e: &wasmtime::Error, store: &Store<RefereeState>, limits: &RefereeLimits) -> String {
    let st = &store.data().wasi;
    let mut out = if let Some(trap) = e.downcast_ref::<Trap>() {
        match trap {
            Trap::OutOfFuel => format!(
                "it ran out of fuel ({} per match; --referee-fuel)",
                limits.fuel
            ),
            Trap::Interrupt => format!(
                "it ran {} s without calling the host (the wall-clock backstop)",
                BACKSTOP_MS / 1000
            ),
            _ if st.limiter.grow_refused => format!(
                "it ran out of memory ({} MiB; --referee-memory)",
                limits.memory_bytes >> 20
            ),
            t => format!("it trapped: {t}"),
        }
    } else if st.stdout.overflowed.load(Ordering::Relaxed) {
        "it wrote past its stdout cap".to_string()
    } else if st.limiter.grow_refused {
        format!(
            "it ran out of memory ({} MiB; --referee-memory)",
            limits.memory_bytes >> 20
        )
    } else {
        format!("it failed: {}", first_line(&format!("{e:#}")))
    };
    let (stderr, _) = st.stderr.take();
    let tail = crate::games::stderr_tail(&stderr, 600);
    let tail = tail.trim();
    if !tail.is_empty() {
        out.push_str("; its stderr ends: ");
        out.push_str(&tail.replace('\n', " | "));
    }
    out
}

fn first_line(s: &str) -> &str {
    s.lines().next().unwrap_or(s)
}

/// A description to hold until `describe` has run.
fn placeholder() -> Description {
    Description {
        name: String::new(),
        summary: String::new(),
        seating: sdk::Seating::Fixed(2),
        seat_names: Vec::new(),
        teams: Vec::new(),
        partners: Vec::new(),
        formats: Vec::new(),
        rounds: 1,
        paired: false,
        directory: None,
        options: Vec::new(),
        scoring: sdk::Scoring {
            score_name: None,
            matches: String::new(),
            spread: false,
            points: false,
        },
    }
}

fn value(v: wt::Value) -> sdk::Value {
    match v {
        wt::Value::Flag(b) => sdk::Value::Flag(b),
        wt::Value::Integer(i) => sdk::Value::Integer(i),
        wt::Value::Text(t) => sdk::Value::Text(t),
    }
}

fn description(d: wt::Description) -> Description {
    Description {
        name: d.name,
        summary: d.summary,
        seating: match d.seating {
            wt::Seating::Fixed(n) => sdk::Seating::Fixed(n),
            wt::Seating::Everyone => sdk::Seating::Everyone,
        },
        seat_names: d.seat_names,
        teams: d.teams,
        partners: d
            .partners
            .into_iter()
            .map(|p| match p {
                wt::Partners::Copies => sdk::Partners::Copies,
                wt::Partners::Random => sdk::Partners::Random,
            })
            .collect(),
        formats: d
            .formats
            .into_iter()
            .map(|f| match f {
                wt::Format::OrderedPairs => sdk::Format::OrderedPairs,
                wt::Format::Tables => sdk::Format::Tables,
                wt::Format::AllPlayAll => sdk::Format::AllPlayAll,
            })
            .collect(),
        rounds: d.rounds,
        paired: d.paired,
        directory: d.directory.map(|x| sdk::Directory {
            bytes: x.bytes,
            nodes: x.nodes,
        }),
        options: d
            .options
            .into_iter()
            .map(|o| sdk::OptionSpec {
                name: o.name,
                description: o.description,
                default: value(o.default),
                min: o.min,
                max: o.max,
                choices: o.choices,
            })
            .collect(),
        scoring: sdk::Scoring {
            score_name: d.scoring.score_name,
            matches: d.scoring.matches,
            spread: d.scoring.spread,
            points: d.scoring.points,
        },
    }
}

fn setup_to_wit(s: &MatchSetup) -> wt::MatchSetup {
    wt::MatchSetup {
        round: s.round,
        paired: s.paired,
        seats: s
            .seats
            .iter()
            .map(|x| wt::Seat {
                bot: x.bot.clone(),
                team: x.team,
            })
            .collect(),
        options: s
            .options
            .iter()
            .map(|(n, v)| {
                (
                    n.clone(),
                    match v {
                        sdk::Value::Flag(b) => wt::Value::Flag(*b),
                        sdk::Value::Integer(i) => wt::Value::Integer(*i),
                        sdk::Value::Text(t) => wt::Value::Text(t.clone()),
                    },
                )
            })
            .collect(),
        seed: s.seed,
    }
}

fn result(r: wt::MatchResult) -> MatchResult {
    MatchResult {
        seats: r
            .seats
            .into_iter()
            .map(|s| sdk::SeatResult {
                score: s.score,
                points_for: s.points_for,
                points_against: s.points_against,
            })
            .collect(),
        winners: r.winners,
        detail: r.detail,
    }
}
