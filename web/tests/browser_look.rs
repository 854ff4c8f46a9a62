//! What the page shows and says, in a real headless Chromium (tests/common/chromium.rs): the
//! marks' contrast computed from the page's styles (light and dark), hint rings unlike the
//! last turn's marks, dark mode, the flip button, the hint, move sounds, "Your turn" in the
//! tab's title, no stale message after a double click or a click in the computer's turn, the
//! thinking indicator and the wait for a busy engine, the review of a game with a planted
//! blunder, and the page in each of its languages with no string missing.
#![allow(clippy::unwrap_used)]

mod common;

use common::chromium::{Browser, addr_of, assert_nothing_from_outside, browser_or_skip, open};
use common::{enc, post};
use fanorona_core::{Color, Position};
use fanorona_web::Config;
use serde_json::{Value, json};

/// WCAG's contrast of every mark the board draws against the board, and of a cross against
/// the stones it marks, from the page's computed styles (each mark drawn once on the board).
const CONTRASTS: &str = r#"(() => {
  const lum = (c) => { const [r, g, b] = c.match(/\d+(\.\d+)?/g).slice(0, 3).map(Number).map((v) => { v /= 255; return v <= 0.04045 ? v / 12.92 : ((v + 0.055) / 1.055) ** 2.4; }); return 0.2126 * r + 0.7152 * g + 0.0722 * b; };
  const ratio = (a, b) => { const [x, y] = [lum(a), lum(b)].sort((p, q) => q - p); return (x + 0.05) / (y + 0.05); };
  const svg = document.getElementById('board');
  const style = (cls, tag) => { const e = document.createElementNS('http://www.w3.org/2000/svg', tag || 'line'); e.setAttribute('class', cls); svg.appendChild(e); const s = getComputedStyle(e); const v = { stroke: s.stroke, fill: s.fill, opacity: s.opacity, dash: s.strokeDasharray }; e.remove(); return v; };
  const board = getComputedStyle(svg).backgroundColor;
  const out = { board, marks: {} };
  for (const [cls, prop, tag] of [['last-path', 'stroke'], ['last-from', 'stroke', 'circle'], ['ghost', 'stroke'], ['cross', 'stroke'], ['target', 'fill', 'circle'], ['must', 'stroke', 'circle'], ['hint-path', 'stroke'], ['hint-from', 'stroke', 'circle'], ['hint-to', 'fill', 'circle'], ['path', 'stroke']]) {
    const s = style(cls, tag);
    out.marks[cls] = { ratio: ratio(s[prop], board), opacity: Number(s.opacity), color: s[prop], dash: s.dash };
  }
  const cross = style('cross').stroke, halo = style('cross-halo').stroke;
  out.crossOnStones = ['stone white', 'stone black'].map((c) => { const stone = style(c, 'circle').fill; return Math.max(ratio(cross, stone), ratio(halo, stone)); });
  out.crossOnHalo = ratio(cross, halo);
  out.body = lum(getComputedStyle(document.body).backgroundColor);
  return out;
})()"#;

fn assert_contrast(b: &mut Browser, theme: &str) {
    let v = b.eval(CONTRASTS);
    for (cls, m) in v["marks"].as_object().unwrap() {
        assert!(
            m["ratio"].as_f64().unwrap() >= 3.0,
            "{theme}: {cls} has contrast {m} against the board {}",
            v["board"]
        );
        assert_eq!(m["opacity"], 1.0, "{theme}: {cls} is drawn see-through: {m}");
    }
    for r in v["crossOnStones"].as_array().unwrap().iter().chain([&v["crossOnHalo"]]) {
        assert!(r.as_f64().unwrap() >= 3.0, "{theme}: a cross is hard to see on a stone: {v}");
    }
    // The rings of the stones that must capture and of the hint are not the last turn's.
    let m = &v["marks"];
    assert_ne!(m["must"]["color"], m["last-from"]["color"], "{theme}: {m}");
    assert_ne!(m["must"]["dash"], m["last-from"]["dash"], "{theme}: {m}");
    assert_ne!(m["hint-from"]["color"], m["last-from"]["color"], "{theme}: {m}");
    assert_ne!(m["hint-path"]["color"], m["last-path"]["color"], "{theme}: {m}");
    assert_ne!(m["hint-path"]["dash"], m["last-path"]["dash"], "{theme}: {m}");
    let body = v["body"].as_f64().unwrap();
    if theme == "dark" {
        assert!(body < 0.05, "the dark page is not dark: {v}");
    } else {
        assert!(body > 0.6, "the light page is not light: {v}");
    }
}

/// The first turn of the player whose first step is the only one from its stone to its point
/// (no approach-or-withdrawal question) and has no second step.
fn plain_turn(b: &mut Browser) -> Value {
    b.eval(
        "(() => { const L = S.play.pos.legal; return L.find(t => t.steps.length === 1 && \
           L.filter(u => u.steps[0].from === t.steps[0].from && u.steps[0].to === t.steps[0].to).length === 1); })()",
    )
}

fn point_of(b: &mut Browser, p: &str) -> (f64, f64) {
    let v = b.eval(&format!("(() => {{ const r = document.getElementById('pt-{p}').getBoundingClientRect(); return [r.x, r.y]; }})()"));
    (v[0].as_f64().unwrap(), v[1].as_f64().unwrap())
}

#[test]
fn marks_stand_out_in_light_and_dark_and_the_comforts_work() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    b.goto(&format!("{base}#play&level=Beginner&color=w&anim=off"));
    b.wait("S.play.pos && !S.play.busy");
    assert_eq!(b.eval("document.documentElement.dataset.theme"), json!("light"));
    assert_contrast(&mut b, "light");
    // "Your turn" in the tab's title while it is.
    assert_eq!(b.eval("document.title"), json!("Your turn · Fanorona"));
    // The flip button turns the board half round, and back.
    let (a1, i5) = (point_of(&mut b, "a1"), point_of(&mut b, "i5"));
    assert!(a1.1 > i5.1 && a1.0 < i5.0);
    b.click("#p-flip");
    b.wait("document.getElementById('p-flip').getAttribute('aria-pressed') === 'true'");
    assert_eq!((point_of(&mut b, "a1"), point_of(&mut b, "i5")), (i5, a1));
    b.click("#p-flip");
    b.wait("document.getElementById('p-flip').getAttribute('aria-pressed') === 'false'");
    assert_eq!(point_of(&mut b, "a1"), a1);
    // The hint marks a legal turn, in words too; choosing a stone puts it away.
    b.click("#p-hint");
    b.wait("S.play.hint !== null");
    let hint = b.eval("S.play.hint.notation");
    assert_eq!(b.eval(&format!("S.play.pos.legal.some(t => t.notation === {hint})")), json!(true));
    assert_eq!(b.eval("document.querySelectorAll('#board .hint-path').length"), json!(1));
    assert!(b.text("message").starts_with("Hint: "), "{}", b.text("message"));
    let from = b.eval("S.play.hint.steps[0].from").as_str().unwrap().to_string();
    assert_eq!(b.eval("document.querySelectorAll('#board circle.hint-from').length"), json!(2));
    assert_eq!(
        b.eval(&format!("document.querySelector('#board circle.hint-from').dataset.hintFrom === '{from}'")),
        json!(true)
    );
    // Move sounds, when switched on, play with every step.
    b.click("#settings summary");
    b.click("#p-sound");
    let turn = plain_turn(&mut b);
    let step = &turn["steps"][0];
    b.click(&format!("#board [data-hit='{}']", step["from"].as_str().unwrap()));
    assert_eq!(b.eval("document.querySelectorAll('#board .hint-path').length"), json!(0));
    b.click(&format!("#board [data-hit='{}']", step["to"].as_str().unwrap()));
    b.wait("S.play.moves.length >= 2 && !S.play.busy");
    assert!(
        b.eval("SOUND.played").as_u64().unwrap() >= 2,
        "a sound for the player's step and the computer's"
    );
    // Dark, as the system prefers (the settings say "as the system"), and chosen by hand.
    b.prefer_dark(true);
    b.goto(&format!("{base}#play&level=Beginner&color=w"));
    b.wait("document.documentElement.dataset.theme === 'dark'");
    assert_contrast(&mut b, "dark");
    b.click("#settings summary");
    b.eval("(() => { const e = document.getElementById('p-theme'); e.value = 'light'; e.dispatchEvent(new Event('change')); })()");
    b.wait("document.documentElement.dataset.theme === 'light'");
    b.prefer_dark(false);
    assert_nothing_from_outside(&b, &base);
}

#[test]
fn no_stale_message_after_a_double_click_or_a_click_in_the_computers_turn() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    // An engine that thinks for a second and a half: time to click while it does.
    let engine = "alphabeta:depth=30,movetime=1500,eval=handcrafted";
    b.goto(&format!("{base}#play&color=w&anim=off&engine={}", enc(engine)));
    b.wait("S.play.pos && !S.play.busy");
    b.click("#board [data-hit='d4']");
    b.wait("document.getElementById('message').textContent === 'There is no white stone on d4.'");
    let turn = plain_turn(&mut b);
    let step = &turn["steps"][0];
    b.click(&format!("#board [data-hit='{}']", step["from"].as_str().unwrap()));
    b.wait("document.getElementById('message').textContent === ''");
    // A double click on the point: the first click plays, the second lands in the computer's turn.
    b.double_click(&format!("#board [data-hit='{}']", step["to"].as_str().unwrap()));
    b.wait("S.play.busy && S.play.moves.length === 1");
    b.click("#board [data-hit='a5']");
    b.wait("document.querySelector('#status .elapsed') !== null");
    let v = b.eval(
        "({ status: document.getElementById('status').firstChild.textContent, message: document.getElementById('message').textContent, \
           elapsed: document.querySelector('#status .elapsed').textContent, title: document.title, \
           thinking: document.getElementById('status').classList.contains('thinking') })",
    );
    assert_eq!(v["status"], "The computer is thinking…", "{v}");
    assert_eq!(v["message"], "", "{v}");
    assert_eq!(v["thinking"], true, "{v}");
    assert_eq!(v["title"], "Fanorona: play against the computer", "{v}");
    let elapsed = v["elapsed"].as_str().unwrap();
    assert!(elapsed.ends_with(" s") && elapsed[..elapsed.len() - 2].parse::<f64>().is_ok(), "{v}");
    b.wait("!S.play.busy && S.play.moves.length === 2");
    assert!(b.text("status").starts_with("Your turn (white)"), "{}", b.text("status"));
    assert_eq!(b.text("message"), "");
}

#[test]
fn a_busy_engine_makes_the_computer_wait_its_turn_instead_of_failing() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    let addr = addr_of(&base);
    b.goto(&format!("{base}#play&level=Beginner&color=w&anim=off"));
    b.wait("S.play.pos && !S.play.busy");
    // Both engine slots taken by searches nobody polls (they stop after 3 s).
    for _ in 0..2 {
        let r = post(
            addr,
            "/api/search",
            &json!({"engine": "alphabeta:depth=30,movetime=5000,eval=handcrafted"}),
        );
        assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    }
    assert_eq!(post(addr, "/api/engine", &json!({"level": "Club"})).status, 503);
    // The page is ready only once the computer has moved: it is watched while it loads.
    b.navigate(&format!("{base}#play&level=Club&color=b&anim=off"));
    b.wait(
        "document.getElementById('status') !== null && \
         document.getElementById('status').textContent.startsWith('The engine is busy with other games: your game waits its turn')",
    );
    b.wait("document.body.dataset.ready === '1' && S.play.moves.length === 1 && !S.play.busy");
    assert_eq!(b.text("message"), "");
    assert!(b.text("status").starts_with("Your turn (black)"), "{}", b.text("status"));
}

/// The planted blunder: White (a1, b1) against Black (b2, c2), White to move. b1c1 lets Black
/// take both stones at once; a1a2 wins.
const BLUNDER: &str = "9/9/9/1BB6/WW7 w";

fn planted_blunder_position() -> Position {
    let pos: Position = BLUNDER.parse().unwrap();
    let mut legal: Vec<String> = pos.legal_moves().iter().map(|m| m.to_string()).collect();
    legal.sort();
    assert_eq!(legal, ["a1a2", "b1c1"]);
    let after = pos.play(&pos.parse_move("b1c1").unwrap()).unwrap();
    assert!(
        after.legal_moves().iter().any(|m| after.play(m).unwrap().stones(Color::White).count() == 0),
        "after b1c1 Black takes every white stone"
    );
    pos
}

/// Loses the planted blunder against `greedy` (which takes both stones at once).
fn lose_the_planted_game(b: &mut Browser, base: &str) {
    b.goto(&format!("{base}#play&color=w&anim=off&engine=greedy&position={}", enc(BLUNDER)));
    b.wait("S.play.pos && !S.play.busy");
    b.click("#board [data-hit='b1']");
    b.wait("S.play.selected === 'b1'");
    b.click("#board [data-hit='c1']");
    b.wait("document.getElementById('result').classList.contains('show')");
}

#[test]
fn a_review_marks_the_planted_blunder_and_offers_the_better_turn() {
    let Some(bin) = browser_or_skip() else { return };
    planted_blunder_position();
    let (mut b, base, _dir) = open(&bin, Config::default());
    lose_the_planted_game(&mut b, &base);
    assert_eq!(b.text("result-title"), "The computer won");
    b.click("#p-review");
    b.wait("S.play.review && !S.play.review.running");
    assert_eq!(
        b.text("review-status"),
        "Reviewed 1 of your turns. Blunders: 1, mistakes: 0, inaccuracies: 0."
    );
    let item = b.eval(
        "[...document.querySelectorAll('#review-list li')].map(l => ({ ply: l.dataset.reviewPly, kind: l.dataset.kind, text: l.textContent }))",
    );
    assert_eq!(item.as_array().unwrap().len(), 1, "{item}");
    assert_eq!(item[0]["ply"], "0");
    assert_eq!(item[0]["kind"], "blunder");
    assert!(
        item[0]["text"]
            .as_str()
            .unwrap()
            .starts_with("1. b1c1: blunder Your expected result went from 100 to 0. Better: a1a2."),
        "{item}"
    );
    // The move list marks it.
    let cell = b.eval("document.querySelector(\"#movelist button[data-ply='1']\")");
    assert!(!cell.is_null());
    assert_eq!(
        b.eval("document.querySelector(\"#movelist button[data-ply='1'] .mark\").textContent"),
        json!("??")
    );
    // The better turn, shown on the position before the mistake.
    b.click(".review-show");
    b.wait("document.getElementById('viewing').classList.contains('show')");
    assert_eq!(b.text("viewing-text"), "Viewing the start of the game.");
    assert_eq!(b.eval("document.querySelector('#board circle.hint-from').dataset.hintFrom"), json!("a1"));
    assert_eq!(b.eval("document.querySelector('#board circle.hint-to').dataset.hintTo"), json!("a2"));
    // "Analyse this game": its turns, the position before the last, the bar from the player's side.
    b.click("#p-to-analyse");
    b.wait("document.getElementById('panel-analyse').classList.contains('active')");
    b.wait("document.querySelectorAll('#a-turns button').length === 2");
    assert_eq!(b.eval("document.getElementById('a-moves').value"), json!("b1c1"));
    b.eval("document.getElementById('a-engine').value = 'alphabeta:depth=2,eval=material'");
    b.click("#a-start");
    b.wait("document.getElementById('a-result').textContent.startsWith('best ')");
    // Black takes both white stones at once: White's expected result is nil.
    assert_eq!(b.eval("document.getElementById('evalbar-text').textContent"), json!("White: 0 %"));
    // Back in Play, playing on from before the blunder: the same game, the player to move.
    b.click("#tab-play");
    b.wait("document.getElementById('result').classList.contains('show')");
    b.click(".review-again");
    b.wait("S.play.moves.length === 0 && !S.play.restoring && !document.getElementById('result').classList.contains('show')");
    assert!(b.text("status").starts_with("Your turn (white)"), "{}", b.text("status"));
    assert_eq!(b.eval("S.play.engine"), json!("greedy"));
    assert_nothing_from_outside(&b, &base);
}

/// Visible text on the page that did not come from the catalogue (words other than notation,
/// points and numbers), and the keys looked up but missing from the language's catalogue.
const UNTRANSLATED: &str = r#"(() => {
  const bad = [];
  const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
  for (let n; (n = walker.nextNode());) {
    const text = n.textContent.trim(), e = n.parentElement;
    if (!text || !e || e.closest('script, style, h1, #lang, #program, .sr-only, [data-i18n]')) continue;
    if (!e.getClientRects().length || getComputedStyle(e).visibility === 'hidden') continue;
    const words = text.replace(/[a-i][1-5]([a-i][1-5][+-]?)*/g, '');
    if (!/\p{L}{2,}/u.test(words)) continue;
    if (!I18N.rendered.has(text) && !I18N.rendered.has(n.textContent)) bad.push(text);
  }
  return { bad, missing: [...I18N.missing], lang: document.documentElement.lang };
})()"#;

fn assert_translated(b: &mut Browser, lang: &str, what: &str) {
    let v = b.eval(UNTRANSLATED);
    assert_eq!(v, json!({"bad": [], "missing": [], "lang": lang}), "{lang}, {what}");
}

#[test]
fn the_page_in_six_languages_with_no_string_missing() {
    let Some(bin) = browser_or_skip() else { return };
    let (mut b, base, _dir) = open(&bin, Config::default());
    let langs = ["en", "mg", "fr", "fi", "vi", "ru"];
    b.goto(&base);
    let offered = b.eval("[...document.querySelectorAll('#lang option')].map(o => o.value)");
    assert_eq!(offered, json!(langs));
    let mut titles = Vec::new();
    for lang in langs {
        b.eval(&format!(
            "(() => {{ const e = document.getElementById('lang'); e.value = '{lang}'; e.dispatchEvent(new Event('change')); }})()"
        ));
        b.wait(&format!("I18N.lang === '{lang}' && document.documentElement.lang === '{lang}'"));
        lose_the_planted_game(&mut b, &base);
        b.eval("for (const d of document.querySelectorAll('details')) d.open = true");
        b.click("#p-review");
        b.wait("S.play.review && !S.play.review.running");
        b.click(".review-show");
        assert_translated(&mut b, lang, "the end of a game, its review, the settings and the rules");
        b.click("#p-new-open");
        b.wait("document.getElementById('setup').open");
        assert_translated(&mut b, lang, "the new game dialog");
        b.click("#p-setup-cancel");
        b.goto(&format!("{base}#play&level=Beginner&color=w"));
        b.click("#board [data-hit='d4']");
        b.wait("document.getElementById('message').textContent !== ''");
        assert_translated(&mut b, lang, "a game in progress and a rule's message");
        titles.push(b.text("tab-play"));
    }
    // Six languages, six words for Play.
    titles.sort();
    titles.dedup();
    assert_eq!(titles.len(), 6, "{titles:?}");
    // A browser that prefers French gets French, with nothing chosen before.
    b.fresh_context();
    b.languages("fr-CA,fr;q=0.9,en;q=0.5");
    b.goto(&base);
    assert_eq!(b.eval("document.documentElement.lang"), json!("fr"));
    assert_eq!(b.text("tab-play"), "Jouer");
    b.fresh_context();
    b.languages("de-DE,de");
    b.goto(&base);
    assert_eq!(b.eval("document.documentElement.lang"), json!("en"), "a language the page lacks: English");
}
