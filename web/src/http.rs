//! A minimal HTTP/1.1 server side: one request per connection, bounded reads, plain responses.

use std::io::{BufRead, BufReader, Read, Write};
use std::net::TcpStream;
use std::time::Instant;

use crate::deadline::DeadlineReader;
use crate::timeouts::Timeouts;

/// The most bytes of request line and headers read.
pub const MAX_HEAD: usize = 64 * 1024;
/// The most bytes of request body read, but for routes given a bound of their own.
pub const MAX_BODY: usize = 1024 * 1024;
/// The most bytes of an uploaded file's body (`POST /api/upload`).
pub const MAX_UPLOAD: usize = 8 * 1024 * 1024;
/// The largest body bound a route may have.
const MAX_ANY_BODY: usize = if MAX_UPLOAD > MAX_BODY { MAX_UPLOAD } else { MAX_BODY };

/// The body bound of a request to `path` with `method`: [`MAX_UPLOAD`] for `POST
/// /api/upload`, [`MAX_BODY`] for the rest.
pub fn body_bound(method: &str, path: &str) -> usize {
    if method == "POST" && path == "/api/upload" { MAX_UPLOAD } else { MAX_BODY }
}

/// One request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Request {
    /// `GET`, `POST`, ...
    pub method: String,
    /// The path, percent-decoded, without the query.
    pub path: String,
    /// The query's `key=value` pairs, percent-decoded (`+` is kept as `+`: it is the approach
    /// mark of the turn notation).
    pub query: Vec<(String, String)>,
    /// The `Host` header, if any.
    pub host: Option<String>,
    /// The `Content-Type` header, if any.
    pub content_type: Option<String>,
    /// The body.
    pub body: Vec<u8>,
}

impl Request {
    /// The first value of query parameter `key`.
    pub fn param(&self, key: &str) -> Option<&str> {
        self.query.iter().find(|(k, _)| k == key).map(|(_, v)| v.as_str())
    }
}

/// A response to write.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Response {
    /// The status code.
    pub status: u16,
    /// The `Content-Type`.
    pub content_type: &'static str,
    /// Extra headers.
    pub headers: Vec<(String, String)>,
    /// The body.
    pub body: Vec<u8>,
}

impl Response {
    /// A `200` JSON response.
    pub fn json(value: &serde_json::Value) -> Response {
        Response::json_status(200, value)
    }

    /// A JSON response with a status.
    pub fn json_status(status: u16, value: &serde_json::Value) -> Response {
        Response {
            status,
            content_type: "application/json",
            headers: Vec::new(),
            body: value.to_string().into_bytes(),
        }
    }

    /// A `200` response of static text.
    pub fn text(content_type: &'static str, body: &str) -> Response {
        Response { status: 200, content_type, headers: Vec::new(), body: body.as_bytes().to_vec() }
    }
}

impl ReadError {
    /// Whether the request was malformed (the client's fault) rather than the connection failing.
    pub fn is_bad_input(&self) -> bool {
        matches!(self, ReadError::Bad(..) | ReadError::TooLarge { .. })
    }
}

/// Why a request could not be read.
#[derive(Debug, thiserror::Error)]
pub enum ReadError {
    /// The connection failed.
    #[error("reading the request: {0}")]
    Io(#[from] std::io::Error),
    /// The request did not arrive within its deadline (408).
    #[error("the request took too long to arrive")]
    Timeout,
    /// The request is malformed or its head too large; the status to answer with.
    #[error("{1}")]
    Bad(u16, String),
    /// The body announced is larger than the route's bound (413); nothing of it was read.
    #[error("the request body of {path} is {declared} bytes, more than the {bound} accepted")]
    TooLarge {
        /// The route.
        path: String,
        /// The `Content-Length`.
        declared: u64,
        /// The route's bound.
        bound: usize,
    },
}

fn bad(status: u16, what: impl Into<String>) -> ReadError {
    ReadError::Bad(status, what.into())
}

/// A read error: [`ReadError::Timeout`] past the deadline, [`ReadError::Io`] otherwise.
fn io(e: std::io::Error) -> ReadError {
    if e.kind() == std::io::ErrorKind::TimedOut { ReadError::Timeout } else { ReadError::Io(e) }
}

/// Reads one request from `stream`, its body bounded by [`body_bound`] (refused from its
/// `Content-Length`, before it is read), within the deadlines of `timeouts`: the head within
/// [`Timeouts::request`] from `start`, the body within [`Timeouts::request`] from the head's
/// end plus a second per [`BODY_BYTES_PER_SEC`](crate::timeouts::BODY_BYTES_PER_SEC) received.
///
/// # Errors
/// [`ReadError::Bad`] for a malformed request or an oversized head, [`ReadError::TooLarge`]
/// for an oversized body, [`ReadError::Timeout`] past a deadline, [`ReadError::Io`] otherwise.
pub fn read_request(stream: &TcpStream, timeouts: &Timeouts, start: Instant) -> Result<Request, ReadError> {
    let timed = DeadlineReader::new(stream, start + timeouts.request);
    let mut reader = BufReader::new(timed.take(MAX_HEAD as u64 + MAX_ANY_BODY as u64));
    let mut head_len = 0usize;
    let mut line = String::new();
    let mut next_line = |reader: &mut BufReader<_>, line: &mut String| -> Result<(), ReadError> {
        line.clear();
        let n = reader.by_ref().take((MAX_HEAD - head_len.min(MAX_HEAD)) as u64).read_line(line).map_err(
            |e| {
                if e.kind() == std::io::ErrorKind::InvalidData {
                    bad(400, "the request head is not UTF-8")
                } else {
                    io(e)
                }
            },
        )?;
        head_len += n;
        if n == 0 || !line.ends_with('\n') {
            return Err(bad(431, "request head too large or cut short"));
        }
        Ok(())
    };
    next_line(&mut reader, &mut line)?;
    let mut parts = line.split_whitespace();
    let (Some(method), Some(target), Some(version)) = (parts.next(), parts.next(), parts.next()) else {
        return Err(bad(400, "malformed request line"));
    };
    if !version.starts_with("HTTP/1.") {
        return Err(bad(505, format!("unsupported protocol {version:?}")));
    }
    let method = method.to_string();
    let (path, query) = split_target(target)?;
    let bound = body_bound(&method, &path);
    let mut content_length = 0usize;
    let (mut host, mut content_type) = (None, None);
    loop {
        next_line(&mut reader, &mut line)?;
        let l = line.trim_end();
        if l.is_empty() {
            break;
        }
        let Some((name, value)) = l.split_once(':') else {
            return Err(bad(400, format!("malformed header {l:?}")));
        };
        let name = name.trim().to_ascii_lowercase();
        let value = value.trim();
        if name == "content-length" {
            let declared: u64 =
                value.parse().map_err(|_| bad(400, format!("bad Content-Length {value:?}")))?;
            if declared > bound as u64 {
                return Err(ReadError::TooLarge { path, declared, bound });
            }
            content_length = declared as usize;
        } else if name == "host" {
            host = Some(value.to_string());
        } else if name == "content-type" {
            content_type = Some(value.to_string());
        } else if name == "transfer-encoding" {
            return Err(bad(411, "chunked request bodies are not accepted: send Content-Length"));
        }
    }
    // The body's time is earned by what arrives (a minimum transfer rate), not by the length
    // announced: a client that declares 8 MiB and sends nothing is cut off as soon as one
    // that declares nothing.
    reader
        .get_mut()
        .get_mut()
        .set_pace(Instant::now() + timeouts.request, crate::timeouts::BODY_BYTES_PER_SEC);
    let mut body = vec![0u8; content_length];
    reader.read_exact(&mut body).map_err(io)?;
    Ok(Request { method, path, query, host, content_type, body })
}

/// Splits a request target into its decoded path and query pairs.
fn split_target(target: &str) -> Result<(String, Vec<(String, String)>), ReadError> {
    let (path, query) = target.split_once('?').unwrap_or((target, ""));
    let path = decode(path).ok_or_else(|| bad(400, format!("bad percent-encoding in {path:?}")))?;
    let mut pairs = Vec::new();
    for part in query.split('&').filter(|p| !p.is_empty()) {
        let (k, v) = part.split_once('=').unwrap_or((part, ""));
        let k = decode(k).ok_or_else(|| bad(400, format!("bad percent-encoding in {k:?}")))?;
        let v = decode(v).ok_or_else(|| bad(400, format!("bad percent-encoding in parameter {k}")))?;
        pairs.push((k, v));
    }
    Ok((path, pairs))
}

/// Percent-decodes `s` (UTF-8); `None` when malformed.
pub fn decode(s: &str) -> Option<String> {
    let b = s.as_bytes();
    let mut out = Vec::with_capacity(b.len());
    let mut i = 0;
    while i < b.len() {
        if b[i] == b'%' {
            let hex = s.get(i + 1..i + 3)?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(b[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}

/// The reason phrase of a status.
fn reason(status: u16) -> &'static str {
    match status {
        200 => "OK",
        400 => "Bad Request",
        403 => "Forbidden",
        415 => "Unsupported Media Type",
        404 => "Not Found",
        405 => "Method Not Allowed",
        408 => "Request Timeout",
        409 => "Conflict",
        411 => "Length Required",
        413 => "Payload Too Large",
        431 => "Request Header Fields Too Large",
        500 => "Internal Server Error",
        503 => "Service Unavailable",
        505 => "HTTP Version Not Supported",
        _ => "Status",
    }
}

/// Writes `r` and closes the exchange (`Connection: close`).
///
/// # Errors
/// When the client has gone.
pub fn write_response(stream: &mut impl Write, r: &Response) -> std::io::Result<()> {
    let mut head = format!(
        "HTTP/1.1 {} {}\r\nContent-Type: {}\r\nContent-Length: {}\r\nConnection: close\r\n\
         Cache-Control: no-store\r\nX-Content-Type-Options: nosniff\r\n",
        r.status,
        reason(r.status),
        r.content_type,
        r.body.len()
    );
    for (k, v) in &r.headers {
        head.push_str(&format!("{k}: {v}\r\n"));
    }
    head.push_str("\r\n");
    stream.write_all(head.as_bytes())?;
    stream.write_all(&r.body)?;
    stream.flush()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn targets_are_decoded_keeping_plus() {
        let (path, q) = split_target("/api/position?position=startpos&moves=d3e3+%20c3d3-&x").unwrap();
        assert_eq!(path, "/api/position");
        assert_eq!(q[0], ("position".into(), "startpos".into()));
        assert_eq!(q[1], ("moves".into(), "d3e3+ c3d3-".into()));
        assert_eq!(q[2], ("x".into(), String::new()));
        assert!(split_target("/a?b=%zz").is_err());
        assert!(split_target("/a?b=%e").is_err());
        assert_eq!(decode("%41%42c"), Some("ABc".into()));
        assert_eq!(decode("%ff"), None);
    }

    #[test]
    fn only_uploads_get_the_larger_body_bound() {
        assert_eq!(body_bound("POST", "/api/upload"), MAX_UPLOAD);
        assert_eq!(body_bound("GET", "/api/upload"), MAX_BODY);
        assert_eq!(body_bound("POST", "/api/engine"), MAX_BODY);
    }
}
