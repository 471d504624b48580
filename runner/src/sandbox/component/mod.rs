//! WASI preview-2 components: loaded, checked and run under the same contract as core
//! modules (fuel, memory, virtual clocks, seeded randomness, no network, the same outcomes).
//!
//! Game-blind like the rest of the sandbox: a component is either a `wasi:cli/command` (run
//! like a core module) or exports one `koth:bots/<interface>` instance whose `decide`
//! function a game's world adapter (`crate::worlds`) calls with typed values.

mod host;
mod invoke;
mod prescan;

pub(crate) use host::{call_hook, charge, linker, state, ComponentState, Setup, WasiHost};
pub(crate) use prescan::{prescan, prescan_with};

use super::cache::CodeCache;
use super::compiler::{compile_with_deadline, CodeKind, Compiler};
use super::limits::LoadLimits;
use super::loader::LoadError;
use std::time::Duration;
use wasmtime::component::{Component, ComponentExportIndex, InstancePre, Linker};
use wasmtime::Engine;

/// The package of koth's typed bot worlds.
pub const WORLD_PACKAGE: &str = "koth:bots/";

/// The function every typed world exports.
pub const WORLD_FUNCTION: &str = "decide";

/// What kind of bot a file is.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum BotKind {
    /// A WASI preview-1 core module.
    Module,
    /// A plain Python script, run by the pinned CPython for WASI (a core module).
    PythonScript,
    /// A WASI preview-2 `wasi:cli/command` component.
    Command,
    /// A component exporting a typed world's interface, e.g. `koth:bots/coup@0.1.0`.
    World(String),
}

impl std::fmt::Display for BotKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotKind::Module => f.write_str("core module (WASI preview 1)"),
            BotKind::PythonScript => f.write_str("Python script (CPython 3.12 for WASI)"),
            BotKind::Command => f.write_str("component, world wasi:cli/command"),
            BotKind::World(i) => write!(f, "component, typed world exporting {i}"),
        }
    }
}

/// The component engine (see `engine::build_component_engine`) and its WASI host.
pub(crate) struct ComponentHost {
    pub engine: Engine,
    pub linker: Linker<ComponentState>,
    /// Where components compile: a child process, or `None` for a thread.
    pub compiler: Option<Compiler>,
}

impl ComponentHost {
    pub fn new(engine: Engine) -> wasmtime::Result<Self> {
        let linker = host::linker(&engine)?;
        Ok(ComponentHost {
            engine,
            linker,
            compiler: None,
        })
    }
}

/// A compiled component, ready to instantiate.
#[derive(Clone)]
pub(crate) struct ComponentCode {
    pub pre: InstancePre<ComponentState>,
    pub kind: BotKind,
    /// The function to call: `wasi:cli/run`'s `run`, or the world's `decide`.
    pub func: ComponentExportIndex,
}

/// Compile (bounded in time, or read from the cache), link and classify a component that
/// passed [`prescan`]. `sha` is the SHA-256 of `bytes`; `cache` was opened for `host.engine`.
pub(crate) fn load(
    host: &ComponentHost,
    bytes: &[u8],
    sha: &[u8; 32],
    cache: Option<&CodeCache>,
    limits: &LoadLimits,
) -> Result<ComponentCode, LoadError> {
    let component = compile_cached(
        &host.engine,
        bytes,
        sha,
        cache,
        limits,
        host.compiler.as_ref(),
    )?;
    let ty = component.component_type();
    let mut found: Option<(String, BotKind, &'static str)> = None;
    for (name, _) in ty.exports(&host.engine) {
        let kind = if name.starts_with("wasi:cli/run@0.2") {
            (BotKind::Command, "run")
        } else if name.starts_with(WORLD_PACKAGE) {
            (BotKind::World(name.to_string()), WORLD_FUNCTION)
        } else {
            continue;
        };
        if let Some((other, _, _)) = &found {
            return Err(LoadError::WrongType(format!(
                "both `{other}` and `{name}`, but a bot implements one world"
            )));
        }
        found = Some((name.to_string(), kind.0, kind.1));
    }
    let Some((instance, kind, func)) = found else {
        return Err(LoadError::MissingExport(
            "`wasi:cli/run` or a `koth:bots` world interface (see wit/): is it a library?",
        ));
    };
    let func = component
        .get_export_index(None, &instance)
        .and_then(|i| component.get_export_index(Some(&i), func))
        .ok_or_else(|| LoadError::WrongType(format!("`{instance}` without a `{func}` function")))?;
    let pre = host
        .linker
        .instantiate_pre(&component)
        .map_err(|e| LoadError::Invalid(format!("{e:#}")))?;
    Ok(ComponentCode { pre, kind, func })
}

/// The compiled component of `bytes` (SHA-256 `sha`): from `cache` (opened for `engine`), or
/// compiled and put there.
pub(crate) fn compile_cached(
    engine: &Engine,
    bytes: &[u8],
    sha: &[u8; 32],
    cache: Option<&CodeCache>,
    limits: &LoadLimits,
    compiler: Option<&Compiler>,
) -> Result<Component, LoadError> {
    if let Some(c) = cache.and_then(|c| c.get_component(engine, sha)) {
        return Ok(c);
    }
    let c = compile(engine, bytes, limits, compiler)?;
    if let Some(cache) = cache {
        cache.put_component(sha, &c);
    }
    Ok(c)
}

/// Compile in a child process where `compiler` says so (killed at the deadline), else on a
/// worker thread given up after the time bound, as for core modules.
pub(crate) fn compile(
    engine: &Engine,
    bytes: &[u8],
    limits: &LoadLimits,
    compiler: Option<&Compiler>,
) -> Result<Component, LoadError> {
    compile_with_deadline(
        compiler,
        CodeKind::Component,
        bytes,
        Duration::from_millis(limits.compile_ms),
        // SAFETY: the code was just made by our own worker from these bytes, on an engine
        // built from the same options; wasmtime checks its header against this engine.
        |code| unsafe { Component::deserialize(engine, code) }.ok(),
        {
            let engine = engine.clone();
            move |bytes| new_component(&engine, bytes)
        },
    )
}

/// Compile a component on `engine`, a panic in wasmtime included (see
/// [`super::compiler::catch_panic`]).
pub(crate) fn new_component(engine: &Engine, bytes: &[u8]) -> Result<Component, String> {
    super::compiler::catch_panic(|| Component::new(engine, bytes).map_err(|e| format!("{e:#}")))
}
