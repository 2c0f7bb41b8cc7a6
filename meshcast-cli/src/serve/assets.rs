//! The page and its files, compiled into the binary so it is all a user needs: the HTML, the
//! style sheet and the ES modules of meshcast-cli/web/ (no build step), and `/vocabulary.js`,
//! the module of the drawing's sizes and colours that [`draw`](crate::draw) writes from the
//! constants of `route --svg`'s renderer. The content security policy's `script-src 'self'`
//! (in [`guard`](super::guard)) allows exactly these modules.

use std::sync::LazyLock;

use axum::http::header;
use axum::response::IntoResponse;
use axum::routing::get;
use axum::Router;

use super::Shared;

const JS: &str = "text/javascript";

/// Every file of meshcast-cli/web/ the page loads: its path, content type and text.
pub const FILES: [(&str, &str, &str); 11] = [
    (
        "/",
        "text/html; charset=utf-8",
        include_str!("../../web/index.html"),
    ),
    (
        "/style.css",
        "text/css",
        include_str!("../../web/style.css"),
    ),
    ("/app.js", JS, include_str!("../../web/app.js")),
    ("/controls.js", JS, include_str!("../../web/controls.js")),
    ("/details.js", JS, include_str!("../../web/details.js")),
    ("/drawing.js", JS, include_str!("../../web/drawing.js")),
    ("/layout.js", JS, include_str!("../../web/layout.js")),
    ("/player.js", JS, include_str!("../../web/player.js")),
    ("/state.js", JS, include_str!("../../web/state.js")),
    ("/svg.js", JS, include_str!("../../web/svg.js")),
    ("/table.js", JS, include_str!("../../web/table.js")),
];

/// `/vocabulary.js`, written once.
static VOCABULARY: LazyLock<String> = LazyLock::new(crate::draw::vocabulary_module);

/// A route for every file of the page, and for `/vocabulary.js`.
pub fn router() -> Router<Shared> {
    let files = FILES
        .iter()
        .fold(Router::new(), |router, &(path, kind, text)| {
            router.route(path, get(move || asset(kind, text)))
        });
    files.route("/vocabulary.js", get(|| asset(JS, VOCABULARY.as_str())))
}

async fn asset(content_type: &'static str, body: &'static str) -> impl IntoResponse {
    ([(header::CONTENT_TYPE, content_type)], body)
}
