//! The JSON API of `meshcast serve`, a thin HTTP layer over the command line.
//!
//! `POST /api/optima` answers the exact optima of a request (what `meshcast route --optima
//! --json` prints under `optima`), one computation at a time.
//!
//! A route request carries the fields of `meshcast route` under the flags' names (`topology`,
//! `source`, `dests`, `algo` or `all`, `schedule`, `length`, `startup`, `port`, `control`,
//! `header`, `td`); it becomes the
//! same [`RouteArgs`] clap would build and goes through the same functions, so the answer is
//! byte for byte what `meshcast route --json` prints and an error is the same one line (naming
//! the field as its flag, `--dests '9,9': …`). What the command line leaves to clap (value
//! ranges, `--algo` or `--all`) is checked here. Bad input is a 4xx with `{"error": "…"}`; the
//! body, the time to receive it and the topology are bounded, and the routing runs in the
//! server's bounded [`WorkQueue`](super::queue::WorkQueue) on a blocking thread whose panic,
//! should the library ever have one, becomes a 500 instead of taking the server down.

use anyhow::Context;
use axum::body::Bytes;
use axum::extract::{DefaultBodyLimit, FromRequest, Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{get, post};
use axum::{Json, Router};
use clap::ValueEnum;
use meshcast::algo;
use meshcast::experiment::worked::WORKED_EXAMPLES;
use meshcast::topology::Shape;
use meshcast::workload::{random_destinations, seeded};
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::json;

use crate::args::{AlgosArgs, RouteArgs};
use crate::flags::{ParamArgs, ScheduleArg, WormholeArgs, MAX_CYCLES};
use crate::report::{self, OptimaReport, RouteReport};
use crate::{draw, route, text};

use super::Shared;

/// Largest request body: a request names at most [`MAX_NODES`] nodes of a few characters each.
pub const MAX_BODY: usize = 64 * 1024;
/// Most nodes a topology may have: every algorithm on every node of it answers in well under a
/// second, and the page can draw it.
pub const MAX_NODES: usize = 4096;

/// `/api/…`, with JSON errors for unknown paths and oversized bodies.
pub fn router() -> Router<Shared> {
    Router::new()
        .route("/api/algos", get(algos))
        .route("/api/examples", get(examples))
        .route("/api/route", post(route))
        .route("/api/svg", post(svg))
        .route("/api/random", post(random))
        .route("/api/optima", post(optima))
        .route("/api/{*rest}", get(not_found).post(not_found))
        .layer(DefaultBodyLimit::max(MAX_BODY))
}

/// An answer that is not a success: its status and the one line that says why.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    message: String,
}

impl ApiError {
    pub fn new(status: StatusCode, message: impl Into<String>) -> ApiError {
        ApiError {
            status,
            message: message.into(),
        }
    }

    fn bad(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::BAD_REQUEST, message)
    }

    /// 503: the request may succeed if sent again a little later.
    pub fn busy(message: impl Into<String>) -> ApiError {
        ApiError::new(StatusCode::SERVICE_UNAVAILABLE, message)
    }

    /// The status the command line's exit status stands for: bad input (2) is the client's
    /// fault, anything else (a library bug, 1) the server's.
    pub fn of(e: &anyhow::Error) -> ApiError {
        let status = match crate::status::exit_status(e) {
            2 => StatusCode::BAD_REQUEST,
            _ => StatusCode::INTERNAL_SERVER_ERROR,
        };
        ApiError::new(status, format!("{e:#}"))
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (self.status, Json(json!({ "error": self.message }))).into_response();
        if self.status == StatusCode::SERVICE_UNAVAILABLE {
            let again = header::HeaderValue::from_static(RETRY_AFTER_SECS);
            response.headers_mut().insert(header::RETRY_AFTER, again);
        }
        response
    }
}

/// The `Retry-After` of a 503: a routing request takes at most about a second.
const RETRY_AFTER_SECS: &str = "1";

type Answer = Result<Response, ApiError>;

/// `text` (already JSON) as a response.
fn json_text(text: String) -> Response {
    ([(header::CONTENT_TYPE, "application/json")], text).into_response()
}

async fn not_found() -> ApiError {
    ApiError::new(
        StatusCode::NOT_FOUND,
        "no such API path; there are GET /api/algos, GET /api/examples, POST /api/route, \
         POST /api/optima, POST /api/svg and POST /api/random",
    )
}

/// `GET /api/algos`: what `meshcast algos --json` prints.
async fn algos() -> Answer {
    let text = route::algos(&AlgosArgs { json: true }).map_err(|e| ApiError::of(&e))?;
    Ok(json_text(text))
}

/// One worked example of the seeds, as the page offers it.
#[derive(Serialize)]
struct ExampleRow {
    figure: &'static str,
    topology: &'static str,
    dests: &'static str,
    algo: &'static str,
    published_traffic: Option<u32>,
    published_time: Option<u32>,
}

/// `GET /api/examples`: every worked example of the library (all have their source at the
/// origin), with the numbers the papers publish.
async fn examples() -> Json<Vec<ExampleRow>> {
    let rows = WORKED_EXAMPLES.iter().map(|w| ExampleRow {
        figure: w.figure,
        topology: w.topology,
        dests: w.destinations,
        algo: w.algorithm,
        published_traffic: w.traffic,
        published_time: w.time,
    });
    Json(rows.collect())
}

/// The body of `POST /api/route` and `POST /api/svg`: the flags of `meshcast route`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RouteQuery {
    topology: String,
    source: Option<String>,
    dests: String,
    algo: Option<String>,
    #[serde(default)]
    all: bool,
    schedule: Option<String>,
    length: Option<u32>,
    startup: Option<u32>,
    port: Option<String>,
    control: Option<u32>,
    header: Option<u32>,
    td: Option<f64>,
}

/// `POST /api/route`: one algorithm (`algo`) or every applicable one (`all: true`), answered
/// with what `meshcast route --json` prints.
async fn route(State(server): State<Shared>, request: Request) -> Answer {
    let args = route_args(body(&server, request).await?)?;
    server
        .routing
        .run(move || route::route(&args))
        .await
        .map(json_text)
}

/// `POST /api/svg`: the drawing `meshcast route --svg` writes, for one algorithm.
async fn svg(State(server): State<Shared>, request: Request) -> Answer {
    let args = route_args(body(&server, request).await?)?;
    let name = args
        .algo
        .clone()
        .ok_or_else(|| ApiError::bad("a drawing shows one algorithm: give \"algo\""))?;
    let drawing = server
        .routing
        .run(move || {
            let request = route::request(&args)?;
            draw::check_drawable(request.shape())?;
            let info = algo::find(&name).with_context(|| format!("--algo '{name}'"))?;
            let report =
                RouteReport::build(info, &request, args.schedule.into(), route::models(&args))?;
            Ok(draw::render(request.shape(), &report).to_string())
        })
        .await?;
    Ok(([(header::CONTENT_TYPE, "image/svg+xml")], drawing).into_response())
}

/// The body of `POST /api/optima`: the request's fields of `meshcast route`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct OptimaQuery {
    topology: String,
    source: Option<String>,
    dests: String,
}

/// `POST /api/optima`: the exact optima of the request, what `meshcast route --optima --json`
/// prints under `optima`. Kept apart from `/api/route` so the comparison never waits for them.
async fn optima(State(server): State<Shared>, request: Request) -> Answer {
    let q: OptimaQuery = body(&server, request).await?;
    let args = route_args(RouteQuery {
        topology: q.topology,
        source: q.source,
        dests: q.dests,
        algo: None,
        all: true,
        schedule: None,
        length: None,
        startup: None,
        port: None,
        control: None,
        header: None,
        td: None,
    })?;
    server
        .optima
        .run(move || {
            report::to_json(&OptimaReport::of(&route::request(&args)?)).map_err(Into::into)
        })
        .await
        .map(json_text)
}

/// The body of `POST /api/random`.
#[derive(Debug, Deserialize)]
#[serde(deny_unknown_fields)]
struct RandomQuery {
    topology: String,
    source: Option<String>,
    k: usize,
    seed: u64,
}

/// `POST /api/random`: `k` destinations drawn from `seed` by the library's workload generator
/// (the stream `meshcast sweep` draws from), as a `dests` string.
async fn random(State(server): State<Shared>, request: Request) -> Answer {
    let query: RandomQuery = body(&server, request).await?;
    let shape = bounded_shape(&query.topology)?;
    let source = match &query.source {
        Some(text) => shape.parse_node(text),
        None => shape.node(&vec![0; shape.rank()]),
    }
    .map_err(|e| ApiError::bad(format!("source: {e}")))?;
    let drawn = random_destinations(&shape, source, query.k, &mut seeded(query.seed))
        .map_err(|e| ApiError::bad(format!("k {}: {e}", query.k)))?;
    // In the notation `dests` is written in (`4,6 6,6`), so the page can send it back as is.
    let node = |d| {
        text::node(&shape.coords(d))
            .trim_matches(['(', ')'])
            .to_string()
    };
    let dests: Vec<String> = drawn.into_iter().map(node).collect();
    Ok(Json(json!({ "dests": dests.join(" ") })).into_response())
}

/// The JSON body as `T`, or a 4xx naming what is wrong with it: 408 if it does not arrive
/// within the request timeout, 413 if it is too long.
async fn body<T: DeserializeOwned>(server: &Shared, request: Request) -> Result<T, ApiError> {
    let limit = server.limits.request_timeout;
    let bytes = tokio::time::timeout(limit, Bytes::from_request(request, &()))
        .await
        .map_err(|_| {
            ApiError::new(
                StatusCode::REQUEST_TIMEOUT,
                format!(
                    "request body: not received within {} s (--request-timeout)",
                    limit.as_secs()
                ),
            )
        })?
        .map_err(|r| {
            ApiError::new(
                r.status(),
                format!("request body: {} (at most {MAX_BODY} bytes)", r.body_text()),
            )
        })?;
    serde_json::from_slice(&bytes).map_err(|e| ApiError::bad(format!("request body: {e}")))
}

/// The arguments `meshcast route --json` would get; checks what clap checks on the command line.
fn route_args(q: RouteQuery) -> Result<RouteArgs, ApiError> {
    if q.algo.is_some() == q.all {
        return Err(ApiError::bad(
            "give either \"algo\" (one algorithm) or \"all\": true (every applicable one)",
        ));
    }
    bounded_shape(&q.topology)?;
    let schedule = match &q.schedule {
        Some(s) => value_enum::<ScheduleArg>("schedule", s)?,
        None => ScheduleArg::Paper,
    };
    let port = q
        .port
        .as_deref()
        .map(|p| {
            p.parse()
                .map_err(|e| ApiError::bad(format!("port '{p}': {e}")))
        })
        .transpose()?;
    in_range("length", q.length, 1)?;
    in_range("startup", q.startup, 0)?;
    in_range("control", q.control, 0)?;
    in_range("header", q.header, 0)?;
    Ok(RouteArgs {
        topology: q.topology,
        source: q.source,
        dests: q.dests,
        algo: q.algo,
        all: q.all,
        schedule,
        wormhole: WormholeArgs {
            length: q.length,
            startup: q.startup,
            port,
        },
        control: q.control,
        header: q.header,
        params: ParamArgs { td: q.td },
        optima: false,
        json: true,
        svg: None,
    })
}

/// The topology, if it parses and has at most [`MAX_NODES`] nodes.
fn bounded_shape(topology: &str) -> Result<Shape, ApiError> {
    let shape: Shape = topology
        .parse()
        .map_err(|e| ApiError::bad(format!("topology '{topology}': {e}")))?;
    if shape.len() > MAX_NODES {
        return Err(ApiError::bad(format!(
            "topology '{topology}': the server routes on at most {MAX_NODES} nodes, and it has {}",
            shape.len()
        )));
    }
    Ok(shape)
}

/// `text` as a value of the flag's enum, as clap parses it.
fn value_enum<T: ValueEnum>(field: &str, text: &str) -> Result<T, ApiError> {
    T::from_str(text, false).map_err(|_| {
        let allowed: Vec<String> = T::value_variants()
            .iter()
            .filter_map(|v| v.to_possible_value().map(|p| p.get_name().to_string()))
            .collect();
        ApiError::bad(format!(
            "{field} '{text}': expected one of {}",
            allowed.join(", ")
        ))
    })
}

/// Fail unless `value` (if given) is in `least..=MAX_CYCLES`, the range the flag accepts.
fn in_range(field: &str, value: Option<u32>, least: i64) -> Result<(), ApiError> {
    match value {
        Some(v) if !(least..=MAX_CYCLES).contains(&i64::from(v)) => Err(ApiError::bad(format!(
            "{field} {v}: expected {least} to {MAX_CYCLES}"
        ))),
        _ => Ok(()),
    }
}
