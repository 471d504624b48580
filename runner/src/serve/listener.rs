//! The accept loop: each connection served by hyper's HTTP/1 server under the [`ServeLimits`]
//! (axum's own `serve` has no cap on connections and no timeouts).
//!
//! At the connection cap, a new connection sheds the one idle the longest: an idle socket
//! costs a client nothing to hold, so refusing newcomers instead would let a few thousand of
//! them starve every real reader until they time out. The connections doing something (a
//! request in progress) are never shed; when all are, the newcomer is closed at once.
//!
//! When told to stop (SIGTERM), the loop drains: it stops accepting, closes the idle
//! connections, lets each request in progress finish (its connection closed after the
//! response), and returns when none is left or the drain timeout has passed.

use super::body::{Pace, Paced};
use super::conn::{ConnState, Registry, Watched};
use super::limits::ServeLimits;
use axum::body::Body;
use axum::extract::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use std::sync::Arc;
use std::time::Duration;
use tokio::net::{TcpListener, TcpStream};
use tokio::sync::{watch, OwnedSemaphorePermit, Semaphore};
use tokio::time::Instant;

/// How long a newcomer waits for the connection it shed to close (it closes at once: its
/// task only has to be woken).
const SHED_WAIT: Duration = Duration::from_secs(1);

/// Serve `app` on `listener` under `limits` until `stop` resolves, then drain (see the
/// module's doc); returns how many connections were still open when the drain timed out.
pub async fn serve(
    listener: TcpListener,
    app: Router,
    limits: ServeLimits,
    stop: impl std::future::Future<Output = ()>,
) -> usize {
    let registry = Arc::new(Registry::default());
    let slots = Arc::new(Semaphore::new(limits.max_connections));
    let limits = Arc::new(limits);
    let app = TowerToHyperService::new(app);
    let (draining, drain) = watch::channel(false);
    tokio::pin!(stop);
    loop {
        let accepted = tokio::select! {
            a = listener.accept() => a,
            _ = &mut stop => break,
        };
        let stream = match accepted {
            Ok((s, _)) => s,
            Err(e) => {
                // Out of descriptors (EMFILE) or a connection reset before it was accepted:
                // wait a moment rather than spin, then go on.
                eprintln!("koth serve: accept: {e}");
                tokio::time::sleep(Duration::from_millis(50)).await;
                continue;
            }
        };
        let Some(permit) = slot(&slots, &registry).await else {
            // Every connection is busy: this one is closed unread.
            drop(stream);
            continue;
        };
        let (state, registered) = registry.open();
        let (app, limits, drain) = (app.clone(), Arc::clone(&limits), drain.clone());
        tokio::spawn(async move {
            connection(stream, state, app, &limits, drain).await;
            drop(registered);
            drop(permit);
        });
    }
    // No new connection from here on; those open finish what they are doing.
    drop(listener);
    let _ = draining.send(true);
    let deadline = Instant::now() + limits.drain_timeout;
    while !registry.is_empty() && Instant::now() < deadline {
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    registry.len()
}

/// A connection slot: a free one, or the one freed by shedding the oldest idle connection.
async fn slot(slots: &Arc<Semaphore>, registry: &Registry) -> Option<OwnedSemaphorePermit> {
    if let Ok(p) = Arc::clone(slots).try_acquire_owned() {
        return Some(p);
    }
    if !registry.shed_oldest_idle() {
        return None;
    }
    tokio::time::timeout(SHED_WAIT, Arc::clone(slots).acquire_owned())
        .await
        .ok()?
        .ok()
}

/// Serve one connection until it closes, times out idle or is shed.
async fn connection(
    stream: TcpStream,
    state: Arc<ConnState>,
    app: TowerToHyperService<Router>,
    limits: &ServeLimits,
    mut drain: watch::Receiver<bool>,
) {
    let _ = stream.set_nodelay(true);
    let pace = Pace {
        idle: limits.body_idle_timeout,
        min_rate: limits.min_body_rate,
        grace: limits.body_grace,
    };
    let io = TokioIo::new(Watched::new(stream, Arc::clone(&state)));
    let requests = Arc::clone(&state);
    let service = hyper::service::service_fn(move |req: Request<Incoming>| {
        // From the head's end to the response's: busy, never timed out idle nor shed.
        let busy = requests.busy();
        let req = req.map(|b| Body::new(Paced::new(b, pace)));
        let answer = hyper::service::Service::call(&app, req);
        async move {
            let res = answer.await;
            drop(busy);
            res
        }
    });
    let conn = hyper::server::conn::http1::Builder::new()
        .timer(TokioTimer::new())
        // hyper's own clock on a head starts when it begins to wait for one; the watchdog
        // below is the precise one (idle, then the head from its first byte), this a backstop.
        .header_read_timeout(limits.head_timeout + limits.idle_timeout)
        .keep_alive(true)
        .serve_connection(io, service);
    let (head, idle) = (limits.head_timeout, limits.idle_timeout);
    // A deadline can move earlier (a head's first byte starts a shorter clock) without
    // waking the watchdog: it looks again at least this often.
    let tick = (head.min(idle) / 4).max(Duration::from_millis(10));
    let watchdog = async {
        loop {
            let next = Instant::now() + tick;
            match state.deadline(head, idle) {
                Some(due) if Instant::now() >= due => return,
                Some(due) => tokio::time::sleep_until(due.min(next)).await,
                // A request in progress has its own clocks (its body's pace, the handler's
                // timeout).
                None => tokio::time::sleep_until(next).await,
            }
        }
    };
    tokio::pin!(conn);
    tokio::pin!(watchdog);
    // Whichever ends first ends the connection: dropping hyper's closes the socket.
    tokio::select! {
        _ = conn.as_mut() => return,
        _ = watchdog.as_mut() => return,
        _ = state.killed() => return,
        _ = drain.wait_for(|d| *d) => {}
    }
    // Draining: an idle connection closes now; a request in progress gets its response,
    // then its connection closes (hyper's graceful shutdown). The body's pace and the
    // handler's timeout still apply, and the drain's own deadline ends the process.
    conn.as_mut().graceful_shutdown();
    tokio::select! {
        _ = conn.as_mut() => {}
        _ = state.killed() => {}
    }
}
