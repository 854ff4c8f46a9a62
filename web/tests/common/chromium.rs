//! Headless Chromium for the page's tests, driven over the DevTools protocol through
//! `--remote-debugging-pipe` (two FIFOs), and what the tests ask of the page through it.
//!
//! A test is skipped, with a message, when no Chromium is installed (`apt-get install
//! chromium`); with `FANORONA_REQUIRE_CHROMIUM` set (as `.ci/run` sets it) a missing browser
//! fails the test instead.
#![allow(dead_code, clippy::unwrap_used)]

use std::fs::File;
use std::io::{BufRead, BufReader, Write};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use serde_json::{Value, json};

/// The browser binary: `$CHROMIUM`, else the first of the usual names on `PATH`.
pub fn chromium() -> Option<PathBuf> {
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

pub struct Browser {
    child: Child,
    to: File,
    from: BufReader<File>,
    next: u64,
    session: String,
    log: PathBuf,
    /// Every URL the page asked for (`Network.requestWillBeSent`).
    pub requests: Vec<String>,
}

impl Drop for Browser {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Browser {
    pub fn launch(bin: &Path, dir: &Path) -> Browser {
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
    pub fn call(&mut self, session: Option<&str>, method: &str, params: Value) -> Value {
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

    pub fn page(&mut self, method: &str, params: Value) -> Value {
        let s = self.session.clone();
        self.call(Some(&s), method, params)
    }

    /// Evaluates JavaScript in the page (promises awaited) and returns its value.
    pub fn eval(&mut self, expr: &str) -> Value {
        let r = self.page(
            "Runtime.evaluate",
            json!({"expression": expr, "returnByValue": true, "awaitPromise": true}),
        );
        assert!(r.get("exceptionDetails").is_none(), "{expr}: {r}");
        r["result"]["value"].clone()
    }

    /// Waits (a bounded number of polls) until `expr` is truthy; returns its value.
    pub fn wait(&mut self, expr: &str) -> Value {
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

    pub fn text(&mut self, id: &str) -> String {
        self.eval(&format!("document.getElementById('{id}').textContent")).as_str().unwrap_or("").to_string()
    }

    /// A real mouse click in the middle of the element `selector` matches (scrolled into view).
    pub fn click(&mut self, selector: &str) {
        let (x, y) = self.center(selector);
        for kind in ["mousePressed", "mouseReleased"] {
            self.page(
                "Input.dispatchMouseEvent",
                json!({"type": kind, "x": x, "y": y, "button": "left", "clickCount": 1}),
            );
        }
    }

    /// Loads `url` afresh (through `about:blank`, so that a change of the `#` part alone is a
    /// new page too), without waiting for it.
    pub fn navigate(&mut self, url: &str) {
        self.page("Page.navigate", json!({"url": "about:blank"}));
        self.page("Page.navigate", json!({"url": url}));
    }

    /// Loads `url` afresh and waits until the page is ready.
    pub fn goto(&mut self, url: &str) {
        self.navigate(url);
        self.wait(
            "document.readyState === 'complete' && document.body && document.body.dataset.ready === '1'",
        );
    }

    /// Emulates a screen of `width` x `height` CSS pixels (`mobile`: a phone's viewport rules).
    pub fn viewport(&mut self, width: u32, height: u32, mobile: bool) {
        self.page(
            "Emulation.setDeviceMetricsOverride",
            json!({"width": width, "height": height, "deviceScaleFactor": 1, "mobile": mobile}),
        );
    }

    /// A key pressed and released (`Enter`, `ArrowLeft`, ...) on the focused element.
    pub fn key(&mut self, key: &str, code: u32) {
        for kind in ["keyDown", "keyUp"] {
            self.page(
                "Input.dispatchKeyEvent",
                json!({"type": kind, "key": key, "code": key, "windowsVirtualKeyCode": code}),
            );
        }
    }

    /// Chooses `path` in the file input `selector` (as a user picking a file would).
    pub fn choose_file(&mut self, selector: &str, path: &Path) {
        let root = self.page("DOM.getDocument", json!({}));
        let node =
            self.page("DOM.querySelector", json!({"nodeId": root["root"]["nodeId"], "selector": selector}));
        self.page(
            "DOM.setFileInputFiles",
            json!({"nodeId": node["nodeId"], "files": [path.display().to_string()]}),
        );
    }

    pub fn screenshot(&mut self, path: &Path) {
        let r = self.page("Page.captureScreenshot", json!({"format": "png"}));
        std::fs::write(path, base64(r["data"].as_str().unwrap())).unwrap();
    }

    /// Waits until a newly loaded page is ready (the page before carried `window.__before`).
    fn wait_new_page(&mut self) {
        self.wait(
            "!window.__before && document.readyState === 'complete' && document.body && document.body.dataset.ready === '1'",
        );
    }

    /// Reloads the page, as the browser's reload button does.
    pub fn reload(&mut self) {
        self.eval("window.__before = 1");
        self.page("Page.reload", json!({}));
        self.wait_new_page();
    }

    /// Goes back one entry in the tab's history, as the browser's Back button does.
    pub fn back(&mut self) {
        let h = self.page("Page.getNavigationHistory", json!({}));
        let i = h["currentIndex"].as_u64().unwrap() as usize;
        let id = h["entries"][i - 1]["id"].clone();
        self.page("Page.navigateToHistoryEntry", json!({"entryId": id}));
        // The page is loaded again, or comes back as it was left (the back-forward cache).
        self.wait("document.getElementById('board') && document.body.dataset.ready === '1'");
    }

    /// Leaves for `url` (not the page: nothing waits for it to be ready).
    pub fn leave_for(&mut self, url: &str) {
        self.page("Page.navigate", json!({"url": url}));
        self.wait("document.readyState === 'complete' && !document.getElementById('board')");
    }

    /// Continues in a new tab of a fresh browser context: nothing kept by the pages before
    /// (storage, cookies) is seen there, as in another browser.
    pub fn fresh_context(&mut self) {
        let ctx = self.call(None, "Target.createBrowserContext", json!({}));
        let target = self.call(
            None,
            "Target.createTarget",
            json!({"url": "about:blank", "browserContextId": ctx["browserContextId"]}),
        );
        let attached = self.call(
            None,
            "Target.attachToTarget",
            json!({"targetId": target["targetId"], "flatten": true}),
        );
        self.session = attached["sessionId"].as_str().unwrap().to_string();
        self.page("Network.enable", json!({}));
    }

    /// Emulates the system's colour preference (`prefers-color-scheme`).
    pub fn prefer_dark(&mut self, dark: bool) {
        let value = if dark { "dark" } else { "light" };
        self.page(
            "Emulation.setEmulatedMedia",
            json!({"features": [{"name": "prefers-color-scheme", "value": value}]}),
        );
    }

    /// Emulates the browser's languages (`navigator.languages`, `Accept-Language`).
    pub fn languages(&mut self, accept: &str) {
        let ua = self.call(None, "Browser.getVersion", json!({}))["userAgent"].as_str().unwrap().to_string();
        self.page("Emulation.setUserAgentOverride", json!({"userAgent": ua, "acceptLanguage": accept}));
    }

    /// A real double click in the middle of the element `selector` matches.
    pub fn double_click(&mut self, selector: &str) {
        let at = self.center(selector);
        for count in [1, 2] {
            for kind in ["mousePressed", "mouseReleased"] {
                self.page(
                    "Input.dispatchMouseEvent",
                    json!({"type": kind, "x": at.0, "y": at.1, "button": "left", "clickCount": count}),
                );
            }
        }
    }

    /// The middle of the element `selector` matches, scrolled into view.
    fn center(&mut self, selector: &str) -> (f64, f64) {
        let js = format!(
            "(() => {{ const e = document.querySelector({sel}); if (!e) return null; e.scrollIntoView({{block: 'nearest'}}); const r = e.getBoundingClientRect(); return [r.x + r.width / 2, r.y + r.height / 2]; }})()",
            sel = json!(selector)
        );
        let at = self.eval(&js);
        assert!(at.is_array(), "no element {selector} to click");
        (at[0].as_f64().unwrap(), at[1].as_f64().unwrap())
    }
}

/// The browser, or `None` (with a message) where none is installed and CI did not ask for one.
pub fn browser_or_skip() -> Option<PathBuf> {
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

/// Where to write the screenshots of the docs (`FANORONA_WEB_SCREENSHOTS=DIR`, a relative
/// `DIR` from the workspace's root, as the README's commands run), if asked.
pub fn shots() -> Option<PathBuf> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("..");
    std::env::var_os("FANORONA_WEB_SCREENSHOTS").map(|d| root.join(d))
}

/// Every request the page made went to the server itself.
pub fn assert_nothing_from_outside(b: &Browser, base: &str) {
    assert!(!b.requests.is_empty(), "the request log is empty: Network events were not seen");
    let outside: Vec<&String> = b
        .requests
        .iter()
        .filter(|u| !(u.starts_with(base) || u.starts_with("data:") || u.starts_with("blob:")))
        .collect();
    assert!(outside.is_empty(), "the page loaded from outside the server: {outside:?}");
}

/// The points of the board's circles of `class`, sorted.
pub fn circles(b: &mut Browser, class: &str) -> Vec<String> {
    let js = format!(
        "[...document.querySelectorAll('#board circle.{class}')].map(c => c.dataset.point || c.dataset.must || c.dataset.target)"
    );
    let mut v: Vec<String> =
        b.eval(&js).as_array().unwrap().iter().map(|p| p.as_str().unwrap().to_string()).collect();
    v.sort();
    v
}

/// The server's address in a page address `http://ADDR/`.
pub fn addr_of(base: &str) -> std::net::SocketAddr {
    base.trim_start_matches("http://").trim_end_matches('/').parse().unwrap()
}

/// A new browser on a server with `config`: the browser, the page's address, and the
/// directory the browser keeps its files in (alive as long as the test needs them).
pub fn open(bin: &Path, config: fanorona_web::Config) -> (Browser, String, tempfile::TempDir) {
    let dir = tempfile::tempdir().unwrap();
    let addr = crate::common::serve(config);
    let mut b = Browser::launch(bin, dir.path());
    b.viewport(1280, 800, false);
    (b, format!("http://{addr}/"), dir)
}

/// Decodes standard base64.
pub fn base64(s: &str) -> Vec<u8> {
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
