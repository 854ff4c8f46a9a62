//! [`Samples::filtered`]: the games a filter keeps, in order, the others passed over unread.

#![allow(clippy::unwrap_used)]

mod common;

use std::sync::{Arc, Mutex};

use fanorona_data::{DataError, GameId, RecordReader, SampleConfig, Samples};

#[test]
fn a_filter_keeps_exactly_the_samples_of_its_games() {
    let dir = tempfile::tempdir().unwrap();
    let paths = [dir.path().join("a.bin"), dir.path().join("b.bin")];
    let games = common::random_games(12, 5);
    common::write(&paths[0], &games[..7]);
    common::write(&paths[1], &games[7..]);
    let config = SampleConfig { skip_plies: 2, score_weight: 0.5, ..SampleConfig::default() };
    let asked = Arc::new(Mutex::new(Vec::new()));
    let log = Arc::clone(&asked);
    let mut kept = Samples::filtered(&paths, config, move |id| {
        log.lock().unwrap().push(id);
        id.index % 3 != 1
    });
    let got: Vec<_> = kept
        .by_ref()
        .map(|s| {
            let s = s.unwrap();
            (s.position, s.target)
        })
        .collect();
    let seed = common::header().seed;
    let ids: Vec<GameId> = (0..12).map(|index| GameId { seed, index }).collect();
    assert_eq!(*asked.lock().unwrap(), ids, "asked once per game, in file order");
    assert_eq!(kept.games(), 8);
    // The same as the unfiltered stream's samples of the kept games.
    let mut all = Vec::new();
    for g in games.iter().filter(|g| g.index % 3 != 1) {
        let mut x = fanorona_data::SampleExtractor::new(config);
        x.extract(g, 0, &mut all).unwrap();
    }
    let want: Vec<_> = all.iter().map(|s| (s.position, s.target)).collect();
    assert_eq!(got, want);
}

#[test]
fn passed_over_records_are_still_checked() {
    let dir = tempfile::tempdir().unwrap();
    let path = dir.path().join("a.bin");
    common::write(&path, &common::random_games(3, 9));
    let mut bytes = std::fs::read(&path).unwrap();
    let last = bytes.len() - 1;
    bytes[last] ^= 0x55; // the last record's CRC no longer matches
    std::fs::write(&path, &bytes).unwrap();
    let mut reader = RecordReader::open(&path).unwrap();
    let first = reader.read_record_where(&mut |_| false).unwrap();
    assert!(matches!(first, Err(DataError::Crc { record: 2, .. })), "{first:?}");
    assert!(reader.read_record_where(&mut |_| true).is_none());
}

#[test]
fn quiet_only_keeps_exactly_the_positions_without_a_capture() {
    let games = common::random_games(6, 11);
    let all_config = SampleConfig { mirror: true, ..SampleConfig::default() };
    let mut all = Vec::new();
    let mut quiet = Vec::new();
    let mut x = fanorona_data::SampleExtractor::new(all_config);
    let mut q = fanorona_data::SampleExtractor::new(SampleConfig { quiet_only: true, ..all_config });
    for (i, g) in games.iter().enumerate() {
        x.extract(g, i as u64, &mut all).unwrap();
        q.extract(g, i as u64, &mut quiet).unwrap();
    }
    let want: Vec<_> = all.iter().filter(|s| !s.position.has_capture()).copied().collect();
    assert_eq!(quiet, want);
    // Random games have both kinds, so the filter is tested on each.
    assert!(!quiet.is_empty() && quiet.len() < all.len(), "{} of {}", quiet.len(), all.len());
}
