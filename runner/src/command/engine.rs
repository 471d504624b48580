//! The engine's options every command that loads bots takes (`--no-cache`, `--cache-dir`,
//! `--python`, `--compile-timeout` ...), and the sandbox they build.

use crate::sandbox::{CodeCache, EngineOptions, LoadLimits, Sandbox, SandboxOptions};
use clap::Args;
use std::path::PathBuf;

/// Options shared by every command that loads bots.
#[derive(Args, Clone)]
pub struct EngineArgs {
    /// Do not read or write the compiled-code cache.
    #[arg(long)]
    pub no_cache: bool,
    /// Folder of the compiled-code cache [default: $KOTH_CACHE_DIR, $XDG_CACHE_HOME/koth or ~/.cache/koth].
    #[arg(long, value_name = "DIR")]
    pub cache_dir: Option<PathBuf>,
    /// Use wasmtime's on-demand allocator instead of the pooling allocator.
    #[arg(long)]
    pub no_pooling: bool,
    /// The CPython interpreter that runs `.py` bots [default: $KOTH_PYTHON_WASM, else
    /// $XDG_CACHE_HOME/koth/python/python-3.12.0.wasm or ~/.cache/koth/python/...; install it
    /// with `koth setup python`].
    #[arg(long, value_name = "FILE")]
    pub python: Option<PathBuf>,
    /// Seconds one module or component may take to compile before the bot is refused
    /// (an unoptimised koth compiles many times slower than a release build).
    #[arg(long, value_name = "SECS", default_value_t = LoadLimits::default().compile_ms / 1000)]
    pub compile_timeout: u64,
}

impl EngineArgs {
    /// A sandbox with these options, pool sized for `workers` concurrent instances.
    pub fn sandbox(&self, workers: usize, memory_bytes: u64) -> anyhow::Result<Sandbox> {
        self.sandbox_for_bots(workers, 1, memory_bytes)
    }

    /// A sandbox for a run of `bots` bots on `workers` threads. The pool gets a slot per bot
    /// on top of one per worker: a slot keeps the last module's memory image mapped, so when
    /// every bot can keep a warm slot no invocation remaps an image (Bank Heist's 13 bots
    /// taking turns on 3 slots spent half their time in mmap: 120 µs per invocation).
    pub fn sandbox_for_bots(
        &self,
        workers: usize,
        bots: usize,
        memory_bytes: u64,
    ) -> anyhow::Result<Sandbox> {
        let cache_dir = if self.no_cache {
            None
        } else {
            self.cache_dir.clone().or_else(CodeCache::default_dir)
        };
        let engine = EngineOptions {
            pooling: !self.no_pooling,
            pool_slots: (workers.saturating_add(bots).saturating_add(1)).min(512) as u32,
            max_memory_bytes: memory_bytes.max(EngineOptions::default().max_memory_bytes),
            ..EngineOptions::default()
        };
        if self.compile_timeout == 0 {
            anyhow::bail!("--compile-timeout must be at least 1 second");
        }
        let load = LoadLimits {
            memory_bytes,
            compile_ms: self.compile_timeout.saturating_mul(1000),
            ..LoadLimits::default()
        };
        let mut sandbox = Sandbox::new(SandboxOptions {
            engine,
            load,
            cache_dir,
        })?;
        if let Some(python) = &self.python {
            sandbox.set_python_interpreter(python.clone());
        }
        // Compiles run in child processes of this koth, killed at the deadline: one that
        // overruns must not keep the cores busy while the command goes on.
        if let Some(koth) = super::koth_executable() {
            sandbox.set_compile_worker(koth);
        }
        Ok(sandbox)
    }
}
