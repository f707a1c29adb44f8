//! Who may talk to the server: the defences of a local development server
//! against the web pages its user visits and against DNS rebinding.
//!
//! - **Host**: a request must name the address the server listens on — a
//!   loopback name (`127.0.0.1`, `localhost`, `[::1]`) for a loopback bind,
//!   an IP address for a bind to every interface, the bound address
//!   otherwise — with the server's port; else 421. A page served from a
//!   name that an attacker re-points at 127.0.0.1 sends its own name.
//! - **Origin**: a request that carries one must come from the server's own
//!   origin (`http://` + the Host it named); else 403. Browsers send it on
//!   every cross-site request that could change anything.
//! - **Size**: a body announced (`Content-Length`) above the API's limit is
//!   refused at once with 413, before a byte of it is read.
//! - **Other sites' GETs**: a request the browser marks as cross-site
//!   or same-site (`Sec-Fetch-Site: cross-site` or `same-site`: a page on
//!   another port of this host) or sends with another origin's `Referer`
//!   is refused with 403 even without an `Origin`: a link or an image on
//!   any page could otherwise start a file read or a plot.
//! - **One of each**: a second `Host`, `Origin`, `Content-Type` or
//!   `Referer` gets 400 (two proxies could each read a different one).
//! - **Framing and sniffing**: every answer says `X-Frame-Options: DENY`,
//!   `frame-ancestors 'none'` and `nosniff`.
//! - **Content type**: a `POST` must say `application/json`; else 415. An
//!   HTML form or a `no-cors` fetch cannot send that type to another site
//!   without the browser asking first (and this server never says yes).
//! - **Time**: a `POST`'s body is read here, whole, within
//!   [`Guard::body_time`]; a body that does not arrive in time (a short
//!   `Content-Length`, a chunked body that never ends) gets 408 and the
//!   connection is closed.

use super::api::ApiError;
use axum::extract::{Request, State};
use axum::http::{Method, StatusCode, header};
use axum::middleware::Next;
use axum::response::{IntoResponse, Response};
use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

/// The address the server listens on, which requests must name.
#[derive(Clone, Copy, Debug)]
pub struct Guard {
    pub ip: IpAddr,
    pub port: u16,
    /// The longest a client may take to send a request's body.
    pub body_time: Duration,
}

impl Guard {
    /// Whether `host` (a Host header: name, optional port) names this server.
    pub fn allows_host(&self, host: &str) -> bool {
        let (name, port) = split_host(host);
        let port_ok = match port {
            Some(p) => p.parse::<u16>() == Ok(self.port),
            None => self.port == 80,
        };
        if !port_ok {
            return false;
        }
        let ip = name
            .trim_start_matches('[')
            .trim_end_matches(']')
            .parse::<IpAddr>()
            .ok();
        let localhost = name.eq_ignore_ascii_case("localhost");
        if self.ip.is_loopback() {
            localhost || ip.is_some_and(|ip| ip.is_loopback())
        } else if self.ip.is_unspecified() {
            localhost || ip.is_some()
        } else {
            ip == Some(self.ip)
        }
    }
}

/// `name[:port]`, the name possibly a bracketed IPv6 address.
fn split_host(host: &str) -> (&str, Option<&str>) {
    if let Some(rest) = host.strip_prefix('[') {
        return match rest.split_once(']') {
            Some((ip, tail)) => (
                &host[..ip.len() + 2],
                tail.strip_prefix(':').filter(|p| !p.is_empty()),
            ),
            None => (host, None),
        };
    }
    match host.rsplit_once(':') {
        Some((name, port)) => (name, Some(port)),
        None => (host, None),
    }
}

/// The longest Host or Origin echoed in a refusal.
const ECHO: usize = 80;

/// `text`, cut to [`ECHO`] characters.
fn echo(text: &str) -> String {
    match text.char_indices().nth(ECHO) {
        Some((cut, _)) => format!("{}…", &text[..cut]),
        None => text.to_string(),
    }
}

fn refuse(status: StatusCode, message: String) -> Response {
    ApiError { status, message }.into_response()
}

/// The headers a request may carry once only: two that disagree would let
/// a proxy and this server read different requests (RFC 9110 wants 400).
const SINGLE: [header::HeaderName; 4] = [
    header::HOST,
    header::ORIGIN,
    header::CONTENT_TYPE,
    header::REFERER,
];

/// Whether the browser says the request comes from another origin: a
/// `Sec-Fetch-Site` of `cross-site` or `same-site` (a page on another port
/// of this host is same-site, not same-origin), or a `Referer` from
/// another origin. A page
/// elsewhere can make a browser send a GET without an `Origin` (a link, an
/// image); such a GET could still start work (a run's stats read, a plot
/// drawn), so it is refused like a cross-site POST.
fn cross_site(headers: &header::HeaderMap, host: &str) -> Option<String> {
    let fetch_site = headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    for other in ["cross-site", "same-site"] {
        if fetch_site.eq_ignore_ascii_case(other) {
            return Some(format!("Sec-Fetch-Site: {other}"));
        }
    }
    let referer = headers.get(header::REFERER)?;
    let own = format!("http://{host}");
    let text = referer.to_str().unwrap_or("(not text)");
    let same = text
        .strip_prefix(own.as_str())
        .is_some_and(|rest| rest.is_empty() || rest.starts_with('/'));
    (!same).then(|| format!("Referer '{}'", echo(text)))
}

/// What every answer carries: the page may not be framed by another site
/// (clickjacking), and a browser must not guess a type the server did not
/// send.
fn harden(mut response: Response) -> Response {
    let headers = response.headers_mut();
    headers.insert(
        header::X_FRAME_OPTIONS,
        header::HeaderValue::from_static("DENY"),
    );
    headers.insert(
        header::X_CONTENT_TYPE_OPTIONS,
        header::HeaderValue::from_static("nosniff"),
    );
    if !headers.contains_key(header::CONTENT_SECURITY_POLICY) {
        headers.insert(
            header::CONTENT_SECURITY_POLICY,
            header::HeaderValue::from_static("frame-ancestors 'none'"),
        );
    }
    response
}

/// The middleware: Host, then Origin, then the content type of a POST;
/// every answer hardened (`harden`).
pub async fn check(State(guard): State<Arc<Guard>>, request: Request, next: Next) -> Response {
    harden(screen(&guard, request, next).await)
}

async fn screen(guard: &Guard, request: Request, next: Next) -> Response {
    let headers = request.headers();
    if let Some(twice) = SINGLE
        .iter()
        .find(|name| headers.get_all(*name).iter().count() > 1)
    {
        return refuse(
            StatusCode::BAD_REQUEST,
            format!("the request names its {twice} header more than once"),
        );
    }
    let host = headers
        .get(header::HOST)
        .and_then(|h| h.to_str().ok())
        .unwrap_or("");
    if !guard.allows_host(host) {
        return refuse(
            StatusCode::MISDIRECTED_REQUEST,
            format!(
                "Host '{}' is not this server: use http://{}:{}/",
                echo(host),
                if guard.ip.is_unspecified() {
                    "127.0.0.1".to_string()
                } else {
                    guard.ip.to_string()
                },
                guard.port
            ),
        );
    }
    if let Some(origin) = headers.get(header::ORIGIN) {
        let origin = origin.to_str().unwrap_or("(not text)");
        if origin != format!("http://{host}") {
            return refuse(
                StatusCode::FORBIDDEN,
                format!(
                    "requests from other sites are refused (Origin '{}')",
                    echo(origin)
                ),
            );
        }
    }
    if let Some(sign) = cross_site(headers, host) {
        return refuse(
            StatusCode::FORBIDDEN,
            format!("requests from other sites are refused ({sign})"),
        );
    }
    // A body announced larger than any the API takes is refused before it
    // is read.
    let announced = headers
        .get(header::CONTENT_LENGTH)
        .and_then(|l| l.to_str().ok())
        .map(|l| l.trim().parse::<u64>().unwrap_or(u64::MAX));
    if announced.is_some_and(|n| n > super::BODY_LIMIT as u64) {
        return refuse(
            StatusCode::PAYLOAD_TOO_LARGE,
            format!("bodies are at most {} bytes", super::BODY_LIMIT),
        );
    }
    if request.method() == Method::POST {
        let json = headers
            .get(header::CONTENT_TYPE)
            .and_then(|c| c.to_str().ok())
            .and_then(|c| c.split(';').next())
            .is_some_and(|c| c.trim().eq_ignore_ascii_case("application/json"));
        if !json {
            return refuse(
                StatusCode::UNSUPPORTED_MEDIA_TYPE,
                "the API takes JSON bodies only (Content-Type: application/json)".to_string(),
            );
        }
        let (parts, body) = request.into_parts();
        let read = axum::body::to_bytes(body, super::BODY_LIMIT);
        let body = match tokio::time::timeout(guard.body_time, read).await {
            Ok(Ok(bytes)) => bytes,
            Ok(Err(_)) => {
                return refuse(
                    StatusCode::PAYLOAD_TOO_LARGE,
                    format!(
                        "bodies are at most {} bytes (or the body was cut off)",
                        super::BODY_LIMIT
                    ),
                );
            }
            Err(_) => {
                let mut refusal = refuse(
                    StatusCode::REQUEST_TIMEOUT,
                    format!(
                        "the request's body did not arrive within {} s",
                        guard.body_time.as_secs()
                    ),
                );
                refusal.headers_mut().insert(
                    header::CONNECTION,
                    header::HeaderValue::from_static("close"),
                );
                return refusal;
            }
        };
        return next.run(Request::from_parts(parts, body.into())).await;
    }
    next.run(request).await
}

#[cfg(test)]
mod tests {
    use super::*;

    fn guard(ip: &str, port: u16) -> Guard {
        Guard {
            ip: ip.parse().unwrap(),
            port,
            body_time: Duration::from_secs(1),
        }
    }

    #[test]
    fn a_loopback_server_answers_to_loopback_names_on_its_port() {
        let g = guard("127.0.0.1", 8080);
        for ok in [
            "127.0.0.1:8080",
            "localhost:8080",
            "LOCALHOST:8080",
            "[::1]:8080",
        ] {
            assert!(g.allows_host(ok), "{ok}");
        }
        for bad in [
            "evil.example:8080",
            "127.0.0.1:8081",
            "127.0.0.1",
            "",
            "192.168.1.5:8080",
            "[::1]",
            "localhost.evil.example:8080",
        ] {
            assert!(!g.allows_host(bad), "{bad}");
        }
    }

    #[test]
    fn other_binds_answer_to_addresses_not_names() {
        let any = guard("0.0.0.0", 80);
        assert!(any.allows_host("192.168.1.5"));
        assert!(any.allows_host("10.0.0.2:80"));
        assert!(!any.allows_host("evil.example"));
        let one = guard("192.168.1.5", 9000);
        assert!(one.allows_host("192.168.1.5:9000"));
        assert!(!one.allows_host("127.0.0.1:9000"));
        assert_eq!(echo(&"x".repeat(200)).chars().count(), ECHO + 1);
    }
}
