//! The JSON API over real HTTP: a server on an ephemeral port, a std::net client.
#![allow(clippy::unwrap_used)]

mod common;

use std::path::PathBuf;

use common::{PLAYERS, enc, get, play, post, raw, serve, write_games};
use fanorona_core::Position;
use fanorona_web::Config;
use serde_json::json;

fn server_with_games() -> (tempfile::TempDir, std::net::SocketAddr, String, Vec<fanorona_data::GameRecord>) {
    let dir = tempfile::tempdir().unwrap();
    let (path, recs) = write_games(dir.path());
    let addr = serve(Config { files: vec![path.clone()], ..Config::default() });
    (dir, addr, path.display().to_string(), recs)
}

#[test]
fn binds_loopback_by_default_and_serves_the_page() {
    let server = fanorona_web::Server::bind(Config::default()).unwrap();
    assert!(server.addr().unwrap().ip().is_loopback());
    let addr = server.spawn().unwrap();
    let page = get(addr, "/");
    assert_eq!(page.status, 200);
    assert!(page.content_type.starts_with("text/html"));
    assert!(String::from_utf8_lossy(&page.body).contains("/js/app.js"));
    let js = get(addr, "/js/play.js");
    assert_eq!(js.status, 200);
    assert!(String::from_utf8_lossy(&js.body).contains("/api/position"));
    let catalogue = get(addr, "/i18n/mg.json");
    assert_eq!(catalogue.status, 200);
    assert!(catalogue.content_type.starts_with("application/json"));
    assert!(catalogue.json()["nav.play"].is_string());
    for bad in [
        "/../Cargo.toml",
        "/%2e%2e/%2e%2e/etc/passwd",
        "/etc/passwd",
        "/web/assets/js/app.js",
        "/i18n/xx.json",
    ] {
        let r = get(addr, bad);
        assert_eq!(r.status, 404, "{bad}");
        assert!(r.error().contains("no page"), "{bad}");
    }
    assert_eq!(get(addr, "/api/nothing").status, 404);
    let r = post(addr, "/api/position", &json!({}));
    assert_eq!(r.status, 405);
    assert!(r.error().contains("POST"));
}

#[test]
fn positions_list_legal_turns_with_every_step() {
    let addr = serve(Config::default());
    let v = get(addr, "/api/position").json();
    assert_eq!(v["position"], Position::start().to_string());
    assert_eq!(v["legal"].as_array().unwrap().len(), 5);
    assert_eq!(v["board"]["white"].as_array().unwrap().len(), 22);
    assert_eq!(v["must_capture"], json!(true));
    // `+` stays the approach mark in a query (it is not a space).
    let v = get(addr, "/api/position?moves=d3e3+").json();
    assert_eq!(v["ply"], 1);
    assert_eq!(v["turn"], "black");
    assert_eq!(v["black_stones"], 21);
    // Every turn's steps end where the turn does, and their captures add up to the turn's.
    let chain_pos = first_chain_position();
    let c = get(addr, &format!("/api/position?position={}", enc(&chain_pos.to_string()))).json();
    let mut chains = 0;
    for t in c["legal"].as_array().unwrap() {
        let steps = t["steps"].as_array().unwrap();
        assert_eq!(steps.first().unwrap()["from"], t["from"]);
        assert_eq!(steps.last().unwrap()["to"], t["to"]);
        let n: usize = steps.iter().map(|s| s["captured"].as_array().unwrap().len()).sum();
        assert_eq!(n, t["captured"].as_array().unwrap().len(), "{t}");
        chains += usize::from(steps.len() > 1);
    }
    assert!(chains > 0, "{chain_pos} has capture chains");
    // The same game as a position string.
    let after = Position::start().play(&Position::start().parse_move("d3e3+").unwrap()).unwrap();
    let w = get(addr, &format!("/api/position?position={}", enc(&after.to_string()))).json();
    assert_eq!(w["legal"], v["legal"]);
}

/// The first position (breadth-first from the start) where a capture chain is legal.
fn first_chain_position() -> Position {
    let mut layer = vec![Position::start()];
    loop {
        let mut next = Vec::new();
        for p in &layer {
            if p.legal_moves().iter().any(|m| m.steps().len() > 1) {
                return *p;
            }
            next.extend(p.legal_moves().iter().map(|m| p.play(m).unwrap()));
        }
        layer = next;
    }
}

#[test]
fn bad_positions_and_turns_are_400_naming_the_problem() {
    let addr = serve(Config::default());
    let r = get(addr, "/api/position?position=BBB");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("position \"BBB\""), "{}", r.error());
    let r = get(addr, "/api/position?moves=d3e3%2B%20a1a2");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("turn 2 \"a1a2\""), "{}", r.error());
    let r = get(addr, "/api/position?moves=d3e3%2B%20zz");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("\"zz\""), "{}", r.error());
    let r = get(addr, "/api/check?turn=a1c3");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("not next to"), "{}", r.error());
    let r = get(addr, "/api/check?from=z9");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("z9"));
    assert_eq!(get(addr, "/api/check").status, 400);
    let r = get(addr, "/api/position?moves=%zz");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("percent-encoding"));
    let r = post(addr, "/api/engine", &json!({"engine": "minimax"}));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("minimax"));
    let r = post(addr, "/api/engine", &json!({"moves": 3}));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("moves"));
    let r = raw(addr, b"POST /api/engine HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/json\r\nContent-Length: 5\r\n\r\n{nope");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("not JSON"));
    // What another web site could make a browser send is refused.
    let r = raw(addr, b"POST /api/save HTTP/1.1\r\nHost: localhost\r\nContent-Type: text/plain\r\nContent-Length: 2\r\n\r\n{}");
    assert_eq!(r.status, 415);
    assert!(r.error().contains("application/json"));
    let r = raw(addr, b"GET /api/info HTTP/1.1\r\nHost: evil.example:8080\r\n\r\n");
    assert_eq!(r.status, 403);
    assert!(r.error().contains("evil.example"));
    assert_eq!(raw(addr, b"GET /api/info HTTP/1.1\r\nHost: 127.0.0.1:8080\r\n\r\n").status, 200);
    assert_eq!(raw(addr, b"GET /api/info HTTP/1.1\r\nHost: [::1]:8080\r\n\r\n").status, 200);
    let r = raw(addr, b"POST /api/engine HTTP/1.1\r\nHost: localhost\r\nContent-Length: 99999999\r\n\r\n");
    assert_eq!(r.status, 413);
    let r = raw(addr, b"NONSENSE\r\n\r\n");
    assert_eq!(r.status, 400);
    let r = raw(addr, b"GET /\xff\xfe HTTP/1.1\r\n\r\n");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("UTF-8"));
    let r = raw(addr, b"GET / HTTP/1.1\r\nTransfer-Encoding: chunked\r\n\r\n");
    assert_eq!(r.status, 411);
    let huge = format!("GET /api/position?moves={} HTTP/1.1\r\n\r\n", "a".repeat(100_000));
    assert_eq!(raw(addr, huge.as_bytes()).status, 431);
    // The server is still there.
    assert_eq!(get(addr, "/api/info").status, 200);
}

#[test]
fn checks_say_which_rule_forbids_a_turn() {
    let addr = serve(Config::default());
    let v = get(addr, "/api/check?from=d4").json();
    assert_eq!(v["legal"], false);
    assert_eq!(v["rule"], "not-your-stone");
    assert_eq!(v["error"], "there is no white stone on d4");
    let v = get(addr, "/api/check?from=a1").json();
    assert_eq!(v["rule"], "capture-compulsory");
    assert!(v["error"].as_str().unwrap().contains("cannot capture"));
    let v = get(addr, "/api/check?from=d3").json();
    assert_eq!(v["legal"], true);
    assert_eq!(v["turns"].as_array().unwrap().len(), 2);
    let v = get(addr, "/api/check?turn=d3e3").json();
    assert_eq!(v["rule"], "missing-mark");
    assert!(v["error"].as_str().unwrap().contains("d3e3+ or d3e3-"), "{v}");
    let v = get(addr, "/api/check?turn=d3e3%2B").json();
    assert_eq!(v["legal"], true);
    assert_eq!(v["turn"]["captured"], json!(["f3"]));
    let v = get(addr, "/api/check?turn=b2b3").json();
    assert_eq!(v["rule"], "occupied");
}

#[test]
fn records_are_listed_with_filters() {
    let (_dir, addr, name, recs) = server_with_games();
    let files = get(addr, "/api/files").json();
    assert_eq!(files["files"][0]["name"], name);
    assert_eq!(files["files"][0]["games"], 3);
    assert_eq!(files["files"][0]["kind"], "selfplay");
    let all = get(addr, &format!("/api/games?file={}", enc(&name))).json();
    assert_eq!(all["total"], 3);
    assert_eq!(all["matched"], 3);
    assert_eq!(all["games"][2]["white"], PLAYERS[2].0);
    assert_eq!(all["games"][1]["length"], recs[1].turns.len());
    let greedy_white = get(addr, &format!("/api/games?file={}&engine=GREEDY", enc(&name))).json();
    assert_eq!(greedy_white["matched"], 3, "greedy plays in every game");
    let wins = recs.iter().filter(|r| r.outcome.result_str() == "1-0").count();
    let v = get(addr, &format!("/api/games?file={}&result=white", enc(&name))).json();
    assert_eq!(v["matched"], wins);
    let longest = recs.iter().map(|r| r.turns.len()).max().unwrap();
    let v = get(addr, &format!("/api/games?file={}&min_len={longest}", enc(&name))).json();
    assert!(v["games"].as_array().unwrap().iter().all(|g| g["length"] == longest));
    let v = get(addr, &format!("/api/games?file={}&max_len={}", enc(&name), longest - 1)).json();
    assert_eq!(
        v["matched"].as_u64().unwrap() as usize,
        recs.iter().filter(|r| r.turns.len() < longest).count()
    );
    let v = get(addr, &format!("/api/games?file={}&limit=1&offset=2", enc(&name))).json();
    assert_eq!(v["games"].as_array().unwrap().len(), 1);
    assert_eq!(v["games"][0]["game"], 2);
    let t = fanorona_web::api::views::termination_slug(recs[0].outcome.termination);
    let v = get(addr, &format!("/api/games?file={}&termination={t}", enc(&name))).json();
    assert!(v["matched"].as_u64().unwrap() >= 1);
    // Every ending is a filter, those of match adjudications too (none of these games has one).
    for t in fanorona_web::api::records::terminations() {
        let r = get(addr, &format!("/api/games?file={}&termination={t}", enc(&name)));
        assert_eq!(r.status, 200, "termination={t}");
    }
    for (q, status, needle) in [
        ("result=maybe", 400, "result \"maybe\""),
        ("termination=boredom", 400, "termination \"boredom\""),
        ("limit=5000", 400, "limit 5000"),
        ("min_len=x", 400, "min_len \"x\""),
    ] {
        let r = get(addr, &format!("/api/games?file={}&{q}", enc(&name)));
        assert_eq!(r.status, status, "{q}");
        assert!(r.error().contains(needle), "{q}: {}", r.error());
    }
    let r = get(addr, "/api/games");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("file is missing"));
    let r = get(addr, "/api/games?file=%2Fetc%2Fpasswd");
    assert_eq!(r.status, 404);
    assert!(r.error().contains("not one of the files"));
}

#[test]
fn games_replay_with_steps_and_scores() {
    let (_dir, addr, name, recs) = server_with_games();
    for (n, rec) in recs.iter().enumerate() {
        let v = get(addr, &format!("/api/game?file={}&game={n}", enc(&name))).json();
        let turns = v["turns"].as_array().unwrap();
        assert_eq!(turns.len(), rec.turns.len());
        assert_eq!(v["error"], serde_json::Value::Null);
        assert_eq!(v["outcome"]["result"], rec.outcome.result_str());
        assert_eq!(v["final"], rec.final_position().unwrap().to_string());
        for (i, t) in turns.iter().enumerate() {
            assert_eq!(t["turn"]["notation"], rec.turns[i].mv.to_string());
            // Scores were stored as the ply, from the mover's view.
            let white = if i % 2 == 0 { i as i64 } else { -(i as i64) };
            assert_eq!(t["white_score"].as_i64(), Some(white));
        }
    }
    for (q, status, needle) in [
        ("game=3", 404, "has 3 games"),
        ("game=-1", 400, "game \"-1\""),
        ("game=x", 400, "game \"x\""),
        ("", 400, "game is missing"),
    ] {
        let r = get(addr, &format!("/api/game?file={}&{q}", enc(&name)));
        assert_eq!(r.status, status, "{q}");
        assert!(r.error().contains(needle), "{q}: {}", r.error());
    }
    let r = get(addr, "/api/game?file=games.bin&game=0");
    assert_eq!(r.status, 404);
}

#[test]
fn directories_are_searched_and_damaged_files_reported() {
    let dir = tempfile::tempdir().unwrap();
    let sub = dir.path().join("gen-001");
    std::fs::create_dir(&sub).unwrap();
    let (games, _) = write_games(&sub);
    // Hidden files and the temporaries of unfinished writes are not listed.
    std::fs::copy(&games, sub.join(".hidden.bin")).unwrap();
    std::fs::copy(&games, sub.join("next.bin.part")).unwrap();
    std::fs::write(dir.path().join("notes.txt"), "not a record file").unwrap();
    let bad = dir.path().join("bad.bin");
    std::fs::write(&bad, b"garbage").unwrap();
    let addr = serve(Config { files: vec![dir.path().to_path_buf(), bad.clone()], ..Config::default() });
    let files = get(addr, "/api/files").json();
    let list = files["files"].as_array().unwrap();
    assert_eq!(list.len(), 2, "{files}");
    assert!(list[0]["name"].as_str().unwrap().ends_with("gen-001/games.bin"));
    assert_eq!(list[0]["games"], 3);
    assert!(list[1]["error"].as_str().unwrap().contains("bad.bin"));
    let r = get(addr, &format!("/api/games?file={}", enc(&bad.display().to_string())));
    assert_eq!(r.status, 400);
    let missing = fanorona_web::Server::bind(Config {
        files: vec![PathBuf::from("/no/such/dir")],
        ..Config::default()
    });
    assert!(missing.unwrap_err().to_string().contains("/no/such/dir"));
}

fn wait_done(addr: std::net::SocketAddr, id: u64) -> serde_json::Value {
    for _ in 0..2000 {
        let v = get(addr, &format!("/api/search?id={id}")).json();
        if v["done"] == true {
            return v;
        }
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
    panic!("search {id} did not finish");
}

#[test]
fn searches_report_every_depth() {
    let addr = serve(Config::default());
    let r =
        post(addr, "/api/search", &json!({"moves": ["d3e3+"], "engine": "alphabeta:depth=4,eval=material"}))
            .json();
    let id = r["id"].as_u64().unwrap();
    let v = wait_done(addr, id);
    let depths = v["depths"].as_array().unwrap();
    assert_eq!(depths.iter().map(|d| d["depth"].as_u64().unwrap()).collect::<Vec<_>>(), vec![1, 2, 3, 4]);
    assert!(depths.iter().all(|d| !d["pv"].as_array().unwrap().is_empty()));
    let result = &v["result"];
    assert_eq!(result["depth"], 4);
    assert_eq!(result["pv"][0], result["best"]);
    // The best turn is legal in the searched position.
    let best = result["best"].as_str().unwrap();
    let check = get(addr, &format!("/api/check?moves=d3e3%2B&turn={}", enc(best))).json();
    assert_eq!(check["legal"], true, "{best}");
    // A long search stops when asked.
    let long = post(addr, "/api/search", &json!({"engine": "alphabeta:depth=30,movetime=600000"})).json();
    assert_eq!(long["engine"], "alphabeta:depth=30,movetime=5000,eval=handcrafted", "capped: {long}");
    assert_eq!(long["capped"], true);
    let id = long["id"].as_u64().unwrap();
    assert_eq!(post(addr, &format!("/api/search/stop?id={id}"), &json!({})).status, 200);
    let v = wait_done(addr, id);
    assert_eq!(v["result"]["stopped"], true);
    for (body, status, needle) in [
        (json!({"engine": "greedy"}), 400, "only alphabeta"),
        (
            json!({"engine": "alphabeta:depth=2,eval=net:/no/such.fnet"}),
            400,
            "cannot name files on the server",
        ),
        (json!({"engine": "alphabeta:depth=31"}), 400, "at most depth 30"),
        (json!({"position": "BBBBBBBBB/BBBBBBBBB/9/9/9 w", "engine": "alphabeta:depth=2"}), 409, "over"),
    ] {
        let r = post(addr, "/api/search", &body);
        assert_eq!(r.status, status, "{body}");
        assert!(r.error().contains(needle), "{body}: {}", r.error());
    }
    assert_eq!(get(addr, "/api/search?id=999").status, 404);
    assert_eq!(get(addr, "/api/search?id=x").status, 400);
    assert_eq!(post(addr, "/api/search/stop?id=999", &json!({})).status, 404);
}

#[test]
fn engines_choose_legal_turns() {
    let addr = serve(Config::default());
    let v =
        post(addr, "/api/engine", &json!({"moves": "d3e3+", "engine": "alphabeta:depth=2,eval=material"}))
            .json();
    assert_eq!(v["after"]["ply"], 2);
    assert_eq!(v["depth"], 2);
    let t = v["turn"]["notation"].as_str().unwrap();
    let check = get(addr, &format!("/api/check?moves=d3e3%2B&turn={}", enc(t))).json();
    assert_eq!(check["legal"], true);
    assert_eq!(v["pv"][0], t);
    let v = post(addr, "/api/engine", &json!({"engine": "random", "seed": 5})).json();
    assert_eq!(v["after"]["turn"], "black");
    let r = post(addr, "/api/engine", &json!({"engine": "random", "seed": -5}));
    assert_eq!(r.status, 400);
    let r = post(addr, "/api/engine", &json!({"position": "BBBBBBBBB/BBBBBBBBB/9/9/9 w"}));
    assert_eq!(r.status, 409);
}

#[test]
fn finished_games_are_saved_as_records() {
    let dir = tempfile::tempdir().unwrap();
    let save = dir.path().join("played.bin");
    let addr = serve(Config { save: Some(save.clone()), ..Config::default() });
    let (game, _) = play("greedy", "greedy", 3);
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let body = json!({"moves": moves, "white": "human", "black": "greedy"});
    let r = post(addr, "/api/save", &body).json();
    assert_eq!(r["game"], 0);
    let r = post(addr, "/api/save", &body).json();
    assert_eq!(r["game"], 1);
    let name = save.display().to_string();
    let files = get(addr, "/api/files").json();
    assert_eq!(files["files"][0]["name"], name);
    assert_eq!(files["files"][0]["games"], 2);
    let v = get(addr, &format!("/api/game?file={}&game=1", enc(&name))).json();
    assert_eq!(v["black"], "greedy");
    let replayed: Vec<&str> =
        v["turns"].as_array().unwrap().iter().map(|t| t["turn"]["notation"].as_str().unwrap()).collect();
    assert_eq!(replayed, moves);
    assert_eq!(v["outcome"]["result"], game.outcome().unwrap().result_str());
    // An unfinished game is refused, and nothing is written.
    let r = post(addr, "/api/save", &json!({"moves": ["d3e3+"]}));
    assert_eq!(r.status, 409);
    assert!(r.error().contains("not over"));
    assert_eq!(get(addr, "/api/files").json()["files"][0]["games"], 2);
    // A download is a one-game record file.
    let r = post(addr, "/api/record", &body);
    assert_eq!(r.status, 200);
    assert_eq!(r.content_type, "application/octet-stream");
    let mut reader = fanorona_data::RecordReader::new(&r.body[..], std::path::Path::new("download")).unwrap();
    let rec = reader.read_record().unwrap().unwrap();
    assert_eq!(rec.turns.len(), moves.len());
    assert!(reader.read_record().is_none());
    // Without --save, saving says how to turn it on.
    let off = serve(Config::default());
    let r = post(off, "/api/save", &body);
    assert_eq!(r.status, 409);
    assert!(r.error().contains("--save"));
}

#[test]
fn positions_show_tablebase_values() {
    let dir = tempfile::tempdir().unwrap();
    let tb = fanorona_tb::generate(dir.path(), fanorona_tb::GenerateOptions::new(3, 1), &|_| {}).unwrap();
    let addr = serve(Config { tb: Some(dir.path().to_path_buf()), ..Config::default() });
    assert_eq!(get(addr, "/api/info").json()["tablebase"], 3);
    for text in ["8B/9/9/9/W8 w", "8B/9/9/9/WW7 b", "9/9/4B4/4W4/9 w"] {
        let pos: Position = text.parse().unwrap();
        let expected = match tb.probe(&pos).unwrap() {
            fanorona_tb::Value::Win(_) => "win",
            fanorona_tb::Value::Draw => "draw",
            fanorona_tb::Value::Loss(_) => "loss",
        };
        let v = get(addr, &format!("/api/position?position={}", enc(text))).json();
        assert_eq!(v["tablebase"]["value"], expected, "{text}: {v}");
    }
    assert_eq!(get(addr, "/api/position").json()["tablebase"], serde_json::Value::Null);
    let bad = fanorona_web::Server::bind(Config {
        tb: Some(PathBuf::from("/no/such/tables")),
        ..Config::default()
    });
    assert!(bad.unwrap_err().to_string().contains("/no/such/tables"));
}

#[test]
fn a_record_with_an_illegal_turn_replays_up_to_it() {
    let dir = tempfile::tempdir().unwrap();
    let (_, recs) = write_games(dir.path());
    let mut bad = recs[0].clone();
    // White's first turn replaced by Black's reply: not legal at the start.
    bad.turns[0] = bad.turns[1];
    let path = dir.path().join("bad-turn.bin");
    let mut w = fanorona_data::RecordWriter::create(
        &path,
        &fanorona_data::Header::new("test", fanorona_data::Kind::Match, "{}", 1),
    )
    .unwrap();
    w.write(&bad).unwrap();
    w.finish().unwrap();
    let addr = serve(Config { files: vec![path.clone()], ..Config::default() });
    let v = get(addr, &format!("/api/game?file={}&game=0", enc(&path.display().to_string()))).json();
    assert_eq!(v["turns"].as_array().unwrap().len(), 0);
    let error = v["error"].as_str().unwrap();
    assert!(error.starts_with(&format!("turn 1 {} is not legal", bad.turns[0].mv)), "{error}");
    assert_eq!(v["final"], Position::start().to_string());
}

#[test]
fn pages_carry_a_content_security_policy() {
    let addr = serve(Config::default());
    let page = get(addr, "/");
    assert_eq!(
        page.header("Content-Security-Policy"),
        Some(
            "default-src 'self'; img-src 'self' data:; style-src 'self'; script-src 'self'; \
             connect-src 'self'; frame-ancestors 'none'"
        ),
        "{}",
        page.head
    );
    assert_eq!(get(addr, "/js/app.js").header("Content-Security-Policy"), None);
}

#[test]
fn info_lists_the_levels() {
    let addr = serve(Config::default());
    let v = get(addr, "/api/info").json();
    let levels = v["levels"].as_array().unwrap();
    let names: Vec<&str> = levels.iter().map(|l| l["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["Beginner", "Casual", "Club", "Strong", "Maximum"]);
    for l in levels {
        assert!(!l["description"].as_str().unwrap().is_empty(), "{l}");
        l["spec"].as_str().unwrap().parse::<fanorona_engine::PlayerSpec>().unwrap();
        // Each level's measured time a turn, in milliseconds (the page shows it).
        assert!(l["turn_ms"].as_u64().is_some_and(|ms| ms > 0), "{l}");
    }
    // Maximum is the slowest by far: about two seconds a turn, where the others take a few
    // milliseconds.
    assert!(levels[4]["turn_ms"].as_u64().unwrap() > 100 * levels[3]["turn_ms"].as_u64().unwrap());
    assert_eq!(levels[0]["spec"], "random");
    assert_eq!(v["default_level"], "Casual");
    assert_eq!(v["max_movetime_ms"], 5000);
    // The endings the replay listing filters by (the page translates each): all twelve of the
    // record format, the adjudications of matches included.
    let keys: Vec<&str> = fanorona_web::api::records::terminations().collect();
    assert_eq!(keys.len(), fanorona_data::Ending::ALL.len());
    assert_eq!(v["terminations"], json!(keys));
    assert!(keys.contains(&"draw-adjudication") && keys.contains(&"resign-adjudication"));
}

#[test]
fn every_level_plays_a_turn() {
    let addr = serve(Config::default());
    for (level, seed) in [("Beginner", 1), ("casual", 2), ("CLUB", 3), ("Strong", 4), ("Maximum", 5)] {
        let r = post(addr, "/api/engine", &json!({"level": level, "seed": seed}));
        assert_eq!(r.status, 200, "{level}: {}", String::from_utf8_lossy(&r.body));
        let v = r.json();
        assert!(v["level"].as_str().unwrap().eq_ignore_ascii_case(level), "{v}");
        assert_eq!(v["after"]["ply"], 1, "{level}");
        let t = v["turn"]["notation"].as_str().unwrap();
        assert_eq!(get(addr, &format!("/api/check?turn={}", enc(t))).json()["legal"], true, "{level}: {t}");
    }
    // The level wins over a spec; without either, the server's engine plays.
    let v = post(addr, "/api/engine", &json!({"level": "Beginner", "engine": "alphabeta:depth=2"})).json();
    assert_eq!(v["engine"], "random");
    assert_eq!(v["level"], "Beginner");
    let v = post(addr, "/api/engine", &json!({"engine": "greedy"})).json();
    assert_eq!(v["level"], serde_json::Value::Null);
    let r = post(addr, "/api/engine", &json!({"level": "Expert"}));
    assert_eq!(r.status, 400);
    assert_eq!(
        r.error(),
        "unknown level \"Expert\": the levels are Beginner, Casual, Club, Strong and Maximum"
    );
    assert_eq!(post(addr, "/api/engine", &json!({"level": 3})).status, 400);
}

#[test]
fn the_maximum_level_probes_the_servers_tables() {
    let dir = tempfile::tempdir().unwrap();
    fanorona_tb::generate(dir.path(), fanorona_tb::GenerateOptions::new(3, 1), &|_| {}).unwrap();
    let addr = serve(Config { tb: Some(dir.path().to_path_buf()), ..Config::default() });
    let position = "8B/9/9/9/WW7 w";
    let v = post(addr, "/api/engine", &json!({"level": "Maximum", "position": position})).json();
    let tables = format!("tb={}", dir.path().display());
    assert!(v["engine"].as_str().unwrap().contains(&tables), "{v}");
    // The tables answered at the root: no node searched.
    assert_eq!(v["nodes"], 0, "{v}");
    // The calibrated levels below play without them.
    let v = post(addr, "/api/engine", &json!({"level": "Strong", "position": position})).json();
    assert!(!v["engine"].as_str().unwrap().contains("tb="), "{v}");
    // Without --tb, Maximum searches.
    let bare = serve(Config::default());
    let v = post(bare, "/api/engine", &json!({"level": "Maximum", "position": position})).json();
    assert!(!v["engine"].as_str().unwrap().contains("tb=") && v["nodes"].as_u64().unwrap() > 0, "{v}");
}

#[test]
fn request_specs_cannot_reach_server_files_or_run_long() {
    let addr = serve(Config::default());
    let mut answers = Vec::new();
    for route in ["/api/engine", "/api/search"] {
        for spec in [
            "alphabeta:depth=2,eval=net:/etc/passwd",
            "alphabeta:depth=2,eval=net:/no/such/file.fnet",
            "alphabeta:depth=2,tb=/etc",
            "alphabeta:depth=2,book=/etc/passwd",
        ] {
            let r = post(addr, route, &json!({"engine": spec}));
            assert_eq!(r.status, 400, "{route} {spec}");
            let text = String::from_utf8_lossy(&r.body).to_string();
            assert!(text.contains("a request cannot name files on the server"), "{text}");
            assert!(!text.contains("root:") && !text.contains("passwd") && !text.contains("such"), "{text}");
            answers.push(r.body);
        }
        for (spec, needle) in [
            ("alphabeta:depth=2,threads=2", "threads=2"),
            ("alphabeta:depth=2,hash=128", "at most 64 MiB"),
            ("alphabeta:depth=31", "at most depth 30"),
        ] {
            let r = post(addr, route, &json!({"engine": spec}));
            assert_eq!(r.status, 400, "{route} {spec}");
            assert!(r.error().contains(needle), "{route} {spec}: {}", r.error());
        }
    }
    // A file that exists and one that does not get the same answer.
    assert_eq!(answers[0], answers[1]);
    // A long time limit is capped, and the answer says so.
    let v = post(addr, "/api/engine", &json!({"engine": "alphabeta:depth=2,movetime=999999,eval=material"}))
        .json();
    assert_eq!(v["engine"], "alphabeta:depth=2,movetime=5000,eval=material");
    assert_eq!(v["capped"], true);
    assert_eq!(v["after"]["ply"], 1);
    let v =
        post(addr, "/api/engine", &json!({"engine": "alphabeta:depth=1,movetime=100,eval=material"})).json();
    assert_eq!(v["capped"], false);
}

#[test]
fn at_most_two_engines_run_at_once() {
    let addr = serve(Config::default());
    let long = json!({"engine": "alphabeta:depth=30,movetime=600000,eval=material"});
    let ids: Vec<u64> =
        (0..2).map(|_| post(addr, "/api/search", &long).json()["id"].as_u64().unwrap()).collect();
    let r = post(addr, "/api/engine", &json!({"engine": "alphabeta:depth=1"}));
    assert_eq!(r.status, 503);
    assert_eq!(r.error(), "the engine is busy with 2 other searches: try again in a moment");
    assert_eq!(post(addr, "/api/engine", &json!({"level": "Strong"})).status, 503);
    assert_eq!(post(addr, "/api/search", &long).status, 503);
    // Turns that need no search still come.
    for body in [json!({"level": "Beginner"}), json!({"engine": "greedy"}), json!({"engine": "random"})] {
        assert_eq!(post(addr, "/api/engine", &body).status, 200, "{body}");
    }
    for id in ids {
        assert_eq!(post(addr, &format!("/api/search/stop?id={id}"), &json!({})).status, 200);
        assert_eq!(wait_done(addr, id)["result"]["stopped"], true);
    }
    assert_eq!(post(addr, "/api/engine", &json!({"level": "Club"})).status, 200);
}

/// `POST /api/upload?name=` with raw bytes.
fn upload(addr: std::net::SocketAddr, name: &str, bytes: &[u8]) -> common::Reply {
    upload_as(addr, &format!("name={}", enc(name)), bytes)
}

/// `POST /api/upload?QUERY` with raw bytes.
fn upload_as(addr: std::net::SocketAddr, query: &str, bytes: &[u8]) -> common::Reply {
    let mut req = format!(
        "POST /api/upload?{query} HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/octet-stream\r\n\
         Content-Length: {}\r\n\r\n",
        bytes.len()
    )
    .into_bytes();
    req.extend_from_slice(bytes);
    raw(addr, &req)
}

/// Two finished games as PGN text, and their records.
fn pgn_games() -> (Vec<u8>, Vec<fanorona_data::GameRecord>) {
    let mut text = Vec::new();
    let mut recs = Vec::new();
    for (i, (white, black)) in [("greedy", "random"), ("random", "greedy")].iter().enumerate() {
        let (game, info) = play(white, black, i as u64 + 7);
        let rec = fanorona_data::GameRecord::from_game(&game, &info, i as u64, white, black).unwrap();
        fanorona_data::pgn::write_game(&mut text, &rec, &fanorona_data::pgn::PgnTags::default(), None)
            .unwrap();
        recs.push(rec);
    }
    (text, recs)
}

#[test]
fn uploaded_files_are_listed_and_replayed() {
    let dir = tempfile::tempdir().unwrap();
    let (bin, bin_recs) = write_games(dir.path());
    let addr = serve(Config::default());
    let (text, recs) = pgn_games();
    let v = upload(addr, "game.pgn", &text).json();
    assert_eq!(v, json!({"file": "upload 1: game.pgn", "games": 2}));
    let files = get(addr, "/api/files").json();
    assert_eq!(files["files"][0]["name"], "upload 1: game.pgn");
    assert_eq!(files["files"][0]["games"], 2);
    let name = enc("upload 1: game.pgn");
    let list = get(addr, &format!("/api/games?file={name}")).json();
    assert_eq!(list["total"], 2);
    assert_eq!(list["games"][1]["white"], "random");
    for (n, rec) in recs.iter().enumerate() {
        let g = get(addr, &format!("/api/game?file={name}&game={n}")).json();
        let turns: Vec<&str> =
            g["turns"].as_array().unwrap().iter().map(|t| t["turn"]["notation"].as_str().unwrap()).collect();
        let want: Vec<String> = rec.turns.iter().map(|t| t.mv.to_string()).collect();
        assert_eq!(turns, want);
        assert_eq!(g["outcome"]["result"], rec.outcome.result_str());
        assert_eq!(g["error"], serde_json::Value::Null);
    }
    assert_eq!(get(addr, &format!("/api/game?file={name}&game=2")).status, 404);
    // A record file, with a name to clean.
    let v = upload(addr, "runs/\u{1b}games\n.bin", &std::fs::read(&bin).unwrap()).json();
    assert_eq!(v, json!({"file": "upload 2: runs/games.bin", "games": 3}));
    let g = get(addr, &format!("/api/game?file={}&game=2", enc("upload 2: runs/games.bin"))).json();
    assert_eq!(g["turns"].as_array().unwrap().len(), bin_recs[2].turns.len());
    assert_eq!(g["white"], PLAYERS[2].0);
}

#[test]
fn uploads_with_an_owner_key_are_seen_by_that_browser_only() {
    let dir = tempfile::tempdir().unwrap();
    let (bin, _) = write_games(dir.path());
    let addr = serve(Config { files: vec![bin.clone()], ..Config::default() });
    let (text, _) = pgn_games();
    let v = upload_as(addr, "name=mine.pgn&owner=browser-A_1", &text).json();
    assert_eq!(v, json!({"file": "upload 1: mine.pgn", "games": 2}));
    let names = |query: &str| -> Vec<String> {
        let v = get(addr, &format!("/api/files?{query}")).json();
        v["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap().to_string()).collect()
    };
    let given = bin.display().to_string();
    // The owner sees the files given to the server and its upload; others, and requests
    // without a key, see the given files only.
    assert_eq!(names("owner=browser-A_1"), [given.clone(), "upload 1: mine.pgn".into()]);
    assert_eq!(names("owner=browser-B"), std::slice::from_ref(&given));
    assert_eq!(names(""), std::slice::from_ref(&given));
    let file = enc("upload 1: mine.pgn");
    for query in ["owner=browser-B", ""] {
        for route in ["game", "games"] {
            let r = get(addr, &format!("/api/{route}?file={file}&game=0&{query}"));
            assert_eq!(r.status, 404, "{route} {query}");
            assert!(r.error().contains("is not one of the files"), "{}", r.error());
        }
    }
    assert_eq!(get(addr, &format!("/api/game?file={file}&game=1&owner=browser-A_1")).status, 200);
    assert_eq!(get(addr, &format!("/api/games?file={file}&owner=browser-A_1")).json()["total"], 2);
    // An upload without a key is everyone's, as before.
    upload(addr, "shared.pgn", &text);
    assert_eq!(names("owner=browser-B"), [given, "upload 2: shared.pgn".into()]);
    // A key of other characters, or too long, is refused naming the parameter.
    for bad in ["a%20b", "%C3%A9", &"k".repeat(65)] {
        let r = get(addr, &format!("/api/files?owner={bad}"));
        assert_eq!(r.status, 400, "{bad}");
        assert!(r.error().starts_with("owner:"), "{}", r.error());
        assert_eq!(upload_as(addr, &format!("name=x.pgn&owner={bad}"), &text).status, 400);
    }
}

#[test]
fn bad_uploads_are_refused_naming_the_problem() {
    let dir = tempfile::tempdir().unwrap();
    let (bin, _) = write_games(dir.path());
    let addr = serve(Config::default());
    let r = upload(addr, "game.pgn", b"[Event \"x\"]\n\n1. d3e3+ zz 1-0\n");
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("game.pgn: not a game record file or PGN: line 3: "), "{}", r.error());
    let r = upload(addr, "noise.dat", &[0xff, 0, 0x13, 0x37]);
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("noise.dat: not a game record file or PGN"), "{}", r.error());
    let bytes = std::fs::read(&bin).unwrap();
    let r = upload(addr, "cut.bin", &bytes[..bytes.len() - 5]);
    assert_eq!(r.status, 400);
    assert!(r.error().starts_with("cut.bin: damaged record file"), "{}", r.error());
    let r = upload(addr, "empty.pgn", b"");
    assert_eq!(r.status, 400);
    assert!(r.error().contains("no games"), "{}", r.error());
    assert_eq!(get(addr, "/api/files").json()["files"], json!([]));
    // Only the bytes of a file, sent as such.
    let r = post(addr, "/api/upload?name=x.pgn", &json!({}));
    assert_eq!(r.status, 415);
    assert!(r.error().contains("application/octet-stream"));
    assert_eq!(get(addr, "/api/upload").status, 405);
    // Larger than 8 MiB: refused from its length, and the answer arrives.
    let r = upload(addr, "big.pgn", &vec![b' '; 9 * 1024 * 1024]);
    assert_eq!(r.status, 413);
    assert_eq!(
        r.error(),
        "the upload is 9 MiB: files of at most 8 MiB can be opened here (larger ones: fanorona serve FILE)"
    );
    // Other routes keep their 1 MiB bound.
    let big = json!({"white": "x".repeat(1024 * 1024 + 10)});
    assert_eq!(post(addr, "/api/engine", &big).status, 413);
    assert_eq!(get(addr, "/api/info").status, 200);
}

#[test]
fn the_oldest_of_nine_uploads_is_dropped() {
    let addr = serve(Config::default());
    let (text, _) = pgn_games();
    for i in 1..=9 {
        let v = upload(addr, &format!("g{i}.pgn"), &text).json();
        assert_eq!(v["file"], format!("upload {i}: g{i}.pgn"));
    }
    let files = get(addr, "/api/files").json();
    let names: Vec<&str> =
        files["files"].as_array().unwrap().iter().map(|f| f["name"].as_str().unwrap()).collect();
    assert_eq!(names, (2..=9).map(|i| format!("upload {i}: g{i}.pgn")).collect::<Vec<_>>());
    let r = get(addr, &format!("/api/games?file={}", enc("upload 1: g1.pgn")));
    assert_eq!(r.status, 404);
    assert_eq!(get(addr, &format!("/api/games?file={}", enc("upload 9: g9.pgn"))).json()["total"], 2);
}

fn read_pgn(body: &[u8]) -> Vec<fanorona_data::GameRecord> {
    fanorona_data::pgn::PgnReader::new(body).collect::<Result<Vec<_>, _>>().unwrap()
}

#[test]
fn games_download_as_pgn() {
    let addr = serve(Config::default());
    let (game, _) = play("greedy", "random", 11);
    let moves: Vec<String> = game.moves().iter().map(|m| m.to_string()).collect();
    let r = post(addr, "/api/pgn", &json!({"moves": moves, "white": "Ann", "black": "Club"}));
    assert_eq!(r.status, 200, "{}", String::from_utf8_lossy(&r.body));
    assert!(r.content_type.starts_with("text/plain"), "{}", r.content_type);
    assert_eq!(r.header("Content-Disposition"), Some("attachment; filename=\"fanorona-game.pgn\""));
    let text = String::from_utf8(r.body.clone()).unwrap();
    assert!(text.contains("[Event \"fanorona serve\"]"), "{text}");
    assert!(text.contains(&format!("[Date \"{}\"]", fanorona_data::pgn::today_utc())), "{text}");
    let recs = read_pgn(&r.body);
    assert_eq!(recs.len(), 1);
    let replayed: Vec<String> = recs[0].turns.iter().map(|t| t.mv.to_string()).collect();
    assert_eq!(replayed, moves);
    assert_eq!(recs[0].outcome, game.outcome().unwrap().widen());
    assert_eq!((recs[0].white.as_str(), recs[0].black.as_str()), ("Ann", "Club"));
    // A resigned game: won by the other side, by adjudication.
    let body = json!({"moves": ["d3e3+"], "white": "human", "black": "Strong", "resigned": "white"});
    let recs = read_pgn(&post(addr, "/api/pgn", &body).body);
    assert_eq!(recs[0].turns.len(), 1);
    assert_eq!(recs[0].outcome.result_str(), "0-1");
    assert_eq!(recs[0].outcome.termination, fanorona_data::Ending::Adjudication);
    let r = post(addr, "/api/record", &body);
    assert_eq!(r.status, 200);
    let mut reader = fanorona_data::RecordReader::new(&r.body[..], std::path::Path::new("download")).unwrap();
    assert_eq!(reader.read_record().unwrap().unwrap().outcome.result_str(), "0-1");
    // An unfinished game needs a resignation; a finished one cannot be resigned.
    let r = post(addr, "/api/pgn", &json!({"moves": ["d3e3+"]}));
    assert_eq!(r.status, 409);
    assert!(r.error().contains("not over"), "{}", r.error());
    let r = post(addr, "/api/pgn", &json!({"moves": moves, "resigned": "black"}));
    assert_eq!(r.status, 409);
    let r = post(addr, "/api/pgn", &json!({"moves": ["d3e3+"], "resigned": "nobody"}));
    assert_eq!(r.status, 400);
    assert!(r.error().contains("resigned"));
    assert_eq!(get(addr, "/api/pgn").status, 405);
}

/// An uploaded record whose result the rules contradict is refused (400), as the same claim in
/// PGN is: one check for every way a game enters.
#[test]
fn an_upload_whose_result_contradicts_the_rules_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (_, recs) = write_games(dir.path());
    let mut wrong = recs[0].clone();
    wrong.outcome.winner = wrong.outcome.winner.map(|c| !c);
    assert!(wrong.outcome.winner.is_some());
    let path = dir.path().join("wrong.bin");
    let header = fanorona_data::Header::new("test", fanorona_data::Kind::SelfPlay, "{}", 1);
    let mut w = fanorona_data::RecordWriter::create(&path, &header).unwrap();
    w.write(&recs[1]).unwrap();
    w.write(&wrong).unwrap();
    w.finish().unwrap();
    let addr = serve(Config::default());
    let r = upload(addr, "wrong.bin", &std::fs::read(&path).unwrap());
    assert_eq!(r.status, 400, "{}", r.error());
    assert!(r.error().starts_with("wrong.bin: game 1: ") && r.error().contains("rules"), "{}", r.error());
    assert_eq!(get(addr, "/api/files").json()["files"], json!([]));
}
