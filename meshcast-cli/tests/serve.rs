//! `meshcast serve` run as a user runs it: the address on standard output, the API over a real
//! socket answering what the other subcommands print, and the loopback-only default; and run as
//! an attacker uses it (foreign hosts, cross-site posts, slow and idle connections, floods of
//! heavy requests), with the limits set small so each attack is over in a second or two.

use std::io::{BufRead, BufReader, ErrorKind, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};
use std::thread;
use std::time::Duration;

const EXAMPLE: &str = "4,6 6,6 0,2 4,0 3,0 7,4";
const ROUTE: &str = r#"{"topology": "mesh:8x8", "dests": "1,1", "algo": "vh"}"#;
const JSON: &str = "Content-Type: application/json\r\n";

/// Limits small enough that every attack below is over in a second or two.
const SMALL: &[&str] = &[
    "--header-timeout",
    "1",
    "--request-timeout",
    "1",
    "--max-connections",
    "4",
];

fn meshcast(args: &[&str]) -> Output {
    Command::new(env!("CARGO_BIN_EXE_meshcast"))
        .args(args)
        .output()
        .expect("the binary runs")
}

/// A server on a free port, stopped when dropped.
struct Server {
    child: Child,
    addr: String,
}

impl Server {
    fn start() -> Server {
        Server::with(&[])
    }

    /// A server with these flags besides `--port 0`.
    fn with(flags: &[&str]) -> Server {
        let mut child = Command::new(env!("CARGO_BIN_EXE_meshcast"))
            .args(["serve", "--port", "0"])
            .args(flags)
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary runs");
        let mut line = String::new();
        BufReader::new(child.stdout.take().unwrap())
            .read_line(&mut line)
            .unwrap();
        let url = line
            .trim()
            .strip_prefix("meshcast serve: listening on http://")
            .unwrap_or_else(|| panic!("first line: {line}"));
        let addr = url.trim_end_matches('/').to_string();
        Server { child, addr }
    }

    /// Status line and body of one HTTP/1.1 request.
    fn request(&self, method: &str, path: &str, body: &str) -> (String, String) {
        let headers = format!(
            "{JSON}Content-Length: {}\r\nConnection: close\r\n",
            body.len()
        );
        let (head, body) = self.exchange(&self.raw(&format!("{method} {path}"), &headers, body));
        assert!(
            !head
                .to_ascii_lowercase()
                .contains("transfer-encoding: chunked"),
            "{head}"
        );
        (head.lines().next().unwrap().to_string(), body)
    }

    /// A connection to the server whose reads give up after a generous minute (a server that
    /// never answers fails the test instead of hanging it).
    fn connect(&self) -> TcpStream {
        let stream = TcpStream::connect(&self.addr).unwrap();
        stream
            .set_read_timeout(Some(Duration::from_secs(60)))
            .unwrap();
        stream
    }

    /// The text of `method_path` (`POST /api/route`) to this server with these header lines and
    /// `body`.
    fn raw(&self, method_path: &str, headers: &str, body: &str) -> String {
        format!(
            "{method_path} HTTP/1.1\r\nHost: {}\r\n{headers}\r\n{body}",
            self.addr
        )
    }

    /// `body` posted to `/api/route` with these header lines: the answer's header and body.
    fn post(&self, headers: &str, body: &str) -> (String, String) {
        let length = format!("Content-Length: {}\r\nConnection: close\r\n", body.len());
        self.exchange(&self.raw("POST /api/route", &format!("{headers}{length}"), body))
    }

    /// The answer to a POST of `length` bytes of which only `part` is sent.
    fn post_part(&self, length: usize, part: &str) -> (String, String) {
        let mut stream = self.connect();
        let headers = format!("{JSON}Content-Length: {length}\r\n");
        let raw = self.raw("POST /api/route", &headers, part);
        stream.write_all(raw.as_bytes()).unwrap();
        answer(&mut stream)
    }

    /// Send `raw` and read until the server closes: the answer's header and body.
    fn exchange(&self, raw: &str) -> (String, String) {
        let mut stream = self.connect();
        stream.write_all(raw.as_bytes()).unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").expect("a header and a body");
        (head.to_string(), body.to_string())
    }
}

impl Drop for Server {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

fn stdout(out: &Output) -> String {
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout.clone()).unwrap()
}

#[test]
fn the_api_answers_what_the_cli_prints() {
    let server = Server::start();
    assert!(server.addr.starts_with("127.0.0.1:"), "{}", server.addr);
    let (status, algos) = server.request("GET", "/api/algos", "");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert_eq!(algos, stdout(&meshcast(&["algos", "--json"])));
    let body = format!(
        r#"{{"topology": "mesh:8x8", "dests": "{EXAMPLE}", "all": true, "schedule": "optimal"}}"#
    );
    let (status, reports) = server.request("POST", "/api/route", &body);
    assert_eq!(status, "HTTP/1.1 200 OK");
    let cli = meshcast(&[
        "route",
        "--topology",
        "mesh:8x8",
        "--dests",
        EXAMPLE,
        "--all",
        "--schedule",
        "optimal",
        "--json",
    ]);
    assert_eq!(reports, stdout(&cli));
    let (status, page) = server.request("GET", "/", "");
    assert_eq!(status, "HTTP/1.1 200 OK");
    assert!(page.contains("<title>meshcast explorer</title>"));
    let (status, error) = server.request("POST", "/api/route", "{");
    assert_eq!(status, "HTTP/1.1 400 Bad Request");
    assert!(error.starts_with(r#"{"error":"request body: "#), "{error}");
}

#[test]
fn other_machines_only_with_allow_remote() {
    let out = meshcast(&["serve", "--bind", "0.0.0.0", "--port", "0"]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with("error: --bind 0.0.0.0:") && err.contains("--allow-remote"));
}

#[test]
fn a_port_in_use_is_one_error_line() {
    let server = Server::start();
    let port = server.addr.rsplit(':').next().unwrap();
    let out = meshcast(&["serve", "--port", port]);
    assert_eq!(out.status.code(), Some(1));
    let err = String::from_utf8(out.stderr).unwrap();
    assert_eq!(err.lines().count(), 1, "{err}");
    assert!(err.starts_with(&format!("error: cannot listen on 127.0.0.1:{port}")));
}

/// Read one answer from `stream`: its header, and its body by `Content-Length`.
fn answer(stream: &mut TcpStream) -> (String, String) {
    let mut bytes = Vec::new();
    let mut byte = [0];
    while !bytes.ends_with(b"\r\n\r\n") {
        assert_eq!(stream.read(&mut byte).unwrap(), 1, "closed mid-header");
        bytes.push(byte[0]);
    }
    let head = String::from_utf8(bytes).unwrap();
    let length = head
        .lines()
        .find_map(|l| {
            l.to_ascii_lowercase()
                .strip_prefix("content-length: ")
                .map(str::to_string)
        })
        .map_or(0, |n| n.parse().unwrap());
    let mut body = vec![0; length];
    stream.read_exact(&mut body).unwrap();
    (head, String::from_utf8(body).unwrap())
}

/// Whether the server has closed `stream`: reading ends (end of file or reset) before the
/// read timeout.
fn closed(stream: &mut TcpStream) -> bool {
    match stream.read_to_end(&mut Vec::new()) {
        Ok(_) => true,
        Err(e) => e.kind() == ErrorKind::ConnectionReset,
    }
}

#[test]
fn requests_of_other_sites_are_refused() {
    let server = Server::with(SMALL);
    let get = "GET /api/algos HTTP/1.1\r\nHost: evil.example:80\r\nConnection: close\r\n\r\n";
    let (head, body) = server.exchange(get);
    assert!(head.starts_with("HTTP/1.1 421 "), "{head}");
    assert!(body.contains("Host 'evil.example:80'"), "{body}");
    let post = |headers: &str| server.post(headers, ROUTE).0;
    assert!(post("Content-Type: text/plain\r\n").starts_with("HTTP/1.1 415 "));
    let form = "Content-Type: application/x-www-form-urlencoded\r\n";
    assert!(post(form).starts_with("HTTP/1.1 415 "));
    let evil = format!("{JSON}Origin: http://evil.example\r\n");
    assert!(post(&evil).starts_with("HTTP/1.1 403 "));
    let own = format!("{JSON}Origin: http://{}\r\n", server.addr);
    let head = post(&own);
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    let head = head.to_ascii_lowercase();
    assert!(
        head.contains("content-security-policy: default-src 'none';"),
        "{head}"
    );
    assert!(head.contains("x-frame-options: deny") && head.contains("nosniff"));
}

#[test]
fn a_huge_content_length_is_refused_without_waiting_for_the_body() {
    let server = Server::with(SMALL);
    let (head, body) = server.post_part(10_000_000, "{");
    assert!(head.starts_with("HTTP/1.1 413 "), "{head}");
    assert!(body.contains("Content-Length 10000000"), "{body}");
}

#[test]
fn a_huge_header_is_431() {
    let server = Server::with(SMALL);
    let big = format!("X-Big: {}\r\nConnection: close\r\n", "a".repeat(40_000));
    let (head, _) = server.exchange(&server.raw("GET /", &big, ""));
    assert!(head.starts_with("HTTP/1.1 431 "), "{head}");
}

#[test]
fn a_slow_header_is_cut_off() {
    let server = Server::with(SMALL);
    let mut stream = server.connect();
    stream
        .write_all(b"GET / HTTP/1.1\r\nHost: localhost\r\n")
        .unwrap();
    // A header line every 100 ms, never the end of the header: within --header-timeout (1 s)
    // the server closes the connection and a write fails. 600 lines would take a minute.
    let cut = (0..600).any(|i| {
        thread::sleep(Duration::from_millis(100));
        stream
            .write_all(format!("X-{i}: 1\r\n").as_bytes())
            .is_err()
    });
    assert!(cut, "the server still reads a header after a minute");
}

#[test]
fn a_slow_body_is_408() {
    let server = Server::with(SMALL);
    let (head, body) = server.post_part(ROUTE.len(), &ROUTE[..5]);
    assert!(head.starts_with("HTTP/1.1 408 "), "{head}");
    assert!(body.contains("--request-timeout"), "{body}");
}

#[test]
fn an_idle_connection_is_closed() {
    let server = Server::with(SMALL);
    let mut stream = server.connect();
    let raw = server.raw("GET /api/algos", "", "");
    stream.write_all(raw.as_bytes()).unwrap();
    let (head, _) = answer(&mut stream);
    assert!(head.starts_with("HTTP/1.1 200 "), "{head}");
    // Kept alive, then nothing more: closed after --header-timeout.
    assert!(closed(&mut stream));
}

#[test]
fn a_client_that_stops_reading_is_cut_off() {
    let server = Server::with(SMALL);
    // Enough requests for the page's largest module (9.6 KB) in one go for 15 MB of answers, more
    // than the sockets buffer, then nothing read for long after --request-timeout (1 s).
    let (_, script) = server.request("GET", "/drawing.js", "");
    let requests = 15_000_000 / script.len() + 1;
    let mut stream = server.connect();
    let ask = server.raw("GET /drawing.js", "", "");
    stream.write_all(ask.repeat(requests).as_bytes()).unwrap();
    thread::sleep(Duration::from_secs(8));
    let mut answers = Vec::new();
    let ended = match stream.read_to_end(&mut answers) {
        Ok(_) => true,
        Err(e) => e.kind() == ErrorKind::ConnectionReset,
    };
    assert!(ended, "the connection is still open");
    let served = String::from_utf8_lossy(&answers)
        .matches("HTTP/1.1 200 OK")
        .count();
    assert!(served < requests, "every answer was written");
}

#[test]
fn idle_connections_at_the_cap_do_not_lock_clients_out() {
    let server = Server::with(SMALL);
    // As many silent connections as --max-connections allows.
    let idle: Vec<TcpStream> = (0..4).map(|_| server.connect()).collect();
    let (status, _) = server.request("GET", "/api/algos", "");
    assert_eq!(status, "HTTP/1.1 200 OK");
    // The new client got in only when a silent one was closed (after --header-timeout)...
    let already = idle
        .iter()
        .filter(|s| {
            s.set_nonblocking(true).unwrap();
            matches!((&mut &**s).read(&mut [0]), Ok(0))
        })
        .count();
    assert!(already >= 1, "served while every place was taken");
    // ...and every one of them is closed.
    for mut stream in idle {
        stream.set_nonblocking(false).unwrap();
        assert!(closed(&mut stream));
    }
}

#[test]
fn a_flood_of_heavy_requests_gets_503_and_the_server_survives() {
    // One worker and one waiting place; each request takes a second or more (debug build).
    let server = Server::with(&["--workers", "1", "--queue", "1"]);
    let dests: Vec<String> = (0..32)
        .flat_map(|x| (0..32).map(move |y| (x, y)))
        .filter(|&(x, y)| (x * 7 + y * 13) % 10 == 0 && (x, y) != (0, 0))
        .map(|(x, y)| format!("{x},{y}"))
        .collect();
    let heavy = format!(
        r#"{{"topology": "mesh:32x32", "dests": "{}", "all": true}}"#,
        dests.join(" ")
    );
    let answers: Vec<(String, String)> = thread::scope(|scope| {
        let flood: Vec<_> = (0..6)
            .map(|_| scope.spawn(|| server.post(JSON, &heavy)))
            .collect();
        flood.into_iter().map(|t| t.join().unwrap()).collect()
    });
    let (done, busy): (Vec<_>, Vec<_>) = answers
        .iter()
        .partition(|(head, _)| head.starts_with("HTTP/1.1 200 "));
    assert!(
        !done.is_empty() && !busy.is_empty(),
        "{} answered",
        done.len()
    );
    assert!(done.iter().all(|(_, body)| *body == done[0].1));
    for (head, body) in busy {
        assert!(head.starts_with("HTTP/1.1 503 "), "{head}");
        assert!(
            head.to_ascii_lowercase().contains("retry-after: 1"),
            "{head}"
        );
        assert!(body.contains("busy"), "{body}");
    }
    let (status, _) = server.request("POST", "/api/route", ROUTE);
    assert_eq!(status, "HTTP/1.1 200 OK");
}

#[test]
fn allow_remote_warns_on_stderr() {
    let mut server = Server::with(&["--bind", "0.0.0.0", "--allow-remote"]);
    let mut line = String::new();
    BufReader::new(server.child.stderr.take().unwrap())
        .read_line(&mut line)
        .unwrap();
    assert!(line.starts_with("warning: --allow-remote: anyone who can reach 0.0.0.0:"));
    assert!(line.contains("no authentication"), "{line}");
    let get = "GET / HTTP/1.1\r\nHost: evil.example\r\nConnection: close\r\n\r\n";
    assert!(server.exchange(get).0.starts_with("HTTP/1.1 421 "));
}

#[test]
fn serve_help_names_every_endpoint_and_limit() {
    let help = stdout(&meshcast(&["serve", "--help"]));
    for wanted in [
        "/api/algos",
        "/api/examples",
        "/api/route",
        "/api/optima",
        "/api/svg",
        "/api/random",
        "--allow-host",
        "--max-connections",
        "--header-timeout",
        "--request-timeout",
        "--workers",
        "--queue",
    ] {
        assert!(help.contains(wanted), "{wanted}");
    }
}
