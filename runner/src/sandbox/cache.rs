//! On-disk cache of compiled code, keyed by the module's SHA-256 and the engine's
//! compatibility hash (wasmtime version and every setting that changes compiled code).

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use wasmtime::{Engine, Module};

/// A folder of precompiled modules.
#[derive(Debug, Clone)]
pub struct CodeCache {
    dir: PathBuf,
    engine_key: String,
}

/// Feeds `Hash` output into SHA-256 so the key is stable across Rust versions.
struct ShaHasher(Sha256);

impl Hasher for ShaHasher {
    fn finish(&self) -> u64 {
        0
    }
    fn write(&mut self, bytes: &[u8]) {
        self.0.update(bytes);
    }
}

impl CodeCache {
    /// A cache in `dir` for modules compiled by `engine`.
    pub fn new(dir: PathBuf, engine: &Engine) -> Self {
        let mut h = ShaHasher(Sha256::new());
        engine.precompile_compatibility_hash().hash(&mut h);
        let engine_key = hex::encode(&h.0.finalize()[..8]);
        CodeCache { dir, engine_key }
    }

    /// The default location: `$KOTH_CACHE_DIR`, else `$XDG_CACHE_HOME/koth`, else `~/.cache/koth`.
    pub fn default_dir() -> Option<PathBuf> {
        if let Some(d) = std::env::var_os("KOTH_CACHE_DIR") {
            return Some(PathBuf::from(d));
        }
        if let Some(d) = std::env::var_os("XDG_CACHE_HOME") {
            return Some(Path::new(&d).join("koth"));
        }
        std::env::var_os("HOME").map(|h| Path::new(&h).join(".cache").join("koth"))
    }

    fn path_for(&self, module_sha: &[u8; 32]) -> PathBuf {
        self.dir.join(format!(
            "{}-{}.cwasm",
            hex::encode(module_sha),
            self.engine_key
        ))
    }

    /// A cached module, if one is there and loads.
    pub fn get(&self, engine: &Engine, module_sha: &[u8; 32]) -> Option<Module> {
        let path = self.path_for(module_sha);
        if !path.is_file() {
            return None;
        }
        // SAFETY: the file was written by `put` below into koth's own cache folder from a
        // module this engine compiled; wasmtime checks its version and settings header.
        unsafe { Module::deserialize_file(engine, &path) }.ok()
    }

    /// Store a compiled module; failures only cost a recompile next time.
    pub fn put(&self, module_sha: &[u8; 32], module: &Module) {
        let Ok(bytes) = module.serialize() else {
            return;
        };
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let path = self.path_for(module_sha);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        if std::fs::write(&tmp, bytes).is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}
