//! Fuzzing the record reader on stable: arbitrary bytes (proptest), and a mutation loop over
//! the committed sample file that rewrites the checksum after each mutation, so that the
//! decoder and the record checks see the damage, not just the CRC. Nothing may panic, hang or
//! allocate beyond the format's bounds. Longer runs: `PROPTEST_CASES=100000 FUZZ_ITERATIONS=
//! 1000000 cargo test --release -p fanorona-data --test fuzz`.

#![allow(clippy::unwrap_used)]

use std::path::Path;

use fanorona_data::{MAGIC, RecordReader, SampleConfig, SampleExtractor};
use proptest::prelude::*;

const SAMPLE: &[u8] = include_bytes!("sample-v1.bin");

/// Reads everything `bytes` holds, exercising every consumer of a record.
fn consume(bytes: &[u8]) {
    let Ok(r) = RecordReader::new(bytes, Path::new("fuzz")) else { return };
    let mut extractor = SampleExtractor::new(SampleConfig::default());
    let mut samples = Vec::new();
    for (i, rec) in r.take(1000).enumerate() {
        let Ok(rec) = rec else { break };
        let _ = rec.validate();
        let _ = rec.final_position();
        let _ = rec.notation();
        let _ = extractor.extract(&rec, i as u64, &mut samples);
        samples.clear();
    }
}

/// The byte offsets of the header's and every record's frame in the sample.
fn frames(bytes: &[u8]) -> Vec<(usize, usize)> {
    let word =
        |at: usize| u32::from_le_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]]) as usize;
    let mut out = vec![(12, word(12))];
    let mut at = 20 + word(12);
    while at + 8 <= bytes.len() {
        let len = word(at);
        out.push((at, len));
        at += 8 + len;
    }
    out
}

/// xorshift64: reproducible mutations without a dependency.
fn next(x: &mut u64) -> u64 {
    *x ^= *x << 13;
    *x ^= *x >> 7;
    *x ^= *x << 17;
    *x
}

#[test]
fn mutated_samples_with_fixed_checksums_never_panic() {
    let iterations: u64 = std::env::var("FUZZ_ITERATIONS").ok().and_then(|v| v.parse().ok()).unwrap_or(3000);
    let frames = frames(SAMPLE);
    let mut x = 0x9E37_79B9_7F4A_7C15u64;
    for _ in 0..iterations {
        let mut bytes = SAMPLE.to_vec();
        let (at, len) = frames[(next(&mut x) % frames.len() as u64) as usize];
        // The payload starts after the length and the CRC (the header's CRC is at 16).
        let payload = if at == 12 { 20 } else { at + 8 };
        if len == 0 {
            continue;
        }
        for _ in 0..1 + next(&mut x) % 4 {
            let i = payload + (next(&mut x) % len as u64) as usize;
            match next(&mut x) % 3 {
                0 => bytes[i] ^= 1 << (next(&mut x) % 8),
                1 => bytes[i] = next(&mut x) as u8,
                _ => bytes[i] = [0, 0xff, 0x7f, 0x80][(next(&mut x) % 4) as usize],
            }
        }
        let crc = crc32fast::hash(&bytes[payload..payload + len]).to_le_bytes();
        let crc_at = if at == 12 { 16 } else { at + 4 };
        bytes[crc_at..crc_at + 4].copy_from_slice(&crc);
        if next(&mut x).is_multiple_of(8) {
            bytes.truncate((next(&mut x) % bytes.len() as u64) as usize);
        }
        consume(&bytes);
    }
}

/// Cases per property: `PROPTEST_CASES` for a long run, else `default`.
fn cases(default: u32) -> u32 {
    std::env::var("PROPTEST_CASES").ok().and_then(|v| v.parse().ok()).unwrap_or(default)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(512)))]

    #[test]
    fn arbitrary_bytes_never_panic(tail in proptest::collection::vec(any::<u8>(), 0..512)) {
        consume(&tail);
        let mut file = MAGIC.to_vec();
        file.extend_from_slice(&1u32.to_le_bytes());
        file.extend_from_slice(&tail);
        consume(&file);
    }

    #[test]
    fn arbitrary_records_after_a_real_header_never_panic(
        records in proptest::collection::vec(proptest::collection::vec(any::<u8>(), 0..200), 0..4)
    ) {
        let header_end = 20 + frames(SAMPLE)[0].1;
        let mut file = SAMPLE[..header_end].to_vec();
        for r in &records {
            file.extend_from_slice(&(r.len() as u32).to_le_bytes());
            file.extend_from_slice(&crc32fast::hash(r).to_le_bytes());
            file.extend_from_slice(r);
        }
        consume(&file);
    }
}

/// PGN lines built from the pieces that matter to the reader: tags, `;` comments, braces,
/// turns, results, blank lines.
fn pgn_line() -> impl Strategy<Value = String> {
    prop_oneof![
        Just("[Event \"x\"]".to_string()),
        Just("[FEN \"9/9/9/9/W1B6 w\"] ; c".to_string()),
        Just("; a comment [Event \"y\"] {".to_string()),
        Just(String::new()),
        Just("1. a1b1+ {+1.00/1 5} 1-0".to_string()),
        Just("{ open ; comment".to_string()),
        Just("} 1-0 ; end".to_string()),
        Just("*".to_string()),
        "[ -~]{0,40}",
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(cases(256)))]

    /// Regression (data import): `;` comment lines before a game's tags were movetext, and
    /// nothing bounded a header's tags. Any mix of lines: games, at most one error (last),
    /// never a panic.
    #[test]
    fn pgn_lines_never_panic(lines in proptest::collection::vec(pgn_line(), 0..40)) {
        let text = lines.join("\n");
        let items: Vec<_> = fanorona_data::pgn::PgnReader::new(text.as_bytes()).collect();
        let errors = items.iter().filter(|r| r.is_err()).count();
        prop_assert!(errors <= 1);
        prop_assert!(errors == 0 || items.last().is_some_and(Result::is_err));
    }
}

/// Regression (data import): a header of endless tag lines grew until the allocator aborted.
#[test]
fn pgn_endless_tags_are_cut_at_a_line() {
    let endless = std::io::Read::chain(&b"; a comment first\n"[..], RepeatLines(b"[Event \"x\"]\n", 0));
    let err = fanorona_data::pgn::PgnReader::new(std::io::BufReader::new(endless))
        .find_map(Result::err)
        .map(|e| e.to_string());
    let want = format!("line {}: more than", fanorona_data::pgn::MAX_PGN_TAGS + 2);
    assert!(err.as_deref().is_some_and(|e| e.starts_with(&want)), "{err:?}");
}

/// `line` repeated for ever.
struct RepeatLines(&'static [u8], usize);

impl std::io::Read for RepeatLines {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        for b in buf.iter_mut() {
            *b = self.0[self.1 % self.0.len()];
            self.1 += 1;
        }
        Ok(buf.len())
    }
}
