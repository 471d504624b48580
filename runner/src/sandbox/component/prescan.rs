//! Load-time checks of a component, before compiling: its imports, and every core module
//! inside it under the same rules as a core-module bot.

use super::super::limits::LoadLimits;
use super::super::loader::{CoreChecks, LoadError};
use wasmparser::{Encoding, Parser, Payload};

/// WASI interfaces a component may import (any 0.2.x version).
const ALLOWED: &[&str] = &[
    "wasi:cli/environment",
    "wasi:cli/exit",
    "wasi:cli/stdin",
    "wasi:cli/stdout",
    "wasi:cli/stderr",
    "wasi:cli/terminal-input",
    "wasi:cli/terminal-output",
    "wasi:cli/terminal-stdin",
    "wasi:cli/terminal-stdout",
    "wasi:cli/terminal-stderr",
    "wasi:io/error",
    "wasi:io/poll",
    "wasi:io/streams",
    "wasi:clocks/monotonic-clock",
    "wasi:clocks/wall-clock",
    "wasi:random/random",
    "wasi:random/insecure",
    "wasi:random/insecure-seed",
    "wasi:sockets/network",
    "wasi:sockets/instance-network",
    "wasi:sockets/tcp",
    "wasi:sockets/tcp-create-socket",
    "wasi:sockets/udp",
    "wasi:sockets/udp-create-socket",
    "wasi:sockets/ip-name-lookup",
    "wasi:filesystem/types",
    "wasi:filesystem/preopens",
];

/// Check a bot component's imports and its core modules.
pub(crate) fn prescan(bytes: &[u8], limits: &LoadLimits) -> Result<(), LoadError> {
    prescan_with(bytes, limits, &[])
}

/// Check a component's imports (WASI 0.2, plus the interfaces of `extra`: a name and the
/// prefix its versions must have) and its core modules.
pub(crate) fn prescan_with(
    bytes: &[u8],
    limits: &LoadLimits,
    extra: &[(&str, &str)],
) -> Result<(), LoadError> {
    if bytes.len() as u64 > limits.module_bytes {
        return Err(LoadError::TooLarge {
            size: bytes.len() as u64,
            limit: limits.module_bytes,
        });
    }
    let invalid = |e: wasmparser::BinaryReaderError| LoadError::Invalid(e.to_string());
    // One set of counters per core module; components nest, so keep a stack.
    let mut stack: Vec<Option<CoreChecks>> = Vec::new();
    for payload in Parser::new(0).parse_all(bytes) {
        let payload = payload.map_err(invalid)?;
        match &payload {
            Payload::Version { encoding, .. } => {
                stack.push(match encoding {
                    Encoding::Module => Some(CoreChecks::default()),
                    Encoding::Component => None,
                });
                continue;
            }
            Payload::End(_) => {
                stack.pop();
                continue;
            }
            Payload::ComponentImportSection(reader) if stack.len() == 1 => {
                for import in reader.clone() {
                    let import = import.map_err(invalid)?;
                    check_import(import.name.name, extra)?;
                }
            }
            _ => {}
        }
        if let Some(Some(core)) = stack.last_mut() {
            core.check(&payload, limits)?;
        }
    }
    Ok(())
}

fn check_import(name: &str, extra: &[(&str, &str)]) -> Result<(), LoadError> {
    let (interface, version) = name.split_once('@').unwrap_or((name, ""));
    if ALLOWED.contains(&interface) && version.starts_with("0.2.") {
        return Ok(());
    }
    if extra
        .iter()
        .any(|(i, v)| *i == interface && version.starts_with(v))
    {
        return Ok(());
    }
    let also: String = extra.iter().map(|(i, v)| format!(", {i}@{v}x")).collect();
    Err(LoadError::UnknownImport(format!(
        "`{name}` (a component may import WASI 0.2 cli, io, clocks, random, sockets and filesystem{also}; see wit/)"
    )))
}
