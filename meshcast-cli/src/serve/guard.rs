//! What every request passes before a handler sees it, and what every answer carries.
//!
//! The server has no authentication, so it must not be usable by pages of other sites that the
//! user's browser happens to show:
//!
//! * **DNS rebinding**: a site whose name resolves to 127.0.0.1 makes the browser send
//!   `Host: evil.example`; only loopback names, IP addresses the server is bound to and the
//!   names of `--allow-host` are answered (421 otherwise).
//! * **Cross-site requests**: a form or a `text/plain` fetch needs no CORS preflight, so a POST
//!   must say `Content-Type: application/json` (415 otherwise; the browser preflights that,
//!   and the server never grants it), and an `Origin`, when sent, must be the server's own
//!   (403 otherwise).
//! * **Oversized bodies** are refused from their `Content-Length` (413) before a byte of them
//!   is read.
//!
//! Every answer, refusals included, carries a content security policy that allows only the
//! page's own script, style sheet and API, and forbids framing and MIME sniffing.

use std::net::IpAddr;

use axum::extract::{Request, State};
use axum::http::header::{self, HeaderMap, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};

use super::api::{ApiError, MAX_BODY};
use super::Shared;

/// The host names and addresses the `Host` header may carry.
#[derive(Debug, Clone)]
pub struct Hosts {
    /// The address the server listens on.
    pub bound: IpAddr,
    /// Names given with `--allow-host`, in lower case.
    names: Vec<String>,
}

impl Hosts {
    /// The `--allow-host` names as the header compares them.
    pub fn new(bound: IpAddr, names: &[String]) -> Hosts {
        let names = names
            .iter()
            .map(|n| n.trim_end_matches('.').to_ascii_lowercase())
            .collect();
        Hosts { bound, names }
    }

    /// Whether `host` (a `Host` header: a name or address, and maybe a port) names this server:
    /// `localhost` or a name under it, a loopback address, the bound address (any address if
    /// bound to all of them), or an allowed name.
    pub fn allows(&self, host: &str) -> bool {
        let Some(name) = without_port(host) else {
            return false;
        };
        let name = name.to_ascii_lowercase();
        let name = name.strip_suffix('.').unwrap_or(&name);
        match name.parse::<IpAddr>() {
            Ok(ip) => ip.is_loopback() || ip == self.bound || self.bound.is_unspecified(),
            Err(_) => {
                name == "localhost"
                    || name.ends_with(".localhost")
                    || self.names.iter().any(|n| n == name)
            }
        }
    }
}

/// The name or address of a `Host` header (`[::1]:8080` gives `::1`), if the port is a number.
fn without_port(host: &str) -> Option<&str> {
    let (name, port) = match host.strip_prefix('[') {
        Some(v6) => {
            let (address, rest) = v6.split_once(']')?;
            let port = match rest {
                "" => None,
                _ => Some(rest.strip_prefix(':')?),
            };
            (address, port)
        }
        None if host.matches(':').count() > 1 => return None,
        None => match host.split_once(':') {
            Some((name, port)) => (name, Some(port)),
            None => (host, None),
        },
    };
    let port_ok = port.is_none_or(|p| !p.is_empty() && p.bytes().all(|b| b.is_ascii_digit()));
    (!name.is_empty() && port_ok).then_some(name)
}

/// The headers every answer carries. The page loads its script and style sheet from the
/// server and fetches the API; its icon is a `data:` URL and *Export* downloads `blob:` URLs.
const SECURITY_HEADERS: [(HeaderName, &str); 5] = [
    (
        header::CONTENT_SECURITY_POLICY,
        "default-src 'none'; script-src 'self'; style-src 'self'; img-src 'self' data: blob:; \
         connect-src 'self'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'",
    ),
    (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
    (header::X_FRAME_OPTIONS, "DENY"),
    (header::REFERRER_POLICY, "no-referrer"),
    (
        HeaderName::from_static("cross-origin-resource-policy"),
        "same-origin",
    ),
];

/// The middleware: refuse what [`check`] refuses, answer the rest, secure every answer.
pub async fn guard(State(shared): State<Shared>, request: Request, next: Next) -> Response {
    let mut response = match check(&shared.limits.hosts, &request) {
        Ok(()) => next.run(request).await,
        Err(refused) => refused.into_response(),
    };
    let headers = response.headers_mut();
    for (name, value) in SECURITY_HEADERS {
        headers.insert(name, HeaderValue::from_static(value));
    }
    response
}

/// The request's host, origin, content type and length, or why it is refused.
fn check(hosts: &Hosts, request: &Request) -> Result<(), ApiError> {
    let headers = request.headers();
    let mut hosts_named = headers.get_all(header::HOST).iter();
    let host = match (hosts_named.next(), hosts_named.next()) {
        (Some(host), None) => host.to_str().unwrap_or(""),
        _ => {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "the server answers only requests with one Host header that names it",
            ))
        }
    };
    let mut named = std::iter::once(host).chain(request.uri().authority().map(|a| a.as_str()));
    if let Some(foreign) = named.find(|h| !hosts.allows(h)) {
        return Err(ApiError::new(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "Host '{foreign}': the server answers only to localhost, loopback addresses and \
                 {} (--allow-host adds a name)",
                hosts.bound
            ),
        ));
    }
    if let Some(length) = text(headers, &header::CONTENT_LENGTH) {
        if length.parse::<u64>().is_ok_and(|n| n > MAX_BODY as u64) {
            return Err(ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                format!("request body: Content-Length {length} is over {MAX_BODY} bytes"),
            ));
        }
    }
    if request.method() == Method::GET || request.method() == Method::HEAD {
        return Ok(());
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let own = format!("http://{host}");
        if !origin.as_bytes().eq_ignore_ascii_case(own.as_bytes()) {
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                format!(
                    "Origin '{}': the API answers only the page it serves ({own})",
                    String::from_utf8_lossy(origin.as_bytes())
                ),
            ));
        }
    }
    let kind = text(headers, &header::CONTENT_TYPE).unwrap_or("");
    let media = kind.split(';').next().unwrap_or("").trim();
    if !media.eq_ignore_ascii_case("application/json") {
        return Err(ApiError::new(
            StatusCode::UNSUPPORTED_MEDIA_TYPE,
            format!("Content-Type '{kind}': a request body must be application/json"),
        ));
    }
    Ok(())
}

/// A header's value, if present and printable.
fn text<'a>(headers: &'a HeaderMap, name: &HeaderName) -> Option<&'a str> {
    headers.get(name).and_then(|v| v.to_str().ok())
}
