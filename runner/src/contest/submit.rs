//! An upload, checked as `koth check` and the game's compatibility check do, then by its
//! validation match ([`super::check`]), then stored as a new version of the author's bot. A
//! refusal names the reason and stores nothing but the refused file's SHA-256 and reason, so
//! that the same file sent again is refused without being compiled again.

use super::check::{CheckError, Checker};
use super::config::check_name;
use super::db::{self, AddRefused, Version};
use super::{disk, io, Contest, ContestError};
use sha2::{Digest, Sha256};
use thiserror::Error;

/// An upload refused, with the reason (each maps to one HTTP status).
#[derive(Debug, Error)]
pub enum SubmitError {
    /// The request lacks a field or has a malformed one.
    #[error("{0}")]
    BadRequest(String),
    /// No token, or one that is no author's.
    #[error("{0}")]
    Unauthorized(String),
    /// The bot's name belongs to another author.
    #[error("the bot `{bot}` belongs to another author ({owner}); choose another name")]
    NotYours {
        /// The bot.
        bot: String,
        /// Its author.
        owner: String,
    },
    /// The upload is larger than the contest takes.
    #[error("the upload is {size} bytes; this contest takes at most {limit}")]
    TooLarge {
        /// Its size.
        size: u64,
        /// The limit.
        limit: u64,
    },
    /// The same file as the bot's newest version.
    #[error("this file is already version {0} of the bot; nothing to do")]
    Same(i64),
    /// The module, component or script failed the checks.
    #[error("{0}")]
    Invalid(String),
    /// The contest is full.
    #[error("this contest takes at most {0} bots")]
    Full(usize),
    /// The author has as many bots as one author may.
    #[error("an author may have at most {0} bots in this contest; ask the host to retire one")]
    AuthorFull(usize),
    /// The author uploads too often.
    #[error("an author may send at most {0} uploads an hour to be checked in this contest (accepted or refused); try again later")]
    TooOften(usize),
    /// The same file is another of the author's bots.
    #[error("this file is already your bot `{0}`: one program enters once")]
    Duplicate(String),
    /// The contest holds as much as its disk quota allows.
    #[error("this contest is at its disk quota ({0} MiB); uploads resume when the host raises it")]
    DiskFull(u64),
    /// The bot left the ladder.
    #[error("the bot `{bot}` is {state}{}: it takes no new versions", reason_suffix(.reason))]
    Removed {
        /// The bot.
        bot: String,
        /// `retired` or `disqualified`.
        state: String,
        /// The host's reason.
        reason: String,
    },
    /// The contest could not store it (not the uploader's fault).
    #[error(transparent)]
    Internal(#[from] ContestError),
}

fn reason_suffix(reason: &str) -> String {
    if reason.is_empty() {
        String::new()
    } else {
        format!(" ({reason})")
    }
}

/// What an upload carries.
pub struct Upload<'a> {
    /// The bot's name.
    pub name: &'a str,
    /// The author's token.
    pub token: &'a str,
    /// The file name it was sent with (only its extension is used).
    pub filename: &'a str,
    /// The file.
    pub bytes: &'a [u8],
}

/// The file extension of an upload: `wasm` (a module or a component) or `py`.
fn kind(filename: &str, bytes: &[u8]) -> Result<&'static str, SubmitError> {
    let ext = filename
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase());
    match ext.as_deref() {
        Some("wasm") => Ok("wasm"),
        Some("py") => Ok("py"),
        // Without a usable name, wasm's magic number decides.
        _ if bytes.starts_with(b"\0asm") => Ok("wasm"),
        _ => Err(SubmitError::BadRequest(format!(
            "the file {filename:?} is neither a .wasm module or component nor a .py script"
        ))),
    }
}

/// Check `upload` (with `checker`) and store it as a new version.
pub fn submit(
    contest: &Contest,
    conn: &mut rusqlite::Connection,
    checker: &Checker,
    upload: &Upload<'_>,
) -> Result<Version, SubmitError> {
    check_name("bot", upload.name).map_err(SubmitError::BadRequest)?;
    if upload.token.is_empty() {
        return Err(SubmitError::Unauthorized(
            "no token: give the token `koth contest add-author` printed".into(),
        ));
    }
    let limit = contest.config.max_upload_bytes;
    let size = upload.bytes.len() as u64;
    if size > limit {
        return Err(SubmitError::TooLarge { size, limit });
    }
    if size == 0 {
        return Err(SubmitError::BadRequest("the file is empty".into()));
    }
    let ext = kind(upload.filename, upload.bytes)?;
    if ext == "py" && !contest.config.python {
        return Err(SubmitError::BadRequest(
            "this contest takes .wasm modules and components only, not .py scripts".into(),
        ));
    }
    let Some((author, _)) = db::author_by_token(conn, upload.token)? else {
        return Err(SubmitError::Unauthorized(
            "the token is no author's of this contest".into(),
        ));
    };
    let sha = hex::encode(Sha256::digest(upload.bytes));
    if let Some((why, when)) = db::refused_before(conn, &sha)? {
        return Err(SubmitError::Invalid(format!(
            "this file failed its checks at {} and is not checked again: {why}",
            db::utc(when)
        )));
    }
    if disk::prune(contest, conn)?.size >= disk::quota(contest) {
        return Err(SubmitError::DiskFull(contest.config.max_disk_mib));
    }
    let quotas = db::Quotas {
        bots: contest.config.max_bots,
        bots_per_author: contest.config.max_bots_per_author,
        versions_per_hour: contest.config.max_versions_per_author_per_hour,
    };
    // What the quotas and names refuse is refused before the checks: it costs no compile.
    // (Asked again when the version is added: another upload may have come in between.)
    if let Err(refused) = db::would_add(conn, author, upload.name, ext, &sha, quotas)? {
        return Err(refusal(upload.name, refused));
    }
    // Checked in a folder of its own under the contest, removed whatever happens.
    let incoming = contest.incoming_dir();
    std::fs::create_dir_all(&incoming).map_err(io(&incoming))?;
    let tmp = tempfile::Builder::new()
        .prefix("upload-")
        .tempdir_in(&incoming)
        .map_err(io(&incoming))?;
    let file = format!("{}.{ext}", upload.name);
    let path = tmp.path().join(&file);
    std::fs::write(&path, upload.bytes).map_err(io(&path))?;
    match checker.check(contest, &path, upload.name) {
        Ok(()) => {}
        Err(CheckError::Refused(why)) => {
            db::remember_refused(conn, &sha, author, &why)?;
            return Err(SubmitError::Invalid(why));
        }
        Err(CheckError::Internal(why)) => {
            return Err(SubmitError::Internal(ContestError::Refused(why)))
        }
    }
    let added = db::add_version(
        conn,
        author,
        upload.name,
        ext,
        &sha,
        size as i64,
        quotas,
        |id, stored| {
            let dest = contest.version_file(id, stored);
            if let Some(dir) = dest.parent() {
                std::fs::create_dir_all(dir).map_err(io(dir))?;
            }
            std::fs::rename(&path, &dest).map_err(io(&dest))
        },
    )?;
    added.map_err(|refused| refusal(upload.name, refused))
}

/// The upload error of a version the database refused.
fn refusal(bot: &str, refused: AddRefused) -> SubmitError {
    match refused {
        AddRefused::NotYours(owner) => SubmitError::NotYours {
            bot: bot.to_string(),
            owner,
        },
        AddRefused::Same(n) => SubmitError::Same(n),
        AddRefused::Full(n) => SubmitError::Full(n),
        AddRefused::AuthorFull(n) => SubmitError::AuthorFull(n),
        AddRefused::TooOften(n) => SubmitError::TooOften(n),
        AddRefused::Duplicate(bot) => SubmitError::Duplicate(bot),
        AddRefused::Removed(state, reason) => SubmitError::Removed {
            bot: bot.to_string(),
            state: format!("{state:?}").to_lowercase(),
            reason,
        },
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::contest::{auth, ContestConfig};
    use crate::sandbox::{LoadLimits, Sandbox, SandboxOptions};

    #[test]
    fn a_file_that_failed_its_checks_is_refused_from_memory_when_sent_again() {
        let tmp = tempfile::tempdir().expect("a temporary folder");
        let contest =
            Contest::init(&tmp.path().join("c"), ContestConfig::coup(1, 1)).expect("init");
        let mut conn = contest.db().expect("db");
        let token = auth::new_token().expect("token");
        db::add_author(&conn, "alice", &auth::hash(&token)).expect("author");
        let sandbox = Sandbox::new(SandboxOptions {
            load: LoadLimits::default(),
            ..SandboxOptions::default()
        })
        .expect("sandbox");
        let checker = Checker::InProcess(Box::new(sandbox));
        // A module without `_start`: it fails the checks.
        let bytes = wat::parse_str("(module (memory (export \"memory\") 1))").expect("wat");
        let upload = |name: &'static str| Upload {
            name,
            token: &token,
            filename: "x.wasm",
            bytes: &bytes,
        };
        let first = submit(&contest, &mut conn, &checker, &upload("one")).expect_err("refused");
        assert!(first.to_string().contains("_start"), "{first}");
        assert!(!first.to_string().contains("not checked again"), "{first}");
        let again = submit(&contest, &mut conn, &checker, &upload("two")).expect_err("refused");
        assert!(
            matches!(&again, SubmitError::Invalid(why) if why.contains("is not checked again") && why.contains("_start")),
            "{again}"
        );
        assert_eq!(
            std::fs::read_dir(contest.root().join("versions"))
                .expect("dir")
                .count(),
            0
        );
    }
}
