//! The server: a listener, one thread per connection (bounded), the page's embedded assets and
//! the API.

use std::net::{SocketAddr, TcpListener, TcpStream};
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use fanorona_core::DrawRules;
use fanorona_tb::Tablebase;

use crate::api::search::Searches;
use crate::catalog::{Catalog, CatalogError};
use crate::hangup::HangUpWatch;
use crate::http::{self, ReadError, Response};
use crate::levels::Level;
use crate::peers::Peers;
use crate::slots::EngineSlots;
use crate::timeouts::Timeouts;

/// Connections handled at once at most; more are answered 503.
pub const MAX_CONNECTIONS: usize = 64;

/// How long one write of a response may wait on the client.
const WRITE_TIMEOUT: Duration = Duration::from_secs(30);

/// The most bytes of a refused body read and dropped so that the client gets the answer.
const MAX_DRAIN: u64 = 64 * 1024 * 1024;
/// The longest a refused body is read and dropped.
const DRAIN_TIME: Duration = Duration::from_secs(10);

/// What `fanorona serve` was told.
#[derive(Debug, Clone)]
pub struct Config {
    /// The address to bind (`127.0.0.1` unless `--host`).
    pub host: String,
    /// The port (0: any free one).
    pub port: u16,
    /// Record files and run directories to list.
    pub files: Vec<PathBuf>,
    /// Where finished games are saved (`None`: saving is off, downloads still work).
    pub save: Option<PathBuf>,
    /// Endgame tables whose values the position view shows.
    pub tb: Option<PathBuf>,
    /// The draw rules of played games.
    pub rules: DrawRules,
    /// The engine spec used when a request names none (it may name files: it comes from the
    /// command line; its searches stop within
    /// [`MAX_MOVETIME_MS`](crate::api::bounds::MAX_MOVETIME_MS) like the others).
    pub engine: String,
}

impl Default for Config {
    fn default() -> Config {
        Config {
            host: "127.0.0.1".into(),
            port: 0,
            files: Vec::new(),
            save: None,
            tb: None,
            rules: DrawRules::default(),
            engine: DEFAULT_ENGINE.into(),
        }
    }
}

/// The engine of requests that name none.
pub const DEFAULT_ENGINE: &str = "alphabeta:depth=6,eval=handcrafted";

/// What the handlers share.
#[derive(Debug)]
pub struct State {
    /// The configuration.
    pub config: Config,
    /// The record files.
    pub catalog: Catalog,
    /// Running and finished searches.
    pub searches: Searches,
    /// The engine computations running at once (searches and engine turns).
    pub slots: EngineSlots,
    /// The playing levels, weakest first.
    pub levels: Vec<Level>,
    /// The endgame tables, when configured.
    pub tb: Option<Arc<Tablebase>>,
    /// How long clients are waited on.
    pub timeouts: Timeouts,
    /// Whether the server listens on a loopback address (any of 127.0.0.0/8, `::1`): then
    /// requests must name a loopback host (against DNS rebinding).
    pub loopback: bool,
}

impl ServeError {
    /// Whether the error is the input's fault: files or tables that cannot be read, an engine
    /// spec that is not one, an address that cannot be bound (in use, or not an address).
    pub fn is_bad_input(&self) -> bool {
        match self {
            ServeError::Files(e) => e.is_bad_input(),
            ServeError::Tablebase { source, .. } => source.is_bad_input(),
            ServeError::Engine { .. } | ServeError::Bind { .. } => true,
        }
    }
}

/// Why the server cannot start.
#[derive(Debug, thiserror::Error)]
pub enum ServeError {
    /// A file or directory given cannot be read.
    #[error(transparent)]
    Files(#[from] CatalogError),
    /// The tables cannot be opened.
    #[error("cannot open the endgame tables in {path}: {source}")]
    Tablebase {
        /// The directory.
        path: PathBuf,
        /// Why.
        #[source]
        source: fanorona_tb::TbError,
    },
    /// The default engine spec is not a spec.
    #[error("engine {spec:?}: {source}")]
    Engine {
        /// The text.
        spec: String,
        /// Why.
        #[source]
        source: fanorona_engine::SpecError,
    },
    /// The address cannot be bound.
    #[error("cannot listen on {addr}: {source}")]
    Bind {
        /// host:port.
        addr: String,
        /// Why.
        #[source]
        source: std::io::Error,
    },
}

/// A bound server.
#[derive(Debug)]
pub struct Server {
    listener: TcpListener,
    state: Arc<State>,
}

impl Server {
    /// Reads the files' list, opens the tables and binds the address; clients are waited on
    /// as long as [`Timeouts::default`] says.
    ///
    /// # Errors
    /// [`ServeError`] naming what cannot be used.
    pub fn bind(config: Config) -> Result<Server, ServeError> {
        Server::bind_with(config, Timeouts::default())
    }

    /// As [`Server::bind`], waiting on clients as long as `timeouts` says.
    ///
    /// # Errors
    /// [`ServeError`] naming what cannot be used.
    pub fn bind_with(config: Config, timeouts: Timeouts) -> Result<Server, ServeError> {
        config
            .engine
            .parse::<fanorona_engine::PlayerSpec>()
            .map_err(|source| ServeError::Engine { spec: config.engine.clone(), source })?;
        let levels = crate::levels::levels().map_err(|(spec, source)| ServeError::Engine { spec, source })?;
        let catalog = Catalog::new(&config.files)?;
        if let Some(save) = &config.save {
            crate::catalog::check_save(save)?;
            if save.is_file() {
                catalog.refresh(save);
            }
        }
        let tb = match &config.tb {
            Some(dir) => Some(
                fanorona_engine::tablebase::open_shared(dir)
                    .map_err(|source| ServeError::Tablebase { path: dir.clone(), source })?,
            ),
            None => None,
        };
        let addr = if config.host.contains(':') && !config.host.starts_with('[') {
            format!("[{}]:{}", config.host, config.port)
        } else {
            format!("{}:{}", config.host, config.port)
        };
        let listener =
            TcpListener::bind(&addr).map_err(|source| ServeError::Bind { addr: addr.clone(), source })?;
        // The address bound, not the text given: 127.1, 127.0.0.2 and a name resolving to a
        // loopback address are loopback too.
        let loopback =
            listener.local_addr().map_err(|source| ServeError::Bind { addr, source })?.ip().is_loopback();
        let state = State {
            config,
            catalog,
            searches: Searches::default(),
            slots: EngineSlots::default(),
            levels,
            tb,
            timeouts,
            loopback,
        };
        Ok(Server { listener, state: Arc::new(state) })
    }

    /// The address it listens on.
    ///
    /// # Errors
    /// When the socket cannot say.
    pub fn addr(&self) -> std::io::Result<SocketAddr> {
        self.listener.local_addr()
    }

    /// Serves until the process ends.
    pub fn run(self) {
        let active = Arc::new(AtomicUsize::new(0));
        let peers = Peers::default();
        for stream in self.listener.incoming() {
            let Ok(mut stream) = stream else { continue };
            let busy = |stream: &mut TcpStream, what: &str| {
                let busy = crate::error::ApiError::busy(what);
                let _ = stream.set_write_timeout(Some(Duration::from_secs(1)));
                let _ = http::write_response(stream, &Response::json_status(503, &busy.to_json()));
            };
            // One address holds at most its share of the connections.
            let held = match stream.peer_addr().map(|a| peers.enter(a.ip())) {
                Ok(Some(held)) => held,
                Ok(None) => {
                    busy(&mut stream, "too many connections from your address");
                    continue;
                }
                Err(_) => continue,
            };
            if active.fetch_add(1, Ordering::SeqCst) >= MAX_CONNECTIONS {
                active.fetch_sub(1, Ordering::SeqCst);
                busy(&mut stream, "too many connections");
                continue;
            }
            let state = Arc::clone(&self.state);
            let counter = Arc::clone(&active);
            let spawned = std::thread::Builder::new().name("connection".into()).spawn(move || {
                serve(&state, stream);
                counter.fetch_sub(1, Ordering::SeqCst);
                drop(held);
            });
            if spawned.is_err() {
                active.fetch_sub(1, Ordering::SeqCst);
            }
        }
    }

    /// Serves on a background thread (for tests and embedding), returning its address.
    ///
    /// # Errors
    /// When the socket cannot say its address.
    pub fn spawn(self) -> std::io::Result<SocketAddr> {
        let addr = self.addr()?;
        std::thread::Builder::new().name("server".into()).spawn(move || self.run())?;
        Ok(addr)
    }
}

/// Answers one connection.
fn serve(state: &State, mut stream: TcpStream) {
    let start = Instant::now();
    let _ = stream.set_write_timeout(Some(WRITE_TIMEOUT));
    let watched;
    let response = match http::read_request(&stream, &state.timeouts, start) {
        Ok(req) => {
            // An engine turn stops early when its client hangs up.
            let gone = Arc::new(AtomicBool::new(false));
            let watch = (req.method == "POST" && req.path == "/api/engine")
                .then(|| HangUpWatch::start(&stream, Arc::clone(&gone)))
                .flatten();
            watched = watch.is_some();
            // A handler that fails unexpectedly answers 500 rather than dropping the connection.
            let caught =
                std::panic::catch_unwind(std::panic::AssertUnwindSafe(|| answer(state, &req, &gone)));
            drop(watch);
            if gone.load(Ordering::SeqCst) {
                // The client hung up or shut down its side while its turn was computed: the
                // turn was cut short, so it is not answered at all (never a 200 carrying a
                // weaker result than the one asked for).
                return;
            }
            let mut r = caught.unwrap_or_else(|_| {
                let e = crate::error::ApiError::internal(format!("the server failed answering {}", req.path));
                Response::json_status(500, &e.to_json())
            });
            if req.method == "HEAD" {
                r.body.clear();
            }
            r
        }
        Err(ReadError::Bad(status, message)) => {
            let r = Response::json_status(status, &crate::error::ApiError { status, message }.to_json());
            let _ = http::write_response(&mut stream, &r);
            linger(stream, (http::MAX_HEAD + http::MAX_BODY) as u64);
            return;
        }
        Err(ReadError::TooLarge { path, declared, bound }) => {
            let message = if path == "/api/upload" {
                format!(
                    "the upload is {}: files of at most {} can be opened here (larger ones: fanorona serve FILE)",
                    mib(declared),
                    mib(bound as u64)
                )
            } else {
                format!("the request body is {declared} bytes, more than the {bound} accepted on {path}")
            };
            let r = Response::json_status(413, &crate::error::ApiError { status: 413, message }.to_json());
            let _ = http::write_response(&mut stream, &r);
            linger(stream, http::MAX_HEAD as u64 + declared.min(MAX_DRAIN));
            return;
        }
        Err(ReadError::Timeout) => {
            let message = format!(
                "the request took too long to arrive (its head may take {} s)",
                state.timeouts.request.as_secs_f64()
            );
            let r = Response::json_status(408, &crate::error::ApiError { status: 408, message }.to_json());
            let _ = http::write_response(&mut stream, &r);
            return;
        }
        Err(ReadError::Io(_)) => return,
    };
    let _ = http::write_response(&mut stream, &response);
    if watched {
        // The watch thread holds the socket a moment longer: end the exchange now.
        let _ = stream.shutdown(std::net::Shutdown::Write);
    }
}

/// `9.5 MiB`, `8 MiB`.
fn mib(bytes: u64) -> String {
    let tenths = (bytes * 10).div_ceil(1024 * 1024);
    if tenths.is_multiple_of(10) {
        format!("{} MiB", tenths / 10)
    } else {
        format!("{}.{} MiB", tenths / 10, tenths % 10)
    }
}

/// Refuses what another web site could make a browser send: on a loopback address, a `Host`
/// that is not a loopback name (DNS rebinding); and a `POST` that is not JSON, or for
/// `/api/upload` not `application/octet-stream` (a cross-site form or a "simple"
/// cross-origin request: both types need a preflight, which is never granted).
fn guard(state: &State, req: &http::Request) -> Result<(), crate::error::ApiError> {
    if state.loopback {
        let name = req.host.as_deref().map(host_name).unwrap_or("");
        if !is_loopback_name(name) {
            return Err(crate::error::ApiError {
                status: 403,
                message: format!(
                    "Host {name:?} is not a loopback name (localhost, or a loopback address: 127.0.0.1, [::1], ...)"
                ),
            });
        }
    }
    let is =
        |t: &str| req.content_type.as_deref().is_some_and(|c| c.trim().to_ascii_lowercase().starts_with(t));
    if req.method == "POST" && req.path == "/api/upload" {
        if !is("application/octet-stream") {
            return Err(crate::error::ApiError {
                status: 415,
                message: "an upload is the file's bytes, sent with Content-Type: application/octet-stream"
                    .into(),
            });
        }
    } else if req.method == "POST" && !is("application/json") {
        return Err(crate::error::ApiError {
            status: 415,
            message: "POST bodies must be JSON, sent with Content-Type: application/json".into(),
        });
    }
    Ok(())
}

/// Whether the name of a `Host` header is `localhost` or a loopback address (`127.0.0.1`,
/// `127.0.0.2`, `[::1]`, ...): one no DNS answer can point elsewhere.
fn is_loopback_name(name: &str) -> bool {
    if name.eq_ignore_ascii_case("localhost") {
        return true;
    }
    let ip = name.strip_prefix('[').and_then(|n| n.strip_suffix(']')).unwrap_or(name);
    ip.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
}

/// The name part of a `Host` header (`localhost:8080` is `localhost`, `[::1]:80` is `[::1]`).
fn host_name(h: &str) -> &str {
    let h = h.trim();
    if h.starts_with('[') {
        return h.split_once(']').map_or(h, |(a, _)| &h[..a.len() + 1]);
    }
    h.split_once(':').map_or(h, |(a, _)| a)
}

/// Closes a connection whose request was not read to the end: the rest, up to `left` bytes
/// and [`DRAIN_TIME`], is read and dropped first, so that the client gets the response rather
/// than a reset.
fn linger(mut stream: TcpStream, mut left: u64) {
    use std::io::Read;
    let _ = stream.shutdown(std::net::Shutdown::Write);
    let _ = stream.set_read_timeout(Some(Duration::from_secs(1)));
    let until = std::time::Instant::now() + DRAIN_TIME;
    let mut sink = [0u8; 16384];
    while left > 0 && std::time::Instant::now() < until {
        match stream.read(&mut sink) {
            Ok(0) | Err(_) => break,
            Ok(n) => left = left.saturating_sub(n as u64),
        }
    }
}

/// The response to a request: an asset, or the API (`gone` is set when the client hangs up).
fn answer(state: &State, req: &http::Request, gone: &Arc<AtomicBool>) -> Response {
    if let Err(e) = guard(state, req) {
        return Response::json_status(e.status, &e.to_json());
    }
    if req.path.starts_with("/api/") {
        return crate::api::handle(state, req, gone);
    }
    if req.method != "GET" && req.method != "HEAD" {
        let e = crate::error::ApiError {
            status: 405,
            message: format!("{} is not accepted on {}", req.method, req.path),
        };
        return Response::json_status(405, &e.to_json());
    }
    match crate::assets::find(&req.path) {
        Some((content_type, body)) => {
            let mut r = Response::text(content_type, body);
            if content_type.starts_with("text/html") {
                r.headers
                    .push(("Content-Security-Policy".into(), crate::assets::CONTENT_SECURITY_POLICY.into()));
            }
            r
        }
        None => {
            let e = crate::error::ApiError::not_found(format!("no page {}", req.path));
            Response::json_status(404, &e.to_json())
        }
    }
}

#[cfg(test)]
mod tests {
    #[test]
    fn sizes_are_written_in_mib() {
        assert_eq!(super::mib(8 * 1024 * 1024), "8 MiB");
        assert_eq!(super::mib(9 * 1024 * 1024 + 512 * 1024), "9.5 MiB");
        assert_eq!(super::mib(8 * 1024 * 1024 + 1), "8.1 MiB");
        assert_eq!(super::host_name("[::1]:80"), "[::1]");
    }

    #[test]
    fn loopback_names_are_localhost_and_loopback_addresses() {
        for name in ["localhost", "LocalHost", "127.0.0.1", "127.0.0.2", "127.1.2.3", "[::1]"] {
            assert!(super::is_loopback_name(name), "{name}");
        }
        for name in
            ["", "evil.example", "127.0.0.1.evil.example", "10.0.0.1", "[::2]", "::1x", "localhost.evil"]
        {
            assert!(!super::is_loopback_name(name), "{name}");
        }
    }
}
