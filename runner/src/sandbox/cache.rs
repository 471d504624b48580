//! On-disk cache of compiled code, keyed by the module's SHA-256 and the engine's
//! compatibility hash (wasmtime version and every setting that changes compiled code).
//! Core modules and components share the folder; a component's file name says so, so a
//! module and a component of the same bytes (impossible today: the header differs) could
//! never be mistaken for each other, and each is deserialised only as what it is.

use sha2::{Digest, Sha256};
use std::hash::{Hash, Hasher};
use std::path::{Path, PathBuf};
use thiserror::Error;
use wasmtime::component::Component;
use wasmtime::{Engine, Module};

/// A cache folder that koth refuses: what is in it is native code the host runs, so nobody
/// but the user running koth may be able to write there.
#[derive(Debug, Error)]
#[error("refusing the compiled-code cache {}: {why} (compiled code there runs as native code on this host; fix it, choose another --cache-dir, or pass --no-cache)", dir.display())]
pub struct CacheError {
    /// The folder.
    pub dir: PathBuf,
    /// What is wrong with it.
    pub why: String,
}

/// What a cache file holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CodeKind {
    /// A compiled core module.
    Module,
    /// A compiled component.
    Component,
    /// A small JSON note that goes with a compiled module (where a pre-initialised module
    /// resumes).
    Note,
}

/// A folder of precompiled modules and components.
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

/// Why a cache folder or file must not be trusted, if it must not: another user owns it,
/// or its group or others may write to it.
#[cfg(unix)]
fn untrusted(path: &Path) -> Option<String> {
    use std::os::unix::fs::MetadataExt;
    let meta = match std::fs::metadata(path) {
        Ok(m) => m,
        Err(e) => return Some(format!("cannot read its metadata: {e}")),
    };
    // `/proc/self` belongs to the process's effective user (Linux); elsewhere only the mode
    // is checked.
    if let Ok(me) = std::fs::metadata("/proc/self") {
        if meta.uid() != me.uid() {
            return Some(format!(
                "it belongs to user {}, not to the user running koth ({})",
                meta.uid(),
                me.uid()
            ));
        }
    }
    let mode = meta.mode() & 0o7777;
    if mode & 0o022 != 0 {
        return Some(format!(
            "its group or other users may write to it (mode {mode:o})"
        ));
    }
    None
}

#[cfg(not(unix))]
fn untrusted(_path: &Path) -> Option<String> {
    None
}

impl CodeCache {
    /// A cache in `dir` (created private to the user if missing) for modules compiled by
    /// `engine`, or an error if the folder is not safe: owned by another user, or writable by
    /// its group or others.
    pub fn open(dir: PathBuf, engine: &Engine) -> Result<Self, CacheError> {
        if !dir.exists() {
            let mut builder = std::fs::DirBuilder::new();
            builder.recursive(true);
            #[cfg(unix)]
            std::os::unix::fs::DirBuilderExt::mode(&mut builder, 0o700);
            builder.create(&dir).map_err(|e| CacheError {
                dir: dir.clone(),
                why: format!("cannot create it: {e}"),
            })?;
        }
        if let Some(why) = untrusted(&dir) {
            return Err(CacheError { dir, why });
        }
        Ok(Self::new(dir, engine))
    }

    /// A cache in `dir` for modules compiled by `engine`, without checking the folder
    /// (see [`CodeCache::open`]).
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

    /// The file of a module (`<sha>-<engine>.cwasm`), of a component
    /// (`<sha>-<engine>.component.cwasm`) or of a note (`<sha>-<engine>.note.json`).
    pub fn path_for(&self, sha: &[u8; 32], kind: CodeKind) -> PathBuf {
        let suffix = match kind {
            CodeKind::Module => ".cwasm",
            CodeKind::Component => ".component.cwasm",
            CodeKind::Note => ".note.json",
        };
        self.dir
            .join(format!("{}-{}{suffix}", hex::encode(sha), self.engine_key))
    }

    /// The path of a trusted cache file of this kind, if there is one.
    fn trusted_file(&self, sha: &[u8; 32], kind: CodeKind) -> Option<PathBuf> {
        let path = self.path_for(sha, kind);
        // A file someone else could have written is never loaded.
        (path.is_file() && untrusted(&path).is_none()).then_some(path)
    }

    /// A cached module, if one is there and loads.
    pub fn get(&self, engine: &Engine, module_sha: &[u8; 32]) -> Option<Module> {
        let path = self.trusted_file(module_sha, CodeKind::Module)?;
        // SAFETY: the file was written by `put` below into koth's own cache folder from a
        // module this engine compiled; wasmtime checks its version and settings header.
        unsafe { Module::deserialize_file(engine, &path) }.ok()
    }

    /// A cached component, if one is there and loads.
    pub fn get_component(&self, engine: &Engine, sha: &[u8; 32]) -> Option<Component> {
        let path = self.trusted_file(sha, CodeKind::Component)?;
        // SAFETY: as for `get`: written by `put_component` from a component this engine
        // compiled, into koth's own folder; wasmtime checks the header and that it is a
        // component, not a module.
        unsafe { Component::deserialize_file(engine, &path) }.ok()
    }

    /// Store a compiled component; failures only cost a recompile next time.
    pub fn put_component(&self, sha: &[u8; 32], component: &Component) {
        if let Ok(bytes) = component.serialize() {
            self.write(sha, CodeKind::Component, &bytes);
        }
    }

    /// The note stored under `sha`, if there is a trusted one.
    pub fn get_note(&self, sha: &[u8; 32]) -> Option<Vec<u8>> {
        std::fs::read(self.trusted_file(sha, CodeKind::Note)?).ok()
    }

    /// Store a note; failures only cost remaking what it describes.
    pub fn put_note(&self, sha: &[u8; 32], text: &[u8]) {
        self.write(sha, CodeKind::Note, text);
    }

    /// Store a compiled module; failures only cost a recompile next time.
    pub fn put(&self, module_sha: &[u8; 32], module: &Module) {
        if let Ok(bytes) = module.serialize() {
            self.write(module_sha, CodeKind::Module, &bytes);
        }
    }

    /// Write a cache file atomically (a temporary file renamed), private to the user.
    fn write(&self, sha: &[u8; 32], kind: CodeKind, bytes: &[u8]) {
        if std::fs::create_dir_all(&self.dir).is_err() {
            return;
        }
        let path = self.path_for(sha, kind);
        let tmp = path.with_extension(format!("tmp{}", std::process::id()));
        // Private to the user: `get` refuses a file its group or others could write.
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create(true).truncate(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let written = options
            .open(&tmp)
            .and_then(|mut f| std::io::Write::write_all(&mut f, bytes));
        if written.is_ok() && std::fs::rename(&tmp, &path).is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::sandbox::engine::{build_component_engine, build_engine, EngineOptions};

    /// A module and a component cached under the same hash are two files, and each is read
    /// back only as what it is.
    #[test]
    fn modules_and_components_do_not_collide() {
        let dir = tempfile::tempdir().expect("temp dir");
        let opts = EngineOptions::default();
        let (engine, _) = build_engine(&opts).expect("engine");
        let cengine = build_component_engine(&opts).expect("component engine");
        let modules = CodeCache::open(dir.path().join("c"), &engine).expect("cache");
        let components = CodeCache::open(dir.path().join("c"), &cengine).expect("cache");
        let sha = [7u8; 32];
        let module =
            Module::new(&engine, wat::parse_str("(module)").expect("wat")).expect("module");
        let component = Component::new(&cengine, wat::parse_str("(component)").expect("wat"))
            .expect("component");

        modules.put(&sha, &module);
        assert!(modules.get(&engine, &sha).is_some());
        assert!(components.get_component(&cengine, &sha).is_none());
        components.put_component(&sha, &component);
        assert!(components.get_component(&cengine, &sha).is_some());
        assert!(modules.get(&engine, &sha).is_some());
        assert_ne!(
            modules.path_for(&sha, CodeKind::Module),
            components.path_for(&sha, CodeKind::Component)
        );
        assert_eq!(std::fs::read_dir(dir.path().join("c")).unwrap().count(), 2);
    }
}
