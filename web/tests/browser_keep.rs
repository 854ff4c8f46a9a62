//! A game kept, in a real headless Chromium (tests/common/chromium.rs): it survives a reload,
//! Back and a closed tab (the page offers to resume it), its link reopens it in another
//! browser, in Play and in Replay; a malformed, foreign-version, illegal or oversized link or
//! kept game is refused with a message and a fresh game.
#![allow(clippy::unwrap_used)]

mod common;

use common::chromium::{Browser, assert_nothing_from_outside, browser_or_skip, open};
use common::enc;
use fanorona_web::Config;
use serde_json::{Value, json};

/// What a game shows: its turns, the move list's rows, the stones on the board.
fn shown(b: &mut Browser) -> Value {
    b.eval(
        "({ moves: S.play.moves, rows: [...document.querySelectorAll('#movelist tbody tr')].map(r => r.textContent), \
           white: [...document.querySelectorAll('#board circle.stone.white')].map(c => c.dataset.point).sort(), \
           black: [...document.querySelectorAll('#board circle.stone.black')].map(c => c.dataset.point).sort(), \
           level: S.play.level, color: S.play.color })",
    )
}

/// Plays the first legal turn of the player (its first step, stopping any chain there).
fn play_first(b: &mut Browser) {
    let before = b.eval("S.play.moves.length").as_u64().unwrap();
    let step = b.eval("S.play.pos.legal[0].steps[0]");
    b.click(&format!("#board [data-hit='{}']", step["from"].as_str().unwrap()));
    b.wait(&format!("S.play.selected === '{}'", step["from"].as_str().unwrap()));
    b.click(&format!("#board [data-hit='{}']", step["to"].as_str().unwrap()));
    if b.eval("document.querySelectorAll('#prompt button').length").as_u64() != Some(0) {
        b.click(&format!("#prompt button[data-mark='{}']", step["mark"].as_str().unwrap()));
    }
    if b.eval("S.play.partial.length").as_u64() != Some(0) {
        b.click("#p-stop");
    }
    b.wait(&format!("S.play.moves.length > {before} + 1 && !S.play.busy"));
}

/// Waits until the game is open and idle.
fn settled(b: &mut Browser) {
    b.wait("S.play.pos !== null && !S.play.busy && !S.play.restoring");
}

#[test]
fn a_game_survives_reload_back_and_a_closed_tab_and_its_link_reopens_it() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    b.goto(&format!("{base}#play&level=Club&color=w&anim=off"));
    settled(&mut b);
    play_first(&mut b);
    play_first(&mut b);
    let game = shown(&mut b);
    assert_eq!(game["moves"].as_array().unwrap().len(), 4, "{game}");
    // A reload: the same game, at once (the address holds it).
    b.reload();
    settled(&mut b);
    assert_eq!(shown(&mut b), game);
    assert!(b.text("status").starts_with("Your turn (white)"), "{}", b.text("status"));
    // Leaving the page and coming back with Back.
    b.leave_for(&format!("{base}favicon.svg"));
    b.back();
    settled(&mut b);
    assert_eq!(shown(&mut b), game);
    // A closed tab: the page opened afresh (no address) offers the game kept in the browser.
    b.goto(&base);
    b.wait("!document.getElementById('resume').classList.contains('hidden')");
    assert_eq!(
        b.text("resume-text"),
        "You have an unfinished game against Computer (Club) (2 moves played). Resume it?"
    );
    assert_eq!(shown(&mut b), game);
    b.click("#resume-yes");
    b.wait("document.getElementById('resume').classList.contains('hidden')");
    play_first(&mut b);
    let game = shown(&mut b);
    // The game's link, opened in another browser (nothing kept there), reopens it in Play...
    let link = b.eval("document.getElementById('p-link').getAttribute('href')").as_str().unwrap().to_string();
    let replay =
        b.eval("document.getElementById('p-link-replay').getAttribute('href')").as_str().unwrap().to_string();
    b.fresh_context();
    b.viewport(1280, 800, false);
    b.goto(&format!("{base}{link}"));
    settled(&mut b);
    assert_eq!(shown(&mut b), game);
    // ... and in Replay, every turn listed, the same rows.
    b.goto(&format!("{base}{replay}"));
    b.wait("S.replay.data !== null");
    assert_eq!(
        b.eval("[...document.querySelectorAll('#turns tbody tr')].map(r => r.textContent)"),
        game["rows"]
    );
    b.click("#last");
    b.wait("document.getElementById('status').textContent.startsWith('End of the game after 3 moves')");
    // A new game started from the offer's other button.
    b.goto(&base);
    settled(&mut b);
    assert_eq!(b.eval("S.play.moves.length"), json!(6), "the link's game is now the one kept here");
    b.wait("!document.getElementById('resume').classList.contains('hidden')");
    b.click("#resume-no");
    b.wait("S.play.moves.length === 0 && document.getElementById('resume').classList.contains('hidden')");
    assert_nothing_from_outside(&b, &base);
}

/// After loading `hash`, the page shows `message` and a fresh game from the start.
fn refused(b: &mut Browser, base: &str, hash: &str, message: &str) {
    b.goto(&format!("{base}{hash}"));
    settled(b);
    let v = b.eval(
        "({ message: document.getElementById('message').textContent, moves: S.play.moves.length, \
           stones: document.querySelectorAll('#board circle.stone').length })",
    );
    assert_eq!(v, json!({"message": message, "moves": 0, "stones": 44}), "{hash}");
}

#[test]
fn a_bad_link_or_kept_game_is_refused_with_a_message_and_a_fresh_game() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    let fresh = " A new game was started instead.";
    let malformed = format!("The game link or the game kept in this browser is malformed.{fresh}");
    refused(&mut b, &base, "#play&v=1&color=w&moves=d3e3%2B%20zz9", &malformed);
    refused(&mut b, &base, "#play&v=1&color=purple&moves=d3e3%2B", &malformed);
    refused(&mut b, &base, "#play&v=1&color=w&moves=%E0%A4%A", &malformed);
    refused(
        &mut b,
        &base,
        "#play&v=2&color=w&moves=d3e3%2B",
        &format!(
            "The game was kept by another version of this page (version 2; this page reads version 1).{fresh}"
        ),
    );
    refused(
        &mut b,
        &base,
        "#play&color=w&moves=d3e3%2B",
        &format!(
            "The game was kept by another version of this page (version ?; this page reads version 1).{fresh}"
        ),
    );
    // A turn that is well formed but illegal: the server's reason.
    b.goto(&format!("{base}#play&v=1&color=w&moves={}", enc("d3e3+ a1a2")));
    settled(&mut b);
    let message = b.text("message");
    assert!(message.starts_with("The game cannot be opened: moves: turn 2 \"a1a2\""), "{message}");
    assert!(message.ends_with(fresh), "{message}");
    assert_eq!(b.eval("S.play.moves.length"), json!(0));
    // More turns than a game can have (the server's limit, 300).
    let long = vec!["d3e3+"; 301].join(" ");
    refused(
        &mut b,
        &base,
        &format!("#play&v=1&color=w&moves={}", enc(&long)),
        &format!("The game has 301 turns, more than the 300 a game can have.{fresh}"),
    );
    // A kept game that is not JSON, from another version, or too large is dropped.
    for (kept, message) in [
        ("{not json".to_string(), malformed.clone()),
        (
            json!({"v": "7", "start": "startpos", "moves": [], "color": "w"}).to_string(),
            format!("The game was kept by another version of this page (version 7; this page reads version 1).{fresh}"),
        ),
        (
            json!({"v": "1", "start": "startpos", "moves": ["d3e3+"], "color": "w", "pad": "x".repeat(70_000)})
                .to_string(),
            format!("The game is too large to open (68 KiB).{fresh}"),
        ),
    ] {
        b.eval(&format!("localStorage.setItem('fanorona.game', {})", json!(kept)));
        refused(&mut b, &base, "", &message);
        assert_eq!(b.eval("localStorage.getItem('fanorona.game').length < 1000"), json!(true), "dropped, then replaced");
    }
}
