//! Streaming training data from record files: the split by game, the shuffle buffer, batches.
//!
//! Memory is bounded: one game record at a time is decoded, the training order comes from a
//! bounded shuffle buffer (plus, per epoch, a shuffled file order), and the validation split is
//! kept in memory only up to [`VALIDATION_MEMORY`] bytes ([`ValidationSet`]), so that an epoch
//! reads every file once.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use fanorona_core::Position;
use fanorona_core::Rng;
use fanorona_data::{SampleConfig, Samples};
use fanorona_nn::{Encoding, encode_into};
use fanorona_tb::Tablebase;

use crate::{TrainConfig, TrainError};

/// One position with its targets.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Item {
    pub pos: Position,
    /// The training target in [-1, 1].
    pub target: f32,
    /// The game result for the side to move (1, 0, -1).
    pub result: f32,
}

pub use fanorona_data::{Split, split_of};

/// The record files to read: every file given, and the record files anywhere under every
/// directory given (recognised by their magic bytes, so that a loop or match run directory can
/// be given whole), sorted by path within each directory; hidden entries and the temporaries
/// of unfinished writes (`.part`, `.tmp`) are skipped.
///
/// # Errors
/// When a path does not exist or a directory cannot be listed.
pub fn expand_inputs(paths: &[PathBuf]) -> Result<Vec<PathBuf>, TrainError> {
    let mut out = Vec::new();
    for p in paths {
        let input = |error| TrainError::Input { path: p.clone(), error };
        let meta = std::fs::metadata(p).map_err(input)?;
        if meta.is_dir() {
            fanorona_data::find_record_files(p, &mut fanorona_data::Visited::default(), &mut out)
                .map_err(|e| TrainError::Input { path: e.path, error: e.source })?;
        } else {
            out.push(p.clone());
        }
    }
    Ok(out)
}

/// The record files of a run and how to read samples from them.
#[derive(Debug)]
pub(crate) struct Source {
    files: Vec<PathBuf>,
    sample: SampleConfig,
    tablebase: Option<Arc<Tablebase>>,
    val_fraction: f64,
    /// Passes over the files begun so far (by any thread).
    passes: AtomicU64,
}

impl Source {
    /// The source of `files` read as `config` says, the positions `tablebase` covers (the
    /// tables of `data.tablebase`, opened by the caller) labelled by their exact value.
    pub fn new(files: &[PathBuf], config: &TrainConfig, tablebase: Option<Arc<Tablebase>>) -> Source {
        let d = &config.data;
        Source {
            files: files.to_vec(),
            sample: SampleConfig {
                skip_plies: d.skip_plies,
                score_weight: d.effective_score_weight(),
                score_scale: d.score_scale,
                dedup: d.dedup,
                mirror: false,
                check_rules: false,
                quiet_only: d.quiet_only,
                max_score: d.max_score,
            },
            tablebase,
            val_fraction: d.val_fraction,
            passes: AtomicU64::new(0),
        }
    }

    /// Passes over the files begun so far ([`Source::for_each`] calls).
    #[cfg(test)]
    pub fn passes(&self) -> u64 {
        self.passes.load(Ordering::Relaxed)
    }

    pub fn file_count(&self) -> usize {
        self.files.len()
    }

    /// Calls `f` with every sample of `split`, reading the files in `order` (indices into the
    /// file list); the other split's games are passed over without being decoded. Stops early
    /// when `f` returns false. Returns the games of the split read.
    pub fn for_each(
        &self,
        split: Split,
        order: &[usize],
        f: &mut dyn FnMut(Item) -> bool,
    ) -> Result<u64, TrainError> {
        self.passes.fetch_add(1, Ordering::Relaxed);
        let files: Vec<PathBuf> = order.iter().map(|&i| self.files[i].clone()).collect();
        let val_fraction = self.val_fraction;
        let mut samples =
            Samples::filtered(&files, self.sample, move |id| split_of(id, val_fraction) == split);
        if let Some(tb) = &self.tablebase {
            samples = samples.with_tablebase(Arc::clone(tb));
        }
        for s in samples.by_ref() {
            let s = s?;
            if !f(Item { pos: s.position, target: s.target, result: s.result }) {
                break;
            }
        }
        Ok(samples.games())
    }
}

/// Bytes of validation samples kept in memory from the first pass for the validation of every
/// epoch (1 GiB, about 27 million samples of 40 bytes). A larger validation split is read again
/// from the files each epoch, and the run says so with a warning.
pub(crate) const VALIDATION_MEMORY: usize = 1 << 30;

/// The validation split's samples as each epoch's validation gets them: kept in memory, or,
/// when they were more than the bound allowed, read again from the files.
#[derive(Debug)]
pub(crate) struct ValidationSet {
    /// The samples in file order; `None` when they did not fit.
    kept: Option<Vec<Item>>,
}

impl ValidationSet {
    /// Whether the samples are in memory.
    pub fn in_memory(&self) -> bool {
        self.kept.is_some()
    }

    /// Calls `f` with every validation sample in file order (from memory, or from a pass over
    /// `source`'s files), stopping early when it returns false.
    pub fn for_each(&self, source: &Source, f: &mut dyn FnMut(Item) -> bool) -> Result<(), TrainError> {
        match &self.kept {
            Some(items) => {
                for it in items {
                    if !f(*it) {
                        break;
                    }
                }
                Ok(())
            }
            None => {
                let order: Vec<usize> = (0..source.file_count()).collect();
                source.for_each(Split::Validation, &order, f).map(|_| ())
            }
        }
    }
}

/// Gathers the validation samples of a pass in file order while they fit in `limit` items.
#[derive(Debug)]
pub(crate) struct ValidationCollector {
    items: Vec<Item>,
    limit: usize,
    over: bool,
}

impl ValidationCollector {
    /// A collector keeping at most `limit` items ([`ValidationCollector::new`] for the bound of
    /// [`VALIDATION_MEMORY`]).
    pub fn with_limit(limit: usize) -> ValidationCollector {
        ValidationCollector { items: Vec::new(), limit, over: false }
    }

    /// A collector bounded by [`VALIDATION_MEMORY`].
    pub fn new() -> ValidationCollector {
        ValidationCollector::with_limit(VALIDATION_MEMORY / std::mem::size_of::<Item>())
    }

    /// Keeps `item`, or, past the limit, gives up keeping (and frees what was kept).
    pub fn push(&mut self, item: Item) {
        if self.over {
            return;
        }
        if self.items.len() < self.limit {
            self.items.push(item);
        } else {
            self.over = true;
            self.items = Vec::new();
        }
    }

    /// The set for the epochs' validation.
    pub fn finish(self) -> ValidationSet {
        ValidationSet { kept: (!self.over).then_some(self.items) }
    }
}

/// A batch of encoded positions.
#[derive(Clone, Debug)]
pub(crate) struct Batch {
    /// The input encoding.
    pub encoding: Encoding,
    /// `[n][inputs]`, row-major (the encoding's inputs).
    pub x: Vec<f32>,
    /// `[n]` targets.
    pub y: Vec<f32>,
    /// `[n]` game results for the side to move.
    pub result: Vec<f32>,
}

impl Batch {
    pub fn with_capacity(encoding: Encoding, n: usize) -> Batch {
        Batch {
            encoding,
            x: Vec::with_capacity(n * encoding.inputs()),
            y: Vec::with_capacity(n),
            result: Vec::with_capacity(n),
        }
    }

    /// Inputs per position.
    pub fn width(&self) -> usize {
        self.encoding.inputs()
    }

    pub fn len(&self) -> usize {
        self.y.len()
    }

    pub fn push(&mut self, pos: &Position, target: f32, result: f32) {
        encode_into(self.encoding, pos, &mut self.x);
        self.y.push(target);
        self.result.push(result);
    }
}

/// Turns a stream of items into batches of `size`, shuffled through a buffer of `capacity`
/// items and mirrored at random, all driven by `rng`.
pub(crate) struct Shuffler<'a> {
    rng: Rng,
    buffer: Vec<Item>,
    capacity: usize,
    mirror: bool,
    size: usize,
    batch: Batch,
    emit: &'a mut dyn FnMut(Batch) -> bool,
    open: bool,
}

impl<'a> Shuffler<'a> {
    pub fn new(
        rng: Rng,
        capacity: usize,
        (mirror, encoding): (bool, Encoding),
        size: usize,
        emit: &'a mut dyn FnMut(Batch) -> bool,
    ) -> Shuffler<'a> {
        Shuffler {
            rng,
            buffer: Vec::with_capacity(capacity.min(1 << 22)),
            capacity,
            mirror,
            size,
            batch: Batch::with_capacity(encoding, size),
            emit,
            open: true,
        }
    }

    /// Adds an item; returns false once the receiver has gone.
    pub fn push(&mut self, item: Item) -> bool {
        if self.buffer.len() < self.capacity {
            self.buffer.push(item);
            return self.open;
        }
        let j = self.rng.below(self.capacity as u64) as usize;
        let out = std::mem::replace(&mut self.buffer[j], item);
        self.output(out)
    }

    fn output(&mut self, item: Item) -> bool {
        let pos = if self.mirror && self.rng.below(2) == 1 { item.pos.mirror_files() } else { item.pos };
        self.batch.push(&pos, item.target, item.result);
        if self.batch.len() == self.size {
            let fresh = Batch::with_capacity(self.batch.encoding, self.size);
            let full = std::mem::replace(&mut self.batch, fresh);
            self.open = (self.emit)(full);
        }
        self.open
    }

    /// Empties the buffer in random order and sends the last, partial batch.
    pub fn finish(mut self) {
        let mut buffer = std::mem::take(&mut self.buffer);
        // Fisher-Yates.
        for i in (1..buffer.len()).rev() {
            let j = self.rng.below(i as u64 + 1) as usize;
            buffer.swap(i, j);
        }
        for item in buffer {
            if !self.output(item) {
                return;
            }
        }
        if self.batch.len() > 0 && self.open {
            let fresh = Batch::with_capacity(self.batch.encoding, 0);
            let last = std::mem::replace(&mut self.batch, fresh);
            (self.emit)(last);
        }
    }
}

/// A random permutation of `0..n`.
pub(crate) fn permutation(n: usize, rng: &mut Rng) -> Vec<usize> {
    let mut v: Vec<usize> = (0..n).collect();
    for i in (1..n).rev() {
        let j = rng.below(i as u64 + 1) as usize;
        v.swap(i, j);
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_data::GameId;

    #[cfg(unix)]
    #[test]
    fn the_walk_skips_fifos_unopened_and_ends_directory_loops() {
        let dir = tempfile::tempdir().unwrap();
        let root = dir.path().join("run");
        std::fs::create_dir_all(root.join("sub")).unwrap();
        let mut rec = fanorona_data::MAGIC.to_vec();
        rec.extend_from_slice(b"rest");
        std::fs::write(root.join("sub/games.bin"), &rec).unwrap();
        std::fs::write(root.join("notes.txt"), b"hello").unwrap();
        // A FIFO: opening it for reading would block until a writer comes.
        let fifo = root.join("pipe.bin");
        let made = std::process::Command::new("mkfifo").arg(&fifo).status().unwrap();
        assert!(made.success());
        // Two links to the directory itself: 2^32 paths if links were walked blindly.
        std::os::unix::fs::symlink(".", root.join("a")).unwrap();
        std::os::unix::fs::symlink(".", root.join("b")).unwrap();
        std::os::unix::fs::symlink("sub", root.join("c")).unwrap();
        let (tx, rx) = std::sync::mpsc::channel();
        let input = root.clone();
        std::thread::spawn(move || {
            let _ = tx.send(expand_inputs(&[input]).map_err(|e| e.to_string()));
        });
        let found =
            rx.recv_timeout(std::time::Duration::from_secs(30)).expect("the walk blocked or looped").unwrap();
        // Once, by the first path in order that reaches it (the link `c` sorts before `sub`).
        assert_eq!(found, [root.join("c/games.bin")]);
    }

    #[test]
    fn split_is_stable_and_near_the_fraction() {
        let id = |seed, index| GameId { seed, index };
        let val = (0..10_000).filter(|&g| split_of(id(1, g), 0.1) == Split::Validation).count();
        assert!((800..1200).contains(&val), "{val}");
        for g in 0..100 {
            assert_eq!(split_of(id(1, g), 0.1), split_of(id(1, g), 0.1));
        }
        assert!((0..100).all(|g| split_of(id(1, g), 0.0) == Split::Train));
        // Runs with different seeds (a loop's generations) split differently.
        let differ = (0..1000).filter(|&g| split_of(id(1, g), 0.5) != split_of(id(2, g), 0.5)).count();
        assert!(differ > 300, "{differ}");
    }

    #[test]
    fn shuffler_emits_every_item_once_in_batches() {
        let items: Vec<Item> =
            (0..1000).map(|i| Item { pos: Position::start(), target: i as f32, result: 0.0 }).collect();
        let mut got = Vec::new();
        let mut sizes = Vec::new();
        let mut emit = |b: Batch| {
            sizes.push(b.len());
            assert_eq!(b.x.len(), b.len() * fanorona_nn::THREAT_INPUTS);
            got.extend(b.y);
            true
        };
        let mut s = Shuffler::new(Rng::new(1), 100, (true, Encoding::ThreatPlanes), 64, &mut emit);
        for it in &items {
            assert!(s.push(*it));
        }
        s.finish();
        assert_eq!(sizes.iter().sum::<usize>(), 1000);
        assert!(sizes[..sizes.len() - 1].iter().all(|&n| n == 64));
        assert_ne!(got, (0..1000).map(|i| i as f32).collect::<Vec<_>>(), "not shuffled");
        got.sort_by(f32::total_cmp);
        assert_eq!(got, (0..1000).map(|i| i as f32).collect::<Vec<_>>());
    }

    #[test]
    fn the_validation_collector_keeps_the_order_within_its_bound() {
        let item = |i| Item { pos: Position::start(), target: i as f32, result: 0.0 };
        let mut c = ValidationCollector::with_limit(5);
        (0..5).for_each(|i| c.push(item(i)));
        let set = c.finish();
        assert_eq!(
            set.kept.as_ref().map(|v| v.iter().map(|it| it.target).collect::<Vec<_>>()),
            Some(vec![0.0, 1.0, 2.0, 3.0, 4.0])
        );
        let mut c = ValidationCollector::with_limit(5);
        (0..6).for_each(|i| c.push(item(i)));
        assert!(!c.finish().in_memory());
    }

    #[test]
    fn permutation_is_a_permutation() {
        let mut p = permutation(50, &mut Rng::new(3));
        p.sort();
        assert_eq!(p, (0..50).collect::<Vec<_>>());
    }
}
