//! Loading a bot: check the file before compiling it, compile with a time bound, cache.

use super::cache::CodeCache;
use super::compiler::{compile_with_deadline, CodeKind, Compiler};
use super::limits::LoadLimits;
use super::wasi::abi::{FUNCTIONS, MODULE};
use std::time::Duration;
use thiserror::Error;
use wasmparser::{Encoding, ExternalKind, Parser, Payload, TypeRef};

/// Why a bot cannot be loaded. Shown together with the bot's name and file.
#[derive(Debug, Error, Clone, PartialEq, Eq)]
#[non_exhaustive]
pub enum LoadError {
    /// The file could not be read.
    #[error("cannot read the file: {0}")]
    Io(String),
    /// The file is larger than the module size cap.
    #[error("the module is {size} bytes, above the {limit}-byte limit")]
    TooLarge {
        /// Size of the file.
        size: u64,
        /// The cap.
        limit: u64,
    },
    /// The file does not start with the wasm magic number.
    #[error("not a WebAssembly module (the file does not start with \\0asm)")]
    NotWasm,
    /// A component where a core module was expected.
    #[error("this is a WebAssembly component, not a core module")]
    Component,
    /// The module is malformed or uses a disabled feature.
    #[error("invalid module: {0}")]
    Invalid(String),
    /// The module imports something the sandbox does not provide.
    #[error("imports {0}, which the sandbox does not provide (only wasi_snapshot_preview1 functions are available)")]
    UnknownImport(String),
    /// A required export is missing or of the wrong kind.
    #[error("does not export {0}")]
    MissingExport(&'static str),
    /// A required export has the wrong type.
    #[error("exports {0}")]
    WrongType(String),
    /// A memory declaration breaks the rules.
    #[error("{0}")]
    Memory(String),
    /// A table declaration breaks the rules.
    #[error("{0}")]
    Table(String),
    /// The module has more functions, or deeper nesting, than the compiler is allowed to
    /// take on: the compiler's memory and time grow with both, and fuel does not bound them.
    #[error("{0}")]
    TooComplex(String),
    /// Compiling took longer than allowed.
    #[error(
        "compiling took longer than {0} ms, and was stopped: if this is a real bot, raise \
         --compile-timeout, or use a release build of koth (an unoptimised one compiles many \
         times slower); a module built to be slow to compile is refused here"
    )]
    CompileTimeout(u64),
    /// wasmtime refused the module.
    #[error("cannot compile: {0}")]
    Compile(String),
    /// A Python script cannot run: the interpreter is missing or not the pinned one.
    #[error("{0}")]
    Python(String),
}

/// Check everything that can be checked without compiling.
pub(crate) fn prescan(bytes: &[u8], limits: &LoadLimits) -> Result<(), LoadError> {
    if bytes.len() as u64 > limits.module_bytes {
        return Err(LoadError::TooLarge {
            size: bytes.len() as u64,
            limit: limits.module_bytes,
        });
    }
    if bytes.len() < 8 || &bytes[..4] != b"\0asm" {
        return Err(LoadError::NotWasm);
    }
    let mut core = CoreChecks::default();
    let mut has_start = false;
    let mut has_memory_export = false;
    let invalid = |e: wasmparser::BinaryReaderError| LoadError::Invalid(e.to_string());
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(invalid)?;
        core.check(&payload, limits)?;
        match payload {
            Payload::Version {
                encoding: Encoding::Component,
                ..
            } => return Err(LoadError::Component),
            Payload::ImportSection(reader) => {
                for import in reader.into_imports() {
                    let import = import.map_err(invalid)?;
                    let known = import.module == MODULE && FUNCTIONS.contains(&import.name);
                    let is_func = matches!(import.ty, TypeRef::Func(_) | TypeRef::FuncExact(_));
                    if !known || !is_func {
                        let what = match import.ty {
                            TypeRef::Memory(_) => "a memory",
                            TypeRef::Table(_) => "a table",
                            TypeRef::Global(_) => "a global",
                            TypeRef::Tag(_) => "a tag",
                            _ => "a function",
                        };
                        return Err(LoadError::UnknownImport(format!(
                            "{what} `{}::{}`",
                            import.module, import.name
                        )));
                    }
                }
            }
            Payload::ExportSection(reader) => {
                for export in reader {
                    let export = export.map_err(invalid)?;
                    match (export.name, export.kind) {
                        ("_start", ExternalKind::Func | ExternalKind::FuncExact) => {
                            has_start = true
                        }
                        ("memory", ExternalKind::Memory) => has_memory_export = true,
                        _ => {}
                    }
                }
            }
            _ => {}
        }
    }
    if !has_start {
        return Err(LoadError::MissingExport(
            "a `_start` function (is it a WASI command? a library or reactor cannot run as a bot)",
        ));
    }
    if !has_memory_export {
        return Err(LoadError::MissingExport("its linear memory as `memory`"));
    }
    Ok(())
}

/// The checks of one core module's sections (a bot's, or one inside a component).
#[derive(Debug, Default)]
pub(crate) struct CoreChecks {
    memories: u32,
    tables: u32,
    functions: u64,
}

impl CoreChecks {
    /// Check one payload of the module against the load limits.
    pub(crate) fn check(
        &mut self,
        payload: &Payload<'_>,
        limits: &LoadLimits,
    ) -> Result<(), LoadError> {
        let invalid = |e: wasmparser::BinaryReaderError| LoadError::Invalid(e.to_string());
        match payload {
            Payload::MemorySection(reader) => {
                for mem in reader.clone() {
                    let mem = mem.map_err(invalid)?;
                    self.memories += 1;
                    if self.memories > 1 {
                        return Err(LoadError::Memory(
                            "declares a second memory (multi-memory is not allowed)".into(),
                        ));
                    }
                    if mem.shared {
                        return Err(LoadError::Memory(
                            "declares a shared memory (threads are not allowed)".into(),
                        ));
                    }
                    if mem.memory64 {
                        return Err(LoadError::Memory(
                            "declares a 64-bit memory (memory64 is not allowed)".into(),
                        ));
                    }
                    let page = 1u64 << mem.page_size_log2.unwrap_or(16);
                    let min_bytes = mem.initial.saturating_mul(page);
                    if min_bytes > limits.memory_bytes {
                        return Err(LoadError::Memory(format!(
                            "declares a minimum memory of {} pages ({min_bytes} bytes), above the {} MiB limit ({} bytes)",
                            mem.initial,
                            limits.memory_bytes >> 20,
                            limits.memory_bytes
                        )));
                    }
                }
            }
            Payload::TableSection(reader) => {
                for table in reader.clone() {
                    let table = table.map_err(invalid)?;
                    // Checked here so that every allocator refuses it the same way at load
                    // (the on-demand one would only fail at every instantiation).
                    self.tables += 1;
                    if self.tables > 1 {
                        return Err(LoadError::Table(
                            "declares a second table (one table per module is allowed)".into(),
                        ));
                    }
                    if table.ty.initial > limits.table_elements as u64 {
                        return Err(LoadError::Table(format!(
                            "declares a table of {} elements, above the {}-element limit",
                            table.ty.initial, limits.table_elements
                        )));
                    }
                }
            }
            // Globals live in the instance's context: past the cap the pooling allocator
            // refuses the module and the on-demand one does not; refuse it on both.
            Payload::GlobalSection(reader) if u64::from(reader.count()) > limits.globals => {
                return Err(LoadError::TooComplex(format!(
                    "defines {} globals, above the {}-global limit",
                    reader.count(),
                    limits.globals
                )));
            }
            Payload::FunctionSection(reader) => {
                self.functions += u64::from(reader.count());
                if self.functions > limits.functions {
                    return Err(LoadError::TooComplex(format!(
                        "defines {} functions, above the {}-function limit (compiling costs memory per function)",
                        self.functions,
                        limits.functions
                    )));
                }
            }
            Payload::CodeSectionEntry(body) => {
                let depth = max_nesting(body).map_err(invalid)?;
                if depth > limits.nesting {
                    return Err(LoadError::TooComplex(format!(
                        "nests blocks {depth} deep in one function, above the {}-level limit (compiling costs memory per level)",
                        limits.nesting
                    )));
                }
            }
            _ => {}
        }
        Ok(())
    }
}

/// The deepest nesting of `block`, `loop`, `if` and `try_table` in a function body.
fn max_nesting(body: &wasmparser::FunctionBody) -> Result<u64, wasmparser::BinaryReaderError> {
    use wasmparser::Operator;
    let mut reader = body.get_operators_reader()?;
    let (mut depth, mut max) = (0u64, 0u64);
    while !reader.eof() {
        match reader.read()? {
            Operator::Block { .. }
            | Operator::Loop { .. }
            | Operator::If { .. }
            | Operator::TryTable { .. } => {
                depth += 1;
                max = max.max(depth);
            }
            Operator::End => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    Ok(max)
}

/// Compile in a child process where `compiler` says so, killed at the time bound; else on a
/// worker thread given up after it (a compile that overruns then keeps its thread until it
/// finishes, but the bot is rejected and nothing waits for it).
pub(crate) fn compile(
    engine: &wasmtime::Engine,
    bytes: &[u8],
    sha: &[u8; 32],
    cache: Option<&CodeCache>,
    limits: &LoadLimits,
    compiler: Option<&Compiler>,
) -> Result<wasmtime::Module, LoadError> {
    if let Some(m) = cache.and_then(|c| c.get(engine, sha)) {
        return Ok(m);
    }
    let module = compile_with_deadline(
        compiler,
        CodeKind::Module,
        bytes,
        Duration::from_millis(limits.compile_ms),
        // SAFETY: the code was just made by our own worker from these bytes, on an engine
        // built from the same options; wasmtime checks its header against this engine.
        |code| unsafe { wasmtime::Module::deserialize(engine, code) }.ok(),
        {
            let engine = engine.clone();
            move |bytes| wasmtime::Module::new(&engine, bytes).map_err(|e| format!("{e:#}"))
        },
    )?;
    if let Some(c) = cache {
        c.put(sha, &module);
    }
    Ok(module)
}
