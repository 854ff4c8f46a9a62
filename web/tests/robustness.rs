//! What clients and files must not be able to do to the server: hold its connections by
//! trickling requests, reach it through DNS rebinding on any loopback address, keep the engine
//! busy after leaving, or hang it with FIFOs and symbolic-link loops in the trees it lists.
#![allow(clippy::unwrap_used)]

mod common;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::{get, post, raw, write_games};
use fanorona_web::server::MAX_CONNECTIONS;
use fanorona_web::{Config, Server, Timeouts};
use serde_json::json;

fn serve_with(config: Config, timeouts: Timeouts) -> SocketAddr {
    Server::bind_with(Config { port: 0, ..config }, timeouts).unwrap().spawn().unwrap()
}

/// The status of a response read from `s`, `None` when the connection was reset or closed
/// without one.
fn status_of(s: &mut TcpStream) -> Option<u16> {
    let mut buf = Vec::new();
    let _ = s.read_to_end(&mut buf);
    String::from_utf8_lossy(&buf).split_whitespace().nth(1)?.parse().ok()
}

/// The status of `GET /api/info`, `None` when the connection is reset (a busy server answers
/// 503 without reading the request).
fn info_status(addr: SocketAddr) -> Option<u16> {
    let mut s = TcpStream::connect(addr).ok()?;
    s.write_all(b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n\r\n").ok()?;
    status_of(&mut s)
}

#[test]
fn trickling_clients_are_cut_off_at_the_deadline_and_free_their_slots() {
    let deadline = Duration::from_millis(1500);
    let addr = serve_with(Config::default(), Timeouts { request: deadline, ..Timeouts::default() });
    let start = Instant::now();
    let mut conns: Vec<TcpStream> = (0..MAX_CONNECTIONS).map(|_| TcpStream::connect(addr).unwrap()).collect();
    let head = b"GET /api/info HTTP/1.1\r\nHost: localhost\r\n";
    let mut sent = 0;
    let mut busy_seen = false;
    // A byte to every connection every 250 ms: each read comes well within any per-read
    // timeout, but the head never ends.
    while start.elapsed() < deadline * 3 {
        for c in &mut conns {
            let _ = c.write_all(&head[sent % head.len()..sent % head.len() + 1]);
        }
        sent += 1;
        if !busy_seen && start.elapsed() < deadline / 2 {
            let status = info_status(addr);
            assert!(
                matches!(status, None | Some(503)),
                "every slot is held by a trickling client: {status:?}"
            );
            busy_seen = true;
        }
        std::thread::sleep(Duration::from_millis(250));
        if start.elapsed() > deadline + Duration::from_millis(200) && info_status(addr) == Some(200) {
            break;
        }
    }
    let freed = start.elapsed();
    assert!(busy_seen);
    assert!(freed < deadline * 3, "the slots were not freed after the deadline ({freed:?})");
    assert!(freed > deadline, "{freed:?}");
    // Each trickling client got 408 (or, sending still, a reset) and its connection closed;
    // those past the address's share (peers::MAX_PER_ADDRESS) were refused at once with 503.
    for c in &mut conns {
        c.set_read_timeout(Some(Duration::from_secs(5))).unwrap();
        let status = status_of(c);
        assert!(matches!(status, None | Some(408) | Some(503)), "{status:?}");
    }
}

#[test]
fn a_trickled_request_gets_408_while_others_are_served() {
    let deadline = Duration::from_millis(1200);
    let addr = serve_with(Config::default(), Timeouts { request: deadline, ..Timeouts::default() });
    let start = Instant::now();
    let mut slow = TcpStream::connect(addr).unwrap();
    let trickler = std::thread::spawn({
        let mut slow = slow.try_clone().unwrap();
        move || {
            for b in b"GET /api/info HTTP/1.1\r\nHost: local" {
                std::thread::sleep(Duration::from_millis(150));
                if slow.write_all(&[*b]).is_err() {
                    break;
                }
            }
        }
    });
    // Meanwhile the others are answered.
    for _ in 0..3 {
        assert_eq!(get(addr, "/api/info").status, 200);
        std::thread::sleep(Duration::from_millis(200));
    }
    slow.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let status = status_of(&mut slow);
    let took = start.elapsed();
    assert!(status.is_none() || status == Some(408), "{status:?}");
    assert!(took < deadline + Duration::from_secs(2), "{took:?}");
    trickler.join().unwrap();
    // A body is given time in proportion to its size, but not forever either.
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(b"POST /api/engine HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 10\r\n\r\n{").unwrap();
    s.set_read_timeout(Some(Duration::from_secs(10))).unwrap();
    let start = Instant::now();
    assert_eq!(status_of(&mut s), Some(408));
    assert!(start.elapsed() < deadline * 2 + Duration::from_secs(2) + Duration::from_secs(1));
}

#[test]
fn any_loopback_address_guards_against_dns_rebinding() {
    // Linux routes all of 127.0.0.0/8 to the loopback interface.
    for host in ["127.0.0.2", "127.1"] {
        let Ok(server) = Server::bind(Config { host: host.into(), port: 0, ..Config::default() }) else {
            panic!("cannot bind {host}");
        };
        let addr = server.spawn().unwrap();
        assert!(addr.ip().is_loopback(), "{addr}");
        let r = raw(addr, b"GET /api/info HTTP/1.1\r\nHost: evil.example\r\n\r\n");
        assert_eq!(r.status, 403, "{host}");
        assert!(r.error().contains("evil.example"), "{}", r.error());
        let own = format!("GET /api/info HTTP/1.1\r\nHost: {addr}\r\n\r\n");
        assert_eq!(raw(addr, own.as_bytes()).status, 200, "{host}");
        assert_eq!(get(addr, "/api/info").status, 200, "{host}: Host localhost");
    }
}

fn wait_done(addr: SocketAddr, id: u64) -> serde_json::Value {
    for _ in 0..500 {
        let v = get(addr, &format!("/api/search?id={id}")).json();
        if v["done"] == true {
            return v;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    panic!("search {id} did not finish");
}

#[test]
fn a_search_nobody_polls_is_stopped_and_frees_its_slot() {
    let grace = Duration::from_millis(400);
    let addr = serve_with(Config::default(), Timeouts { search_grace: grace, ..Timeouts::default() });
    let long = json!({"engine": "alphabeta:depth=30,movetime=5000,eval=material"});
    let ids: Vec<u64> =
        (0..2).map(|_| post(addr, "/api/search", &long).json()["id"].as_u64().unwrap()).collect();
    assert_eq!(post(addr, "/api/search", &long).status, 503);
    // Nobody polls: both are stopped after the grace period, well before their 5 s.
    std::thread::sleep(grace * 3);
    for id in ids {
        let v = wait_done(addr, id);
        assert_eq!(v["result"]["stopped"], true, "{v}");
        assert!(v["result"]["time_ms"].as_u64().unwrap() < 3000, "{v}");
    }
    // A search polled often enough runs to its time limit.
    let short = json!({"engine": "alphabeta:depth=30,movetime=2000,eval=material"});
    let id = post(addr, "/api/search", &short).json()["id"].as_u64().unwrap();
    let v = wait_done(addr, id);
    assert_eq!(v["result"]["stopped"], false, "{v}");
    // (An iteration is not started past half the time.)
    assert!(v["result"]["time_ms"].as_u64().unwrap() >= 900, "{v}");
}

#[test]
fn an_engine_turn_stops_when_its_client_hangs_up() {
    let addr = serve_with(Config::default(), Timeouts::default());
    let body = json!({"engine": "alphabeta:depth=30,movetime=5000,eval=material"}).to_string();
    let request = format!(
        "POST /api/engine HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
        body.len()
    );
    // Two 5-second turns take both engine slots...
    let mut clients: Vec<TcpStream> = (0..2).map(|_| TcpStream::connect(addr).unwrap()).collect();
    for c in &mut clients {
        c.write_all(request.as_bytes()).unwrap();
    }
    std::thread::sleep(Duration::from_millis(500));
    let quick = json!({"engine": "alphabeta:depth=1"});
    assert_eq!(post(addr, "/api/engine", &quick).status, 503);
    // ...and free them soon after their clients hang up.
    let gone = Instant::now();
    drop(clients);
    loop {
        std::thread::sleep(Duration::from_millis(100));
        if post(addr, "/api/engine", &quick).status == 200 {
            break;
        }
        assert!(gone.elapsed() < Duration::from_secs(3), "the turns were not stopped");
    }
}

/// `mkfifo path`.
fn mkfifo(path: &Path) {
    let ok = std::process::Command::new("mkfifo").arg(path).status().unwrap().success();
    assert!(ok, "mkfifo {}", path.display());
}

/// Runs `f` on a thread, failing the test when it takes longer than `limit` (hangs).
fn within<T: Send + 'static>(limit: Duration, f: impl FnOnce() -> T + Send + 'static) -> T {
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        let _ = tx.send(f());
    });
    rx.recv_timeout(limit).unwrap_or_else(|_| panic!("still running after {limit:?}: it hangs"))
}

#[test]
fn fifos_in_a_tree_are_skipped_and_refused_when_named() {
    let dir = tempfile::tempdir().unwrap();
    let (games, _) = write_games(dir.path());
    mkfifo(&dir.path().join("pipe.bin"));
    std::fs::create_dir(dir.path().join("sub")).unwrap();
    mkfifo(&dir.path().join("sub").join("games.bin"));
    let root = dir.path().to_path_buf();
    let names = within(Duration::from_secs(20), move || {
        fanorona_web::catalog::Catalog::new(&[root]).map(|c| c.names()).map_err(|e| e.to_string())
    });
    assert_eq!(names, Ok(vec![games.display().to_string()]));
    // A FIFO named as a record file, or as the save file, is refused, not opened.
    let fifo = dir.path().join("pipe.bin");
    for config in [
        Config { files: vec![fifo.clone()], ..Config::default() },
        Config { save: Some(fifo.clone()), ..Config::default() },
    ] {
        let e = within(Duration::from_secs(20), move || {
            Server::bind(config).map(|_| ()).map_err(|e| (e.to_string(), e.is_bad_input()))
        });
        let (message, bad_input) = e.unwrap_err();
        assert!(message.contains("pipe.bin") && message.contains("not a regular file"), "{message}");
        assert!(bad_input);
    }
}

#[cfg(unix)]
#[test]
fn symlink_loops_are_walked_once() {
    let dir = tempfile::tempdir().unwrap();
    let (games, _) = write_games(dir.path());
    let sub = dir.path().join("sub");
    std::fs::create_dir(&sub).unwrap();
    let (more, _) = write_games(&sub);
    for (link, to) in
        [("a", "."), ("b", "."), ("sub/up", ".."), ("sub/self", "../sub"), ("link.bin", "games.bin")]
    {
        std::os::unix::fs::symlink(to, dir.path().join(link)).unwrap();
    }
    let root: PathBuf = dir.path().to_path_buf();
    let start = Instant::now();
    let names = within(Duration::from_secs(20), move || {
        fanorona_web::catalog::Catalog::new(&[root]).map(|c| c.names()).map_err(|e| e.to_string())
    });
    assert!(start.elapsed() < Duration::from_secs(5), "{:?}", start.elapsed());
    assert_eq!(names, Ok(vec![games.display().to_string(), more.display().to_string()]));
}

/// A connection to `addr` from the loopback address `from` (127.0.0.2: another client than the
/// tests' 127.0.0.1).
fn connect_from(from: &str, addr: SocketAddr) -> std::io::Result<TcpStream> {
    let socket = socket2::Socket::new(socket2::Domain::IPV4, socket2::Type::STREAM, None)?;
    let local: SocketAddr = format!("{from}:0").parse().map_err(std::io::Error::other)?;
    socket.bind(&local.into())?;
    socket.connect_timeout(&addr.into(), Duration::from_secs(1))?;
    Ok(socket.into())
}

/// 64 attackers on another loopback address keep reconnecting, half of them sending the head
/// of an 8 MiB upload and then nothing, half idle; meanwhile every legitimate request is
/// answered (200) within 2 s. Bounded: the attack lasts 6 s, each attacker's connection at
/// most 1.5 s.
#[cfg(target_os = "linux")]
#[test]
fn a_legitimate_client_is_answered_while_64_attackers_hold_connections() {
    use std::sync::Arc;
    use std::sync::atomic::{AtomicBool, Ordering};
    let addr = serve_with(Config::default(), Timeouts::default());
    let stop = Arc::new(AtomicBool::new(false));
    let attackers: Vec<_> = (0..64)
        .map(|i| {
            let stop = Arc::clone(&stop);
            std::thread::spawn(move || {
                let mut connections = 0u32;
                while !stop.load(Ordering::SeqCst) && connections < 200 {
                    let Ok(mut s) = connect_from("127.0.0.2", addr) else {
                        std::thread::sleep(Duration::from_millis(50));
                        continue;
                    };
                    connections += 1;
                    if i % 2 == 0 {
                        let _ = s.write_all(
                            b"POST /api/upload?name=x.bin HTTP/1.1\r\nHost: localhost\r\n\
                              Content-Type: application/octet-stream\r\nContent-Length: 8388608\r\n\r\n",
                        );
                    }
                    // Hold it until the server closes it, or 1.5 s: then reconnect.
                    let _ = s.set_read_timeout(Some(Duration::from_millis(1500)));
                    let mut sink = [0u8; 512];
                    let _ = s.read(&mut sink);
                }
            })
        })
        .collect();
    std::thread::sleep(Duration::from_millis(500));
    let start = Instant::now();
    let mut answered = 0;
    while start.elapsed() < Duration::from_secs(6) {
        let t = Instant::now();
        let r = get(addr, "/api/info");
        let took = t.elapsed();
        assert_eq!(r.status, 200, "a legitimate request was refused under attack: {}", r.error());
        assert!(took < Duration::from_secs(2), "a legitimate request took {took:?} under attack");
        answered += 1;
        std::thread::sleep(Duration::from_millis(300));
    }
    stop.store(true, Ordering::SeqCst);
    for a in attackers {
        a.join().unwrap();
    }
    assert!(answered >= 10, "{answered}");
}

/// A body announced large and then not sent is cut off within the request deadline (a
/// minimum transfer rate), not given time for the length it announces.
#[test]
fn an_announced_body_that_does_not_arrive_is_cut_off_at_the_deadline() {
    let deadline = Duration::from_millis(800);
    let addr = serve_with(Config::default(), Timeouts { request: deadline, ..Timeouts::default() });
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(
        b"POST /api/upload?name=x.bin HTTP/1.1\r\nHost: localhost\r\n\
          Content-Type: application/octet-stream\r\nContent-Length: 8388608\r\n\r\nFANOREC",
    )
    .unwrap();
    s.set_read_timeout(Some(Duration::from_secs(20))).unwrap();
    let start = Instant::now();
    assert_eq!(status_of(&mut s), Some(408));
    let took = start.elapsed();
    assert!(took < deadline * 2 + Duration::from_secs(1), "cut off after {took:?}");
}

/// A client that sends a complete engine request and shuts down its write side (as `nc -N`
/// does) gets the search it asked for, or no answer: never a 200 with a shallower search.
#[test]
fn a_half_closed_engine_request_is_answered_as_asked_or_not_at_all() {
    let addr = serve_with(Config::default(), Timeouts::default());
    let body = json!({"engine": "alphabeta:depth=7,eval=handcrafted"}).to_string();
    let request = format!(
        "POST /api/engine HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\n\
         Content-Length: {}\r\n\r\n{body}",
        body.len()
    );
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request.as_bytes()).unwrap();
    s.shutdown(std::net::Shutdown::Write).unwrap();
    s.set_read_timeout(Some(Duration::from_secs(30))).unwrap();
    let mut reply = Vec::new();
    let _ = s.read_to_end(&mut reply);
    let reply = String::from_utf8_lossy(&reply);
    if reply.is_empty() {
        return; // cancelled without an answer
    }
    assert!(reply.starts_with("HTTP/1.1 200"), "{reply}");
    let json: serde_json::Value = serde_json::from_str(reply.split("\r\n\r\n").nth(1).unwrap()).unwrap();
    assert_eq!(json["depth"], 7, "a 200 with another search than the one asked for: {json}");
}
