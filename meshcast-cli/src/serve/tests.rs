//! The server in process: each test sends one request through the router and checks the answer
//! against what the command line gives for the same request.

use axum::body::Body;
use axum::http::{header, Request, StatusCode};
use http_body_util::BodyExt;
use serde_json::Value;
use tower::ServiceExt;

use std::sync::{mpsc, Arc};
use std::time::Duration;

use axum::response::IntoResponse;
use tokio::task::JoinHandle;

use super::api::{ApiError, MAX_BODY, MAX_NODES};
use super::assets::FILES;
use super::guard::Hosts;
use super::queue::WorkQueue;
use super::{router, Limits};
use crate::args::{AlgosArgs, RouteArgs};
use crate::flags::{ParamArgs, ScheduleArg, WormholeArgs};

const EXAMPLE: &str = "4,6 6,6 0,2 4,0 3,0 7,4";

/// The limits of `meshcast serve` on 127.0.0.1 with the default flags (two workers).
fn limits() -> Limits {
    Limits {
        hosts: Hosts::new([127, 0, 0, 1].into(), &[]),
        max_connections: 128,
        header_timeout: Duration::from_secs(10),
        request_timeout: Duration::from_secs(30),
        workers: 2,
        queue: 8,
    }
}

/// Status, content type and body of `method path` with `body`, sent as the page sends it.
async fn call(method: &str, path: &str, body: &str) -> (StatusCode, String, String) {
    let request = from_page(method, path, body, &[]);
    let response = router(limits()).oneshot(request).await.unwrap();
    let status = response.status();
    let kind = response
        .headers()
        .get(header::CONTENT_TYPE)
        .map(|v| v.to_str().unwrap().to_string())
        .unwrap_or_default();
    let bytes = response.into_body().collect().await.unwrap().to_bytes();
    (status, kind, String::from_utf8(bytes.to_vec()).unwrap())
}

/// What `meshcast route --json` prints for these flags.
fn cli_route(topology: &str, dests: &str, algo: Option<&str>, schedule: ScheduleArg) -> String {
    crate::route::route(&cli_args(topology, dests, algo, schedule)).unwrap()
}

/// The flags of `meshcast route --json` with these values, the others at their defaults.
fn cli_args(topology: &str, dests: &str, algo: Option<&str>, schedule: ScheduleArg) -> RouteArgs {
    RouteArgs {
        topology: topology.to_string(),
        source: None,
        dests: dests.to_string(),
        all: algo.is_none(),
        algo: algo.map(str::to_string),
        schedule,
        wormhole: WormholeArgs {
            length: None,
            startup: None,
            port: None,
        },
        control: None,
        header: None,
        params: ParamArgs { td: None },
        optima: false,
        json: true,
        svg: None,
    }
}

/// Fail unless `body` is refused with `status` and a JSON error mentioning `mention`.
async fn assert_refused(path: &str, body: &str, status: StatusCode, mention: &str) {
    let (got, kind, text) = call("POST", path, body).await;
    assert_eq!(got, status, "{body} -> {text}");
    assert_eq!(kind, "application/json");
    let error: Value = serde_json::from_str(&text).unwrap();
    let message = error["error"].as_str().unwrap();
    assert!(message.contains(mention), "{body}: {message}");
    assert!(!message.contains('\n'), "one line: {message}");
}

#[tokio::test]
async fn algos_are_what_the_cli_lists() {
    let (status, kind, body) = call("GET", "/api/algos", "").await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "application/json")
    );
    assert_eq!(
        body,
        crate::route::algos(&AlgosArgs { json: true }).unwrap()
    );
    let rows: Vec<Value> = serde_json::from_str(&body).unwrap();
    assert_eq!(rows.len(), meshcast::algo::REGISTRY.len());
}

#[tokio::test]
async fn route_answers_what_route_json_prints() {
    let body = format!(r#"{{"topology": "mesh:8x8", "dests": "{EXAMPLE}", "algo": "diag"}}"#);
    let (status, kind, text) = call("POST", "/api/route", &body).await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "application/json")
    );
    assert_eq!(
        text,
        cli_route("mesh:8x8", EXAMPLE, Some("diag"), ScheduleArg::Paper)
    );
    // Seed 001 Example 3.2.1.1: traffic 21, time 12.
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["metrics"]["traffic"], 21);
    assert_eq!(report["metrics"]["one_port_time"], 12);
}

#[tokio::test]
async fn all_compares_every_applicable_algorithm_with_every_option() {
    let body = format!(
        r#"{{"topology": "torus:6x6", "source": "0,0", "dests": "{}", "all": true,
            "schedule": "optimal", "length": 20, "startup": 0, "port": "all"}}"#,
        "1,2 5,5 3,3 0,4"
    );
    let (status, _, text) = call("POST", "/api/route", &body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    assert_eq!(
        text,
        cli_route("torus:6x6", "1,2 5,5 3,3 0,4", None, ScheduleArg::Optimal)
    );
    let shape: meshcast::topology::Shape = "torus:6x6".parse().unwrap();
    let applicable = meshcast::algo::REGISTRY
        .iter()
        .filter(|a| a.support.covers(&shape))
        .count();
    let reports: Vec<Value> = serde_json::from_str(&text).unwrap();
    assert_eq!(reports.len(), applicable);
    assert!(reports.iter().all(|r| r["schedule"] == "optimal"));
}

#[tokio::test]
async fn optima_are_what_route_optima_prints() {
    let optima_of = |dests: &str| {
        let mut args = cli_args("mesh:8x8", dests, None, ScheduleArg::Paper);
        args.optima = true;
        let printed: Value = serde_json::from_str(&crate::route::route(&args).unwrap()).unwrap();
        printed["optima"].clone()
    };
    let body = format!(r#"{{"topology": "mesh:8x8", "source": "0,0", "dests": "{EXAMPLE}"}}"#);
    let (status, kind, text) = call("POST", "/api/optima", &body).await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "application/json")
    );
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer, optima_of(EXAMPLE));
    assert_eq!(answer["schema"], "meshcast.optima/1");
    let value = |a: &Value, b: &str| {
        let row = a["optima"]
            .as_array()
            .unwrap()
            .iter()
            .find(|o| o["baseline"] == b);
        row.unwrap()["value"].clone()
    };
    // Example 3.2.1.1: DIAG's 21 links against the OMT's 17, its one-port time 12 optimal.
    assert_eq!(value(&answer, "omt"), 17);
    assert_eq!(value(&answer, "opt-time"), 12);
    // Beyond the subset programs' 16 destinations: refused with the reason, not an error.
    let many = "1,1 2,2 3,3 4,4 5,5 6,6 7,7 1,2 1,3 1,4 1,5 1,6 1,7 2,1 3,1 4,1 5,1";
    let body = format!(r#"{{"topology": "mesh:8x8", "dests": "{many}"}}"#);
    let (status, _, text) = call("POST", "/api/optima", &body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let answer: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(answer, optima_of(many));
    assert_eq!(value(&answer, "mst"), Value::Null);
    let omt = &answer["optima"][0];
    assert!(omt["refused"]
        .as_str()
        .unwrap()
        .contains("at most 16 destinations"));
    let bad = StatusCode::BAD_REQUEST;
    let outside = r#"{"topology": "mesh:8x8", "dests": "9,9"}"#;
    assert_refused("/api/optima", outside, bad, "--dests '9,9'").await;
    let algo = r#"{"topology": "mesh:8x8", "dests": "1,1", "algo": "vh"}"#;
    assert_refused("/api/optima", algo, bad, "unknown field `algo`").await;
}

#[tokio::test]
async fn wormhole_fields_reach_the_model() {
    let body = r#"{"topology": "mesh:10x10", "dests": "2,0 3,1 7,2", "algo": "xy-path",
                   "length": 64, "startup": 33, "port": "one"}"#;
    let (status, _, text) = call("POST", "/api/route", body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["wormhole"]["length"], 64);
    assert_eq!(report["wormhole"]["startup"], 33);
    assert_eq!(report["wormhole"]["port"], "one");
    let switching = r#"{"topology": "mesh:10x10", "dests": "2,0 3,1 7,2", "algo": "xy-path",
                        "port": "2", "control": 4, "header": 2}"#;
    let (status, _, text) = call("POST", "/api/route", switching).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let report: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(report["wormhole"]["port"], "2");
    assert_eq!(report["metrics"]["circuit_switching_latency"], 56);
    assert_eq!(report["metrics"]["cut_through_latency"], 38);
    let qg = r#"{"topology": "mesh:10x10", "dests": "2,0 3,1", "algo": "qg", "td": 0.25}"#;
    assert_eq!(call("POST", "/api/route", qg).await.0, StatusCode::OK);
}

#[tokio::test]
async fn bad_requests_get_a_4xx_naming_the_problem() {
    let bad = StatusCode::BAD_REQUEST;
    let route = |fields: &str| format!(r#"{{"topology": "mesh:8x8", {fields}}}"#);
    assert_refused("/api/route", "not json", bad, "request body").await;
    assert_refused("/api/route", &route(r#""dest": "1,1""#), bad, "dest").await;
    assert_refused("/api/route", &route(r#""dests": "1,1""#), bad, "\"all\"").await;
    let both = route(r#""dests": "1,1", "algo": "vh", "all": true"#);
    assert_refused("/api/route", &both, bad, "either").await;
    let outside = route(r#""dests": "9,9", "algo": "vh""#);
    assert_refused("/api/route", &outside, bad, "--dests '9,9'").await;
    let source = route(r#""dests": "1,1", "source": "x", "algo": "vh""#);
    assert_refused("/api/route", &source, bad, "--source 'x'").await;
    let unknown = route(r#""dests": "1,1", "algo": "nope""#);
    assert_refused("/api/route", &unknown, bad, "nope").await;
    let schedule = route(r#""dests": "1,1", "algo": "vh", "schedule": "best""#);
    assert_refused("/api/route", &schedule, bad, "paper, optimal").await;
    let port = route(r#""dests": "1,1", "algo": "vh", "port": "two""#);
    assert_refused("/api/route", &port, bad, "port 'two'").await;
    let td = route(r#""dests": "1,1", "algo": "qg", "td": 5"#);
    assert_refused("/api/route", &td, bad, "--td").await;
    let control = route(r#""dests": "1,1", "algo": "vh", "control": 2000000"#);
    assert_refused("/api/route", &control, bad, "control 2000000").await;
    let length = route(r#""dests": "1,1", "algo": "vh", "length": 0"#);
    assert_refused("/api/route", &length, bad, "length 0").await;
    let negative = route(r#""dests": "1,1", "algo": "vh", "startup": -1"#);
    assert_refused("/api/route", &negative, bad, "-1").await;
    let huge = r#"{"topology": "mesh:65x64", "dests": "1,1", "all": true}"#;
    assert_refused("/api/route", huge, bad, &MAX_NODES.to_string()).await;
    let torus_only = r#"{"topology": "mesh:8x8", "dests": "1,1", "algo": "u-torus"}"#;
    assert_refused("/api/route", torus_only, bad, "u-torus").await;
    let no_shape = r#"{"topology": "ring:8", "dests": "1", "all": true}"#;
    assert_refused("/api/route", no_shape, bad, "topology 'ring:8'").await;
}

#[tokio::test]
async fn bodies_are_bounded_and_unknown_paths_are_json_errors() {
    let long = format!(r#"{{"topology": "{}"}}"#, "m".repeat(MAX_BODY));
    let too_large = StatusCode::PAYLOAD_TOO_LARGE;
    assert_refused("/api/route", &long, too_large, "length limit").await;
    assert_refused("/api/nothing", "", StatusCode::NOT_FOUND, "/api/route").await;
}

#[tokio::test]
async fn svg_is_the_drawing_route_svg_writes() {
    let body = format!(r#"{{"topology": "mesh:8x8", "dests": "{EXAMPLE}", "algo": "vh"}}"#);
    let (status, kind, text) = call("POST", "/api/svg", &body).await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "image/svg+xml"));
    let shape: meshcast::topology::Shape = "mesh:8x8".parse().unwrap();
    let report: crate::report::RouteReport = serde_json::from_str(&cli_route(
        "mesh:8x8",
        EXAMPLE,
        Some("vh"),
        ScheduleArg::Paper,
    ))
    .unwrap();
    assert_eq!(text, crate::draw::render(&shape, &report).to_string());
    let all = format!(r#"{{"topology": "mesh:8x8", "dests": "{EXAMPLE}", "all": true}}"#);
    assert_refused("/api/svg", &all, StatusCode::BAD_REQUEST, "one algorithm").await;
    let deep = r#"{"topology": "mesh:2x2x2x2", "dests": "1,1,1,1", "algo": "vh"}"#;
    assert_refused("/api/svg", deep, StatusCode::BAD_REQUEST, "dimensions").await;
}

#[tokio::test]
async fn random_destinations_come_from_the_seeded_workload() {
    let body = r#"{"topology": "mesh:8x8", "source": "3,3", "k": 10, "seed": 7}"#;
    let (status, _, text) = call("POST", "/api/random", body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let dests = serde_json::from_str::<Value>(&text).unwrap()["dests"]
        .as_str()
        .unwrap()
        .to_string();
    let shape: meshcast::topology::Shape = "mesh:8x8".parse().unwrap();
    let source = shape.parse_node("3,3").unwrap();
    let mut rng = meshcast::workload::seeded(7);
    let expected = meshcast::workload::random_destinations(&shape, source, 10, &mut rng).unwrap();
    assert_eq!(shape.parse_nodes(&dests).unwrap(), expected);
    let again = call("POST", "/api/random", body).await.2;
    assert_eq!(again, text, "same seed, same destinations");
    let many = r#"{"topology": "mesh:8x8", "k": 64, "seed": 7}"#;
    assert_refused("/api/random", many, StatusCode::BAD_REQUEST, "k 64").await;
}

#[tokio::test]
async fn examples_list_the_worked_examples() {
    let (status, _, text) = call("GET", "/api/examples", "").await;
    assert_eq!(status, StatusCode::OK);
    let rows: Vec<Value> = serde_json::from_str(&text).unwrap();
    let worked = meshcast::experiment::worked::WORKED_EXAMPLES;
    assert_eq!(rows.len(), worked.len());
    let diag = rows
        .iter()
        .find(|r| r["figure"] == "seed 001 Example 3.2.1.1")
        .unwrap();
    assert_eq!(diag["dests"], EXAMPLE);
    assert_eq!(diag["published_traffic"], 21);
}
#[tokio::test]
async fn the_page_and_its_assets_are_served() {
    let (status, kind, html) = call("GET", "/", "").await;
    assert_eq!(
        (status, kind.as_str()),
        (StatusCode::OK, "text/html; charset=utf-8")
    );
    assert!(html.contains("app.js") && html.contains("style.css"));
    let (status, kind, js) = call("GET", "/app.js", "").await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "text/javascript"));
    assert!(js.contains("/api/route"));
    let (status, kind, _) = call("GET", "/style.css", "").await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "text/css"));
}

#[tokio::test]
async fn every_module_of_the_page_is_served_and_imports_only_served_files() {
    let served: Vec<&str> = FILES
        .iter()
        .map(|f| f.0)
        .chain(["/vocabulary.js"])
        .collect();
    for path in &served {
        assert_eq!(call("GET", path, "").await.0, StatusCode::OK, "{path}");
    }
    let (_, _, html) = call("GET", "/", "").await;
    assert!(html.contains(r#"<script type="module" src="app.js">"#));
    for (path, _, text) in FILES {
        for import in text.split(r#" from "./"#).skip(1) {
            let file = format!("/{}", import.split('"').next().unwrap());
            assert!(served.contains(&file.as_str()), "{path} imports {file}");
        }
    }
}

#[tokio::test]
async fn the_page_draws_with_the_renderers_vocabulary_and_no_copy_of_it() {
    let (status, kind, module) = call("GET", "/vocabulary.js", "").await;
    assert_eq!((status, kind.as_str()), (StatusCode::OK, "text/javascript"));
    assert_eq!(module, crate::draw::vocabulary_module());
    let names = module
        .lines()
        .filter_map(|l| l.strip_prefix("export const "))
        .map(|l| l.split(' ').next().unwrap());
    for name in names {
        for (path, _, text) in FILES {
            let own = format!("const {name} =");
            assert!(!text.contains(&own), "{path} has its own {name}");
        }
    }
}

#[tokio::test]
async fn tree_links_carry_their_all_port_time_the_depth_of_their_head() {
    let body = r#"{"topology": "torus:6x5", "dests": "5,4 0,3 3,0 2,2 5,0", "all": true}"#;
    let (status, _, text) = call("POST", "/api/route", body).await;
    assert_eq!(status, StatusCode::OK, "{text}");
    let reports: Vec<Value> = serde_json::from_str(&text).unwrap();
    let trees: Vec<&Value> = reports.iter().filter(|r| r["kind"] == "tree").collect();
    assert!(trees.len() >= 3, "{text}");
    for report in trees {
        let links = report["links"].as_array().unwrap();
        let parent = |node: &Value| links.iter().find(|l| &l["to"] == node).map(|l| &l["from"]);
        for link in links {
            let (mut depth, mut at) = (0, &link["to"]);
            while let Some(up) = parent(at) {
                (depth, at) = (depth + 1, up);
            }
            assert_eq!(
                link["all_port_hop"], depth,
                "{} {link}",
                report["algorithm"]
            );
        }
    }
}

/// Status and headers of `request` through the router with the default limits.
async fn send(request: Request<Body>) -> (StatusCode, axum::http::HeaderMap) {
    let response = router(limits()).oneshot(request).await.unwrap();
    (response.status(), response.headers().clone())
}

/// `method path` with `body` as the page sends it (the server's own Host, a JSON body), with
/// these headers in place of those.
fn from_page(
    method: &str,
    path: &str,
    body: &str,
    headers: &[(header::HeaderName, &str)],
) -> Request<Body> {
    let mut request = Request::builder()
        .method(method)
        .uri(path)
        .header(header::HOST, "127.0.0.1:8080")
        .header(header::CONTENT_TYPE, "application/json")
        .body(Body::from(body.to_string()))
        .unwrap();
    for (name, value) in headers {
        let value = header::HeaderValue::from_str(value).unwrap();
        request.headers_mut().insert(name, value);
    }
    request
}

const ROUTE: &str = r#"{"topology": "mesh:8x8", "dests": "1,1", "algo": "vh"}"#;

/// The status of a route request from the page with these headers in place of its own.
async fn route_status(headers: &[(header::HeaderName, &str)]) -> StatusCode {
    send(from_page("POST", "/api/route", ROUTE, headers))
        .await
        .0
}

#[test]
fn hosts_are_loopback_names_the_bound_address_and_allowed_names() {
    let loopback = Hosts::new([127, 0, 0, 1].into(), &["MyBox.local.".to_string()]);
    for host in [
        "localhost",
        "LOCALHOST:8080",
        "app.localhost:1",
        "127.0.0.1:8080",
        "127.5.5.5",
        "[::1]:8080",
        "[::1]",
        "mybox.local:8080",
        "mybox.local.",
    ] {
        assert!(loopback.allows(host), "{host}");
    }
    for host in [
        "evil.example",
        "evil.example:8080",
        "localhost.evil.example",
        "10.0.0.1:8080",
        "127.0.0.1:http",
        "127.0.0.1:",
        "::1",
        "[::1",
        "[::1]x",
        "[::1]:",
        "",
        ":8080",
    ] {
        assert!(!loopback.allows(host), "{host}");
    }
    let lan = Hosts::new([192, 168, 1, 5].into(), &[]);
    assert!(lan.allows("192.168.1.5:8080") && lan.allows("localhost"));
    assert!(!lan.allows("192.168.1.6:8080"));
    let everywhere = Hosts::new([0, 0, 0, 0].into(), &[]);
    assert!(everywhere.allows("192.168.1.6:8080") && everywhere.allows("[fe80::1]:8080"));
    assert!(!everywhere.allows("evil.example:8080"));
}

#[tokio::test]
async fn a_foreign_host_is_refused_with_421() {
    for (host, uri) in [
        ("evil.example:8080", "/"),
        ("evil.example", "/api/algos"),
        ("127.0.0.1:8080", "http://evil.example/api/algos"),
    ] {
        let request = Request::get(uri)
            .header(header::HOST, host)
            .body(Body::empty())
            .unwrap();
        let response = router(limits()).oneshot(request).await.unwrap();
        assert_eq!(response.status(), StatusCode::MISDIRECTED_REQUEST, "{host}");
        let bytes = response.into_body().collect().await.unwrap().to_bytes();
        let error: Value = serde_json::from_slice(&bytes).unwrap();
        assert!(error["error"].as_str().unwrap().contains("evil.example"));
    }
    let nameless = Request::get("/").body(Body::empty()).unwrap();
    assert_eq!(send(nameless).await.0, StatusCode::BAD_REQUEST);
    assert_eq!(
        route_status(&[(header::HOST, "evil.example")]).await,
        StatusCode::MISDIRECTED_REQUEST
    );
    let mut twice = from_page("GET", "/", "", &[]);
    let evil = header::HeaderValue::from_static("evil.example");
    twice.headers_mut().append(header::HOST, evil);
    assert_eq!(send(twice).await.0, StatusCode::BAD_REQUEST);
}

#[tokio::test]
async fn a_post_must_be_json_from_the_page_itself() {
    assert_eq!(
        route_status(&[(header::ORIGIN, "http://127.0.0.1:8080")]).await,
        StatusCode::OK
    );
    let charset = [(header::CONTENT_TYPE, "Application/JSON; charset=utf-8")];
    assert_eq!(route_status(&charset).await, StatusCode::OK);
    for origin in ["http://evil.example", "null", "http://127.0.0.1:8081"] {
        assert_eq!(
            route_status(&[(header::ORIGIN, origin)]).await,
            StatusCode::FORBIDDEN,
            "{origin}"
        );
    }
    for kind in [
        "text/plain",
        "application/x-www-form-urlencoded",
        "multipart/form-data; boundary=x",
        "application/jsonp",
    ] {
        assert_eq!(
            route_status(&[(header::CONTENT_TYPE, kind)]).await,
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            "{kind}"
        );
    }
    let untyped = Request::post("/api/route")
        .header(header::HOST, "localhost:8080")
        .body(Body::from(ROUTE))
        .unwrap();
    assert_eq!(send(untyped).await.0, StatusCode::UNSUPPORTED_MEDIA_TYPE);
}

#[tokio::test]
async fn a_long_content_length_is_refused_before_the_body_is_read() {
    // The body is short: the refusal comes from the header alone.
    assert_eq!(
        route_status(&[(header::CONTENT_LENGTH, "10000000")]).await,
        StatusCode::PAYLOAD_TOO_LARGE
    );
    let length = ROUTE.len().to_string();
    assert_eq!(
        route_status(&[(header::CONTENT_LENGTH, &length)]).await,
        StatusCode::OK
    );
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let requests = [
        from_page("GET", "/", "", &[]),
        from_page("GET", "/api/algos", "", &[]),
        from_page("POST", "/api/nothing", "", &[]),
        from_page("GET", "/", "", &[(header::HOST, "evil.example")]),
    ];
    for request in requests {
        let (_, headers) = send(request).await;
        let csp = headers[header::CONTENT_SECURITY_POLICY].to_str().unwrap();
        assert!(
            csp.starts_with("default-src 'none'; script-src 'self';"),
            "{csp}"
        );
        assert!(csp.contains("frame-ancestors 'none'"), "{csp}");
        assert_eq!(headers[header::X_CONTENT_TYPE_OPTIONS], "nosniff");
        assert_eq!(headers[header::X_FRAME_OPTIONS], "DENY");
    }
}

/// A queue of one worker and `waiting` places whose worker is busy until the returned sender
/// sends; the handle is the busy job.
async fn busy_queue(
    waiting: usize,
    wait: Duration,
) -> (
    Arc<WorkQueue>,
    mpsc::Sender<()>,
    JoinHandle<Result<u8, ApiError>>,
) {
    let queue = Arc::new(WorkQueue::new("routing", 1, waiting, wait));
    let (started, running) = mpsc::channel();
    let (finish, finished) = mpsc::channel::<()>();
    let busy = tokio::spawn({
        let queue = queue.clone();
        async move {
            queue
                .run(move || {
                    started.send(()).unwrap();
                    finished.recv().unwrap();
                    Ok(1)
                })
                .await
        }
    });
    tokio::task::spawn_blocking(move || running.recv().unwrap())
        .await
        .unwrap();
    (queue, finish, busy)
}

#[tokio::test]
async fn a_full_queue_answers_503_with_retry_after() {
    // No waiting place: while the job holds the worker, the next is refused at once.
    let (queue, finish, busy) = busy_queue(0, Duration::from_secs(3600)).await;
    let refused = queue.run(|| Ok(2)).await.unwrap_err().into_response();
    assert_eq!(refused.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(refused.headers()[header::RETRY_AFTER], "1");
    finish.send(()).unwrap();
    assert_eq!(busy.await.unwrap().unwrap(), 1);
    assert_eq!(
        queue.run(|| Ok(3)).await.unwrap(),
        3,
        "the place is free again"
    );
}

#[tokio::test]
async fn a_request_waiting_too_long_for_a_worker_is_503() {
    // One waiting place and a short wait: the waiting request gives up, the busy one finishes.
    let (queue, finish, busy) = busy_queue(1, Duration::from_millis(50)).await;
    let waited = queue.run(|| Ok(2)).await.unwrap_err().into_response();
    assert_eq!(waited.status(), StatusCode::SERVICE_UNAVAILABLE);
    finish.send(()).unwrap();
    assert_eq!(busy.await.unwrap().unwrap(), 1);
}
