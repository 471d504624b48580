//! The server's limits on what a client may hold: connections, time to send a request, the
//! pace of a body, uploads in progress. The defaults suit a server open to the public; the
//! tests shorten the timeouts to run fast (`koth serve --head-timeout 1 ...`).

use std::time::Duration;
use thiserror::Error;

/// A limit out of range.
#[derive(Debug, Error, PartialEq)]
#[error("{what} is out of range: {why}")]
pub struct LimitError {
    /// The limit.
    pub what: &'static str,
    /// Its range.
    pub why: &'static str,
}

/// What one client, or all of them together, may hold of the server.
#[derive(Debug, Clone, PartialEq)]
pub struct ServeLimits {
    /// Connections open at once. At the cap, a new connection closes the one idle the longest
    /// (no request in progress); when every one is busy, the new one is closed at once.
    pub max_connections: usize,
    /// A request's head (request line and headers) must arrive within this of its first byte.
    pub head_timeout: Duration,
    /// A connection with no request in progress and no byte of a new one is closed after this
    /// (a new connection's first request, and keep-alive between requests).
    pub idle_timeout: Duration,
    /// A request body that sends no byte for this long is cut.
    pub body_idle_timeout: Duration,
    /// A body must average at least this many bytes a second over the time the server waits
    /// for it, past [`ServeLimits::body_grace`].
    pub min_body_rate: u64,
    /// Time a body is given before [`ServeLimits::min_body_rate`] applies (a slow start).
    pub body_grace: Duration,
    /// Uploads in progress at once (read, checked, stored), all authors together.
    pub max_uploads: usize,
    /// Uploads in progress at once by one author.
    pub max_uploads_per_author: usize,
    /// Upload checks running at once (each a child process compiling one upload, then
    /// playing its validation match); the others wait their turn.
    pub max_checks: usize,
    /// After SIGTERM (or Ctrl-C), how long the requests in progress are given to finish
    /// before the server exits anyway.
    pub drain_timeout: Duration,
}

impl Default for ServeLimits {
    fn default() -> Self {
        ServeLimits {
            max_connections: 1000,
            head_timeout: Duration::from_secs(10),
            idle_timeout: Duration::from_secs(15),
            body_idle_timeout: Duration::from_secs(20),
            // 16 MiB in the 10 minutes an upload may take is 28 KiB/s; 2 KiB/s lets a slow
            // link through and cuts a body sent a byte at a time.
            min_body_rate: 2048,
            body_grace: Duration::from_secs(10),
            max_uploads: 8,
            max_uploads_per_author: 2,
            max_checks: 2,
            drain_timeout: Duration::from_secs(30),
        }
    }
}

impl ServeLimits {
    /// Check the values, naming the first one out of range.
    pub fn check(&self) -> Result<(), LimitError> {
        let secs = |what, d: Duration| {
            if d.is_zero() || d > Duration::from_secs(3600) {
                Err(LimitError {
                    what,
                    why: "from more than 0 to 3600 seconds",
                })
            } else {
                Ok(())
            }
        };
        secs("the head timeout", self.head_timeout)?;
        secs("the idle timeout", self.idle_timeout)?;
        secs("the body idle timeout", self.body_idle_timeout)?;
        secs("the body grace", self.body_grace)?;
        secs("the drain timeout", self.drain_timeout)?;
        if self.max_connections == 0 || self.max_connections > 1_000_000 {
            return Err(LimitError {
                what: "max_connections",
                why: "1 to 1,000,000",
            });
        }
        if self.max_checks == 0 || self.max_checks > 256 {
            return Err(LimitError {
                what: "max_checks",
                why: "1 to 256",
            });
        }
        if self.max_uploads == 0 || self.max_uploads_per_author == 0 {
            return Err(LimitError {
                what: "max_uploads and max_uploads_per_author",
                why: "at least 1",
            });
        }
        Ok(())
    }
}

/// The soft limit on the process's open files, where the system says (Linux's
/// `/proc/self/limits`); `None` elsewhere or when unlimited.
pub fn open_file_limit() -> Option<u64> {
    let text = std::fs::read_to_string("/proc/self/limits").ok()?;
    let line = text.lines().find(|l| l.starts_with("Max open files"))?;
    line["Max open files".len()..]
        .split_whitespace()
        .next()?
        .parse()
        .ok()
}

/// Descriptors kept for everything but connections: the database, bots' files, the
/// compiled-code cache, the run's archive.
pub const FILES_RESERVED: u64 = 256;

/// `max_connections`, lowered to what the open-file limit leaves (a server that runs out of
/// descriptors can neither accept nor open its database).
pub fn fit_connections(wanted: usize, file_limit: Option<u64>) -> usize {
    match file_limit {
        Some(l) => wanted.min(l.saturating_sub(FILES_RESERVED).max(16) as usize),
        None => wanted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn defaults_pass_and_zeroes_do_not() {
        assert_eq!(ServeLimits::default().check(), Ok(()));
        let zero = ServeLimits {
            head_timeout: Duration::ZERO,
            ..ServeLimits::default()
        };
        assert_eq!(zero.check().unwrap_err().what, "the head timeout");
        let none = ServeLimits {
            max_connections: 0,
            ..ServeLimits::default()
        };
        assert!(none.check().is_err());
    }

    #[test]
    fn connections_fit_the_file_limit() {
        assert_eq!(fit_connections(1000, None), 1000);
        assert_eq!(fit_connections(1000, Some(1024)), 768);
        assert_eq!(fit_connections(1000, Some(65536)), 1000);
        assert_eq!(fit_connections(1000, Some(100)), 16);
    }
}
