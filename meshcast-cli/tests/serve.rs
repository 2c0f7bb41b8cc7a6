//! `meshcast serve` run as a user runs it: the address on standard output, the API over a real
//! socket answering what the other subcommands print, and the loopback-only default.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::process::{Child, Command, Output, Stdio};

const EXAMPLE: &str = "4,6 6,6 0,2 4,0 3,0 7,4";

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
        let mut child = Command::new(env!("CARGO_BIN_EXE_meshcast"))
            .args(["serve", "--port", "0"])
            .stdout(Stdio::piped())
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
        let mut stream = TcpStream::connect(&self.addr).unwrap();
        write!(
            stream,
            "{method} {path} HTTP/1.1\r\nHost: {}\r\nContent-Type: application/json\r\n\
             Content-Length: {}\r\nConnection: close\r\n\r\n{body}",
            self.addr,
            body.len()
        )
        .unwrap();
        let mut answer = String::new();
        stream.read_to_string(&mut answer).unwrap();
        let (head, body) = answer.split_once("\r\n\r\n").expect("a header and a body");
        assert!(
            !head
                .to_ascii_lowercase()
                .contains("transfer-encoding: chunked"),
            "{head}"
        );
        (head.lines().next().unwrap().to_string(), body.to_string())
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
