//! The solver against the tables: positions with one stone more than the tables it is given are
//! solved to the value the larger tables hold, draws included (proofs that cycle), and every
//! proof passes the independent check; proof files round-trip and damage is caught.

use std::path::Path;
use std::sync::OnceLock;

use fanorona_core::{Bitboard, Color, Position, Rng};
use fanorona_solve::{Claim, Proven, SolveOptions, check, file, solve};
use fanorona_tb::{GenerateOptions, Tablebase, Value, generate};

/// Tables up to 3 stones (given to the solver) and up to 4 (the truth).
fn tables() -> &'static (Tablebase, Tablebase) {
    static TABLES: OnceLock<(Tablebase, Tablebase)> = OnceLock::new();
    TABLES.get_or_init(|| {
        let small = tempfile::tempdir().expect("temp dir");
        let large = tempfile::tempdir().expect("temp dir");
        let a = generate(small.path(), GenerateOptions::new(3, 2), &|_| {}).expect("3 stones");
        let b = generate(large.path(), GenerateOptions::new(4, 2), &|_| {}).expect("4 stones");
        (a, b)
    })
}

/// A random position with `stones` stones, both sides holding some, with a legal turn.
fn random_position(rng: &mut Rng, stones: u32) -> Position {
    loop {
        let white_count = 1 + (rng.next_u64() % u64::from(stones - 1)) as u32;
        let mut taken = 0u64;
        let mut pick = |n: u32| {
            let mut set = 0u64;
            while set.count_ones() < n {
                let p = 1u64 << (rng.next_u64() % 45);
                if taken & p == 0 {
                    set |= p;
                    taken |= p;
                }
            }
            set
        };
        let white = pick(white_count);
        let black = pick(stones - white_count);
        let turn = if rng.next_u64().is_multiple_of(2) { Color::White } else { Color::Black };
        let pos = Position::from_stones(Bitboard(white), Bitboard(black), turn).expect("position");
        if !pos.is_game_over() {
            return pos;
        }
    }
}

fn opts() -> SolveOptions {
    SolveOptions { memory: 16 << 20, nodes: 20_000_000, ..SolveOptions::default() }
}

fn expected(v: Value) -> Proven {
    match v {
        Value::Win(_) => Proven::Win,
        Value::Draw => Proven::Draw,
        Value::Loss(_) => Proven::Loss,
    }
}

#[test]
fn four_stone_positions_are_solved_to_the_tables_values_and_their_proofs_check() {
    let (small, large) = tables();
    let mut rng = Rng::new(57);
    let mut seen = std::collections::HashMap::new();
    for _ in 0..40 {
        let pos = random_position(&mut rng, 4);
        let truth = expected(large.probe(&pos).expect("probe"));
        let s = solve(&pos, Some(small), &opts(), &mut |_| {}).unwrap_or_else(|e| panic!("{pos}: {e}"));
        assert_eq!(s.value, Some(truth), "{pos}");
        let (checked, stats) = check::check(&s.proof, Some(small)).unwrap_or_else(|e| panic!("{pos}: {e}"));
        assert_eq!(checked, truth, "{pos}");
        assert!(stats.nodes >= 1, "{pos}");
        *seen.entry(format!("{truth:?}")).or_insert(0) += 1;
    }
    // The sample holds every kind of value, draws (proofs with cycles) among them.
    assert_eq!(seen.len(), 3, "{seen:?}");
}

/// A drawn 2v2 position (from the tables) and its proof.
fn drawn() -> (Position, fanorona_solve::Proof) {
    let (small, large) = tables();
    let mut rng = Rng::new(3);
    loop {
        let pos = random_position(&mut rng, 4);
        if pos.us().count() == 2 && large.probe(&pos) == Ok(Value::Draw) {
            let s = solve(&pos, Some(small), &opts(), &mut |_| {}).expect("solve");
            return (pos, s.proof);
        }
    }
}

#[test]
fn a_draw_is_two_failures_with_defender_choices() {
    let (pos, proof) = drawn();
    assert_eq!(proof.sections.len(), 2, "{pos}");
    for (_, cert) in &proof.sections {
        assert_eq!(cert.claim, Claim::AttackerFails);
        assert!(cert.nodes.iter().any(|(n, c)| c.is_some() && !n.attacker_to_move()), "the defender chooses");
        assert!(
            cert.nodes.iter().all(|(n, c)| c.is_none() || !n.attacker_to_move()),
            "only the defender chooses"
        );
    }
}

fn written(proof: &fanorona_solve::Proof, dir: &Path) -> std::path::PathBuf {
    let path = dir.join("draw.proof");
    file::write(&path, proof).expect("write");
    path
}

#[test]
fn proof_files_round_trip_and_damage_is_named_with_its_byte() {
    let (small, _) = tables();
    let (_, proof) = drawn();
    let dir = tempfile::tempdir().expect("temp dir");
    let path = written(&proof, dir.path());
    assert_eq!(file::read(&path).expect("read"), proof);
    let bytes = std::fs::read(&path).expect("bytes");
    let bad = |b: Vec<u8>| {
        std::fs::write(&path, b).expect("write");
        file::read(&path).expect_err("damaged").to_string()
    };
    let mut flipped = bytes.clone();
    let at = bytes.len() / 2;
    flipped[at] ^= 0x40;
    let e = bad(flipped);
    assert!(e.contains("draw.proof") && e.contains("at byte"), "{e}");
    let e = bad(bytes[..bytes.len() - 7].to_vec());
    assert!(e.contains("truncated"), "{e}");
    let e = bad(b"PK\x03\x04 not a proof at all, just some other file".to_vec());
    assert!(e.contains("not a proof file") && e.contains("at byte 0"), "{e}");
    let mut version = bytes.clone();
    version[8] = 9;
    let e = bad(version);
    assert!(e.contains("version 9") && e.contains("at byte 8"), "{e}");
    // A wrong choice with a correct checksum reads back, and fails the check.
    let mut lie = proof.clone();
    let (_, cert) = &mut lie.sections[0];
    let chooser = cert.nodes.iter().position(|(_, c)| c.is_some()).expect("a chooser");
    cert.nodes[chooser].1 = Some(200);
    let path = written(&lie, dir.path());
    let read = file::read(&path).expect("a sound file");
    let e = check::check(&read, Some(small)).expect_err("a wrong choice");
    assert!(e.to_string().contains("choice 200"), "{e}");
}

#[test]
fn a_proof_needs_the_tables_it_leans_on() {
    let (_, proof) = drawn();
    let e = check::check(&proof, None).expect_err("no tables");
    assert!(e.to_string().contains("3-stone tables"), "{e}");
}
