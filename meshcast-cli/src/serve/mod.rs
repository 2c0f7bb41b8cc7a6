//! `meshcast serve`: the web explorer and its JSON API, served on loopback by default.
//!
//! The page (`meshcast-cli/web/`: one HTML file, one script, one style sheet, no build step) is
//! embedded in the binary. Everything it shows comes from the [`api`], which is a thin HTTP
//! layer over the command line's own request parsing and reports: `POST /api/route` answers
//! with exactly what `meshcast route --json` prints for the same fields. This module only binds
//! the socket, serves the assets and runs until interrupted.

mod api;
#[cfg(test)]
mod tests;

use std::net::SocketAddr;

use anyhow::{bail, Context, Result};
use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use crate::args::ServeArgs;
use crate::output;

/// The page and its assets, compiled in so the binary is all a user needs.
const INDEX_HTML: &str = include_str!("../../web/index.html");
const APP_JS: &str = include_str!("../../web/app.js");
const STYLE_CSS: &str = include_str!("../../web/style.css");

/// `meshcast serve`: bind, print the address, serve until Ctrl-C or SIGTERM.
pub fn run(args: &ServeArgs) -> Result<String> {
    if !args.bind.is_loopback() && !args.allow_remote {
        bail!(
            "--bind {}: not a loopback address; the server has no authentication, so serving \
             other machines needs --allow-remote as well",
            args.bind
        );
    }
    let runtime = tokio::runtime::Runtime::new().context("cannot start the async runtime")?;
    runtime.block_on(serve(SocketAddr::new(args.bind, args.port)))?;
    Ok(String::new())
}

async fn serve(addr: SocketAddr) -> Result<()> {
    let listener = tokio::net::TcpListener::bind(addr)
        .await
        .with_context(|| format!("cannot listen on {addr}"))?;
    let bound = listener.local_addr()?;
    // The first line on stdout, flushed at once: scripts and the browser test read it.
    output::print(&format!("meshcast serve: listening on http://{bound}/\n"))
        .context("cannot write to standard output")?;
    axum::serve(listener, router())
        .with_graceful_shutdown(interrupted())
        .await
        .context("the server failed")
}

/// Every route: the page, its assets and the API.
fn router() -> Router {
    Router::new()
        .route("/", get(|| asset("text/html; charset=utf-8", INDEX_HTML)))
        .route("/app.js", get(|| asset("text/javascript", APP_JS)))
        .route("/style.css", get(|| asset("text/css", STYLE_CSS)))
        .merge(api::router())
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
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
