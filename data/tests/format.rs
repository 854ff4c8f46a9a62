//! The committed sample file `tests/sample-v1.bin` (format version 1), read and checked field
//! by field, and re-encoded byte for byte: a change to the format cannot pass unnoticed.
//! Regenerate (only for a deliberate new format version, with a new file name) with
//! `cargo test -p fanorona-data --test format -- --ignored`.

#![allow(clippy::unwrap_used)]

use std::path::PathBuf;

use fanorona_core::{Color, DrawRules, Game, Outcome, Position};
use fanorona_data::{Ending, FORMAT_VERSION, GameRecord, Header, Kind, RecordReader, RecordWriter, TurnInfo};

fn sample_path() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/sample-v1.bin")
}

fn play(start: &str, turns: &[&str], info: &[TurnInfo], rules: DrawRules) -> Game {
    let mut g = Game::new(start.parse().unwrap(), rules);
    for t in turns {
        let m = g.position().parse_move(t).unwrap();
        g.play(&m).unwrap();
    }
    assert_eq!(turns.len(), info.len());
    g
}

const INFO_A: [TurnInfo; 1] = [TurnInfo { score: Some(29_999), depth: Some(1), exploration: false }];
const START_B: [&str; 4] = ["d3e3-", "d4d3+,d3c3-,c3d2+,d2e3-", "b3c3-,c3d4+,d4d3-", "f4e5-"];
const INFO_B: [TurnInfo; 4] = [
    TurnInfo { score: None, depth: None, exploration: true },
    TurnInfo { score: Some(-150), depth: Some(3), exploration: false },
    TurnInfo { score: Some(300), depth: Some(300), exploration: true },
    TurnInfo { score: Some(-70_000), depth: None, exploration: false },
];

fn sample_games() -> Vec<GameRecord> {
    let a = play("9/9/4B4/9/4W4 w", &["e1e2+"], &INFO_A, DrawRules::default());
    let b = play(Position::start().to_string().as_str(), &START_B, &INFO_B, DrawRules::default());
    let forfeit = Outcome { winner: Some(Color::Black), termination: Ending::TimeForfeit };
    let c = play("9/9/9/9/9 w", &[], &[], DrawRules::default());
    let adjudicated = Outcome { winner: None, termination: Ending::Adjudication };
    vec![
        GameRecord::from_game(&a, &INFO_A, 0, "alphabeta:depth=1,eval=material", "random").unwrap(),
        GameRecord::from_decided_game(&b, Some(forfeit), &INFO_B, 1, "", "engine \"x\"").unwrap(),
        GameRecord::from_decided_game(&c, Some(adjudicated), &[], u64::MAX, "w", "b").unwrap(),
    ]
}

fn sample_header() -> Header {
    Header::new("fanorona 0.1.0", Kind::SelfPlay, r#"{"games":3}"#, 0xDEAD_BEEF).with_shard(2, 5)
}

#[test]
#[ignore = "writes the committed sample file"]
fn write_sample_file() {
    let mut w = RecordWriter::create(&sample_path(), &sample_header()).unwrap();
    for g in sample_games() {
        w.write(&g).unwrap();
    }
    w.finish().unwrap();
}

#[test]
fn sample_file_reads_field_by_field() {
    let bytes = std::fs::read(sample_path()).unwrap();
    assert_eq!(&bytes[..8], b"FANOREC\x1a");
    assert_eq!(u32::from_le_bytes(bytes[8..12].try_into().unwrap()), 1);
    assert_eq!(FORMAT_VERSION, 1);

    let mut r = RecordReader::open(&sample_path()).unwrap();
    let h = r.header().clone();
    assert_eq!(h.format_version, 1);
    assert_eq!(h.program, "fanorona 0.1.0");
    assert_eq!(h.kind, Kind::SelfPlay);
    assert_eq!(h.config, r#"{"games":3}"#);
    assert_eq!(h.seed, 0xDEAD_BEEF);
    assert_eq!((h.shard, h.shard_count, h.shards.clone()), (2, 5, vec![2]));

    let a = r.next().unwrap().unwrap();
    assert_eq!(
        (a.index, a.white.as_str(), a.black.as_str()),
        (0, "alphabeta:depth=1,eval=material", "random")
    );
    assert_eq!(a.start.to_string(), "9/9/4B4/9/4W4 w");
    assert_eq!(a.notation(), "e1e2+");
    assert_eq!(a.turns[0].info, INFO_A[0]);
    assert_eq!(a.outcome, Outcome { winner: Some(Color::White), termination: Ending::AllCaptured });
    assert_eq!(a.final_position().unwrap().to_string(), "9/9/9/4W4/9 b");
    a.validate().unwrap();

    let b = r.next().unwrap().unwrap();
    assert_eq!((b.index, b.white.as_str(), b.black.as_str()), (1, "", "engine \"x\""));
    assert_eq!(b.start, Position::start());
    assert_eq!(b.notation(), START_B.join(" "));
    let infos: Vec<TurnInfo> = b.turns.iter().map(|t| t.info).collect();
    assert_eq!(infos, INFO_B);
    assert_eq!(b.outcome, Outcome { winner: Some(Color::Black), termination: Ending::TimeForfeit });
    b.validate().unwrap();

    let c = r.next().unwrap().unwrap();
    assert_eq!((c.index, c.white.as_str(), c.black.as_str()), (u64::MAX, "w", "b"));
    assert_eq!(c.start.to_string(), "9/9/9/9/9 w");
    assert!(c.turns.is_empty());
    assert_eq!(c.outcome, Outcome { winner: None, termination: Ending::Adjudication });

    assert!(r.next().is_none());
    assert_eq!(vec![a, b, c], sample_games());
}

#[test]
fn sample_file_encodes_byte_for_byte() {
    let bytes = std::fs::read(sample_path()).unwrap();
    let mut w = RecordWriter::new(Vec::new(), "memory".as_ref(), &sample_header()).unwrap();
    for g in sample_games() {
        w.write(&g).unwrap();
    }
    let (out, n) = w.finish().unwrap();
    assert_eq!(n, 3);
    assert_eq!(out, bytes);
}

#[test]
fn documented_bytes_of_the_first_record() {
    // FORMAT.md walks through this record byte by byte.
    let bytes = std::fs::read(sample_path()).unwrap();
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let at = 20 + header_len;
    let len = u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    let payload = &bytes[at + 8..at + 8 + len];
    println!("header payload: {:02x?}", &bytes[20..at]);
    println!("record 0 frame: {:02x?} payload: {:02x?}", &bytes[at..at + 8], payload);
    let mut full = vec![0u8]; // index 0
    full.push(31); // white: 31 bytes of UTF-8
    full.extend(b"alphabeta:depth=1,eval=material");
    full.push(6); // black: 6 bytes
    full.extend(b"random");
    full.push(16); // white stones: bit 4 (e1) = 16, one varint byte
    full.push(252); // black stones: bit 22 (e3) = 4194304, varint marker 252 + u32
    full.extend((1u32 << 22).to_le_bytes());
    full.push(0); // White to move
    full.push(1); // one turn
    full.extend([2, 4, 8]); // turn: 2 bytes, origin e1 (4), step north (0) | approach (1 << 3)
    full.extend([1, 251]); // score Some: zigzag(29999) = 59998, varint marker 251 + u16
    full.extend(59_998u16.to_le_bytes());
    full.extend([1, 1]); // depth Some(1)
    full.push(0); // exploration false
    full.extend([1, 0]); // winner Some(White)
    full.push(0); // termination AllCaptured
    assert_eq!(payload, &full[..]);
}
