//! The contest's SQLite database: authors, bots, versions, runs and the match index. WAL mode,
//! so pages read while a run or an upload writes; every change is one transaction.

use super::ContestError;
use rusqlite::{params, Connection, OptionalExtension, TransactionBehavior};
use serde::Serialize;
use std::path::Path;
use std::time::Duration;

const SCHEMA: &str = "
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

/// Open the database at `path` (creating its tables), in WAL mode.
pub fn open(path: &Path) -> Result<Connection, ContestError> {
    let conn = Connection::open(path)?;
    conn.busy_timeout(Duration::from_secs(30))?;
    let _mode: String = conn.pragma_update_and_check(None, "journal_mode", "WAL", |r| r.get(0))?;
    conn.pragma_update(None, "synchronous", "NORMAL")?;
    conn.pragma_update(None, "foreign_keys", "ON")?;
    conn.execute_batch(SCHEMA)?;
    Ok(conn)
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
        .query_row("SELECT id FROM authors WHERE name = ?1", [name], |r| {
            r.get(0)
        })
        .optional()?;
    if taken.is_some() {
        return Err(ContestError::Refused(format!(
            "an author named `{name}` already exists"
        )));
    }
    conn.execute(
        "INSERT INTO authors (name, token_sha256, created) VALUES (?1, ?2, ?3)",
        params![name, token_sha256, now()],
    )?;
    Ok(conn.last_insert_rowid())
}

/// The author whose token this is: (id, name). Every author's hash is compared, each in
/// constant time.
pub fn author_by_token(
    conn: &Connection,
    token: &str,
) -> Result<Option<(i64, String)>, ContestError> {
    let mut stmt = conn.prepare_cached("SELECT id, name, token_sha256 FROM authors")?;
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

/// The newest version of every bot, by bot name.
pub fn latest_versions(conn: &Connection) -> Result<Vec<Version>, ContestError> {
    let sql = format!(
        "SELECT {VERSION_COLUMNS} WHERE v.number = \
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
}

/// Add a version of `bot` for author `author` in one transaction: the bot is created if it is
/// new, its number is the next one. `place(id)` puts the file where the version's id says,
/// inside the transaction, so a failure stores nothing.
#[allow(clippy::too_many_arguments)]
pub fn add_version(
    conn: &mut Connection,
    author: i64,
    bot: &str,
    file: &str,
    sha256: &str,
    bytes: i64,
    max_bots: usize,
    place: impl FnOnce(i64) -> Result<(), ContestError>,
) -> Result<Result<Version, AddRefused>, ContestError> {
    let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
    let owner: Option<(i64, String)> = tx
        .query_row(
            "SELECT a.id, a.name FROM bots b JOIN authors a ON a.id = b.author WHERE b.name = ?1",
            [bot],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    match owner {
        Some((id, name)) if id != author => return Ok(Err(AddRefused::NotYours(name))),
        Some(_) => {}
        None => {
            let n: i64 = tx.query_row("SELECT COUNT(*) FROM bots", [], |r| r.get(0))?;
            if n as usize >= max_bots {
                return Ok(Err(AddRefused::Full(max_bots)));
            }
            tx.execute(
                "INSERT INTO bots (name, author) VALUES (?1, ?2)",
                params![bot, author],
            )?;
        }
    }
    let last: Option<(i64, String)> = tx
        .query_row(
            "SELECT number, sha256 FROM versions WHERE bot = ?1 ORDER BY number DESC LIMIT 1",
            [bot],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .optional()?;
    if let Some((number, sha)) = &last {
        if sha == sha256 {
            return Ok(Err(AddRefused::Same(*number)));
        }
    }
    let number = last.map_or(1, |(n, _)| n + 1);
    tx.execute(
        "INSERT INTO versions (bot, number, file, sha256, bytes, created) \
         VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
        params![bot, number, file, sha256, bytes, now()],
    )?;
    let id = tx.last_insert_rowid();
    place(id)?;
    let v = tx.query_row(
        &format!("SELECT {VERSION_COLUMNS} WHERE v.id = ?1"),
        [id],
        version,
    )?;
    tx.commit()?;
    Ok(Ok(v))
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
}

const RUN_COLUMNS: &str =
    "id, versions, state, total, played, reused, error, created, finished FROM runs";

fn run(r: &rusqlite::Row<'_>) -> rusqlite::Result<Run> {
    let versions: String = r.get(1)?;
    Ok(Run {
        id: r.get(0)?,
        versions: versions.split(',').filter_map(|v| v.parse().ok()).collect(),
        state: r.get(2)?,
        total: r.get(3)?,
        played: r.get(4)?,
        reused: r.get(5)?,
        error: r.get(6)?,
        created: r.get(7)?,
        finished: r.get(8)?,
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

/// Queue a run of these versions, unless this set was queued before; returns the new run.
pub fn queue_run(
    conn: &Connection,
    versions: &[i64],
    total: usize,
) -> Result<Option<Run>, ContestError> {
    let n = conn.execute(
        "INSERT OR IGNORE INTO runs (versions, state, total, created) VALUES (?1, 'queued', ?2, ?3)",
        params![versions_key(versions), total as i64, now()],
    )?;
    if n == 0 {
        return Ok(None);
    }
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
