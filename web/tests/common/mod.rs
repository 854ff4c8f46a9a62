//! Shared by the integration tests: record files of real games, a server on an ephemeral
//! port, and a tiny HTTP client on std::net.
#![allow(dead_code, clippy::unwrap_used)]

pub mod chromium;

use std::io::{Read, Write};
use std::net::{SocketAddr, TcpStream};
use std::path::{Path, PathBuf};

use fanorona_core::{DrawRules, Game, Position};
use fanorona_data::{GameRecord, Header, Kind, RecordWriter, TurnInfo};
use fanorona_engine::PlayerSpec;
use fanorona_web::{Config, Server};

/// A finished game between two player specs, with each turn's score set to `ply` (mover's
/// view) so that the replay's white-view scores can be checked.
pub fn play(white: &str, black: &str, seed: u64) -> (Game, Vec<TurnInfo>) {
    let mut w = white.parse::<PlayerSpec>().unwrap().build(seed).unwrap();
    let mut b = black.parse::<PlayerSpec>().unwrap().build(seed + 1000).unwrap();
    let mut game = Game::new(Position::start(), DrawRules::default());
    let mut info = Vec::new();
    while game.outcome().is_none() {
        let p = if game.position().turn() == fanorona_core::Color::White { &mut w } else { &mut b };
        let d = p.choose(&game);
        info.push(TurnInfo { score: Some(game.ply() as i32), depth: Some(1), exploration: false });
        game.play(&d.mv).unwrap();
    }
    (game, info)
}

/// The players of the three games [`write_games`] writes.
pub const PLAYERS: [(&str, &str); 3] = [("greedy", "random"), ("greedy", "random"), ("random", "greedy")];

/// Writes the three games of [`PLAYERS`] to `dir/games.bin`.
pub fn write_games(dir: &Path) -> (PathBuf, Vec<GameRecord>) {
    let path = dir.join("games.bin");
    let header = Header::new("test", Kind::SelfPlay, "{}", 1);
    let mut w = RecordWriter::create(&path, &header).unwrap();
    let mut recs = Vec::new();
    for (i, (white, black)) in PLAYERS.iter().enumerate() {
        let (game, info) = play(white, black, i as u64 + 1);
        let rec = GameRecord::from_game(&game, &info, i as u64, white, black).unwrap();
        w.write(&rec).unwrap();
        recs.push(rec);
    }
    w.finish().unwrap();
    (path, recs)
}

/// A server on an ephemeral loopback port.
pub fn serve(config: Config) -> SocketAddr {
    Server::bind(Config { port: 0, ..config }).unwrap().spawn().unwrap()
}

/// A response: status, content type, the whole head, body.
#[derive(Debug)]
pub struct Reply {
    pub status: u16,
    pub content_type: String,
    pub head: String,
    pub body: Vec<u8>,
}

impl Reply {
    pub fn json(&self) -> serde_json::Value {
        serde_json::from_slice(&self.body)
            .unwrap_or_else(|e| panic!("not JSON ({e}): {}", String::from_utf8_lossy(&self.body)))
    }

    /// The value of header `name` (any case), if present.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.head.lines().find_map(|l| {
            let (k, v) = l.split_once(':')?;
            k.trim().eq_ignore_ascii_case(name).then(|| v.trim())
        })
    }

    pub fn error(&self) -> String {
        self.json()["error"].as_str().unwrap_or_else(|| panic!("no error in {:?}", self.json())).to_string()
    }
}

/// Sends raw bytes and reads the whole response.
pub fn raw(addr: SocketAddr, request: &[u8]) -> Reply {
    let mut s = TcpStream::connect(addr).unwrap();
    s.write_all(request).unwrap();
    let mut buf = Vec::new();
    s.read_to_end(&mut buf).unwrap();
    let split = buf.windows(4).position(|w| w == b"\r\n\r\n").expect("a response head");
    let head = String::from_utf8_lossy(&buf[..split]).to_string();
    let status = head.split_whitespace().nth(1).unwrap().parse().unwrap();
    let content_type = head.lines().find_map(|l| l.strip_prefix("Content-Type: ")).unwrap_or("").to_string();
    Reply { status, content_type, head, body: buf[split + 4..].to_vec() }
}

/// `GET target`.
pub fn get(addr: SocketAddr, target: &str) -> Reply {
    raw(addr, format!("GET {target} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n").as_bytes())
}

/// `POST target` with a JSON body.
pub fn post(addr: SocketAddr, target: &str, body: &serde_json::Value) -> Reply {
    let body = body.to_string();
    raw(
        addr,
        format!(
            "POST {target} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: {}\r\n\r\n{body}",
            body.len()
        )
        .as_bytes(),
    )
}

/// Percent-encodes a query value.
pub fn enc(s: &str) -> String {
    s.bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || b"-_.~".contains(&b) {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect()
}
