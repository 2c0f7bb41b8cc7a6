//! `meshcast serve`: the web explorer and its JSON API, served on loopback by default.
//!
//! The page (`meshcast-cli/web/`: one HTML file, one style sheet and ES modules, no build step)
//! is embedded in the binary ([`assets`]). Everything it shows comes from the [`api`], which is a thin HTTP
//! layer over the command line's own request parsing and reports: `POST /api/route` answers
//! with exactly what `meshcast route --json` prints for the same fields.
//!
//! The server is meant for one user's browser, yet any page that browser shows, and any
//! process on the machine, can reach it; so it is bounded everywhere ([`Limits`]): the
//! [`guard`] refuses requests of other sites and oversized bodies, a connection must send its
//! header within `--header-timeout` (and is closed after as long idle), at most
//! `--max-connections` are open at once, bodies must arrive within `--request-timeout` (and
//! answers be read: [`stall`]), and heavy work waits in a bounded [`queue`] that answers 503
//! when full.

mod api;
mod assets;
mod guard;
mod queue;
mod stall;
#[cfg(test)]
mod tests;

use std::future::Future;
use std::net::SocketAddr;
use std::pin::pin;
use std::sync::Arc;
use std::time::Duration;

use anyhow::{bail, Context, Result};
use axum::middleware;
use axum::Router;
use hyper::server::conn::http1;
use hyper_util::rt::{TokioIo, TokioTimer};
use hyper_util::service::TowerToHyperService;
use tokio::net::TcpListener;
use tokio::sync::{watch, Semaphore};

use crate::args::ServeArgs;
use crate::output;
use guard::Hosts;
use queue::WorkQueue;
use stall::StallLimit;

/// Largest request header (431 beyond), and hyper's read buffer (its minimum is 8 KiB);
/// browsers send headers under 4 KiB.
const MAX_HEADER: usize = 32 * 1024;

/// The server's bounds, from the flags of `meshcast serve`.
#[derive(Debug, Clone)]
pub struct Limits {
    /// What the `Host` header may name.
    pub hosts: Hosts,
    /// Most connections open at once.
    pub max_connections: usize,
    /// Longest time to receive a request's header, and longest idle time between requests.
    pub header_timeout: Duration,
    /// Longest time to receive a request's body, to wait for a worker, and for the client to
    /// read any of its answer.
    pub request_timeout: Duration,
    /// Routing requests computed at once.
    pub workers: usize,
    /// Requests that may wait for a worker, per queue.
    pub queue: usize,
}

impl Limits {
    fn of(args: &ServeArgs) -> Limits {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Limits {
            hosts: Hosts::new(args.bind, &args.allow_host),
            max_connections: args.max_connections as usize,
            header_timeout: Duration::from_secs(args.header_timeout.into()),
            request_timeout: Duration::from_secs(args.request_timeout.into()),
            workers: args.workers.map_or(cores, |w| w as usize),
            queue: args.queue as usize,
        }
    }
}

/// What every handler shares: the limits and the two work queues.
pub struct Server {
    limits: Limits,
    /// `/api/route` and `/api/svg`.
    routing: WorkQueue,
    /// `/api/optima`, one at a time: each takes up to a few seconds of one core (the solvers'
    /// own limits bound it), so the comparison never waits for them.
    optima: WorkQueue,
}

pub type Shared = Arc<Server>;

impl Server {
    fn new(limits: Limits) -> Server {
        let wait = limits.request_timeout;
        Server {
            routing: WorkQueue::new("routing", limits.workers, limits.queue, wait),
            optima: WorkQueue::new("optima", 1, limits.queue, wait),
            limits,
        }
    }
}

/// `meshcast serve`: bind, print the address, serve until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> Result<String> {
    if !args.bind.is_loopback() && !args.allow_remote {
        bail!(
            "--bind {}: not a loopback address; the server has no authentication, so serving \
             other machines needs --allow-remote as well",
            args.bind
        );
    }
    let limits = Limits::of(args);
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(async {
        let addr = SocketAddr::new(args.bind, args.port);
        let listener = TcpListener::bind(addr)
            .await
            .with_context(|| format!("cannot listen on {addr}"))?;
        let bound = listener.local_addr()?;
        // The first line on stdout, flushed at once: scripts and the browser test read it.
        output::print(&format!("meshcast serve: listening on http://{bound}/\n"))
            .context("cannot write to standard output")?;
        if !args.bind.is_loopback() {
            eprintln!(
                "warning: --allow-remote: anyone who can reach {bound} can use this server \
                 (no authentication, no encryption)"
            );
        }
        serve(listener, &limits, interrupted()).await;
        Ok(String::new())
    })
}

/// Every route: the page, its assets and the API, behind the [`guard`].
fn router(limits: Limits) -> Router {
    let shared = Arc::new(Server::new(limits));
    Router::new()
        .merge(assets::router())
        .merge(api::router())
        .layer(middleware::from_fn_with_state(shared.clone(), guard::guard))
        .with_state(shared)
}

/// Accept connections until `shutdown`, at most `max_connections` open at once, each closed
/// when its header is late or it idles for `header_timeout`; then let the open ones finish
/// their request (for at most `request_timeout`).
async fn serve(listener: TcpListener, limits: &Limits, shutdown: impl Future<Output = ()>) {
    let app = router(limits.clone());
    let open = Arc::new(Semaphore::new(limits.max_connections));
    let mut http = http1::Builder::new();
    http.timer(TokioTimer::new())
        .header_read_timeout(limits.header_timeout)
        .max_header_size(MAX_HEADER)
        .max_buf_size(MAX_HEADER);
    let (stop, stopping) = watch::channel(());
    let mut shutdown = pin!(shutdown);
    loop {
        let place = tokio::select! {
            place = open.clone().acquire_owned() => place.expect("the semaphore is never closed"),
            () = &mut shutdown => break,
        };
        let stream = tokio::select! {
            accepted = listener.accept() => match accepted {
                Ok((stream, _)) => stream,
                Err(e) => {
                    // Out of file descriptors, say: report it and give the open connections time.
                    eprintln!("meshcast serve: cannot accept a connection: {e}");
                    tokio::time::sleep(Duration::from_millis(100)).await;
                    continue;
                }
            },
            () = &mut shutdown => break,
        };
        let _ = stream.set_nodelay(true);
        let io = StallLimit::new(TokioIo::new(stream), limits.request_timeout);
        let connection = http.serve_connection(io, TowerToHyperService::new(app.clone()));
        let mut stopping = stopping.clone();
        tokio::spawn(async move {
            {
                let mut connection = pin!(connection);
                tokio::select! {
                    _ = connection.as_mut() => {}
                    _ = stopping.changed() => {
                        connection.as_mut().graceful_shutdown();
                        let _ = connection.await;
                    }
                }
            }
            // The socket is closed by now: only then may the next client in.
            drop(place);
        });
    }
    let _ = stop.send(());
    let all = u32::try_from(limits.max_connections).unwrap_or(u32::MAX);
    let _ = tokio::time::timeout(limits.request_timeout, open.acquire_many(all)).await;
}

/// Resolves on Ctrl-C or (on Unix) SIGTERM, so the server stops cleanly either way.
async fn interrupted() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        use tokio::signal::unix::{signal, SignalKind};
        match signal(SignalKind::terminate()) {
            Ok(mut s) => {
                s.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        () = ctrl_c => {}
        () = term => {}
    }
}
