//! The open connections: what each is doing (a request in progress, or idle since when, or a
//! head begun when), so that an idle one can be timed out, and the one idle the longest shed
//! when the server is at its connection cap.

use std::collections::HashMap;
use std::pin::Pin;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::task::{Context, Poll};
use std::time::Duration;
use tokio::io::{AsyncRead, AsyncWrite, ReadBuf};
use tokio::sync::Notify;
use tokio::time::Instant;

/// One connection's state, shared by its reader, its requests and the registry.
pub struct ConnState {
    /// When the server started, the zero of the times below (milliseconds since, +1 so that
    /// 0 means "not set").
    epoch: Instant,
    /// Requests in progress (a pipelining client has at most one at a time in hyper).
    busy: AtomicU64,
    /// When the connection last became idle: accepted, or a response given.
    idle_since: AtomicU64,
    /// When the first byte of a head arrived while idle (0: none yet).
    head_since: AtomicU64,
    /// Told to close (shed at the cap).
    kill: Notify,
    /// Whether it was told to.
    killed: AtomicBool,
}

impl ConnState {
    fn new(epoch: Instant) -> ConnState {
        let s = ConnState {
            epoch,
            busy: AtomicU64::new(0),
            idle_since: AtomicU64::new(0),
            head_since: AtomicU64::new(0),
            kill: Notify::new(),
            killed: AtomicBool::new(false),
        };
        s.idle_since.store(s.now(), Ordering::Relaxed);
        s
    }

    fn now(&self) -> u64 {
        self.epoch.elapsed().as_millis() as u64 + 1
    }

    fn at(&self, ms: u64) -> Instant {
        self.epoch + Duration::from_millis(ms.saturating_sub(1))
    }

    /// Mark a request in progress until the guard drops (its response given).
    pub fn busy(self: &Arc<Self>) -> BusyGuard {
        self.busy.fetch_add(1, Ordering::Relaxed);
        BusyGuard(Arc::clone(self))
    }

    /// Bytes arrived: the first while idle starts the head's clock.
    fn read_some(&self) {
        if self.busy.load(Ordering::Relaxed) == 0 && self.head_since.load(Ordering::Relaxed) == 0 {
            self.head_since.store(self.now(), Ordering::Relaxed);
        }
    }

    /// Bytes of a response left: a response still flowing (a large file to a slow reader) is
    /// progress, not idleness; one the client stopped reading is cut after the idle timeout.
    fn wrote_some(&self) {
        if self.busy.load(Ordering::Relaxed) == 0 {
            self.idle_since.store(self.now(), Ordering::Relaxed);
        }
    }

    /// Since when it has been idle, if it is.
    fn idle(&self) -> Option<u64> {
        (self.busy.load(Ordering::Relaxed) == 0).then(|| self.idle_since.load(Ordering::Relaxed))
    }

    /// When the connection is due to be closed, if nothing changes: a head begun must end
    /// within `head`, an idle connection must begin one within `idle`. `None`: a request is
    /// in progress (its body has its own clock).
    pub fn deadline(&self, head: Duration, idle: Duration) -> Option<Instant> {
        self.idle()?;
        match self.head_since.load(Ordering::Relaxed) {
            0 => Some(self.at(self.idle_since.load(Ordering::Relaxed)) + idle),
            h => Some(self.at(h) + head),
        }
    }

    /// Resolves when the connection is told to close.
    pub async fn killed(&self) {
        self.kill.notified().await;
    }
}

/// A request in progress on a connection.
pub struct BusyGuard(Arc<ConnState>);

impl Drop for BusyGuard {
    fn drop(&mut self) {
        let s = &self.0;
        s.idle_since.store(s.now(), Ordering::Relaxed);
        s.head_since.store(0, Ordering::Relaxed);
        s.busy.fetch_sub(1, Ordering::Relaxed);
    }
}

/// Every open connection.
pub struct Registry {
    epoch: Instant,
    next: AtomicU64,
    open: Mutex<HashMap<u64, Arc<ConnState>>>,
}

impl Default for Registry {
    fn default() -> Self {
        Registry {
            epoch: Instant::now(),
            next: AtomicU64::new(0),
            open: Mutex::new(HashMap::new()),
        }
    }
}

impl Registry {
    /// A new connection's state, registered until the guard drops.
    pub fn open(self: &Arc<Self>) -> (Arc<ConnState>, Registered) {
        let id = self.next.fetch_add(1, Ordering::Relaxed);
        let state = Arc::new(ConnState::new(self.epoch));
        if let Ok(mut open) = self.open.lock() {
            open.insert(id, Arc::clone(&state));
        }
        (state, Registered(Arc::clone(self), id))
    }

    /// Connections open.
    pub fn len(&self) -> usize {
        self.open.lock().map_or(0, |o| o.len())
    }

    /// Whether none is open.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// Tell the connection idle the longest to close; false when every one is busy (or
    /// already told).
    pub fn shed_oldest_idle(&self) -> bool {
        let Ok(open) = self.open.lock() else {
            return false;
        };
        let oldest = open
            .values()
            .filter(|s| !s.killed.load(Ordering::Relaxed))
            .filter_map(|s| s.idle().map(|since| (since, s)))
            .min_by_key(|(since, _)| *since);
        match oldest {
            Some((_, s)) => {
                s.killed.store(true, Ordering::Relaxed);
                s.kill.notify_one();
                true
            }
            None => false,
        }
    }
}

/// A connection's place in the registry, given up when dropped.
pub struct Registered(Arc<Registry>, u64);

impl Drop for Registered {
    fn drop(&mut self) {
        if let Ok(mut open) = self.0.open.lock() {
            open.remove(&self.1);
        }
    }
}

/// A socket whose reads tell its connection's state that bytes arrived.
pub struct Watched<S> {
    inner: S,
    state: Arc<ConnState>,
}

impl<S> Watched<S> {
    /// `inner`, reporting to `state`.
    pub fn new(inner: S, state: Arc<ConnState>) -> Self {
        Watched { inner, state }
    }
}

impl<S: AsyncRead + Unpin> AsyncRead for Watched<S> {
    fn poll_read(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &mut ReadBuf<'_>,
    ) -> Poll<std::io::Result<()>> {
        let before = buf.filled().len();
        let polled = Pin::new(&mut self.inner).poll_read(cx, buf);
        if buf.filled().len() > before {
            self.state.read_some();
        }
        polled
    }
}

impl<S: AsyncWrite + Unpin> AsyncWrite for Watched<S> {
    fn poll_write(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        buf: &[u8],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write(cx, buf);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.state.wrote_some();
        }
        polled
    }

    fn poll_flush(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_flush(cx)
    }

    fn poll_shutdown(mut self: Pin<&mut Self>, cx: &mut Context<'_>) -> Poll<std::io::Result<()>> {
        Pin::new(&mut self.inner).poll_shutdown(cx)
    }

    fn poll_write_vectored(
        mut self: Pin<&mut Self>,
        cx: &mut Context<'_>,
        bufs: &[std::io::IoSlice<'_>],
    ) -> Poll<std::io::Result<usize>> {
        let polled = Pin::new(&mut self.inner).poll_write_vectored(cx, bufs);
        if matches!(polled, Poll::Ready(Ok(n)) if n > 0) {
            self.state.wrote_some();
        }
        polled
    }

    fn is_write_vectored(&self) -> bool {
        self.inner.is_write_vectored()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_oldest_idle_connection_is_shed_never_a_busy_one() {
        let reg = Arc::new(Registry::default());
        let (a, _ra) = reg.open();
        std::thread::sleep(Duration::from_millis(10));
        let (b, _rb) = reg.open();
        let _busy_a = a.busy();
        assert_eq!(reg.len(), 2);
        // a is busy: b, though newer, is the one shed.
        assert!(reg.shed_oldest_idle());
        assert!(b.killed.load(Ordering::Relaxed));
        assert!(!a.killed.load(Ordering::Relaxed));
        // Nothing else is idle.
        assert!(!reg.shed_oldest_idle());
        drop(_rb);
        assert_eq!(reg.len(), 1);
    }

    #[test]
    fn deadlines_follow_idle_then_head_and_stop_while_busy() {
        let reg = Arc::new(Registry::default());
        let (s, _r) = reg.open();
        let (head, idle) = (Duration::from_secs(2), Duration::from_secs(5));
        let t0 = Instant::now();
        let d = s.deadline(head, idle).unwrap();
        assert!(d >= t0 + idle - Duration::from_millis(2) && d <= t0 + idle);
        std::thread::sleep(Duration::from_millis(100));
        s.read_some();
        let d = s.deadline(head, idle).unwrap();
        // The head's clock: 2 s from the first byte, sooner than the idle one.
        assert!(d >= t0 + head + Duration::from_millis(98), "{d:?} {t0:?}");
        assert!(d < t0 + head + Duration::from_secs(1), "{d:?} {t0:?}");
        let g = s.busy();
        assert_eq!(s.deadline(head, idle), None);
        s.read_some();
        drop(g);
        // A response given: idle again, the head's clock cleared.
        let d = s.deadline(head, idle).unwrap();
        assert!(d >= Instant::now() + idle - Duration::from_millis(2));
    }
}
