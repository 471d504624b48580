//! The sandbox: load WASI bots and run one invocation at a time, safely and deterministically.
//!
//! It knows nothing about any game. A game's driver builds an [`Invocation`] (argv, stdin,
//! seed, virtual clock start), hands over the bot's [`Vfs`] if it has one, and gets a
//! [`Report`] back: one [`Outcome`], the fuel used, stdout and stderr.

pub mod cache;
pub mod compiler;
pub mod component;
pub mod engine;
pub mod errno;
pub mod fuzz;
mod invoke;
pub mod limits;
mod loader;
pub mod outcome;
mod preinit;
pub mod python;
pub mod vfs;
pub(crate) mod wasi;

/// What the sandbox's WASI preview 1 is, for tools that build bots against it (the hostile
/// host-call loops of `koth-bench`, which the test suite runs).
pub mod preview1 {
    pub use super::wasi::abi::{
        FILE_RIGHTS, FUNCTIONS, MAX_IOVECS, MAX_SUBSCRIPTIONS, MODULE, SUBSCRIPTION_SIZE,
    };
}

pub use cache::{CodeCache, CodeKind};
pub use component::BotKind;
pub use engine::{EngineOptions, EngineSettings};
pub use errno::Errno;
pub use invoke::{Invocation, Report};
pub use limits::{Limits, LoadLimits};
pub use loader::LoadError;
pub use outcome::{Outcome, TrapKind};
pub use vfs::{ReadOnlyLayer, Vfs, VfsLimits};

use sha2::{Digest, Sha256};
use std::path::{Path, PathBuf};
use std::sync::{Arc, OnceLock};
use thiserror::Error;
use wasmtime::{Engine, InstancePre, Linker, ModuleExport};

/// A bot that failed to load, with the name and file at fault.
#[derive(Debug, Error)]
#[error("bot `{bot}` ({}): {error}", file.as_ref().map(|p| p.display().to_string()).unwrap_or_else(|| "in memory".into()))]
pub struct BotError {
    /// The bot's name.
    pub bot: String,
    /// Its file, when loaded from one.
    pub file: Option<PathBuf>,
    /// What is wrong.
    pub error: LoadError,
}

/// The sandbox could not be set up.
#[derive(Debug, Error)]
#[non_exhaustive]
pub enum SetupError {
    /// wasmtime refused the engine settings or the WASI functions.
    #[error("cannot create the wasm engine: {0}")]
    Engine(String),
    /// The compiled-code cache folder is not safe to run native code from.
    #[error(transparent)]
    Cache(#[from] cache::CacheError),
}

/// Options of a [`Sandbox`].
#[derive(Debug, Clone, Default)]
pub struct SandboxOptions {
    /// Engine options (pooling, pool size).
    pub engine: EngineOptions,
    /// Load-time limits.
    pub load: LoadLimits,
    /// Where compiled code is cached; `None` disables the cache.
    pub cache_dir: Option<PathBuf>,
}

/// A wasm engine with koth's WASI host, ready to load bots.
pub struct Sandbox {
    engine: Engine,
    linker: Linker<wasi::state::HostState>,
    settings: EngineSettings,
    load: LoadLimits,
    cache: Option<CodeCache>,
    /// The engine options, for a compile in a child process to rebuild the engine from.
    engine_options: EngineOptions,
    /// Where modules compile: a child process, or `None` for a thread.
    compiler: Option<compiler::Compiler>,
    /// Where the CPython interpreter for `.py` bots is.
    python_path: Option<PathBuf>,
    /// The interpreter, compiled at the first `.py` bot and shared by all of them.
    python: OnceLock<Result<python::Interpreter, LoadError>>,
    components: component::ComponentHost,
    /// The same cache folder, keyed by the component engine's settings.
    component_cache: Option<CodeCache>,
    /// Modules and components whose compile failed or ran out of time, by SHA-256: loaded
    /// again (the same bot in several places, a re-check), they fail at once with the same
    /// error instead of costing another compile.
    failed_compiles: std::sync::Mutex<std::collections::HashMap<[u8; 32], LoadError>>,
    /// Compiles started (or code-cache reads), for the tests of the above.
    compile_attempts: std::sync::atomic::AtomicUsize,
}

/// A loaded bot: compiled once, instantiated fresh for every invocation. Cloning it is
/// cheap (the compiled code is shared).
#[derive(Clone)]
pub struct Bot {
    name: String,
    sha256: [u8; 32],
    code: Code,
}

/// A bot's compiled code: a core module or a component.
#[derive(Clone)]
enum Code {
    Module(ModuleCode),
    Component(component::ComponentCode),
}

/// A compiled core module and the exports an invocation needs.
#[derive(Clone)]
struct ModuleCode {
    pre: InstancePre<wasi::state::HostState>,
    /// Where an invocation enters it.
    entry: Entry,
    memory_export: ModuleExport,
    /// Arguments between `argv[0]` and the game's (an interpreter's options and script).
    lead_args: Vec<Vec<u8>>,
    /// Read-only files mounted in the root of the bot's directory.
    layer: Option<Arc<ReadOnlyLayer>>,
}

/// Where an invocation enters a core module.
#[derive(Clone)]
enum Entry {
    /// A WASI command's `_start`.
    Start(ModuleExport),
    /// A pre-initialised module, resumed at a function of its table ([`preinit`]), with this
    /// bot's own data (a script's compiled code) delivered beside the arguments.
    Resume(preinit::Resume, Arc<[u8]>),
}

impl std::fmt::Debug for Bot {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Bot")
            .field("name", &self.name)
            .field("sha256", &self.sha256_hex())
            .finish()
    }
}

impl Bot {
    /// The bot's name (its `argv[0]`).
    pub fn name(&self) -> &str {
        &self.name
    }

    /// SHA-256 of the module file.
    pub fn sha256(&self) -> [u8; 32] {
        self.sha256
    }

    /// SHA-256 of the module file, in hex.
    pub fn sha256_hex(&self) -> String {
        hex::encode(self.sha256)
    }

    /// What kind of bot this is: a core module, a command component, or which typed world.
    pub fn kind(&self) -> BotKind {
        match &self.code {
            Code::Module(m) if m.layer.is_some() => BotKind::PythonScript,
            Code::Module(_) => BotKind::Module,
            Code::Component(c) => c.kind.clone(),
        }
    }

    /// Call a typed-world component's `decide` with `params` (the world's types, as a
    /// game's world adapter builds them); the result is `Some` when the call ended `ok`.
    /// On a core module or command component the outcome is a host fault: the caller
    /// should have checked [`Bot::kind`].
    pub fn call_world<P, R>(&self, inv: &Invocation, params: P) -> (Report, Option<R>)
    where
        P: wasmtime::component::ComponentNamedList + wasmtime::component::Lower + Send + Sync,
        R: wasmtime::component::ComponentNamedList
            + wasmtime::component::Lift
            + Send
            + Sync
            + 'static,
    {
        match &self.code {
            Code::Component(c) if matches!(c.kind, BotKind::World(_)) => {
                c.call(&self.name, inv, params)
            }
            _ => (
                Report {
                    outcome: Outcome::HostFault(format!(
                        "bot `{}` is not a typed-world component",
                        self.name
                    )),
                    fuel_used: 0,
                    stdout: Vec::new(),
                    stderr: Vec::new(),
                    stderr_dropped: 0,
                },
                None,
            ),
        }
    }
}

/// A bot's name: `name` if given, else the file stem of `path`.
fn bot_name(path: &Path, name: Option<&str>) -> String {
    name.map(str::to_string).unwrap_or_else(|| {
        path.file_stem()
            .map(|s| s.to_string_lossy().into_owned())
            .unwrap_or_default()
    })
}

impl Sandbox {
    /// A sandbox with these options.
    pub fn new(opts: SandboxOptions) -> Result<Self, SetupError> {
        let (engine, settings) =
            engine::build_engine(&opts.engine).map_err(|e| SetupError::Engine(format!("{e:#}")))?;
        engine::start_epoch_ticker(&engine);
        let mut linker = Linker::new(&engine);
        wasi::add_to_linker(&mut linker).map_err(|e| SetupError::Engine(format!("{e:#}")))?;
        let component_engine = engine::build_component_engine(&opts.engine)
            .map_err(|e| SetupError::Engine(format!("{e:#}")))?;
        engine::start_epoch_ticker(&component_engine);
        let components = component::ComponentHost::new(component_engine)
            .map_err(|e| SetupError::Engine(format!("{e:#}")))?;
        let (cache, component_cache) = match opts.cache_dir {
            Some(d) => (
                Some(CodeCache::open(d.clone(), &engine)?),
                Some(CodeCache::open(d, &components.engine)?),
            ),
            None => (None, None),
        };
        Ok(Sandbox {
            engine,
            linker,
            settings,
            load: opts.load,
            cache,
            engine_options: opts.engine,
            compiler: None,
            python_path: python::default_interpreter(),
            python: OnceLock::new(),
            components,
            component_cache,
            failed_compiles: Default::default(),
            compile_attempts: Default::default(),
        })
    }

    /// How many modules and components this sandbox compiled or read from the code cache
    /// (a load refused from [`Sandbox::failed_compiles`]'s memory is not counted).
    pub fn compile_attempts(&self) -> usize {
        self.compile_attempts
            .load(std::sync::atomic::Ordering::Relaxed)
    }

    /// How many distinct modules and components failed to compile on this sandbox (each is
    /// refused at once if loaded again).
    pub fn failed_compiles(&self) -> usize {
        self.failed_compiles.lock().map_or(0, |f| f.len())
    }

    /// The error of an earlier failed compile of these bytes, if there was one.
    fn failed_before(&self, sha256: &[u8; 32]) -> Option<LoadError> {
        self.failed_compiles
            .lock()
            .ok()
            .and_then(|f| f.get(sha256).cloned())
    }

    /// Remember a failed compile (a compile error or a timeout; not the checks before it,
    /// which are cheap).
    fn remember_failure(&self, sha256: [u8; 32], e: &LoadError) {
        if matches!(e, LoadError::Compile(_) | LoadError::CompileTimeout(_)) {
            if let Ok(mut f) = self.failed_compiles.lock() {
                f.insert(sha256, e.clone());
            }
        }
    }

    /// Compile modules and components in child processes of `program` (run as `program
    /// compile-worker ...`, see [`compiler`]), each killed at the compile deadline: a compile
    /// that overruns then stops using the CPU and its memory at once, where one on a thread
    /// runs on until it ends. `koth` names itself; a library user names a program that runs
    /// [`compiler::worker`] for those arguments, or leaves compiles on threads.
    pub fn set_compile_worker(&mut self, program: PathBuf) {
        let c = compiler::Compiler {
            program,
            engine: self.engine_options,
        };
        self.components.compiler = Some(c.clone());
        self.compiler = Some(c);
    }

    /// Run `.py` bots with the CPython interpreter at `path` instead of the default
    /// ([`python::default_interpreter`]).
    pub fn set_python_interpreter(&mut self, path: PathBuf) {
        self.python_path = Some(path);
        self.python = OnceLock::new();
    }

    /// The wasmtime engine every bot of this sandbox runs on: for measuring bare wasmtime
    /// beside koth on the same settings (`koth bench invoke`'s floor).
    pub fn engine(&self) -> &Engine {
        &self.engine
    }

    /// The engine settings in force, for the tournament's manifest.
    pub fn settings(&self) -> &EngineSettings {
        &self.settings
    }

    /// Load a bot from a file; its name is the file stem unless `name` is given.
    pub fn load_file(&self, path: &Path, name: Option<&str>) -> Result<Bot, BotError> {
        if path.extension().is_some_and(|e| e == "py") {
            return self.load_python(path, name, python::PythonStart::Snapshot);
        }
        let name = bot_name(path, name);
        let fail = |error| BotError {
            bot: name.clone(),
            file: Some(path.to_path_buf()),
            error,
        };
        let size = std::fs::metadata(path)
            .map_err(|e| fail(LoadError::Io(e.to_string())))?
            .len();
        if size > self.load.module_bytes {
            return Err(fail(LoadError::TooLarge {
                size,
                limit: self.load.module_bytes,
            }));
        }
        let bytes = std::fs::read(path).map_err(|e| fail(LoadError::Io(e.to_string())))?;
        self.load_bytes(&name, &bytes).map_err(|mut e| {
            e.file = Some(path.to_path_buf());
            e
        })
    }

    /// Load a Python script as a bot (what [`Sandbox::load_file`] does with a `.py` file),
    /// choosing how its invocations start.
    pub fn load_python(
        &self,
        path: &Path,
        name: Option<&str>,
        start: python::PythonStart,
    ) -> Result<Bot, BotError> {
        let name = bot_name(path, name);
        let fail = |error| BotError {
            bot: name.clone(),
            file: Some(path.to_path_buf()),
            error,
        };
        let interp = self
            .python
            .get_or_init(|| python::load_interpreter(self, self.python_path.as_deref()))
            .as_ref()
            .map_err(|e| fail(e.clone()))?;
        python::script_bot(self, interp, path, &name, start).map_err(fail)
    }

    /// SHA-256 (hex) of the pre-initialised interpreter `.py` bots resume, made or taken from
    /// the code cache: for one koth version, the same on every machine.
    pub fn python_snapshot_sha256(&self) -> Result<String, LoadError> {
        self.python
            .get_or_init(|| python::load_interpreter(self, self.python_path.as_deref()))
            .as_ref()
            .map(|i| i.snapshot_sha256().to_string())
            .map_err(Clone::clone)
    }

    /// Check and compile a component that is not a bot (a referee), allowing the imports
    /// of `extra` beside WASI 0.2's: prescanned as a bot component is, compiled on the
    /// component engine (bounded in time) or read from the code cache.
    pub(crate) fn compile_component(
        &self,
        bytes: &[u8],
        extra: &[(&str, &str)],
        limits: &LoadLimits,
    ) -> Result<(wasmtime::component::Component, [u8; 32]), LoadError> {
        if !wasmparser::Parser::is_component(bytes) {
            return Err(LoadError::WrongType(
                "a core module, but this must be a WebAssembly component".into(),
            ));
        }
        component::prescan_with(bytes, limits, extra)?;
        let sha256: [u8; 32] = Sha256::digest(bytes).into();
        let c = component::compile_cached(
            &self.components.engine,
            bytes,
            &sha256,
            self.component_cache.as_ref(),
            limits,
            self.components.compiler.as_ref(),
        )?;
        Ok((c, sha256))
    }

    /// The engine components run on.
    pub(crate) fn component_engine(&self) -> &Engine {
        &self.components.engine
    }

    /// The load-time limits bots are held to.
    pub fn load_limits(&self) -> &LoadLimits {
        &self.load
    }

    /// Load a bot from module or component bytes.
    pub fn load_bytes(&self, name: &str, bytes: &[u8]) -> Result<Bot, BotError> {
        let fail = |error| BotError {
            bot: name.to_string(),
            file: None,
            error,
        };
        if wasmparser::Parser::is_component(bytes) {
            component::prescan(bytes, &self.load).map_err(fail)?;
            let sha256: [u8; 32] = Sha256::digest(bytes).into();
            if let Some(e) = self.failed_before(&sha256) {
                return Err(fail(e));
            }
            self.compile_attempts
                .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
            let code = component::load(
                &self.components,
                bytes,
                &sha256,
                self.component_cache.as_ref(),
                &self.load,
            )
            .map_err(|e| {
                self.remember_failure(sha256, &e);
                fail(e)
            })?;
            return Ok(Bot {
                name: name.to_string(),
                sha256,
                code: Code::Component(code),
            });
        }
        loader::prescan(bytes, &self.load).map_err(fail)?;
        let sha256: [u8; 32] = Sha256::digest(bytes).into();
        if let Some(e) = self.failed_before(&sha256) {
            return Err(fail(e));
        }
        self.compile_attempts
            .fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let module = loader::compile(
            &self.engine,
            bytes,
            &sha256,
            self.cache.as_ref(),
            &self.load,
            self.compiler.as_ref(),
        )
        .map_err(|e| {
            self.remember_failure(sha256, &e);
            fail(e)
        })?;
        let pre = self
            .linker
            .instantiate_pre(&module)
            .map_err(|e| fail(LoadError::Invalid(format!("{e:#}"))))?;
        // A `_start` that takes or returns values would fail every invocation: refuse it now.
        if let Some(wasmtime::ExternType::Func(ty)) = module.get_export("_start") {
            if ty.params().len() != 0 || ty.results().len() != 0 {
                return Err(fail(LoadError::WrongType(format!(
                    "`_start` with type {ty}, but a WASI command's `_start` takes and returns nothing"
                ))));
            }
        }
        let start_export = module
            .get_export_index("_start")
            .ok_or(fail(LoadError::MissingExport("`_start`")))?;
        let memory_export = module
            .get_export_index("memory")
            .ok_or(fail(LoadError::MissingExport("`memory`")))?;
        Ok(Bot {
            name: name.to_string(),
            sha256,
            code: Code::Module(ModuleCode {
                pre,
                entry: Entry::Start(start_export),
                memory_export,
                lead_args: Vec::new(),
                layer: None,
            }),
        })
    }
}
