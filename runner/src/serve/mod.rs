//! `koth serve`: the contest server. Pages rendered here (no front-end build), the same data
//! as JSON under `/api/`, uploads by form or API, and the run worker in the background.
//!
//! - [`state`]: what every request shares (the contest, a database connection, the
//!   leaderboard of the newest run, the worker's progress);
//! - [`pages`]: the HTML pages; [`api`]: the JSON API; [`upload`]: uploads (multipart);
//! - [`html`]: escaping and the page frame;
//! - [`listener`]: the accept loop, with [`conn`] (each connection's state, the cap, the
//!   idle and head timeouts) and [`body`] (a request body's minimum pace), under the
//!   [`limits`]; [`quota`]: uploads in progress; [`headers`]: what every response carries.

pub mod api;
pub mod body;
pub mod conn;
pub mod headers;
pub mod html;
pub mod limits;
pub mod listener;
pub mod pages;
pub mod quota;
pub mod state;
pub mod upload;

use crate::contest::check::Checker;
use crate::contest::worker::{self, Live, Wake};
use crate::contest::{Contest, ContestError};
use axum::extract::DefaultBodyLimit;
use axum::routing::{get, post};
use axum::Router;
use limits::ServeLimits;
use state::AppState;
use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;
use tower_http::limit::RequestBodyLimitLayer;
use tower_http::timeout::TimeoutLayer;

/// Requests other than uploads carry no body worth more than this.
const SMALL_BODY: usize = 16 << 10;

/// How long a page or an API read may take.
const READ_TIMEOUT: Duration = Duration::from_secs(60);

/// How long an upload may take: its checks compile the module (each compile is bounded by
/// the load limits' 2 minutes), and a contest's first `.py` upload also makes the
/// interpreter's snapshot, two compiles of a 26 MB module: a minute on a busy machine.
const UPLOAD_TIMEOUT: Duration = Duration::from_secs(600);

fn timeout(limit: Duration) -> TimeoutLayer {
    TimeoutLayer::with_status_code(axum::http::StatusCode::REQUEST_TIMEOUT, limit)
}

/// The server's routes over `state`.
pub fn router(state: Arc<AppState>) -> Router {
    // Room for the multipart framing and the other fields around the file.
    let upload_limit = state.contest.config.max_upload_bytes as usize + (64 << 10);
    let uploads = Router::new()
        .route("/upload", get(pages::upload_form).post(upload::form))
        .route("/api/upload", post(upload::api))
        .layer(DefaultBodyLimit::max(upload_limit))
        .layer(RequestBodyLimitLayer::new(upload_limit))
        .layer(timeout(UPLOAD_TIMEOUT));
    let reads = Router::new()
        .route("/", get(pages::leaderboard))
        .route("/game", get(pages::game))
        .route("/bots/{name}", get(pages::bot))
        .route("/runs", get(pages::runs))
        .route("/runs/{id}", get(pages::run))
        .route("/runs/{id}/files/{file}", get(pages::run_file))
        .route("/runs/{id}/matches/{idx}", get(pages::replay))
        // Browsers ask for it on every page; "no content" rather than a 404 in their console.
        .route(
            "/favicon.ico",
            get(|| async { axum::http::StatusCode::NO_CONTENT }),
        )
        .route("/api/leaderboard", get(api::leaderboard))
        .route("/api/status", get(api::status))
        .route("/api/runs", get(api::runs))
        .route("/api/runs/{id}", get(api::run))
        .route("/api/bots", get(api::bots))
        .route("/api/bots/{name}", get(api::bot))
        .layer(DefaultBodyLimit::max(SMALL_BODY))
        .layer(RequestBodyLimitLayer::new(SMALL_BODY))
        .layer(timeout(READ_TIMEOUT));
    Router::new()
        .merge(uploads)
        .merge(reads)
        .fallback(pages::not_found)
        .layer(axum::middleware::from_fn(headers::harden))
        .with_state(state)
}

/// Serve `contest` on `listen`, with its run worker, under `limits`, until SIGTERM or
/// Ctrl-C (SIGINT): then stop accepting, let the requests in progress finish (at most the
/// drain timeout) and return. A run in progress is left to its journal (every finished match
/// is in it, synced), which the next start carries on from;
/// `ready` is told the address bound (the port chosen, for `:0`) and the connection cap (at
/// most what the open-file limit leaves).
pub fn serve(
    contest: Contest,
    listen: SocketAddr,
    mut limits: ServeLimits,
    ready: impl FnOnce(SocketAddr, usize),
) -> Result<(), ContestError> {
    limits
        .check()
        .map_err(|e| ContestError::Refused(e.to_string()))?;
    limits.max_connections =
        limits::fit_connections(limits.max_connections, limits::open_file_limit());
    let live = Arc::new(Live::default());
    let wake = Arc::new(Wake::default());
    let in_progress = Arc::clone(&live);
    // Uploads are checked by this same program, in a child process each.
    let exe = std::env::current_exe().map_err(|e| {
        ContestError::Refused(format!(
            "cannot find the koth command to check uploads with: {e}"
        ))
    })?;
    let python_ready = warm_python(&contest);
    let state = Arc::new(AppState::new(
        contest.clone(),
        live.clone(),
        wake.clone(),
        &limits,
        Checker::Child(exe),
        python_ready,
    )?);
    crate::contest::disk::prune_and_report(&contest, &mut contest.db()?);
    let runtime = tokio::runtime::Builder::new_multi_thread()
        .enable_all()
        .build()
        .map_err(crate::contest::io(contest.root()))?;
    let served = runtime.block_on(async move {
        let listener = bind(listen)
            .map_err(|e| ContestError::Refused(format!("cannot listen on {listen}: {e}")))?;
        let addr = listener
            .local_addr()
            .map_err(|e| ContestError::Refused(format!("cannot listen on {listen}: {e}")))?;
        // Runs play on a thread of their own, never on the request threads.
        std::thread::Builder::new()
            .name("koth-runs".into())
            .spawn(move || worker::work(contest, live, wake))
            .map_err(|e| ContestError::Refused(format!("cannot start the run worker: {e}")))?;
        ready(addr, limits.max_connections);
        let left = listener::serve(listener, router(state), limits, stop_signal()).await;
        if left > 0 {
            eprintln!("koth serve: {left} connection(s) still busy at the drain timeout: cut");
        }
        let run = in_progress.run.load(std::sync::atomic::Ordering::Relaxed);
        if run != 0 {
            eprintln!(
                "koth serve: run {run} stops here; its finished matches are in its journal, and the next start carries it on"
            );
        }
        Ok(())
    });
    // A check cut at the drain's deadline still runs on a blocking thread: the runtime is not
    // waited for (dropping it would wait for that thread). The check's child process dies
    // with this one (it asked the kernel to).
    runtime.shutdown_background();
    served
}

/// Make the Python interpreter's snapshot now, on a thread of its own, if the contest takes
/// `.py` scripts (a minute the first time, then read from the contest's code cache): it is
/// the contest's to make, not its first Python author's upload's. The receiver turns true
/// when it is made, or cannot be (then `.py` checks say why).
fn warm_python(contest: &Contest) -> tokio::sync::watch::Receiver<bool> {
    let (tx, rx) = tokio::sync::watch::channel(!contest.config.python);
    if contest.config.python {
        let contest = contest.clone();
        let spawned = std::thread::Builder::new()
            .name("koth-python".into())
            .spawn(move || {
                let started = std::time::Instant::now();
                let made = crate::contest::run::sandbox(&contest, 1)
                    .map_err(|e| e.to_string())
                    .and_then(|s| s.python_snapshot_sha256().map_err(|e| e.to_string()));
                match made {
                    Ok(_) => eprintln!(
                        "koth serve: the Python interpreter's snapshot is ready ({:.1} s)",
                        started.elapsed().as_secs_f64()
                    ),
                    Err(e) => eprintln!("koth serve: .py uploads will be refused: {e}"),
                }
                let _ = tx.send(true);
            });
        if let Err(e) = spawned {
            eprintln!("koth serve: cannot start the Python snapshot's thread: {e}");
            let (_, rx) = tokio::sync::watch::channel(true);
            return rx;
        }
    }
    rx
}

/// Resolves at the first SIGTERM or SIGINT (never, where they cannot be watched).
async fn stop_signal() {
    #[cfg(unix)]
    {
        use tokio::signal::unix::{signal, SignalKind};
        match (
            signal(SignalKind::terminate()),
            signal(SignalKind::interrupt()),
        ) {
            (Ok(mut term), Ok(mut int)) => {
                let which = tokio::select! {
                    _ = term.recv() => "SIGTERM",
                    _ = int.recv() => "SIGINT",
                };
                eprintln!(
                    "koth serve: {which}: no new connections; finishing the requests in progress"
                );
            }
            _ => {
                eprintln!("koth serve: cannot watch for SIGTERM; stop it with SIGKILL");
                std::future::pending::<()>().await
            }
        }
    }
    #[cfg(not(unix))]
    {
        let _ = tokio::signal::ctrl_c().await;
    }
}

/// Connections the kernel queues before the server accepts them. `TcpListener::bind` asks
/// for 128: a burst of more new connections than that (200 readers at once, in the load
/// test) overflows the queue, and each dropped SYN is retried by its client a second later.
const BACKLOG: u32 = 1024;

/// A listening socket on `addr` with room for [`BACKLOG`] pending connections.
fn bind(addr: SocketAddr) -> std::io::Result<tokio::net::TcpListener> {
    let socket = if addr.is_ipv4() {
        tokio::net::TcpSocket::new_v4()?
    } else {
        tokio::net::TcpSocket::new_v6()?
    };
    // As `TcpListener::bind` does: a restarted server can bind while old connections linger.
    socket.set_reuseaddr(true)?;
    socket.bind(addr)?;
    socket.listen(BACKLOG)
}
