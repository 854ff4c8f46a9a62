//! The page in a real headless Chromium (tests/common/chromium.rs): whole games played by
//! clicks on two phones (390x844 as Black, 360x740 as White: the board stays in view after
//! every turn, nothing scrolls) and a desktop (1280x800), the rules' messages, a capture chain
//! stopped half-way, the keyboard, one turn numbering in the list, the captions, Replay and
//! PGN, a game file opened from the browser, replay and analysis; the test reads what the page
//! shows and checks that nothing was loaded from outside the server.
//!
//! With `FANORONA_WEB_SCREENSHOTS=DIR` it also saves `DIR/web-play-desktop.png`,
//! `DIR/web-play-phone.png`, `DIR/web-replay.png` and `DIR/web-analyse.png` (the screenshots
//! of the README and of docs/guide/serve.md).
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;

use common::chromium::{
    Browser, addr_of, assert_nothing_from_outside, browser_or_skip, circles, open, shots,
};
use common::{enc, get, post, write_games};
use fanorona_core::Position;
use fanorona_web::Config;
use serde_json::{Value, json};

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

/// The page fits the screen: no horizontal scrolling, the board inside the width, points and
/// buttons large enough to touch.
fn assert_fits(b: &mut Browser, width: u32, touch: bool) {
    let v = b.eval(
        "(() => { const r = document.getElementById('board').getBoundingClientRect(); \
         const hit = document.querySelector('#board .hit').getBoundingClientRect(); \
         const buttons = [...document.querySelectorAll('#game-bar button, #panel-play button, #levels label, #colors label')] \
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

/// On a phone, the whole board and the status line under it are on the screen, the page is not
/// scrolled, and the game's toolbar is above the board.
fn assert_board_in_view(b: &mut Browser) {
    let v = b.eval(
        "(() => { const r = document.getElementById('board').getBoundingClientRect(); \
         const s = document.getElementById('status').getBoundingClientRect(); \
         const bar = document.getElementById('game-bar').getBoundingClientRect(); \
         return { top: r.top, bottom: r.bottom, status: s.bottom, bar: bar.bottom, scrolled: window.scrollY, height: window.innerHeight }; })()",
    );
    let f = |k: &str| v[k].as_f64().unwrap();
    assert!(f("top") >= 0.0 && f("bottom") <= f("height"), "the board is not all in view: {v}");
    assert!(f("status") <= f("height"), "the status line is off the screen: {v}");
    assert!(f("bar") <= f("top"), "the toolbar is not above the board: {v}");
    assert_eq!(f("scrolled"), 0.0, "the page scrolled during the game: {v}");
}

/// Every turn of the move list is on one line (a move never split).
fn assert_moves_unsplit(b: &mut Browser) {
    let split = b.eval(
        "[...document.querySelectorAll('#movelist button')].filter(e => { const r = document.createRange(); \
         r.selectNodeContents(e.firstChild); return r.getClientRects().length !== 1; }).map(e => e.textContent)",
    );
    assert_eq!(split, json!([]), "move-list cells split a move");
}

/// What the page shows after the computer's turn: its last turn highlighted and said in words
/// (on screen and to screen readers), the stone counts, one move-list row per number.
fn assert_after_computer(b: &mut Browser) {
    let v = b.eval(
        "(() => { const P = S.play, t = P.turns[P.turns.length - 1]; \
         return { to: t.steps[t.steps.length - 1].to, mover: t.mover, me: P.color === 'w' ? 'white' : 'black', \
           route: [t.steps[0].from, ...t.steps.map(s => s.to)].join('-'), \
           captured: t.steps.reduce((n, s) => n + s.captured.length, 0), \
           last: [...document.querySelectorAll('#board circle.stone.last-to')].map(c => c.dataset.point), \
           paths: document.querySelectorAll('#board .last-path').length, \
           white: document.getElementById('count-white').textContent, black: document.getElementById('count-black').textContent, \
           whites: document.querySelectorAll('#board circle.stone.white').length, blacks: document.querySelectorAll('#board circle.stone.black').length, \
           posWhite: P.pos.white_stones, posBlack: P.pos.black_stones, rows: document.querySelectorAll('#movelist tbody tr').length, \
           plies: P.moves.length, firstBlack: P.history[0].turn === 'black', \
           said: document.getElementById('last-turn').textContent, saidShown: document.getElementById('last-turn').offsetHeight > 0, \
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
    assert_eq!(v["rows"].as_u64().unwrap(), plies.div_ceil(2), "one row per number: {v}");
    let route = v["route"].as_str().unwrap();
    let said = match v["captured"].as_u64().unwrap() {
        0 => format!("The computer played {route}."),
        1 => format!("The computer played {route}, capturing 1 stone."),
        n => format!("The computer played {route}, capturing {n} stones."),
    };
    assert_eq!(v["said"], json!(said), "the computer's turn in words: {v}");
    assert_eq!(v["saidShown"], true, "{v}");
    assert!(v["announce"].as_str().unwrap().starts_with(&said), "{v}");
}

/// Plays the player's side of a whole game by clicks, choosing the turn that captures the most
/// stones; after every computer turn checks what the page shows (`phone`: and that the board
/// stayed in view); returns the number of turns the player made.
fn play_whole_game(b: &mut Browser, shot: Option<PathBuf>, phone: bool) -> usize {
    let mut turns = 0;
    loop {
        let state = b.wait(
            "(() => { const P = S.play; if (document.getElementById('result').classList.contains('show')) return 'over'; \
             if (P.pos && !P.busy && P.view === null && P.partial.length === 0 && P.selected === null && \
                 P.pos.turn === (P.color === 'w' ? 'white' : 'black')) return 'mine'; return ''; })()",
        );
        if phone {
            assert_board_in_view(b);
        }
        if state == "over" {
            return turns;
        }
        if b.eval("S.play.turns.length > 0").as_bool() == Some(true) {
            assert_after_computer(b);
        }
        if let (2, Some(p)) = (turns, &shot) {
            b.screenshot(p);
        }
        play_best_capture(b);
        turns += 1;
        assert!(turns < 400, "the game did not end");
    }
}

/// Plays, by clicks, the legal turn that captures the most stones.
fn play_best_capture(b: &mut Browser) {
    let turn = b.eval(
        "(() => { const L = S.play.pos.legal; const n = t => t.steps.reduce((a, s) => a + s.captured.length, 0); \
         let best = L[0]; for (const t of L) if (n(t) > n(best)) best = t; return best; })()",
    );
    play_turn(b, &turn);
}

/// Plays `turn` (a legal turn of the position view) by clicks.
fn play_turn(b: &mut Browser, turn: &Value) {
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
}

/// Starts a new game from the dialog: `level`, `color`.
fn new_game(b: &mut Browser, level: &str, color: &str) {
    b.click("#p-new-open");
    b.wait("document.getElementById('setup').open");
    b.click(&format!("#levels input[value='{level}']"));
    b.click(&format!("#colors input[value='{color}']"));
    b.click("#p-new");
    let me = if color == "w" { "white" } else { "black" };
    b.wait(&format!(
        "!document.getElementById('setup').open && S.play.level === '{level}' && S.play.color === '{color}' && !S.play.busy && S.play.pos && S.play.pos.turn === '{me}'"
    ));
}

/// A whole game against the Beginner level at one screen size: the board, counts, move list,
/// last-turn highlight and the end of the game with its downloads and rematch.
fn whole_game_at(
    b: &mut Browser,
    base: &str,
    (width, height, mobile): (u32, u32, bool),
    color: &str,
    shot: Option<&str>,
) {
    b.viewport(width, height, mobile);
    b.goto(&format!("{base}#play&anim=fast"));
    // Play opens with a game ready, the levels by name in the dialog, both stone counts.
    b.wait("document.getElementById('panel-play').classList.contains('active') && S.play.pos !== null");
    let names = b.eval("[...document.querySelectorAll('#levels input')].map(l => l.value)");
    assert_eq!(names, json!(["Beginner", "Casual", "Club", "Strong", "Maximum"]));
    assert_eq!(b.eval("document.querySelector('input[name=p-level]:checked').value"), json!("Casual"));
    assert_eq!(b.text("count-white"), "22");
    assert_eq!(b.text("count-black"), "22");
    assert!(b.text("status").starts_with("Your turn (white)"), "{}", b.text("status"));
    assert_fits(b, width, mobile);
    // No engine jargon while playing: no scores, no principal variations.
    assert_eq!(b.eval("document.getElementById('p-advanced').open"), json!(false));
    new_game(b, "Beginner", color);
    if mobile {
        assert_board_in_view(b);
    }
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
    // The player's own stones on the near side: at the bottom across a wide screen, on the
    // left of a narrow one (its files running down).
    match (color, mobile) {
        ("w", false) => assert!(a1y > i5y && a1x < i5x, "White's a1 is bottom left: {g}"),
        ("b", false) => assert!(a1y < i5y && a1x > i5x, "Black sees a1 at the top right: {g}"),
        ("w", true) => assert!(a1y < i5y && a1x < i5x, "White's a1 is top left: {g}"),
        _ => assert!(a1y > i5y && a1x > i5x, "Black sees a1 at the bottom right: {g}"),
    }
    let shot = shots().zip(shot).map(|(d, name)| d.join(name));
    let turns = play_whole_game(b, shot, mobile);
    assert!(turns > 0);
    assert_moves_unsplit(b);
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
    b.wait("document.getElementById('message').textContent === 'Downloaded fanorona-game.pgn.'");
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
    b.wait(&format!(
        "S.play.color === '{other}' && S.play.level === 'Beginner' && !document.getElementById('result').classList.contains('show')"
    ));
}

#[test]
fn whole_games_by_clicks_on_two_phones_and_a_desktop() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    whole_game_at(&mut b, &base, (390, 844, true), "b", Some("web-play-phone.png"));
    whole_game_at(&mut b, &base, (360, 740, true), "w", None);
    whole_game_at(&mut b, &base, (1280, 800, false), "w", Some("web-play-desktop.png"));
    assert_nothing_from_outside(&b, &base);
}

/// An illegal click says which rule; an ambiguous capture asks which way; the stones that must
/// capture are ringed on request; the board plays by keyboard.
fn rules_and_keyboard(b: &mut Browser, base: &str) {
    b.goto(&format!("{base}#play&level=Casual&color=w"));
    b.wait("document.getElementById('status').textContent === 'Your turn (white): you must capture. Click one of your stones.'");
    b.click("#board [data-hit='d4']");
    b.wait("document.getElementById('message').textContent === 'There is no white stone on d4.'");
    b.click("#board [data-hit='a1']");
    b.wait("document.getElementById('message').textContent === 'Capturing is compulsory: the stone on a1 cannot capture, but d2 d3 e2 f2 can.'");
    assert!(circles(b, "must").is_empty());
    b.click("#settings summary");
    b.click("#p-hints");
    b.wait("document.querySelectorAll('#board circle.must').length > 0");
    assert_eq!(circles(b, "must"), ["d2", "d3", "e2", "f2"]);
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
    b.click("#p-analysis");
    b.goto(&format!("{base}#play&level=Club&color=b"));
    b.wait("S.play.moves.length === 1 && !S.play.busy");
    assert!(b.text("p-engine-note").starts_with("The computer's view: score"), "{}", b.text("p-engine-note"));
}

/// A chain: the first step leaves the choice to continue; a point out of reach says why;
/// stopping plays the steps so far.
fn chain_stopped_half_way(b: &mut Browser, base: &str) {
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
    if b.eval("document.querySelectorAll('#prompt button').length").as_u64().unwrap() > 0 {
        b.click(&format!("#prompt button[data-mark='{}']", first["mark"].as_str().unwrap()));
    }
    b.wait("document.getElementById('status').textContent.startsWith('Capture chain')");
    // During the chain the stop button takes the hint's place in the toolbar, above the board.
    assert_eq!(b.eval("document.getElementById('p-hint').classList.contains('hidden')"), json!(true));
    let at: fanorona_core::Point = first["to"].as_str().unwrap().parse().unwrap();
    let far = fanorona_core::Point::ALL
        .into_iter()
        .find(|p| p.file().abs_diff(at.file()) > 1 && pos.color_at(*p).is_none())
        .unwrap();
    b.click(&format!("#board [data-hit='{far}']"));
    b.wait(&format!(
        "document.getElementById('message').textContent === '{far} is not next to {at} along a line.'"
    ));
    b.click("#p-stop");
    b.wait("S.play.moves.length >= 1");
    let expected = format!(
        "{}{}{}",
        first["from"].as_str().unwrap(),
        first["to"].as_str().unwrap(),
        first["mark"].as_str().unwrap()
    );
    assert_eq!(b.eval("S.play.moves[0]"), json!(expected));
}

/// A browser on a server that saves finished games: the browser, the page's address, the save
/// file and the directories that must live as long as the test.
fn open_saving(bin: &std::path::Path) -> (Browser, String, PathBuf, [tempfile::TempDir; 2]) {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("played.bin");
    let (b, base, bdir) = open(bin, Config { save: Some(save.clone()), ..Config::default() });
    (b, base, save, [dir, bdir])
}

#[test]
fn the_rules_speak_and_the_board_plays_by_keyboard() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, save, _dirs) = open_saving(&bin);
    rules_and_keyboard(&mut b, &base);
    chain_stopped_half_way(&mut b, &base);

    // An engine that cannot be built never leaves the game on "thinking".
    b.goto(&format!("{base}#play&color=b&engine=nonsense"));
    b.wait("document.getElementById('message').textContent.startsWith('The computer could not move')");
    assert!(!b.text("status").contains("thinking"), "{}", b.text("status"));
    assert_eq!(b.eval("document.getElementById('p-retry').classList.contains('hidden')"), json!(false));
    // An unknown level in the address says so and keeps a real one.
    b.goto(&format!("{base}#play&level=Expert&color=w"));
    b.wait("document.getElementById('message').textContent.startsWith('Unknown level \"Expert\": the levels are Beginner, Casual')");
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
    b.wait("document.getElementById('message').textContent.startsWith('Saved as game 0 of')");
    let addr = addr_of(&base);
    let g = get(addr, &format!("/api/game?file={}&game=0", enc(&save.display().to_string()))).json();
    assert_eq!(g["turns"][0]["turn"]["notation"], "a1b1+");
    assert_eq!(g["outcome"]["result"], "1-0");
    assert_eq!(g["white"], "human");

    // Resigning asks to confirm, then ends the game in the computer's favour.
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

/// The numbering of the move list (`N.` White's turn, `N…` Black's, N the row), of a viewed
/// position's caption, of Replay (caption and the listing's move count) and of the PGN agree.
#[test]
fn turn_numbers_agree_in_the_list_the_captions_replay_and_pgn() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, save, _dirs) = open_saving(&bin);
    // As Black against a level that moves at once: the computer opens, rows start "1. W B".
    b.goto(&format!("{base}#play&level=Beginner&color=b&anim=off"));
    b.wait("S.play.moves.length === 1 && !S.play.busy");
    for _ in 0..3 {
        play_best_capture(&mut b);
        b.wait("!S.play.busy");
    }
    let moves: Vec<String> = serde_json::from_value(b.eval("S.play.moves")).unwrap();
    assert!(moves.len() >= 6 || b.eval("S.play.pos.outcome !== null") == json!(true), "{moves:?}");
    // Black's second turn is ply 4: row 2, "2…", and the caption when viewing after it.
    let row = b.eval(
        "document.querySelector(\"#movelist button[data-ply='4']\").closest('tr').firstChild.textContent",
    );
    assert_eq!(row, json!("2."));
    b.click("#movelist button[data-ply='4']");
    b.wait("document.getElementById('viewing').classList.contains('show')");
    assert_eq!(b.text("viewing-text"), format!("Viewing the position after 2… {}.", moves[3]));
    // The arrow keys step through the list, the focus following.
    b.key("ArrowLeft", 37);
    b.wait(&format!(
        "document.getElementById('viewing-text').textContent === 'Viewing the position after 2. {}.' && document.activeElement.dataset.ply === '3'",
        moves[2]
    ));
    b.key("ArrowRight", 39);
    b.wait("document.activeElement.dataset.ply === '4'");
    b.key("End", 35);
    b.wait("!document.getElementById('viewing').classList.contains('show')");
    // PGN numbers the same rows.
    let addr = addr_of(&base);
    let pgn = post(addr, "/api/pgn", &json!({"moves": moves.join(" "), "resigned": "black"}));
    let text = String::from_utf8_lossy(&pgn.body).to_string();
    assert!(text.contains(&format!("1. {} {} 2. {} {}", moves[0], moves[1], moves[2], moves[3])), "{text}");
    // Replay: the saved game's listing counts rows, the caption numbers as the list does.
    b.click("#p-resign");
    b.click("#p-resign");
    b.wait("document.getElementById('result').classList.contains('show')");
    b.click("#p-save");
    b.wait("document.getElementById('message').textContent.startsWith('Saved as game 0')");
    let rows = b.eval("document.querySelectorAll('#movelist tbody tr').length");
    b.goto(&format!("{base}#file={}&game=0&ply=4", enc(&save.display().to_string())));
    b.wait(&format!(
        "document.getElementById('status').textContent.startsWith('After 2… {}; next: 3. ')",
        moves[3]
    ));
    b.wait("document.querySelectorAll('#games tbody tr').length === 1");
    assert_eq!(
        b.eval("document.querySelector('#games tbody tr').lastChild.textContent"),
        json!(rows.to_string())
    );
    assert_eq!(b.eval("document.querySelectorAll('#turns tbody tr').length"), rows);
}

#[test]
fn the_page_replays_an_uploaded_game_and_analyses() {
    let Some(bin) = browser_or_skip() else { return };
    let dir = tempfile::tempdir().unwrap();
    let (path, recs) = write_games(dir.path());
    let name = path.display().to_string();
    let (mut b, base, _bdir) = open(&bin, Config { files: vec![path.clone()], ..Config::default() });
    let addr = addr_of(&base);
    let shots = shots();

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
    let label = if ply % 2 == 0 { format!("{}…", ply / 2) } else { format!("{}.", ply / 2 + 1) };
    b.wait(&format!("document.getElementById('status').textContent.startsWith('After {label} ')"));
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
    // The move list: one row per number, the current turn marked.
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

    // Analyse: the table fills in depth by depth, the evaluation bar follows the last depth.
    b.goto(&format!("{base}#analyse&position=startpos&moves={}", enc("d3e3+")));
    b.wait("document.getElementById('status').textContent.includes('black to move')");
    assert_eq!(b.eval("document.getElementById('evalbar').offsetHeight"), json!(0), "no bar before a search");
    b.eval("document.getElementById('a-engine').value = 'alphabeta:depth=3,eval=material'");
    b.click("#a-start");
    b.wait("document.getElementById('a-result').textContent.includes('at depth 3')");
    let depths =
        b.eval("[...document.querySelectorAll('#depths tbody tr')].map(r => r.firstChild.textContent)");
    assert_eq!(depths, json!(["1", "2", "3"]));
    assert_eval_bar(&mut b, "white");
    if let Some(d) = &shots {
        b.screenshot(&d.join("web-analyse.png"));
    }

    // A PGN file opened from the browser is listed and replayed; another browser does not see it.
    let pgn = dir.path().join("upload.pgn");
    let mut text = Vec::new();
    fanorona_data::pgn::write_game(&mut text, &recs[1], &fanorona_data::pgn::PgnTags::default(), None)
        .unwrap();
    std::fs::write(&pgn, &text).unwrap();
    b.goto(&format!("{base}#replay"));
    b.choose_file("#upload", &pgn);
    b.wait("S.replay.data !== null && S.replay.data.file.includes('upload.pgn')");
    assert_eq!(b.eval("S.replay.data.turns.length").as_u64().unwrap() as usize, recs[1].turns.len());
    let listed = "[...document.querySelectorAll('#file option')].map(o => o.value)";
    assert_eq!(b.eval(listed).as_array().unwrap().len(), 2);
    // A file that is not a game: the message names it.
    let junk = dir.path().join("junk.pgn");
    std::fs::write(&junk, b"\x00\x01 this is not a game").unwrap();
    b.choose_file("#upload", &junk);
    b.wait("document.getElementById('message').textContent.includes('junk.pgn')");
    assert_nothing_from_outside(&b, &base);
    b.fresh_context();
    b.viewport(1280, 800, false);
    b.goto(&format!("{base}#replay"));
    assert_eq!(b.eval(listed), json!([name]), "an upload is seen by the browser that made it only");
}

/// The evaluation bar shows the last depth's score as the expected result of `side`:
/// (1 + tanh(score / 400)) / 2, the score turned to `side`'s view.
fn assert_eval_bar(b: &mut Browser, side: &str) {
    let v = b.eval(
        "(() => { const rows = [...document.querySelectorAll('#depths tbody tr')]; \
         return { score: Number(rows[rows.length - 1].children[1].textContent), mover: S.analyse.mover, \
           now: Number(document.getElementById('evalbar').getAttribute('aria-valuenow')), shown: document.getElementById('evalbar').offsetHeight > 0, \
           text: document.getElementById('evalbar-text').textContent }; })()",
    );
    let score = v["score"].as_f64().unwrap();
    let score = if v["mover"] == json!(side) { score } else { -score };
    let expected = ((1.0 + (score / 400.0).tanh()) / 2.0 * 100.0).round();
    assert_eq!(v["now"].as_f64().unwrap(), expected, "{v}");
    assert_eq!(v["shown"], true, "{v}");
    let name = if side == "white" { "White" } else { "Black" };
    assert_eq!(v["text"], json!(format!("{name}: {expected} %")), "{v}");
}
