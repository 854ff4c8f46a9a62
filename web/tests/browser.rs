//! The page in a real headless Chromium, driven over the DevTools protocol (through
//! `--remote-debugging-pipe`, two FIFOs): whole games played by clicks at a phone's size
//! (390x844) and a desktop's (1280x800), the rules' messages, a capture chain stopped
//! half-way, a game file opened from the browser, replay and analysis; the test reads what
//! the page shows and checks that nothing was loaded from outside the server.
//!
//! Skipped, with a message, when no Chromium is installed (`apt-get install chromium`; CI
//! installs it). With `FANORONA_WEB_SCREENSHOTS=DIR` it also saves `DIR/web-play-desktop.png`,
//! `DIR/web-play-phone.png`, `DIR/web-replay.png` and `DIR/web-analyse.png` (the screenshots
//! of the README and of docs/guide/serve.md). With `FANORONA_REQUIRE_CHROMIUM` set (as `.ci/run` sets it) a missing browser
//! fails the test instead.
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
    /// Every URL the page asked for (`Network.requestWillBeSent`).
    requests: Vec<String>,
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
        let mut b = Browser {
            child,
            to,
            from: BufReader::new(from),
            next: 0,
            session: String::new(),
            log,
            requests: Vec::new(),
        };
        let target = b.call(None, "Target.createTarget", json!({"url": "about:blank"}));
        let id = target["targetId"].as_str().unwrap().to_string();
        let attached = b.call(None, "Target.attachToTarget", json!({"targetId": id, "flatten": true}));
        b.session = attached["sessionId"].as_str().unwrap().to_string();
        b.page("Network.enable", json!({}));
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
            if v["method"] == "Network.requestWillBeSent" {
                self.requests.push(v["params"]["request"]["url"].as_str().unwrap_or("?").to_string());
            }
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
            "document.getElementById('status').textContent + ' | ' + document.getElementById('message').textContent + ' | ' + JSON.stringify({color: S.play.color, turn: S.play.pos && S.play.pos.turn, moves: S.play.moves, partial: S.play.partial, start: S.play.start, busy: S.play.busy, hash: location.hash})",
        );
        panic!("the page never showed {expr}; it shows {status}");
    }

    fn text(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById('{id}').textContent")).as_str().unwrap_or("").to_string()
    }

    /// A real mouse click in the middle of the element `selector` matches (scrolled into view).
    fn click(&mut self, selector: &str) {
        let js = format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
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

    /// Loads `url` afresh (through `about:blank`, so that a change of the `#` part alone is a
    /// new page too) and waits until the page is ready.
    fn goto(&mut self, url: &str) {
        self.page("Page.navigate", json!({"url": "about:blank"}));
        self.page("Page.navigate", json!({"url": url}));
        self.wait(
            "document.readyState === 'complete' && document.body && document.body.dataset.ready === '1'",
        );
    }

    /// Emulates a screen of `width` x `height` CSS pixels (`mobile`: a phone's viewport rules).
    fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.page(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// A key pressed and released (`Enter`, `ArrowLeft`, ...) on the focused element.
    fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.page(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Chooses `path` in the file input `selector` (as a user picking a file would).
    fn choose_file(&mut self, selector: &str, path: &Path) {
        let root = self.page("DOM.getDocument", json!({}));
        let node =
            self.page("DOM.querySelector", json!({"nodeId": root["root"]["nodeId"], "selector": selector}));
        self.page(
            "DOM.setFileInputFiles",
            json!({"nodeId": node["nodeId"], "files": [path.display().to_string()]}),
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

/// The browser, or `None` (with a message) where none is installed and CI did not ask for one.
fn browser_or_skip() -> Option<PathBuf> {
    let bin = chromium();
    if bin.is_none() {
        // CI installs Chromium and sets this: there the test must run.
        assert!(
            std::env::var_os("FANORONA_REQUIRE_CHROMIUM").is_none(),
            "FANORONA_REQUIRE_CHROMIUM is set but no chromium is on PATH"
        );
        println!("SKIPPED: no chromium on PATH (apt-get install chromium); the browser test did not run");
    }
    bin
}

fn shots() -> Option<PathBuf> {
    std::env::var_os("FANORONA_WEB_SCREENSHOTS").map(PathBuf::from)
}

/// Every request the page made went to the server itself.
fn assert_nothing_from_outside(b: &Browser, base: &str) {
    assert!(!b.requests.is_empty(), "the request log is empty: Network events were not seen");
    let outside: Vec<&String> = b
        .requests
        .iter()
        .filter(|u| !(u.starts_with(base) || u.starts_with("data:") || u.starts_with("blob:")))
        .collect();
    assert!(outside.is_empty(), "the page loaded from outside the server: {outside:?}");
}

/// The page fits the screen: no horizontal scrolling, the board inside the width, points and
/// buttons large enough to touch.
fn assert_fits(b: &mut Browser, width: u32, touch: bool) {
    let v = b.eval(
        "(() => { const r = document.getElementById('board').getBoundingClientRect(); \
         const hit = document.querySelector('#board .hit').getBoundingClientRect(); \
         const buttons = [...document.querySelectorAll('#panel-play button, #levels label, #colors label')] \
           .filter(e => e.offsetParent !== null).map(e => e.getBoundingClientRect().height); \
         return { scroll: document.documentElement.scrollWidth, inner: window.innerWidth, left: r.left, right: r.right, \
                  hit: Math.min(hit.width, hit.height), smallest: Math.min(...buttons) }; })()",
    );
    let f = |k: &str| v[k].as_f64().unwrap();
    assert!(f("scroll") <= f("inner"), "horizontal scrolling at {width} px: {v}");
    assert!(
        f("left") >= 0.0 && f("right") <= f64::from(width),
        "the board leaves the screen at {width} px: {v}"
    );
    if touch {
        assert!(f("hit") >= 40.0, "a board point's touch target is under 40 px at {width} px: {v}");
        assert!(f("smallest") >= 40.0, "a control is under 40 px high at {width} px: {v}");
    }
}

/// What the page shows after the computer's turn: its last turn highlighted, the stone
/// counts, one move-list row per full turn, the announcement.
fn assert_after_computer(b: &mut Browser) {
    let v = b.eval(
        "(() => { const P = S.play, t = P.turns[P.turns.length - 1]; \
         return { to: t.steps[t.steps.length - 1].to, mover: t.mover, me: P.color === 'w' ? 'white' : 'black', \
           last: [...document.querySelectorAll('#board circle.stone.last-to')].map(c => c.dataset.point), \
           paths: document.querySelectorAll('#board .last-path').length, \
           white: document.getElementById('count-white').textContent, black: document.getElementById('count-black').textContent, \
           whites: document.querySelectorAll('#board circle.stone.white').length, blacks: document.querySelectorAll('#board circle.stone.black').length, \
           posWhite: P.pos.white_stones, posBlack: P.pos.black_stones, rows: document.querySelectorAll('#movelist tbody tr').length, \
           plies: P.moves.length, firstBlack: P.turns[0].mover === 'black', \
           announce: document.getElementById('announce').textContent }; })()",
    );
    assert_ne!(v["mover"], v["me"], "{v}");
    assert_eq!(v["last"], json!([v["to"].clone()]), "the computer's last turn is highlighted: {v}");
    assert_eq!(v["paths"], 1, "{v}");
    assert_eq!(v["white"], json!(v["posWhite"].to_string()), "{v}");
    assert_eq!(v["black"], json!(v["posBlack"].to_string()), "{v}");
    assert_eq!(v["whites"], v["posWhite"], "{v}");
    assert_eq!(v["blacks"], v["posBlack"], "{v}");
    let plies = v["plies"].as_u64().unwrap() + u64::from(v["firstBlack"] == json!(true));
    assert_eq!(v["rows"].as_u64().unwrap(), plies.div_ceil(2), "one row per full turn: {v}");
    assert!(v["announce"].as_str().unwrap().starts_with("The computer played"), "{v}");
}

/// Plays the player's side of a whole game by clicks, choosing the turn that captures the most
/// stones; returns the number of turns the player made.
fn play_whole_game(b: &mut Browser, shot: Option<PathBuf>) -> usize {
    let mut turns = 0;
    loop {
        let state = b.wait(
            "(() => { const P = S.play; if (document.getElementById('result').classList.contains('show')) return 'over'; \
             if (P.pos && !P.busy && P.view === null && P.partial.length === 0 && P.selected === null && \
                 P.pos.turn === (P.color === 'w' ? 'white' : 'black')) return 'mine'; return ''; })()",
        );
        if state == "over" {
            return turns;
        }
        if b.eval("S.play.turns.length > 0").as_bool() == Some(true) {
            assert_after_computer(b);
        }
        if let (2, Some(p)) = (turns, &shot) {
            b.eval("window.scrollTo(0, 0)");
            b.screenshot(p);
        }
        let turn = b.eval(
            "(() => { const L = S.play.pos.legal; const n = t => t.steps.reduce((a, s) => a + s.captured.length, 0); \
             let best = L[0]; for (const t of L) if (n(t) > n(best)) best = t; return best; })()",
        );
        let before = b.eval("S.play.moves.length").as_u64().unwrap();
        let steps = turn["steps"].as_array().unwrap().clone();
        let from = steps[0]["from"].as_str().unwrap();
        b.click(&format!("#board [data-hit='{from}']"));
        b.wait(&format!("S.play.selected === '{from}'"));
        for (i, s) in steps.iter().enumerate() {
            b.click(&format!("#board [data-hit='{}']", s["to"].as_str().unwrap()));
            let done = format!("S.play.partial.length === {} || S.play.moves.length > {before}", i + 1);
            b.wait(&format!("{done} || document.querySelectorAll('#prompt button').length > 0"));
            if b.eval("document.querySelectorAll('#prompt button').length").as_u64() != Some(0) {
                b.click(&format!("#prompt button[data-mark='{}']", s["mark"].as_str().unwrap()));
                b.wait(&done);
            }
        }
        if b.eval("S.play.partial.length").as_u64() != Some(0) {
            b.click("#p-stop");
        }
        b.wait(&format!("S.play.moves.length > {before}"));
        turns += 1;
        assert!(turns < 400, "the game did not end");
    }
}

/// A whole game against the Beginner level at one screen size: the board, counts, move list,
/// last-turn highlight and the end of the game with its downloads and rematch.
fn whole_game_at(
    b: &mut Browser,
    base: &str,
    (width, height, mobile): (u32, u32, bool),
    color: &str,
    shot: &str,
) {
    b.viewport(width, height, mobile);
    b.goto(&format!("{base}#play&anim=fast"));
    // Play opens with a game ready, the levels by name, both stone counts.
    b.wait("document.getElementById('panel-play').classList.contains('active') && S.play.pos !== null");
    let names = b.eval("[...document.querySelectorAll('#levels label')].map(l => l.textContent.trim())");
    assert_eq!(names, json!(["Beginner", "Casual", "Club", "Strong", "Maximum"]));
    assert_eq!(b.eval("document.querySelector('input[name=p-level]:checked').value"), json!("Casual"));
    assert_eq!(b.text("count-white"), "22");
    assert_eq!(b.text("count-black"), "22");
    assert!(b.text("status").starts_with("Your turn (white)"), "{}", b.text("status"));
    assert_fits(b, width, mobile);
    // No engine jargon while playing: no scores, no principal variations.
    assert_eq!(b.eval("document.getElementById('p-advanced').open"), json!(false));
    b.click("#levels input[value='Beginner']");
    b.click(&format!("#colors input[value='{color}']"));
    b.click("#p-new");
    let me = if color == "w" { "white" } else { "black" };
    b.wait(&format!(
        "S.play.level === 'Beginner' && S.play.color === '{color}' && !S.play.busy && S.play.pos && S.play.pos.turn === '{me}'"
    ));
    // The board is drawn from the player's side: 9 files across on a wide screen, 5 on a
    // narrow one, turned half round for Black.
    let g = b.eval(
        "(() => { const c = p => { const r = document.getElementById('pt-' + p).getBoundingClientRect(); return [r.x, r.y]; }; \
         const r = document.getElementById('board').getBoundingClientRect(); return { a1: c('a1'), i5: c('i5'), tall: r.height > r.width }; })()",
    );
    let (a1x, a1y, i5x, i5y) = (
        g["a1"][0].as_f64().unwrap(),
        g["a1"][1].as_f64().unwrap(),
        g["i5"][0].as_f64().unwrap(),
        g["i5"][1].as_f64().unwrap(),
    );
    assert_eq!(g["tall"], json!(mobile), "{g}");
    if color == "w" {
        assert!(a1y > i5y && a1x < i5x, "White's a1 is bottom left: {g}");
    } else {
        assert!(a1y > i5y && a1x > i5x, "Black sees a1 at the bottom right: {g}");
    }
    let shot = shots().map(|d| d.join(shot));
    let turns = play_whole_game(b, shot);
    assert!(turns > 0);
    // The end: result and reason in words, downloads, rematch with colours swapped.
    let title = b.text("result-title");
    assert!(["You won!", "Draw", "The computer won"].contains(&title.as_str()), "{title}");
    assert!(!b.text("result-reason").is_empty());
    assert!(b.eval("S.shown.steps").as_u64().unwrap() > 0, "the computer's turns were animated");
    assert!(
        b.eval("S.shown.captureMarks").as_u64().unwrap() > 0,
        "captured stones were marked before vanishing"
    );
    assert!(b.text("announce").contains(&title), "{}", b.text("announce"));
    b.click("#p-pgn");
    b.wait("document.getElementById('status').textContent === 'Downloaded fanorona-game.pgn.'");
    // An earlier position from the move list, and back.
    b.click("#movelist button[data-ply='1']");
    b.wait("document.getElementById('viewing').classList.contains('show')");
    assert_eq!(
        circles(b, "stone").len(),
        44 - b.eval("S.play.turns[0].steps.reduce((a, s) => a + s.captured.length, 0)").as_u64().unwrap()
            as usize
    );
    b.click("#p-live");
    b.wait("!document.getElementById('viewing').classList.contains('show')");
    b.click("#p-rematch");
    let other = if color == "w" { "b" } else { "w" };
    b.wait(&format!("S.play.color === '{other}' && S.play.level === 'Beginner' && !document.getElementById('result').classList.contains('show')"));
}

#[test]
fn whole_games_by_clicks_on_a_phone_and_a_desktop() {
    let Some(bin) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let addr = serve(Config::default());
    let base = format!("http://{addr}/");
    let mut b = Browser::launch(&bin, dir.path());
    whole_game_at(&mut b, &base, (390, 844, true), "b", "web-play-phone.png");
    // A 360-pixel screen still shows the whole board without scrolling sideways.
    b.viewport(360, 740, true);
    b.goto(&format!("{base}#play"));
    assert_fits(&mut b, 360, true);
    whole_game_at(&mut b, &base, (1280, 800, false), "w", "web-play-desktop.png");
    assert_nothing_from_outside(&b, &base);
}

#[test]
fn the_rules_speak_and_the_board_plays_by_keyboard() {
    let Some(bin) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("played.bin");
    let addr = serve(Config { save: Some(save.clone()), ..Config::default() });
    let base = format!("http://{addr}/");
    let mut b = Browser::launch(&bin, dir.path());
    b.viewport(1280, 800, false);

    // An illegal click says which rule; an ambiguous capture asks which way.
    b.goto(&format!("{base}#play&level=Casual&color=w"));
    b.wait("document.getElementById('status').textContent === 'Your turn (white): you must capture. Click one of your stones.'");
    b.click("#board [data-hit='d4']");
    b.wait("document.getElementById('message').textContent === 'there is no white stone on d4'");
    b.click("#board [data-hit='a1']");
    b.wait("document.getElementById('message').textContent.startsWith('capturing is compulsory')");
    // The stones that must capture, on request.
    assert!(circles(&mut b, "hint").is_empty());
    b.click("#p-hints");
    b.wait("document.querySelectorAll('#board circle.hint').length > 0");
    assert_eq!(circles(&mut b, "hint"), ["d2", "d3", "e2", "f2"]);
    // By keyboard: arrows move the cursor, Enter picks the point under it.
    // The last click left the cursor on a1: three right and two up is d3.
    b.eval("document.getElementById('board').focus()");
    for (key, code) in
        [("ArrowRight", 39), ("ArrowRight", 39), ("ArrowRight", 39), ("ArrowUp", 38), ("ArrowUp", 38)]
    {
        b.key(key, code);
    }
    assert_eq!(
        b.eval("document.getElementById('board').getAttribute('aria-activedescendant')"),
        json!("pt-d3")
    );
    assert_eq!(b.text("announce"), "d3, white stone, must capture");
    b.key("Enter", 13);
    b.wait("S.play.selected === 'd3' && document.querySelectorAll('#board circle.target').length === 1");
    b.key("ArrowRight", 39);
    b.key("Enter", 13);
    b.wait("document.querySelectorAll('#prompt button').length === 2");
    let labels = b.eval("[...document.querySelectorAll('#prompt button')].map(b => b.textContent)");
    assert_eq!(labels, json!(["Approach: captures f3", "Withdrawal: captures c3"]));
    b.click("#prompt button[data-mark='+']");
    b.wait("S.play.moves.length === 2 && !S.play.busy");
    assert_eq!(b.eval("S.play.moves[0]"), json!("d3e3+"));
    // No engine jargon unless analysis is on.
    assert_eq!(b.text("p-engine-note"), "");
    let rows = b.eval("[...document.querySelectorAll('#movelist tbody tr')].map(r => r.textContent)");
    assert_eq!(rows.as_array().unwrap().len(), 1, "{rows}");
    assert!(rows[0].as_str().unwrap().starts_with("1.d3e3+"), "{rows}");
    b.click("#p-undo");
    b.wait("S.play.moves.length === 0 && document.querySelectorAll('#board circle.stone').length === 44");

    // With analysis on, the computer's view is shown.
    b.click("#p-advanced summary");
    b.click("#p-analysis");
    b.goto(&format!("{base}#play&level=Club&color=b"));
    b.wait("S.play.moves.length === 1 && !S.play.busy");
    assert!(b.text("p-engine-note").starts_with("The computer's view: score"), "{}", b.text("p-engine-note"));

    // A chain: the first step leaves the choice to continue; stopping plays the prefix.
    let (pos, m) = chain_position();
    let color = if pos.turn() == fanorona_core::Color::White { "w" } else { "b" };
    b.goto(&format!("{base}#play&color={color}&engine=greedy&position={}", enc(&pos.to_string())));
    b.wait(&format!(
        "document.getElementById('status').textContent.startsWith('Your turn') && document.querySelectorAll('#board circle.stone').length === {}",
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
    b.wait("S.play.moves.length >= 1");
    let expected = format!(
        "{}{}{}",
        first["from"].as_str().unwrap(),
        first["to"].as_str().unwrap(),
        first["mark"].as_str().unwrap()
    );
    assert_eq!(b.eval("S.play.moves[0]"), json!(expected));

    // An engine that cannot be built never leaves the game on "thinking".
    b.goto(&format!("{base}#play&color=b&engine=nonsense"));
    b.wait("document.getElementById('message').textContent.startsWith('The computer could not move')");
    assert!(!b.text("status").contains("thinking"), "{}", b.text("status"));
    assert_eq!(b.eval("document.getElementById('p-retry').classList.contains('hidden')"), json!(false));
    // An unknown level in the address says so and keeps a real one.
    b.goto(&format!("{base}#play&level=Expert&color=w"));
    b.wait("document.getElementById('message').textContent.startsWith('unknown level \"Expert\"')");
    assert_eq!(b.eval("S.play.level"), json!("Casual"));

    // A game won by the last capture: the result in words, saved on the server.
    b.goto(&format!("{base}#play&color=w&engine=greedy&position={}", enc("9/9/9/9/W1B6 w")));
    b.wait("document.getElementById('status').textContent.startsWith('Your turn') && document.querySelectorAll('#board circle.stone').length === 2");
    b.click("#board [data-hit='a1']");
    b.wait("document.querySelectorAll('#board circle.target').length === 1");
    b.click("#board [data-hit='b1']");
    b.wait("document.getElementById('result').classList.contains('show')");
    assert_eq!(b.text("result-title"), "You won!");
    assert_eq!(b.text("result-reason"), "You captured all of the computer's stones.");
    b.click("#p-save");
    b.wait("document.getElementById('status').textContent.startsWith('Saved as game 0 of')");
    let g = get(addr, &format!("/api/game?file={}&game=0", enc(&save.display().to_string()))).json();
    assert_eq!(g["turns"][0]["turn"]["notation"], "a1b1+");
    assert_eq!(g["outcome"]["result"], "1-0");
    assert_eq!(g["white"], "human");

    // Resigning ends the game in the computer's favour.
    b.goto(&format!("{base}#play&level=Beginner&color=w"));
    b.wait("S.play.pos !== null && !S.play.busy");
    b.click("#board [data-hit='d3']");
    b.wait("S.play.selected === 'd3'");
    b.click("#board [data-hit='e3']");
    b.wait("document.querySelectorAll('#prompt button').length === 2");
    b.click("#prompt button[data-mark='-']");
    b.wait("S.play.moves.length === 2 && !S.play.busy");
    b.click("#p-resign");
    b.wait("document.getElementById('p-resign').textContent === 'Really resign?'");
    b.click("#p-resign");
    b.wait("document.getElementById('result').classList.contains('show')");
    assert_eq!(b.text("result-title"), "You resigned: the computer wins");
    assert_nothing_from_outside(&b, &base);
}

#[test]
fn the_page_replays_an_uploaded_game_and_analyses() {
    let Some(bin) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (path, recs) = write_games(dir.path());
    let name = path.display().to_string();
    let addr = serve(Config { files: vec![path.clone()], ..Config::default() });
    let base = format!("http://{addr}/");
    let shots = shots();
    let mut b = Browser::launch(&bin, dir.path());
    b.viewport(1280, 800, false);

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
    // The move list: one row per full turn, the current turn marked.
    let turns = replay["turns"].as_array().unwrap().len();
    assert_eq!(
        b.eval("document.querySelectorAll('#turns tbody tr').length").as_u64().unwrap() as usize,
        turns.div_ceil(2)
    );
    assert_eq!(
        b.eval("document.querySelector('#turns button.current').dataset.ply"),
        json!((ply + 1).to_string())
    );
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

    // A PGN file opened from the browser is listed and replayed.
    let pgn = dir.path().join("upload.pgn");
    let mut text = Vec::new();
    fanorona_data::pgn::write_game(&mut text, &recs[1], &fanorona_data::pgn::PgnTags::default(), None)
        .unwrap();
    std::fs::write(&pgn, &text).unwrap();
    b.goto(&format!("{base}#replay"));
    b.choose_file("#upload", &pgn);
    b.wait("S.replay.data !== null && S.replay.data.file.includes('upload.pgn')");
    assert_eq!(b.eval("S.replay.data.turns.length").as_u64().unwrap() as usize, recs[1].turns.len());
    // A file that is not a game: the message names it.
    let junk = dir.path().join("junk.pgn");
    std::fs::write(&junk, b"\x00\x01 this is not a game").unwrap();
    b.choose_file("#upload", &junk);
    b.wait("document.getElementById('message').textContent.includes('junk.pgn')");
    assert_nothing_from_outside(&b, &base);
}

#[test]
fn base64_decodes() {
    assert_eq!(base64("aGVsbG8="), b"hello");
    assert_eq!(base64("aGk="), b"hi");
    assert_eq!(base64("YWJj"), b"abc");
}
