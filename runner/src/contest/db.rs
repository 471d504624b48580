//! The contest's SQLite database: authors, bots, versions, runs, the match index and the
//! host's log. WAL mode, so pages read while a run or an upload writes; every change is one
//! transaction. The schema has a version (SQLite's `user_version`) and migrations
//! ([`MIGRATIONS`]): a database of koth 0.3.0 (version 0) is brought up to date when opened,
//! one from a newer koth is refused by name.

use super::ContestError;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use rusqlite_migration::{Migrations, M};
use serde::Serialize;
use std::path::Path;
use std::time::Duration;

/// Version 1: koth 0.3.0's tables (created only where missing, so a 0.3.0 database, which
/// has them at version 0, passes through).
const SCHEMA_V1: &str = "
CREATE TABLE IF NOT EXISTS authors (
    id INTEGER PRIMARY KEY,
    name TEXT NOT NULL UNIQUE,
    token_sha256 BLOB NOT NULL,
    created INTEGER NOT NULL
);
CREATE TABLE IF NOT EXISTS bots (
    name TEXT PRIMARY KEY,
    author INTEGER NOT NULL REFERENCES authors(id)
);
CREATE TABLE IF NOT EXISTS versions (
    id INTEGER PRIMARY KEY,
    bot TEXT NOT NULL REFERENCES bots(name),
    number INTEGER NOT NULL,
    file TEXT NOT NULL,
    sha256 TEXT NOT NULL,
    bytes INTEGER NOT NULL,
    created INTEGER NOT NULL,
    UNIQUE (bot, number)
);
CREATE TABLE IF NOT EXISTS runs (
    id INTEGER PRIMARY KEY,
    -- The sorted version ids the run covers: a set of versions is run once.
    versions TEXT NOT NULL UNIQUE,
    state TEXT NOT NULL,
    total INTEGER NOT NULL,
    played INTEGER,
    reused INTEGER,
    error TEXT,
    created INTEGER NOT NULL,
    finished INTEGER
);
CREATE TABLE IF NOT EXISTS matches (
    run INTEGER NOT NULL REFERENCES runs(id),
    idx INTEGER NOT NULL,
    label TEXT NOT NULL,
    participants TEXT NOT NULL,
    scores TEXT NOT NULL,
    winners TEXT NOT NULL,
    void TEXT,
    forfeits TEXT NOT NULL,
    PRIMARY KEY (run, idx)
);
";

/// Version 2: revocable authors, bots that leave the ladder (retired or disqualified, with
/// the reason), names unique whatever their case, and the host's log.
const SCHEMA_V2: &str = "
ALTER TABLE authors ADD COLUMN revoked INTEGER;
ALTER TABLE bots ADD COLUMN state TEXT NOT NULL DEFAULT 'active';
ALTER TABLE bots ADD COLUMN reason TEXT;
CREATE UNIQUE INDEX bots_name_nocase ON bots (name COLLATE NOCASE);
CREATE UNIQUE INDEX authors_name_nocase ON authors (name COLLATE NOCASE);
CREATE INDEX versions_created ON versions (created);
CREATE TABLE host_log (
    id INTEGER PRIMARY KEY,
    time INTEGER NOT NULL,
    action TEXT NOT NULL,
    subject TEXT NOT NULL,
    detail TEXT NOT NULL
);
";

/// Version 3: uploads that failed their checks, remembered by SHA-256 (for the koth version
/// that checked them) so that a re-sent one is refused without compiling it again; and runs
/// whose archive was removed to keep the contest within its disk quota.
const SCHEMA_V3: &str = "
CREATE TABLE refused (
    sha256 TEXT NOT NULL,
    koth TEXT NOT NULL,
    reason TEXT NOT NULL,
    time INTEGER NOT NULL,
    author INTEGER,
    PRIMARY KEY (sha256, koth)
);
CREATE INDEX refused_author_time ON refused (author, time);
ALTER TABLE runs ADD COLUMN pruned INTEGER;
";

/// Every migration, in order; the schema version is their count.
const MIGRATIONS: &[M<'static>] = &[M::up(SCHEMA_V1), M::up(SCHEMA_V2), M::up(SCHEMA_V3)];

/// The schema version this koth writes.
pub const SCHEMA_VERSION: i64 = MIGRATIONS.len() as i64;

/// A read-only connection to the database at `path`, which [`open`] has made and migrated:
/// what the server's pages read through, several at once beside the writers (WAL mode).
pub fn open_read_only(path: &Path) -> Result<Connection, ContestError> {
    let conn = Connection::open_with_flags(
        path,
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    conn.busy_timeout(Duration::from_secs(30))?;
    Ok(conn)
}

/// Open the database at `path` (creating its tables, or migrating them to
/// [`SCHEMA_VERSION`]), in WAL mode. A database of a newer schema is refused, never read.
pub fn open(path: &Path) -> Result<Connection, ContestError> {
    let mut conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(30))?;
    let found: i64 = conn.pragma_query_value(None, "user_version", |r| r.get(0))?;
    if found > SCHEMA_VERSION {
        return Err(ContestError::Refused(format!(
            "{}: the contest database is schema version {found}, written by a newer koth; this \
             koth knows versions up to {SCHEMA_VERSION}: use the koth that wrote it",
            path.display()
        )));
    }
    let _mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    if found < SCHEMA_VERSION {
        Migrations::from_slice(MIGRATIONS)
            .to_latest(&mut conn)
            .map_err(|e| {
                ContestError::Refused(format!(
                    "{}: cannot migrate the contest database from schema version {found} to \
                     {SCHEMA_VERSION}: {e}",
                    path.display()
                ))
            })?;
    }
    conn.pragma_update(None, "foreign_keys", "ON")?;
    Ok(conn)
}

/// The koth version that checks uploads: a refusal is remembered for it only (another
/// version's checks may differ).
const CHECKER: &str = env!("CARGO_PKG_VERSION");

/// Why a file with this SHA-256 failed its checks before, and when, if it did (with this
/// koth version).
pub fn refused_before(
    conn: &Connection,
    sha256: &str,
) -> Result<Option<(String, i64)>, ContestError> {
    Ok(conn
        .query_row(
            "SELECT reason, time FROM refused WHERE sha256 = ?1 AND koth = ?2",
            params![sha256, CHECKER],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?)
}

/// Remember that the file with this SHA-256, sent by `author`, failed its checks, and why.
/// It counts toward the author's uploads of the hour, as a checked version does.
pub fn remember_refused(
    conn: &Connection,
    sha256: &str,
    author: i64,
    reason: &str,
) -> Result<(), ContestError> {
    conn.execute(
        "INSERT OR REPLACE INTO refused (sha256, koth, reason, time, author) \
         VALUES (?1, ?2, ?3, ?4, ?5)",
        params![sha256, CHECKER, reason, now(), author],
    )?;
    Ok(())
}

/// Forget every remembered refusal (`koth contest clear-refusals`: after the host changed
/// the validation opponent, say); logged. Returns how many there were.
pub fn clear_refused(conn: &mut Connection) -> Result<usize, ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let n = tx.execute("DELETE FROM refused", [])?;
    log(
        &tx,
        "clear-refusals",
        "",
        &format!("{n} refused files forgotten"),
    )?;
    tx.commit()?;
    Ok(n)
}

/// Mark run `id`'s archive condensed (its standings and receipt kept) and drop its match
/// index, which only the leaderboard's run is read by: neither grows with the runs.
pub fn mark_pruned(conn: &mut Connection, id: i64) -> Result<(), ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute("DELETE FROM matches WHERE run = ?1", [id])?;
    tx.execute(
        "UPDATE runs SET pruned = ?2 WHERE id = ?1",
        params![id, now()],
    )?;
    tx.commit()?;
    Ok(())
}

/// Runs whose archive is still whole, oldest first.
pub fn unpruned_runs(conn: &Connection) -> Result<Vec<i64>, ContestError> {
    let mut stmt = conn.prepare_cached(
        "SELECT id FROM runs WHERE pruned IS NULL AND state IN ('done', 'failed') ORDER BY id",
    )?;
    let rows = stmt.query_map([], |r| r.get(0))?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Write one line of the host's log: what was done, to whom, and why or how.
pub fn log(
    conn: &Connection,
    action: &str,
    subject: &str,
    detail: &str,
) -> Result<(), ContestError> {
    conn.execute(
        "INSERT INTO host_log (time, action, subject, detail) VALUES (?1, ?2, ?3, ?4)",
        params![now(), action, subject, detail],
    )?;
    Ok(())
}

/// One line of the host's log.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct LogEntry {
    /// When (Unix seconds).
    pub time: i64,
    /// `revoke-author`, `rotate-token`, `retire-bot`, `disqualify`.
    pub action: String,
    /// The author or bot.
    pub subject: String,
    /// The reason, or what changed.
    pub detail: String,
}

/// The host's log, oldest first.
pub fn host_log(conn: &Connection) -> Result<Vec<LogEntry>, ContestError> {
    let mut stmt =
        conn.prepare_cached("SELECT time, action, subject, detail FROM host_log ORDER BY id")?;
    let rows = stmt.query_map([], |r| {
        Ok(LogEntry {
            time: r.get(0)?,
            action: r.get(1)?,
            subject: r.get(2)?,
            detail: r.get(3)?,
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The author named `name` (whatever its case): (id, name as stored, revoked).
fn author_by_name(
    conn: &Connection,
    name: &str,
) -> Result<Option<(i64, String, bool)>, ContestError> {
    Ok(conn
        .query_row(
            "SELECT id, name, revoked IS NOT NULL FROM authors WHERE name = ?1 COLLATE NOCASE",
            [name],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)),
        )
        .optional()?)
}

/// Revoke the author `name`: their token stops working at once (uploads are refused); their
/// bots stay in the ladder until retired. Logged.
pub fn revoke_author(conn: &mut Connection, name: &str) -> Result<(), ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let Some((id, stored, revoked)) = author_by_name(&tx, name)? else {
        return Err(ContestError::Refused(format!("no author named `{name}`")));
    };
    if revoked {
        return Err(ContestError::Refused(format!(
            "the author `{stored}` is revoked already"
        )));
    }
    tx.execute(
        "UPDATE authors SET revoked = ?2 WHERE id = ?1",
        params![id, now()],
    )?;
    log(&tx, "revoke-author", &stored, "the token no longer works")?;
    tx.commit()?;
    Ok(())
}

/// Give the author `name` a new token (its hash): the old one stops working, and a revoked
/// author is reinstated. Logged.
pub fn rotate_token(
    conn: &mut Connection,
    name: &str,
    token_sha256: &[u8],
) -> Result<(), ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let Some((id, stored, revoked)) = author_by_name(&tx, name)? else {
        return Err(ContestError::Refused(format!("no author named `{name}`")));
    };
    tx.execute(
        "UPDATE authors SET token_sha256 = ?2, revoked = NULL WHERE id = ?1",
        params![id, token_sha256],
    )?;
    let detail = if revoked {
        "a new token; the author was revoked and is reinstated"
    } else {
        "a new token; the old one no longer works"
    };
    log(&tx, "rotate-token", &stored, detail)?;
    tx.commit()?;
    Ok(())
}

/// Where a bot stands.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "lowercase")]
pub enum BotState {
    /// In the ladder.
    Active,
    /// Left the ladder at the host's word; its past runs stay.
    Retired,
    /// Removed from the ladder for breaking the contest's rules, with a reason shown on its page.
    Disqualified,
}

impl BotState {
    fn as_str(self) -> &'static str {
        match self {
            BotState::Active => "active",
            BotState::Retired => "retired",
            BotState::Disqualified => "disqualified",
        }
    }
}

/// A bot's standing: its state and, if it left the ladder, why.
pub fn bot_state(
    conn: &Connection,
    bot: &str,
) -> Result<Option<(BotState, Option<String>)>, ContestError> {
    let row: Option<(String, Option<String>)> = conn
        .query_row(
            "SELECT state, reason FROM bots WHERE name = ?1 COLLATE NOCASE",
            [bot],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    Ok(row.map(|(state, reason)| {
        let state = match state.as_str() {
            "retired" => BotState::Retired,
            "disqualified" => BotState::Disqualified,
            _ => BotState::Active,
        };
        (state, reason)
    }))
}

/// Take the bot `bot` out of the ladder as `state` (retired or disqualified) with `reason`.
/// The next run leaves it out; its past runs and versions stay. Logged.
pub fn remove_bot(
    conn: &mut Connection,
    bot: &str,
    state: BotState,
    reason: &str,
) -> Result<(), ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let found: Option<(String, String)> = tx
        .query_row(
            "SELECT name, state FROM bots WHERE name = ?1 COLLATE NOCASE",
            [bot],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let Some((stored, current)) = found else {
        return Err(ContestError::Refused(format!("no bot named `{bot}`")));
    };
    if current != BotState::Active.as_str() {
        return Err(ContestError::Refused(format!(
            "the bot `{stored}` is {current} already"
        )));
    }
    tx.execute(
        "UPDATE bots SET state = ?2, reason = ?3 WHERE name = ?1",
        params![stored, state.as_str(), reason],
    )?;
    let action = match state {
        BotState::Disqualified => "disqualify",
        _ => "retire-bot",
    };
    log(&tx, action, &stored, reason)?;
    tx.commit()?;
    Ok(())
}

/// Seconds since the Unix epoch.
pub fn now() -> i64 {
    std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map(|d| d.as_secs() as i64)
        .unwrap_or(0)
}

/// Add an author with the hash of their token; refuses a name already taken.
pub fn add_author(conn: &Connection, name: &str, token_sha256: &[u8]) -> Result<i64, ContestError> {
    let taken: Option<i64> = conn
        .query_row(
            "SELECT id FROM authors WHERE name = ?1 COLLATE NOCASE",
            [name],
            |r| r.get(0),
        )
        .optional()?;
    if taken.is_some() {
        return Err(ContestError::Refused(format!(
            "an author named `{name}` already exists (names are the same whatever their case)"
        )));
    }
    conn.execute(
        "INSERT INTO authors (name, token_sha256, created) VALUES (?1, ?2, ?3)",
        params![name, token_sha256, now()],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The author whose token this is: (id, name); a revoked author's token is no one's. Every
/// author's hash is compared, each in constant time.
pub fn author_by_token(
    conn: &Connection,
    token: &str,
) -> Result<Option<(i64, String)>, ContestError> {
    let mut stmt =
        conn.prepare_cached("SELECT id, name, token_sha256 FROM authors WHERE revoked IS NULL")?;
    let rows = stmt.query_map([], |r| {
        Ok((
            r.get::<_, i64>(0)?,
            r.get::<_, String>(1)?,
            r.get::<_, Vec<u8>>(2)?,
        ))
    })?;
    let mut found = None;
    for row in rows {
        let (id, name, hash) = row?;
        if super::auth::matches(token, &hash) {
            found = Some((id, name));
        }
    }
    Ok(found)
}

/// One version of a bot.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Version {
    /// Its id (contest-wide, in upload order).
    pub id: i64,
    /// The bot.
    pub bot: String,
    /// The author.
    pub author: String,
    /// 1 for the bot's first upload, then 2, 3...
    pub number: i64,
    /// Its file name (`<bot>.wasm`, `<bot>.py`).
    pub file: String,
    /// SHA-256 of the upload, hex.
    pub sha256: String,
    /// Its size.
    pub bytes: i64,
    /// When it was accepted (Unix seconds).
    pub created: i64,
}

const VERSION_COLUMNS: &str =
    "v.id, v.bot, a.name, v.number, v.file, v.sha256, v.bytes, v.created \
     FROM versions v JOIN bots b ON b.name = v.bot JOIN authors a ON a.id = b.author";

fn version(r: &rusqlite::Row<'_>) -> rusqlite::Result<Version> {
    Ok(Version {
        id: r.get(0)?,
        bot: r.get(1)?,
        author: r.get(2)?,
        number: r.get(3)?,
        file: r.get(4)?,
        sha256: r.get(5)?,
        bytes: r.get(6)?,
        created: r.get(7)?,
    })
}

/// The newest version of every bot in the ladder (not retired or disqualified), by bot name.
pub fn latest_versions(conn: &Connection) -> Result<Vec<Version>, ContestError> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} WHERE b.state = 'active' AND v.number = \
         (SELECT MAX(number) FROM versions w WHERE w.bot = v.bot) ORDER BY v.bot"
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([], version)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// Every version of `bot`, oldest first.
pub fn versions_of(conn: &Connection, bot: &str) -> Result<Vec<Version>, ContestError> {
    let sql = format!("SELECT {VERSION_COLUMNS} WHERE v.bot = ?1 ORDER BY v.number");
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map([bot], version)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The versions with these ids, in this order.
pub fn versions_by_id(conn: &Connection, ids: &[i64]) -> Result<Vec<Version>, ContestError> {
    let sql = format!("SELECT {VERSION_COLUMNS} WHERE v.id = ?1");
    let mut stmt = conn.prepare_cached(&sql)?;
    let mut out = Vec::with_capacity(ids.len());
    for id in ids {
        out.push(stmt.query_row([id], version)?);
    }
    Ok(out)
}

/// How many bots (names) the contest has.
pub fn bot_count(conn: &Connection) -> Result<usize, ContestError> {
    let n: i64 = conn.query_row("SELECT COUNT(*) FROM bots", [], |r| r.get(0))?;
    Ok(n as usize)
}

/// Why a version could not be added.
#[derive(Debug)]
pub enum AddRefused {
    /// The bot belongs to another author.
    NotYours(String),
    /// The upload is the bot's newest version already.
    Same(i64),
    /// The contest has as many bots as it takes.
    Full(usize),
    /// The author has as many bots in the ladder as one author may.
    AuthorFull(usize),
    /// The author uploaded as many versions in the last hour as one author may.
    TooOften(usize),
    /// The same file is the newest version of another of the author's bots.
    Duplicate(String),
    /// The bot left the ladder (retired or disqualified), with the reason.
    Removed(BotState, String),
}

/// The limits an upload is held to ([`super::ContestConfig`]'s).
#[derive(Debug, Clone, Copy)]
pub struct Quotas {
    /// Bots in the contest.
    pub bots: usize,
    /// Bots of one author in the ladder.
    pub bots_per_author: usize,
    /// Versions of one author in the last hour.
    pub versions_per_hour: usize,
}

/// Add a version of `bot` for author `author` in one transaction: the bot is created if it is
/// new (a name that differs from an existing one only in case is that bot), its number is the
/// next one. `place(id, name)` puts the file where the version's id says, under the bot's name
/// as stored, inside the transaction, so a failure stores nothing.
#[allow(clippy::too_many_arguments)]
pub fn add_version(
    conn: &mut Connection,
    author: i64,
    bot: &str,
    ext: &str,
    sha256: &str,
    bytes: i64,
    quotas: Quotas,
    place: impl FnOnce(i64, &str) -> Result<(), ContestError>,
) -> Result<Result<Version, AddRefused>, ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let owner: Option<(String, i64, String, String, Option<String>)> = tx
        .query_row(
            "SELECT b.name, a.id, a.name, b.state, b.reason FROM bots b \
             JOIN authors a ON a.id = b.author WHERE b.name = ?1 COLLATE NOCASE",
            [bot],
            |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)),
        )
        .optional()?;
    // Every upload that cost a check counts: the versions taken and the files refused.
    let recent: i64 = tx.query_row(
        "SELECT (SELECT COUNT(*) FROM versions v JOIN bots b ON b.name = v.bot \
                 WHERE b.author = ?1 AND v.created > ?2) \
              + (SELECT COUNT(*) FROM refused WHERE author = ?1 AND time > ?2)",
        params![author, now() - 3600],
        |r| r.get(0),
    )?;
    if recent as usize >= quotas.versions_per_hour {
        return Ok(Err(AddRefused::TooOften(quotas.versions_per_hour)));
    }
    let twin: Option<String> = tx
        .query_row(
            "SELECT v.bot FROM versions v JOIN bots b ON b.name = v.bot \
             WHERE b.author = ?1 AND v.sha256 = ?2 AND v.bot <> ?3 COLLATE NOCASE \
             AND v.number = (SELECT MAX(number) FROM versions w WHERE w.bot = v.bot) LIMIT 1",
            params![author, sha256, bot],
            |r| r.get(0),
        )
        .optional()?;
    if let Some(twin) = twin {
        return Ok(Err(AddRefused::Duplicate(twin)));
    }
    let name = match owner {
        Some((_, id, owner, _, _)) if id != author => return Ok(Err(AddRefused::NotYours(owner))),
        Some((_, _, _, state, reason)) if state != BotState::Active.as_str() => {
            let state = if state == "retired" {
                BotState::Retired
            } else {
                BotState::Disqualified
            };
            return Ok(Err(AddRefused::Removed(state, reason.unwrap_or_default())));
        }
        Some((name, ..)) => name,
        None => {
            let n: i64 = tx.query_row("SELECT COUNT(*) FROM bots", [], |r| r.get(0))?;
            if n as usize >= quotas.bots {
                return Ok(Err(AddRefused::Full(quotas.bots)));
            }
            let mine: i64 = tx.query_row(
                "SELECT COUNT(*) FROM bots WHERE author = ?1 AND state <> 'retired'",
                [author],
                |r| r.get(0),
            )?;
            if mine as usize >= quotas.bots_per_author {
                return Ok(Err(AddRefused::AuthorFull(quotas.bots_per_author)));
            }
            tx.execute(
                "INSERT INTO bots (name, author) VALUES (?1, ?2)",
                params![bot, author],
            )?;
            bot.to_string()
        }
    };
    let last: Option<(i64, String)> = tx
        .query_row(
            "SELECT number, sha256 FROM versions WHERE bot = ?1 ORDER BY number DESC LIMIT 1",
            [&name],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((number, sha)) = &last {
        if sha == sha256 {
            return Ok(Err(AddRefused::Same(*number)));
        }
    }
    let number = last.map_or(1, |(n, _)| n + 1);
    let file = format!("{name}.{ext}");
    tx.execute(
        "INSERT INTO versions (bot, number, file, sha256, bytes, created) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![name, number, file, sha256, bytes, now()],
    )?;
    let id = tx.last_insert_rowid();
    place(id, &file)?;
    let v = tx.query_row(
        &format!("SELECT {VERSION_COLUMNS} WHERE v.id = ?1"),
        [id],
        version,
    )?;
    tx.commit()?;
    Ok(Ok(v))
}

/// Whether [`add_version`] would take this version now (the quotas, the names, one program
/// per author), without adding it: asked before an upload is checked, so that an upload the
/// quotas refuse costs no compile. The same transaction as `add_version`'s, rolled back.
pub fn would_add(
    conn: &mut Connection,
    author: i64,
    bot: &str,
    ext: &str,
    sha256: &str,
    quotas: Quotas,
) -> Result<Result<(), AddRefused>, ContestError> {
    const DRY: &str = "koth: a dry run's rollback";
    match add_version(conn, author, bot, ext, sha256, 0, quotas, |_, _| {
        Err(ContestError::Refused(DRY.into()))
    }) {
        Ok(Err(refused)) => Ok(Err(refused)),
        Err(ContestError::Refused(why)) if why == DRY => Ok(Ok(())),
        Err(e) => Err(e),
        // `place` always fails, so no version is ever added here.
        Ok(Ok(_)) => Ok(Ok(())),
    }
}

/// One run of the contest.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Run {
    /// Its id, also its archive folder's name.
    pub id: i64,
    /// The versions it covers.
    pub versions: Vec<i64>,
    /// `queued`, `running`, `done` or `failed`.
    pub state: String,
    /// Matches in the run.
    pub total: i64,
    /// Matches it played (the others came from the store); set when done.
    pub played: Option<i64>,
    /// Matches it took from the store; set when done.
    pub reused: Option<i64>,
    /// Why it failed.
    pub error: Option<String>,
    /// When it was queued.
    pub created: i64,
    /// When it ended.
    pub finished: Option<i64>,
    /// When its archive was condensed to its standings (a newer run superseded it, or the
    /// disk quota); every match stays in the store, from which the archive can be rebuilt.
    pub pruned: Option<i64>,
}

const RUN_COLUMNS: &str =
    "id, versions, state, total, played, reused, error, created, finished, pruned FROM runs";

fn run(r: &rusqlite::Row<'_>) -> rusqlite::Result<Run> {
    let versions: String = r.get(1)?;
    Ok(Run {
        id: r.get(0)?,
        // A set run again after the ladder moved past it carries a `#n` suffix.
        versions: versions
            .split('#')
            .next()
            .unwrap_or_default()
            .split(',')
            .filter_map(|v| v.parse().ok())
            .collect(),
        state: r.get(2)?,
        total: r.get(3)?,
        played: r.get(4)?,
        reused: r.get(5)?,
        error: r.get(6)?,
        created: r.get(7)?,
        finished: r.get(8)?,
        pruned: r.get(9)?,
    })
}

/// The key of a set of versions: their sorted ids.
pub fn versions_key(ids: &[i64]) -> String {
    let mut ids = ids.to_vec();
    ids.sort_unstable();
    ids.iter()
        .map(|i| i.to_string())
        .collect::<Vec<_>>()
        .join(",")
}

/// Queue a run of these versions unless this set's newest run is the leaderboard's already,
/// is still to play, or failed; returns the new run. A set run before, then left behind by
/// newer runs (a bot joined, then left the ladder), is run again (its matches all come from
/// the store) so that the leaderboard is always the ladder's.
pub fn queue_run(
    conn: &Connection,
    versions: &[i64],
    total: usize,
) -> Result<Option<Run>, ContestError> {
    let key = versions_key(versions);
    let prev: Option<(i64, String)> = conn
        .query_row(
            "SELECT id, state FROM runs WHERE versions = ?1 OR versions LIKE ?1 || '#%' \
             ORDER BY id DESC LIMIT 1",
            [&key],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    let key = match prev {
        None => key,
        Some((id, state)) if state == "done" => {
            if latest_done(conn)?.is_some_and(|r| r.id == id) {
                return Ok(None);
            }
            let again: i64 = conn.query_row(
                "SELECT COUNT(*) FROM runs WHERE versions = ?1 OR versions LIKE ?1 || '#%'",
                [&key],
                |r| r.get(0),
            )?;
            format!("{key}#{}", again + 1)
        }
        Some(_) => return Ok(None),
    };
    conn.execute(
        "INSERT INTO runs (versions, state, total, created) VALUES (?1, 'queued', ?2, ?3)",
        params![key, total as i64, now()],
    )?;
    let id = conn.last_insert_rowid();
    Ok(Some(get_run(conn, id)?.ok_or_else(|| {
        ContestError::Refused(format!("run {id} vanished"))
    })?))
}

/// The oldest run that is queued or was running when the server stopped.
pub fn unfinished_run(conn: &Connection) -> Result<Option<Run>, ContestError> {
    Ok(conn
        .query_row(
            &format!(
                "SELECT {RUN_COLUMNS} WHERE state IN ('queued', 'running') ORDER BY id LIMIT 1"
            ),
            [],
            run,
        )
        .optional()?)
}

/// Run `id`.
pub fn get_run(conn: &Connection, id: i64) -> Result<Option<Run>, ContestError> {
    Ok(conn
        .query_row(&format!("SELECT {RUN_COLUMNS} WHERE id = ?1"), [id], run)
        .optional()?)
}

/// Every run, newest first.
pub fn runs(conn: &Connection) -> Result<Vec<Run>, ContestError> {
    let mut stmt = conn.prepare_cached(&format!("SELECT {RUN_COLUMNS} ORDER BY id DESC"))?;
    let rows = stmt.query_map([], run)?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// The newest finished run: the leaderboard's.
pub fn latest_done(conn: &Connection) -> Result<Option<Run>, ContestError> {
    Ok(conn
        .query_row(
            &format!("SELECT {RUN_COLUMNS} WHERE state = 'done' ORDER BY id DESC LIMIT 1"),
            [],
            run,
        )
        .optional()?)
}

/// Mark run `id` as running.
pub fn start_run(conn: &Connection, id: i64) -> Result<(), ContestError> {
    conn.execute("UPDATE runs SET state = 'running' WHERE id = ?1", [id])?;
    Ok(())
}

/// Mark run `id` as failed, with why.
pub fn fail_run(conn: &Connection, id: i64, error: &str) -> Result<(), ContestError> {
    conn.execute(
        "UPDATE runs SET state = 'failed', error = ?2, finished = ?3 WHERE id = ?1",
        params![id, error, now()],
    )?;
    Ok(())
}

/// One match of a finished run, for the index.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct MatchRow {
    /// Its index in the run.
    pub idx: i64,
    /// Its label.
    pub label: String,
    /// The bots in their seats.
    pub participants: Vec<String>,
    /// Each seat's score.
    pub scores: Vec<u64>,
    /// The winners.
    pub winners: Vec<String>,
    /// Why it is void, if it is.
    pub void: Option<String>,
    /// Each forfeit: the bot and its kind.
    pub forfeits: Vec<(String, String)>,
}

/// Mark run `id` as done, with its figures and its match index, in one transaction.
pub fn finish_run(
    conn: &mut Connection,
    id: i64,
    played: usize,
    reused: usize,
    matches: &[MatchRow],
) -> Result<(), ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    tx.execute("DELETE FROM matches WHERE run = ?1", [id])?;
    {
        let mut stmt = tx.prepare(
            "INSERT INTO matches (run, idx, label, participants, scores, winners, void, forfeits) \
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        for m in matches {
            stmt.execute(params![
                id,
                m.idx,
                m.label,
                serde_json::to_string(&m.participants).unwrap_or_default(),
                serde_json::to_string(&m.scores).unwrap_or_default(),
                serde_json::to_string(&m.winners).unwrap_or_default(),
                m.void,
                serde_json::to_string(&m.forfeits).unwrap_or_default()
            ])?;
        }
    }
    tx.execute(
        "UPDATE runs SET state = 'done', played = ?2, reused = ?3, finished = ?4 WHERE id = ?1",
        params![id, played as i64, reused as i64, now()],
    )?;
    tx.commit()?;
    Ok(())
}

/// The matches of run `id` that `bot` played, in order.
pub fn matches_of(conn: &Connection, id: i64, bot: &str) -> Result<Vec<MatchRow>, ContestError> {
    let mut stmt = conn.prepare_cached(
        "SELECT idx, label, participants, scores, winners, void, forfeits FROM matches \
         WHERE run = ?1 AND EXISTS (SELECT 1 FROM json_each(participants) WHERE value = ?2) \
         ORDER BY idx",
    )?;
    let rows = stmt.query_map(params![id, bot], |r| {
        let list = |s: String| serde_json::from_str(&s).unwrap_or_default();
        Ok(MatchRow {
            idx: r.get(0)?,
            label: r.get(1)?,
            participants: list(r.get(2)?),
            scores: serde_json::from_str(&r.get::<_, String>(3)?).unwrap_or_default(),
            winners: list(r.get(4)?),
            void: r.get(5)?,
            forfeits: serde_json::from_str(&r.get::<_, String>(6)?).unwrap_or_default(),
        })
    })?;
    Ok(rows.collect::<Result<_, _>>()?)
}

/// `secs` since the Unix epoch as `YYYY-MM-DD HH:MM:SS UTC` (the host's log; no time zone
/// database needed for UTC).
pub fn utc(secs: i64) -> String {
    let (days, rem) = (secs.div_euclid(86_400), secs.rem_euclid(86_400));
    // Days to a civil date (proleptic Gregorian), after Howard Hinnant's public-domain method.
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let day = doy - (153 * mp + 2) / 5 + 1;
    let month = if mp < 10 { mp + 3 } else { mp - 9 };
    let year = yoe + era * 400 + i64::from(month <= 2);
    format!(
        "{year:04}-{month:02}-{day:02} {:02}:{:02}:{:02} UTC",
        rem / 3600,
        rem % 3600 / 60,
        rem % 60
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn utc_reads_known_instants() {
        assert_eq!(utc(0), "1970-01-01 00:00:00 UTC");
        assert_eq!(utc(951_782_400), "2000-02-29 00:00:00 UTC");
        assert_eq!(utc(1_795_665_600), "2026-11-26 04:00:00 UTC");
    }

    fn temp_db() -> (tempfile::TempDir, Connection) {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let conn = open(&dir.path().join("contest.db")).expect("open");
        (dir, conn)
    }

    #[test]
    fn a_fresh_database_is_at_the_newest_schema_and_a_newer_one_is_refused() {
        let (dir, conn) = temp_db();
        let v: i64 = conn
            .pragma_query_value(None, "user_version", |r| r.get(0))
            .expect("version");
        assert_eq!(v, SCHEMA_VERSION);
        conn.pragma_update(None, "user_version", SCHEMA_VERSION + 1)
            .expect("set");
        drop(conn);
        let err = open(&dir.path().join("contest.db")).expect_err("refused");
        assert!(
            err.to_string().contains(&format!(
                "schema version {}, written by a newer koth",
                SCHEMA_VERSION + 1
            )),
            "{err}"
        );
    }

    #[test]
    fn a_koth_0_3_database_is_migrated_with_its_rows() {
        let dir = tempfile::tempdir().expect("a temporary folder");
        let path = dir.path().join("contest.db");
        {
            // What koth 0.3.0 made: the version-1 tables, user_version 0, an author and a bot.
            let c = Connection::open(&path).expect("open");
            c.execute_batch(SCHEMA_V1).expect("0.3.0 schema");
            c.execute(
                "INSERT INTO authors (name, token_sha256, created) VALUES ('ann', x'00', 1)",
                [],
            )
            .expect("author");
            c.execute("INSERT INTO bots (name, author) VALUES ('b', 1)", [])
                .expect("bot");
        }
        let conn = open(&path).expect("migrated");
        assert_eq!(
            bot_state(&conn, "B").expect("state").map(|s| s.0),
            Some(BotState::Active)
        );
        assert!(author_by_name(&conn, "ANN").expect("author").is_some());
    }

    #[test]
    fn revocation_rotation_and_removal_are_logged_and_take_effect() {
        let (_dir, mut conn) = temp_db();
        add_author(&conn, "ann", &super::super::auth::hash("t1")).expect("author");
        assert!(author_by_token(&conn, "t1").expect("lookup").is_some());
        revoke_author(&mut conn, "Ann").expect("revoke");
        assert!(author_by_token(&conn, "t1").expect("lookup").is_none());
        assert!(revoke_author(&mut conn, "ann").is_err(), "twice");
        rotate_token(&mut conn, "ann", &super::super::auth::hash("t2")).expect("rotate");
        assert!(author_by_token(&conn, "t1").expect("lookup").is_none());
        assert!(author_by_token(&conn, "t2").expect("lookup").is_some());
        conn.execute("INSERT INTO bots (name, author) VALUES ('b', 1)", [])
            .expect("bot");
        remove_bot(
            &mut conn,
            "B",
            BotState::Disqualified,
            "read another bot's files",
        )
        .expect("disqualify");
        assert_eq!(
            bot_state(&conn, "b").expect("state"),
            Some((
                BotState::Disqualified,
                Some("read another bot's files".into())
            ))
        );
        assert!(
            remove_bot(&mut conn, "b", BotState::Retired, "x").is_err(),
            "twice"
        );
        let log: Vec<_> = host_log(&conn)
            .expect("log")
            .into_iter()
            .map(|e| (e.action, e.subject))
            .collect();
        assert_eq!(
            log,
            [
                ("revoke-author", "ann"),
                ("rotate-token", "ann"),
                ("disqualify", "b")
            ]
            .map(|(a, s)| (a.to_string(), s.to_string()))
        );
    }

    #[test]
    fn names_differing_only_in_case_are_one_name() {
        let (_dir, conn) = temp_db();
        add_author(&conn, "ann", b"h").expect("author");
        assert!(add_author(&conn, "ANN", b"h").is_err());
        conn.execute("INSERT INTO bots (name, author) VALUES ('bot', 1)", [])
            .expect("bot");
        assert!(conn
            .execute("INSERT INTO bots (name, author) VALUES ('BOT', 1)", [])
            .is_err());
    }

    fn quotas() -> Quotas {
        Quotas {
            bots: 10,
            bots_per_author: 2,
            versions_per_hour: 4,
        }
    }

    fn add(
        conn: &mut Connection,
        author: i64,
        bot: &str,
        sha: &str,
    ) -> Result<Version, AddRefused> {
        add_version(conn, author, bot, "wasm", sha, 1, quotas(), |_, _| Ok(())).expect("db")
    }

    #[test]
    fn uploads_keep_to_the_quotas_names_and_one_program_per_author() {
        let (_dir, mut conn) = temp_db();
        add_author(&conn, "ann", b"a").expect("author");
        add_author(&conn, "bob", b"b").expect("author");
        assert_eq!(add(&mut conn, 1, "one", "s1").expect("v1").bot, "one");
        // The same name in another case is the same bot: a new version of it.
        let v = add(&mut conn, 1, "ONE", "s2").expect("v2");
        assert_eq!(
            (v.bot.as_str(), v.number, v.file.as_str()),
            ("one", 2, "one.wasm")
        );
        assert!(
            matches!(add(&mut conn, 2, "One", "s3"), Err(AddRefused::NotYours(o)) if o == "ann")
        );
        // The same file under a second name of one author.
        assert!(
            matches!(add(&mut conn, 1, "two", "s2"), Err(AddRefused::Duplicate(b)) if b == "one")
        );
        add(&mut conn, 1, "two", "s4").expect("second bot");
        assert!(matches!(
            add(&mut conn, 1, "three", "s5"),
            Err(AddRefused::AuthorFull(2))
        ));
        // A dry run says what adding would say, and adds nothing (not even the new bot).
        assert!(matches!(
            would_add(&mut conn, 1, "three", "wasm", "s5", quotas()),
            Ok(Err(AddRefused::AuthorFull(2)))
        ));
        assert!(matches!(
            would_add(&mut conn, 2, "fresh", "wasm", "s5", quotas()),
            Ok(Ok(()))
        ));
        assert_eq!(bot_count(&conn).expect("count"), 2);
        // Four checked uploads an hour: ann has three versions, and one refused file counts.
        remember_refused(&conn, "bad", 1, "it does not compile").expect("refused");
        assert!(matches!(
            add(&mut conn, 1, "two", "s6"),
            Err(AddRefused::TooOften(4))
        ));
        conn.execute("DELETE FROM refused", []).expect("forget");
        add(&mut conn, 1, "two", "s6").expect("fourth version");
        assert!(matches!(
            add(&mut conn, 1, "two", "s7"),
            Err(AddRefused::TooOften(4))
        ));
        // A retired bot frees its author's slot and takes no new versions.
        remove_bot(&mut conn, "one", BotState::Retired, "old").expect("retire");
        assert!(add(&mut conn, 2, "x", "s8").is_ok());
        assert!(matches!(
            add(&mut conn, 2, "one", "s9"),
            Err(AddRefused::NotYours(_))
        ));
        assert_eq!(
            latest_versions(&conn)
                .expect("ladder")
                .iter()
                .map(|v| v.bot.as_str())
                .collect::<Vec<_>>(),
            ["two", "x"]
        );
    }

    #[test]
    fn a_set_left_behind_by_newer_runs_is_run_again() {
        let (_dir, mut conn) = temp_db();
        let r1 = queue_run(&conn, &[1, 2], 2).expect("q").expect("new");
        assert!(
            queue_run(&conn, &[2, 1], 2).expect("q").is_none(),
            "queued already"
        );
        finish_run(&mut conn, r1.id, 2, 0, &[]).expect("finish");
        assert!(
            queue_run(&conn, &[1, 2], 2).expect("q").is_none(),
            "the leaderboard's"
        );
        let r2 = queue_run(&conn, &[1, 2, 3], 6)
            .expect("q")
            .expect("a third bot");
        finish_run(&mut conn, r2.id, 6, 0, &[]).expect("finish");
        // The third bot left: the set of the first run is the ladder again.
        let r3 = queue_run(&conn, &[1, 2], 2).expect("q").expect("run again");
        assert_eq!(r3.versions, vec![1, 2]);
        fail_run(&conn, r3.id, "boom").expect("fail");
        assert!(
            queue_run(&conn, &[1, 2], 2).expect("q").is_none(),
            "a failed run waits"
        );
    }
}
