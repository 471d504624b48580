//! What every request shares.

use super::limits::ServeLimits;
use super::quota::Quota;
use crate::contest::check::Checker;
use crate::contest::db::{self, Run};
use crate::contest::worker::{Live, Wake};
use crate::contest::{Contest, ContestError};
use crate::tournament::results::Results;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// Read-only database connections the pages share.
const READERS: usize = 4;

/// A finished run's standings, read once from its `results.json` (or a condensed run's
/// `standings.json`).
pub struct Board {
    /// The run.
    pub run: Run,
    /// Its results (the game's detail left as JSON).
    pub results: Results<serde_json::Value>,
}

/// The server's shared state.
pub struct AppState {
    /// The contest.
    pub contest: Contest,
    /// The read-only connections pages read through, each taken by one request at a time
    /// (uploads and the worker write through their own).
    readers: Vec<Mutex<rusqlite::Connection>>,
    /// Where the next request starts looking for a free reader.
    next_reader: std::sync::atomic::AtomicUsize,
    /// Checks uploads (in a child process, for `koth serve`).
    pub checker: Checker,
    /// Checks in progress at once: an upload waits here for its turn.
    pub checks: Arc<tokio::sync::Semaphore>,
    /// True once the Python interpreter's snapshot is made (or cannot be): `.py` checks wait
    /// for it rather than each make their own.
    pub python_ready: tokio::sync::watch::Receiver<bool>,
    /// The run in progress.
    pub live: Arc<Live>,
    /// Wakes the worker after an upload.
    pub wake: Arc<Wake>,
    /// Uploads in progress.
    pub quota: Arc<Quota>,
    board: Mutex<Option<Arc<Board>>>,
    /// The referee's protocol for bot authors, read the first time `/game` is asked for.
    protocol: std::sync::OnceLock<Result<String, String>>,
}

impl AppState {
    /// The state of a server of `contest`, with the upload caps of `limits`, checking uploads
    /// with `checker`; `python_ready` says when `.py` checks may start.
    pub fn new(
        contest: Contest,
        live: Arc<Live>,
        wake: Arc<Wake>,
        limits: &ServeLimits,
        checker: Checker,
        python_ready: tokio::sync::watch::Receiver<bool>,
    ) -> Result<AppState, ContestError> {
        // Made (and migrated) by the writer's connection first.
        drop(contest.db()?);
        let readers = (0..READERS)
            .map(|_| contest.db_read_only().map(Mutex::new))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(AppState {
            contest,
            readers,
            next_reader: std::sync::atomic::AtomicUsize::new(0),
            checker,
            checks: Arc::new(tokio::sync::Semaphore::new(limits.max_checks)),
            python_ready,
            live,
            wake,
            quota: Arc::new(Quota::new(
                limits.max_uploads,
                limits.max_uploads_per_author,
            )),
            board: Mutex::new(None),
            protocol: std::sync::OnceLock::new(),
        })
    }

    /// The protocol the contest's referee gives bot authors (`pages` in wit/referee.wit;
    /// empty when it gives none, or for Coup, whose page is in koth's guide). The referee is
    /// loaded once, the first time: blocking work, for [`AppState::blocking`].
    pub fn protocol(&self) -> Result<&str, &str> {
        self.protocol
            .get_or_init(|| {
                if !matches!(
                    self.contest.config.game,
                    crate::contest::GameConfig::Referee { .. }
                ) {
                    return Ok(String::new());
                }
                let sandbox =
                    crate::contest::run::sandbox(&self.contest, 1).map_err(|e| self.hide(&e))?;
                let (game, _) = crate::contest::run::load_referee(&self.contest, &sandbox)
                    .map_err(|e| self.hide(&e))?;
                Ok(game
                    .referee()
                    .map(|r| r.pages().protocol.clone())
                    .unwrap_or_default())
            })
            .as_deref()
            .map_err(String::as_str)
    }

    /// What a client is told of an error of the server's own: nothing of its files (the
    /// error, with its paths, goes to the server's log).
    pub fn hide(&self, e: &ContestError) -> String {
        super::api::internal(e)
    }

    /// `text` without the server's paths: the contest folder's, then any other absolute
    /// path cut to its file name (a check's reason may name the interpreter's file).
    pub fn unrooted(&self, text: &str) -> String {
        let root = self.contest.root();
        let mut out = text.to_string();
        if let Ok(abs) = root.canonicalize() {
            out = out.replace(&abs.display().to_string(), "");
        }
        scrub_paths(&out.replace(&root.display().to_string(), ""))
    }

    /// Run a read on one of the read-only connections: a free one if there is one, else
    /// wait for the next in turn. Blocking: call it from [`AppState::blocking`]'s work.
    pub fn with_db<T>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T, ContestError>,
    ) -> Result<T, ContestError> {
        let n = self.readers.len();
        let start = self.next_reader.fetch_add(1, Ordering::Relaxed);
        let free = (0..n).find_map(|i| self.readers[(start + i) % n].try_lock().ok());
        let conn = match free {
            Some(c) => c,
            None => self.readers[start % n]
                .lock()
                .map_err(|_| ContestError::Refused("a database connection was poisoned".into()))?,
        };
        f(&conn)
    }

    /// Do a request's work (database reads, parsing a run's results, building a page) on
    /// tokio's blocking threads, never on the workers that serve every connection: a 1,000-bot
    /// contest's `results.json` takes a while to parse. A panic in it answers 500.
    pub async fn blocking<R: IntoResponse + Send + 'static>(
        self: &Arc<Self>,
        work: impl FnOnce(&AppState) -> R + Send + 'static,
    ) -> Response {
        let st = Arc::clone(self);
        match tokio::task::spawn_blocking(move || work(&st).into_response()).await {
            Ok(r) => r,
            Err(_) => (StatusCode::INTERNAL_SERVER_ERROR, "internal error").into_response(),
        }
    }

    /// The leaderboard: the newest finished run's results (read from its archive once).
    pub fn board(&self) -> Result<Option<Arc<Board>>, ContestError> {
        let Some(latest) = self.with_db(db::latest_done)? else {
            return Ok(None);
        };
        if let Ok(cached) = self.board.lock() {
            if let Some(b) = cached.as_ref().filter(|b| b.run.id == latest.id) {
                return Ok(Some(Arc::clone(b)));
            }
        }
        let b = Arc::new(self.read_board(latest)?);
        if let Ok(mut cached) = self.board.lock() {
            *cached = Some(Arc::clone(&b));
        }
        Ok(Some(b))
    }

    /// Run `r`'s standings from its archive.
    pub fn read_board(&self, r: Run) -> Result<Board, ContestError> {
        let path = crate::contest::disk::results_file(&self.contest.run_dir(r.id));
        let text = std::fs::read_to_string(&path).map_err(crate::contest::io(&path))?;
        let results = serde_json::from_str(&text).map_err(|e| ContestError::Config {
            path: path.clone(),
            what: e.to_string(),
        })?;
        Ok(Board { run: r, results })
    }

    /// The run in progress: (id, done, total).
    pub fn progress(&self) -> Option<(i64, usize, usize)> {
        let id = self.live.run.load(Ordering::Relaxed);
        (id != 0).then(|| {
            (
                id,
                self.live.done.load(Ordering::Relaxed),
                self.live.total.load(Ordering::Relaxed),
            )
        })
    }
}

/// `text` with every absolute path (a word that starts with `/`, after an opening quote or
/// bracket, and holds another `/`) cut to its last part: a client learns the file's name, not
/// where the server keeps it.
pub fn scrub_paths(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for (i, word) in text.split(' ').enumerate() {
        if i > 0 {
            out.push(' ');
        }
        let lead = word.len() - word.trim_start_matches(['(', '[', '`', '"', '\'']).len();
        let (open, rest) = word.split_at(lead);
        match rest.strip_prefix('/') {
            Some(tail) if tail.contains('/') => {
                out.push_str(open);
                out.push_str(tail.rsplit('/').next().unwrap_or_default());
            }
            _ => out.push_str(word),
        }
    }
    out
}

#[cfg(test)]
mod tests {
    use super::scrub_paths;

    #[test]
    fn absolute_paths_are_cut_to_their_file_name() {
        assert_eq!(
            scrub_paths("cannot read the CPython interpreter /root/.cache/koth/python/python-3.12.0.wasm: No such file (`/a/b/c`)"),
            "cannot read the CPython interpreter python-3.12.0.wasm: No such file (`c`)"
        );
        assert_eq!(
            scrub_paths("a/b is relative, / alone and /top too"),
            "a/b is relative, / alone and /top too"
        );
    }
}
