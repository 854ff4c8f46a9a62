//! Damaged files: clear errors naming the file and the record, never a panic or a huge
//! allocation; a truncated tail is reported after every good record.

#![allow(clippy::unwrap_used)]

mod common;

use std::path::{Path, PathBuf};

use fanorona_data::{DataError, GameRecord, RecordReader, RecordWriter, SampleConfig, Samples};

fn read_all(path: &Path) -> (Vec<GameRecord>, Option<DataError>) {
    let r = match RecordReader::open(path) {
        Ok(r) => r,
        Err(e) => return (Vec::new(), Some(e)),
    };
    let mut good = Vec::new();
    for rec in r {
        match rec {
            Ok(g) => good.push(g),
            Err(e) => return (good, Some(e)),
        }
    }
    (good, None)
}

/// Byte offsets where each record's frame starts, and the file's bytes.
fn layout(path: &Path) -> (Vec<u8>, Vec<usize>) {
    let bytes = std::fs::read(path).unwrap();
    let header_len = u32::from_le_bytes(bytes[12..16].try_into().unwrap()) as usize;
    let mut at = 20 + header_len;
    let mut starts = Vec::new();
    while at < bytes.len() {
        starts.push(at);
        at += 8 + u32::from_le_bytes(bytes[at..at + 4].try_into().unwrap()) as usize;
    }
    assert_eq!(at, bytes.len());
    (bytes, starts)
}

fn setup(n: u64) -> (tempfile::TempDir, PathBuf, Vec<GameRecord>) {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("games.bin");
    let games = common::random_games(n, 7);
    common::write(&path, &games);
    (dir, path, games)
}

#[test]
fn round_trip() {
    let (_d, path, games) = setup(5);
    let (read, err) = read_all(&path);
    assert!(err.is_none(), "{err:?}");
    assert_eq!(read, games);
    for g in &read {
        g.validate().unwrap();
    }
    let r = RecordReader::open(&path).unwrap();
    assert_eq!(r.header(), &common::header());
}

#[test]
fn empty_file() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("empty.bin");
    std::fs::write(&path, b"").unwrap();
    let e = RecordReader::open(&path).unwrap_err();
    assert!(matches!(e, DataError::Empty { .. }), "{e}");
    assert!(e.to_string().contains("empty.bin"), "{e}");
}

#[test]
fn bad_magic_and_newer_version() {
    let (_d, path, _) = setup(1);
    let mut bytes = std::fs::read(&path).unwrap();
    bytes[9] = 0;
    bytes[8] = 2;
    std::fs::write(&path, &bytes).unwrap();
    let e = RecordReader::open(&path).unwrap_err();
    assert!(matches!(e, DataError::NewerVersion { found: 2, supported: 1, .. }), "{e}");
    assert!(e.to_string().contains("games.bin") && e.to_string().contains("newer"), "{e}");
    bytes[0] = b'X';
    std::fs::write(&path, &bytes).unwrap();
    let e = RecordReader::open(&path).unwrap_err();
    assert!(matches!(e, DataError::BadMagic { .. }), "{e}");
    assert!(e.to_string().contains("not a fanorona record file"), "{e}");
    std::fs::write(&path, b"hello world, this is a text file\n").unwrap();
    assert!(matches!(RecordReader::open(&path).unwrap_err(), DataError::BadMagic { .. }));
}

#[test]
fn absurd_length() {
    let (_d, path, games) = setup(3);
    let (mut bytes, starts) = layout(&path);
    bytes[starts[1]..starts[1] + 4].copy_from_slice(&u32::MAX.to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let (good, err) = read_all(&path);
    assert_eq!(good, games[..1]);
    let e = err.unwrap();
    assert!(matches!(e, DataError::TooLong { record: 1, len: 4_294_967_295, .. }), "{e}");
    assert!(e.to_string().contains("games.bin") && e.to_string().contains("record 1"), "{e}");
    // A length within the bound but past the end of the file: truncated, not allocated.
    bytes[starts[1]..starts[1] + 4].copy_from_slice(&(1u32 << 24).to_le_bytes());
    std::fs::write(&path, &bytes).unwrap();
    let (good, err) = read_all(&path);
    assert_eq!(good.len(), 1);
    assert!(matches!(err, Some(DataError::Truncated { record: 1, .. })), "{err:?}");
}

#[test]
fn crc_mismatch() {
    let (_d, path, games) = setup(3);
    let (mut bytes, starts) = layout(&path);
    bytes[starts[1] + 12] ^= 0x40;
    std::fs::write(&path, &bytes).unwrap();
    let (good, err) = read_all(&path);
    assert_eq!(good, games[..1]);
    let e = err.unwrap();
    assert!(matches!(e, DataError::Crc { record: 1, .. }), "{e}");
    assert!(e.to_string().contains("record 1") && e.to_string().contains("CRC32"), "{e}");
}

#[test]
fn truncated_tail_at_every_cut() {
    let (_d, path, games) = setup(3);
    let (bytes, starts) = layout(&path);
    let cut_path = path.with_file_name("cut.bin");
    for cut in starts[2] + 1..bytes.len() {
        std::fs::write(&cut_path, &bytes[..cut]).unwrap();
        let (good, err) = read_all(&cut_path);
        assert_eq!(good, games[..2], "cut at {cut}");
        let e = err.unwrap();
        assert!(matches!(e, DataError::Truncated { record: 2, .. }), "cut at {cut}: {e}");
        assert!(e.is_truncation());
        assert!(e.to_string().contains("cut.bin") && e.to_string().contains("record 2"), "{e}");
    }
    // Cut exactly between records: a clean, shorter file.
    std::fs::write(&cut_path, &bytes[..starts[2]]).unwrap();
    let (good, err) = read_all(&cut_path);
    assert_eq!((good.len(), err.is_none()), (2, true));
    // Cut inside the header.
    for cut in 1..starts[0] {
        std::fs::write(&cut_path, &bytes[..cut]).unwrap();
        assert!(RecordReader::open(&cut_path).is_err(), "cut at {cut}");
    }
}

#[test]
fn append_repairs_a_truncated_tail() {
    let (_d, path, games) = setup(4);
    let (bytes, starts) = layout(&path);
    std::fs::write(&path, &bytes[..starts[3] + 5]).unwrap();
    let (mut w, info) = RecordWriter::append(&path).unwrap();
    assert_eq!((info.records, info.repaired_bytes), (3, 5));
    w.write(&games[3]).unwrap();
    w.finish().unwrap();
    assert_eq!(std::fs::read(&path).unwrap(), bytes);
    // Damage other than truncation is not silently cut off.
    let mut bad = bytes.clone();
    bad[starts[1] + 12] ^= 1;
    std::fs::write(&path, &bad).unwrap();
    assert!(matches!(RecordWriter::append(&path), Err(DataError::Crc { record: 1, .. })));
}

#[test]
fn random_bytes_never_panic() {
    let (_d, path, _) = setup(3);
    let (bytes, starts) = layout(&path);
    let mut x: u64 = 0x1234_5678;
    let mut next = || {
        x ^= x << 13;
        x ^= x >> 7;
        x ^= x << 17;
        x
    };
    let junk_path = path.with_file_name("junk.bin");
    for round in 0..300 {
        let mut b = if round % 3 == 0 { Vec::new() } else { bytes[..starts[0]].to_vec() };
        let n = (next() % 3000) as usize;
        b.extend((0..n).map(|_| next() as u8));
        if round % 3 == 2 {
            // A plausible frame length followed by junk.
            let at = starts[0];
            if b.len() > at + 4 {
                b[at..at + 4].copy_from_slice(&((next() % 4000) as u32).to_le_bytes());
            }
        }
        std::fs::write(&junk_path, &b).unwrap();
        let (_, err) = read_all(&junk_path);
        if n > 0 {
            assert!(err.is_some(), "round {round}: random bytes read as records");
        }
        // Samples stop at the error too.
        for s in Samples::open(std::slice::from_ref(&junk_path), SampleConfig::default()) {
            if s.is_err() {
                break;
            }
        }
    }
    // Random bytes within a record's payload with a valid CRC: a decode error, not a panic.
    for round in 0..300 {
        let mut b = bytes[..starts[0]].to_vec();
        let n = (next() % 200) as usize + 1;
        let payload: Vec<u8> = (0..n).map(|_| next() as u8).collect();
        b.extend((n as u32).to_le_bytes());
        b.extend(crc32fast::hash(&payload).to_le_bytes());
        b.extend(&payload);
        std::fs::write(&junk_path, &b).unwrap();
        let (good, err) = read_all(&junk_path);
        assert!(good.is_empty() || err.is_none(), "round {round}");
        if let Some(e) = err {
            assert!(matches!(e, DataError::Decode { record: 0, .. }), "{e}");
        }
    }
}
