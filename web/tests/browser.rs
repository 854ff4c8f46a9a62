//! The page in a real headless Chromium, driven over the DevTools protocol (through
//! `--remote-debugging-pipe`, two FIFOs): it loads a game, steps through a capture chain,
//! plays legal turns by clicking, and the test reads what the page shows.
//!
//! Skipped, with a message, when no Chromium is installed (`apt-get install chromium`; CI
//! installs it). With `FANORONA_WEB_SCREENSHOTS=DIR` it also saves `DIR/web-replay.png` and
//! `DIR/web-play.png` and `DIR/web-analyse.png` (the README's screenshots). With `FANORONA_REQUIRE_CHROMIUM` set (as
//! `.ci/run` sets it) a missing browser fails the test instead.
#![allow(clippy::unwrap_used)]

mod common;

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use common::{enc, get, serve, write_games};
use fanorona_core::Position;
use fanorona_web::Config;
use serde_json::{Value, json};

/// The browser binary: `$CHROMIUM`, else the first of the usual names on `PATH`.
fn chromium() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("CHROMIUM") {
        return Some(PathBuf::from(p));
    }
    let path = std::env::var_os("PATH")?;
    for dir in std::env::split_paths(&path) {
        for name in ["chromium", "chromium-browser", "google-chrome", "google-chrome-stable"] {
            let p = dir.join(name);
            if p.is_file() {
                return Some(p);
            }
        }
    }
    None
}

struct Browser {
    child: Child,
    to: File,
    from: BufReader<File>,
    next: u64,
    session: String,
    log: PathBuf,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    fn launch(bin: &Path, dir: &Path) -> Browser {
        let (to_path, from_path) = (dir.join("cdp-in"), dir.join("cdp-out"));
        for p in [&to_path, &from_path] {
            assert!(Command::new("mkfifo").arg(p).status().unwrap().success(), "mkfifo {}", p.display());
        }
        let log = dir.join("chromium.log");
        let script = r#"exec "$0" --headless --no-sandbox --disable-gpu --disable-dev-shm-usage --hide-scrollbars --no-first-run \
            --remote-debugging-pipe --user-data-dir="$1" --window-size=1280,860 about:blank 3<"$2" 4>"$3""#;
        let child = Command::new("sh")
            .arg("-c")
            .arg(script)
            .arg(bin)
            .arg(dir.join("profile"))
            .arg(&to_path)
            .arg(&from_path)
            .stdin(Stdio::null())
            .stdout(File::create(&log).unwrap())
            .stderr(File::create(dir.join("chromium.err")).unwrap())
            .spawn()
            .unwrap();
        // Opening a FIFO waits for the other end: do it on a thread, so that a browser that
        // fails to start ends the test instead of hanging it.
        let (tx, rx) = mpsc::channel();
        let (a, b) = (to_path.clone(), from_path.clone());
        std::thread::spawn(move || {
            let to = std::fs::OpenOptions::new().write(true).open(&a);
            let from = to.as_ref().ok().map(|_| File::open(&b));
            let _ = tx.send((to, from));
        });
        let (to, from) = match rx.recv_timeout(Duration::from_secs(60)) {
            Ok((Ok(to), Some(Ok(from)))) => (to, from),
            other => {
                let err = std::fs::read_to_string(dir.join("chromium.err")).unwrap_or_default();
                panic!("chromium did not open its DevTools pipe ({:?}): {err}", other.is_ok());
            }
        };
        let mut b = Browser { child, to, from: BufReader::new(from), next: 0, session: String::new(), log };
        let target = b.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(None, "Target.attachToTarget", json!({"targetId": id, "flatten": true}));
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b
    }

    /// Sends a command and returns its result (events in between are skipped).
    fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
        self.next += 1;
        let mut msg = json!({"id": self.next, "method": method, "params": params});
        if let Some(s) = session {
            msg["sessionId"] = json!(s);
        }
        self.to.write_all(msg.to_string().as_bytes()).unwrap();
        self.to.write_all(b"\0").unwrap();
        self.to.flush().unwrap();
        loop {
            let mut buf = Vec::new();
            let n = self.from.read_until(0, &mut buf).unwrap();
            assert!(n > 0, "chromium closed the pipe; log in {}", self.log.display());
            buf.pop();
            let v: Value = serde_json::from_slice(&buf).unwrap();
            if v["id"] == json!(self.next) {
                assert!(v.get("error").is_none(), "{method}: {v}");
                return v["result"].clone();
            }
        }
    }

    fn page(&mut self, method: &str, params: Value) -> Value {
        let s = self.session.clone();
        self.call(Some(&s), method, params)
    }

    /// Evaluates JavaScript in the page (promises awaited) and returns its value.
    fn eval(&mut self, expr: &str) -> Value {
        let r = self.page(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits (a bounded number of polls) until `expr` is truthy; returns its value.
    fn wait(&mut self, expr: &str) -> Value {
        for _ in 0..600 {
            let v = self.eval(expr);
            if !(v.is_null() || v == json!(false) || v == json!("") || v == json!(0)) {
                return v;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        let status = self.eval(
            "document.getElementById('status').textContent + ' | ' + document.getElementById('message').textContent + ' | ' + JSON.stringify({color: S.play.color, turn: S.play.pos && S.play.pos.turn, moves: S.play.moves, start: S.play.start, busy: S.play.busy, hash: location.hash})",
        );
        panic!("the page never showed {expr}; it shows {status}");
    }

    fn text(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById('{id}').textContent")).as_str().unwrap_or("").to_string()
    }

    /// A real mouse click in the middle of the element `selector` matches.
    fn click(&mut self, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            sel = json!(selector)
        );
        let at = self.eval(&js);
        assert!(at.is_array(), "no element {selector} to click");
        let (x, y) = (at[0].as_f64().unwrap(), at[1].as_f64().unwrap());
        for kind in ["mousePressed", "mouseReleased"] {
            self.page(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    fn goto(&mut self, url: &str) {
        self.page("Page.navigate", json!({"url": url}));
        self.wait(
            "document.readyState === 'complete' && document.body && document.body.dataset.ready === '1'",
        );
    }

    fn screenshot(&mut self, path: &Path) {
        let r = self.page("Page.captureScreenshot", json!({"format": "png"}));
        std::fs::write(path, base64(r["data"].as_str().unwrap())).unwrap();
    }
}

/// Decodes standard base64.
fn base64(s: &str) -> Vec<u8> {
    let val = |c: u8| match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'+' => 62,
        _ => 63,
    };
    let bytes: Vec<u8> = s.bytes().filter(|c| *c != b'=' && !c.is_ascii_whitespace()).map(val).collect();
    let mut out = Vec::with_capacity(bytes.len() * 3 / 4);
    for chunk in bytes.chunks(4) {
        let n = chunk.iter().enumerate().fold(0u32, |acc, (i, &b)| acc | u32::from(b) << (18 - 6 * i));
        out.extend_from_slice(&n.to_be_bytes()[1..chunk.len()]);
    }
    out
}

/// The first position (breadth-first from the start) with a capture chain, and a chain.
fn chain_position() -> (Position, fanorona_core::Move) {
    let mut layer = vec![Position::start()];
    loop {
        let mut next = Vec::new();
        for p in &layer {
            if let Some(m) = p.legal_moves().iter().find(|m| m.steps().len() > 1) {
                return (*p, *m);
            }
            next.extend(p.legal_moves().iter().map(|m| p.play(m).unwrap()));
        }
        layer = next;
    }
}

fn circles(b: &mut Browser, class: &str) -> Vec<String> {
    let js = format!("[...document.querySelectorAll('#board circle.{class}')].map(c => c.dataset.point)");
    let mut v: Vec<String> =
        b.eval(&js).as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    v.sort();
    v
}

#[test]
fn the_page_replays_a_chain_and_plays_by_clicks() {
    let Some(bin) = chromium() else {
        // CI installs Chromium and sets this: there the test must run.
        assert!(
            std::env::var_os("FANORONA_REQUIRE_CHROMIUM").is_none(),
            "FANORONA_REQUIRE_CHROMIUM is set but no chromium is on PATH"
        );
        println!("SKIPPED: no chromium on PATH (apt-get install chromium); the browser test did not run");
        return;
    };
    let dir = tempfile::tempdir().unwrap();
    let (path, recs) = write_games(dir.path());
    let name = path.display().to_string();
    let save = dir.path().join("played.bin");
    let addr = serve(Config { files: vec![path], save: Some(save.clone()), ..Config::default() });
    let base = format!("http://{addr}/");
    let shots = std::env::var_os("FANORONA_WEB_SCREENSHOTS").map(PathBuf::from);
    let mut b = Browser::launch(&bin, dir.path());

    // Replay: open the first capture chain of the records, step through it.
    let (game, ply, steps) = recs
        .iter()
        .enumerate()
        .find_map(|(g, r)| {
            let moves = r.turn_moves().unwrap();
            let ply = moves.iter().position(|m| m.steps().len() > 1)?;
            Some((g, ply, moves[ply].steps().len()))
        })
        .expect("a capture chain in the games");
    let replay = get(addr, &format!("/api/game?file={}&game={game}", enc(&name))).json();
    let chain = &replay["turns"][ply]["turn"];
    b.goto(&format!("{base}#file={}&game={game}&ply={ply}", enc(&name)));
    b.wait(&format!("document.getElementById('status').textContent.startsWith('After {ply} turns')"));
    let stones_before = circles(&mut b, "stone").len();
    assert_eq!(circles(&mut b, "captured"), Vec::<String>::new());
    for step in 1..=2 {
        b.click("#next");
        b.wait(&format!("document.getElementById('status').textContent.includes('step {step} of {steps}')"));
        let mut expected: Vec<String> = chain["steps"][step - 1]["captured"]
            .as_array()
            .unwrap()
            .iter()
            .map(|p| p.as_str().unwrap().to_string())
            .collect();
        expected.sort();
        assert!(!expected.is_empty());
        assert_eq!(circles(&mut b, "captured"), expected, "step {step}");
        let earlier: usize =
            (0..step - 1).map(|s| chain["steps"][s]["captured"].as_array().unwrap().len()).sum();
        assert_eq!(
            circles(&mut b, "stone").len(),
            stones_before - earlier,
            "step {step}: earlier captures removed"
        );
        assert_eq!(
            circles(&mut b, "moving"),
            vec![chain["steps"][step - 1]["to"].as_str().unwrap().to_string()]
        );
    }
    let status = b.text("status");
    assert!(status.contains(chain["notation"].as_str().unwrap()), "{status}");
    let link = b.eval("document.getElementById('link').getAttribute('href')");
    assert!(link.as_str().unwrap().ends_with(&format!("game={game}&ply={ply}&step=2")), "{link}");
    assert!(b.eval("document.querySelectorAll('#chart polyline.curve').length").as_u64() == Some(1));
    if let Some(d) = &shots {
        b.screenshot(&d.join("web-replay.png"));
    }

    // The Analyse button takes the game's start and its turns so far.
    b.click("#to-analyse");
    b.wait("document.getElementById('panel-analyse').classList.contains('active')");
    let moves = b.eval("document.getElementById('a-moves').value");
    let expected: Vec<&str> = replay["turns"].as_array().unwrap()[..ply]
        .iter()
        .map(|t| t["turn"]["notation"].as_str().unwrap())
        .collect();
    assert_eq!(moves, json!(expected.join(" ")));
    let before = replay["turns"][ply]["before"].as_str().unwrap().to_string();
    b.wait(&format!("document.getElementById('status').textContent.startsWith({})", json!(before)));

    // Play: an illegal click says which rule, an ambiguous capture asks, the engine answers.
    b.goto(&format!("{base}#play&color=w&engine=greedy"));
    b.wait(
        "document.getElementById('status').textContent === 'white to move (you): capturing is compulsory'",
    );
    b.click("#board [data-hit='d4']");
    b.wait("document.getElementById('message').textContent === 'there is no white stone on d4'");
    b.click("#board [data-hit='a1']");
    b.wait("document.getElementById('message').textContent.startsWith('capturing is compulsory')");
    b.click("#board [data-hit='d3']");
    b.wait("document.querySelectorAll('#board circle.target').length === 1");
    b.click("#board [data-hit='e3']");
    b.wait("document.querySelectorAll('#prompt button').length === 2");
    let labels = b.eval("[...document.querySelectorAll('#prompt button')].map(b => b.textContent)");
    assert_eq!(labels, json!(["Approach: captures f3", "Withdrawal: captures c3"]));
    if let Some(d) = &shots {
        b.screenshot(&d.join("web-play.png"));
    }
    b.click("#prompt button[data-mark='+']");
    b.wait("document.querySelectorAll('#movelist li').length === 2");
    let moves: Vec<String> = b
        .eval("[...document.querySelectorAll('#movelist li')].map(l => l.textContent)")
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m.as_str().unwrap().to_string())
        .collect();
    assert_eq!(moves[0], "d3e3+");
    let after = get(addr, &format!("/api/position?moves={}", enc(&moves.join(" ")))).json();
    b.wait("document.getElementById('status').textContent.startsWith('white to move (you)')");
    let on_board = circles(&mut b, "stone.black").len() as u64;
    assert_eq!(on_board, after["black_stones"].as_u64().unwrap());
    assert!(b.text("p-engine-note").contains(&format!("played {}", moves[1])));
    b.click("#p-undo");
    b.wait("document.querySelectorAll('#movelist li').length === 0 && document.querySelectorAll('#board circle.stone').length === 44");

    // Analyse: the table fills in depth by depth.
    b.goto(&format!("{base}#analyse&position=startpos&moves={}", enc("d3e3+")));
    b.wait("document.getElementById('status').textContent.includes('black to move')");
    b.eval("document.getElementById('a-engine').value = 'alphabeta:depth=3,eval=material'");
    b.click("#a-start");
    b.wait("document.getElementById('a-result').textContent.includes('at depth 3')");
    let depths =
        b.eval("[...document.querySelectorAll('#depths tbody tr')].map(r => r.firstChild.textContent)");
    assert_eq!(depths, json!(["1", "2", "3"]));
    if let Some(d) = &shots {
        b.screenshot(&d.join("web-analyse.png"));
    }

    // A chain: the first step leaves the choice to continue; stopping plays the prefix.
    let (pos, m) = chain_position();
    let color = if pos.turn() == fanorona_core::Color::White { "w" } else { "b" };
    b.goto(&format!("{base}#play&color={color}&engine=greedy&position={}", enc(&pos.to_string())));
    b.wait(&format!(
        "document.getElementById('status').textContent.includes('(you)') && document.querySelectorAll('#board circle.stone').length === {}",
        pos.occupied().count()
    ));
    let first = &fanorona_web::api::views::steps(&pos, &m)[0];
    b.click(&format!("#board [data-hit='{}']", m.from()));
    b.wait("document.querySelectorAll('#board circle.target').length > 0");
    b.click(&format!("#board [data-hit='{}']", first["to"].as_str().unwrap()));
    let prompt = b.eval("document.querySelectorAll('#prompt button').length").as_u64().unwrap();
    if prompt > 0 {
        b.click(&format!("#prompt button[data-mark='{}']", first["mark"].as_str().unwrap()));
    }
    b.wait("document.getElementById('status').textContent.startsWith('Capture chain')");
    // A point the stone cannot reach: the message says why.
    let at: fanorona_core::Point = first["to"].as_str().unwrap().parse().unwrap();
    let far = fanorona_core::Point::ALL
        .into_iter()
        .find(|p| p.file().abs_diff(at.file()) > 1 && pos.color_at(*p).is_none())
        .unwrap();
    b.click(&format!("#board [data-hit='{far}']"));
    b.wait(&format!("document.getElementById('message').textContent.includes('{far} is not next to {at}')"));
    b.click("#p-stop");
    b.wait("document.querySelectorAll('#movelist li').length >= 1");
    let played = b.eval("document.querySelector('#movelist li').textContent");
    let expected = format!(
        "{}{}{}",
        first["from"].as_str().unwrap(),
        first["to"].as_str().unwrap(),
        first["mark"].as_str().unwrap()
    );
    assert_eq!(played, json!(expected));

    // A game won by the last capture is saved as a record, listed for replay.
    b.goto(&format!("{base}#play&color=w&engine=greedy&position={}", enc("9/9/9/9/W1B6 w")));
    b.wait("document.getElementById('status').textContent.includes('(you)') && document.querySelectorAll('#board circle.stone').length === 2");
    b.click("#board [data-hit='a1']");
    b.wait("document.querySelectorAll('#board circle.target').length === 1");
    b.click("#board [data-hit='b1']");
    b.wait("document.getElementById('result').textContent.endsWith('you win.')");
    b.click("#p-save");
    b.wait("document.getElementById('message').textContent.startsWith('Saved as game 0 of')");
    let files = get(addr, "/api/files").json();
    let saved = files["files"]
        .as_array()
        .unwrap()
        .iter()
        .find(|f| f["name"] == json!(save.display().to_string()))
        .cloned();
    assert_eq!(saved.unwrap()["games"], 1, "{files}");
    let g = get(addr, &format!("/api/game?file={}&game=0", enc(&save.display().to_string()))).json();
    assert_eq!(g["turns"][0]["turn"]["notation"], "a1b1+");
    assert_eq!(g["outcome"]["result"], "1-0");
    assert_eq!(g["white"], "human");
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGk="), b"hi");
    assert_eq!(base64("YWJj"), b"abc");
}
