//! What every request shares.

use super::limits::ServeLimits;
use super::quota::Quota;
use crate::contest::check::Checker;
use crate::contest::db::{self, Run};
use crate::contest::worker::{Live, Wake};
use crate::contest::{Contest, ContestError};
use crate::tournament::results::Results;
use std::sync::atomic::Ordering;
use std::sync::{Arc, Mutex};

/// A finished run's standings, read once from its `results.json`.
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
    /// The connection pages read through (uploads and the worker have their own).
    pub db: Mutex<rusqlite::Connection>,
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
        let db = Mutex::new(contest.db()?);
        Ok(AppState {
            contest,
            db,
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
        })
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

    /// Run a query on the shared connection.
    pub fn with_db<T>(
        &self,
        f: impl FnOnce(&rusqlite::Connection) -> Result<T, ContestError>,
    ) -> Result<T, ContestError> {
        let conn = self
            .db
            .lock()
            .map_err(|_| ContestError::Refused("the database connection was poisoned".into()))?;
        f(&conn)
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
        let path = self.contest.run_dir(r.id).join("results.json");
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
