//! `fanorona.samples`: training samples of record files as batches of numpy arrays (the
//! `.npz` schema of `fanorona data export --format npz`), streaming.

use std::path::PathBuf;

use fanorona_core::Rng;
use fanorona_data::{GameId, Sample, SampleArrays, SampleConfig, Samples, Split, Target, split_of};
use fanorona_nn::Encoding;
use numpy::{PyArray1, PyArrayMethods};
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::errors;

/// Most samples a shuffle buffer or a batch may hold (about 150 bytes each).
const MAX_BUFFER: usize = 1 << 26;

/// An iterator of dicts of numpy arrays, one entry per array of the npz schema.
#[pyclass(module = "fanorona")]
#[derive(Debug)]
pub struct SampleBatches {
    samples: Samples,
    encoding: Encoding,
    buffer: Vec<Sample>,
    capacity: usize,
    batch_size: usize,
    rng: Rng,
    exhausted: bool,
}

impl SampleBatches {
    /// The next sample in the output order: the stream's order without a shuffle buffer, else
    /// a uniform pick from the buffer, which is then refilled.
    fn next_sample(&mut self) -> Result<Option<Sample>, fanorona_data::DataError> {
        if self.capacity == 0 {
            return self.samples.next().transpose();
        }
        while !self.exhausted && self.buffer.len() < self.capacity {
            match self.samples.next() {
                Some(s) => self.buffer.push(s?),
                None => self.exhausted = true,
            }
        }
        if self.buffer.is_empty() {
            return Ok(None);
        }
        let j = self.rng.below(self.buffer.len() as u64) as usize;
        Ok(Some(self.buffer.swap_remove(j)))
    }
}

/// The arrays as a dict of numpy arrays named as the npz export names them.
fn to_dict<'py>(py: Python<'py>, a: SampleArrays) -> PyResult<Bound<'py, PyDict>> {
    let n = a.len();
    let d = PyDict::new(py);
    d.set_item("inputs", PyArray1::from_vec(py, a.inputs).reshape([n, a.encoding.inputs()])?)?;
    d.set_item("result", PyArray1::from_vec(py, a.result))?;
    d.set_item("score", PyArray1::from_vec(py, a.score))?;
    d.set_item("has_score", PyArray1::from_vec(py, a.has_score))?;
    d.set_item("target", PyArray1::from_vec(py, a.target))?;
    d.set_item("ply", PyArray1::from_vec(py, a.ply))?;
    d.set_item("game", PyArray1::from_vec(py, a.game))?;
    d.set_item("stm", PyArray1::from_vec(py, a.stm))?;
    d.set_item("mirrored", PyArray1::from_vec(py, a.mirrored))?;
    d.set_item("action", PyArray1::from_vec(py, a.action))?;
    d.set_item("depth", PyArray1::from_vec(py, a.depth))?;
    d.set_item("exploration", PyArray1::from_vec(py, a.exploration))?;
    d.set_item("plies_left", PyArray1::from_vec(py, a.plies_left))?;
    Ok(d)
}

#[pymethods]
impl SampleBatches {
    fn __iter__(slf: PyRef<'_, Self>) -> PyRef<'_, Self> {
        slf
    }

    fn __next__<'py>(&mut self, py: Python<'py>) -> PyResult<Option<Bound<'py, PyDict>>> {
        let mut a = SampleArrays::with_capacity(self.encoding, self.batch_size.min(1 << 16));
        while a.len() < self.batch_size {
            match self.next_sample().map_err(errors::data)? {
                Some(s) => a.push(&s),
                None => break,
            }
        }
        if a.is_empty() {
            return Ok(None);
        }
        to_dict(py, a).map(Some)
    }
}

/// Record file paths: one path or a list of them.
#[derive(FromPyObject)]
pub enum Paths {
    /// One file.
    One(PathBuf),
    /// Several, read in order.
    Many(Vec<PathBuf>),
}

/// Which games a stream keeps: a side of the trainer's split, and one worker's share.
struct GameShare {
    split: Option<Split>,
    val_fraction: f64,
    worker: (u64, u64),
}

impl GameShare {
    fn parse(split: &str, val_fraction: f64, worker: Option<(u64, u64)>) -> PyResult<GameShare> {
        let split = match split {
            "all" => None,
            "train" => Some(Split::Train),
            "validation" => Some(Split::Validation),
            _ => {
                return Err(errors::value(format!(
                    "split: {split:?} is not one of \"all\", \"train\", \"validation\""
                )));
            }
        };
        if !(0.0..1.0).contains(&val_fraction) {
            return Err(errors::value(format!("val_fraction: {val_fraction} must be in 0..1")));
        }
        let worker = worker.unwrap_or((0, 1));
        if worker.1 == 0 || worker.0 >= worker.1 {
            return Err(errors::value(format!(
                "worker: {worker:?} must be (index, count) with 0 <= index < count"
            )));
        }
        Ok(GameShare { split, val_fraction, worker })
    }

    /// The filter: the split's games, then every `count`-th of them from `index` on.
    fn filter(self) -> impl FnMut(GameId) -> bool + Send + Sync + 'static {
        let mut seen = 0u64;
        move |id| {
            if self.split.is_some_and(|s| split_of(id, self.val_fraction) != s) {
                return false;
            }
            seen += 1;
            (seen - 1) % self.worker.1 == self.worker.0
        }
    }
}

/// Batches of training samples of the games of `paths`: dicts of numpy arrays as
/// `fanorona data export --format npz` writes them (`inputs` uint8 [n, 180] for the default
/// `encoding="threats"`, [n, 90] for `"stones"`; `result`, `score`, `has_score`, `target`,
/// `ply`, `game`, `stm`, `mirrored`, `action`, `depth`, `exploration`, `plies_left`).
///
/// Streaming: one game is decoded at a time. With `shuffle_buffer=0` the samples come in game
/// then ply order; otherwise each comes from a uniform pick in a buffer of that many (seeded
/// by `seed`). The sample options are those of `fanorona train`. `split` ("all", "train" or
/// "validation") keeps one side of the trainer's split by game (`val_fraction`, 0.1 as
/// `data.val_fraction`); `worker=(index, count)` keeps every `count`-th of those games from
/// the `index`-th on (a data loader's worker: the workers together give each sample once).
#[pyfunction]
#[pyo3(signature = (paths, batch_size=1024, shuffle_buffer=0, seed=1, *, encoding="threats", target="blend", score_weight=fanorona_data::samples::DEFAULT_SCORE_WEIGHT, score_scale=fanorona_data::samples::DEFAULT_SCORE_SCALE, skip_plies=0, dedup=false, mirror=false, quiet_only=false, max_score=0, split="all", val_fraction=0.1, worker=None))]
#[allow(clippy::too_many_arguments)]
pub fn samples(
    paths: Paths,
    batch_size: usize,
    shuffle_buffer: usize,
    seed: u64,
    encoding: &str,
    target: &str,
    score_weight: f32,
    score_scale: f32,
    skip_plies: usize,
    dedup: bool,
    mirror: bool,
    quiet_only: bool,
    max_score: u32,
    split: &str,
    val_fraction: f64,
    worker: Option<(u64, u64)>,
) -> PyResult<SampleBatches> {
    let files = match paths {
        Paths::One(p) => vec![p],
        Paths::Many(v) => v,
    };
    if !(1..=MAX_BUFFER).contains(&batch_size) {
        return Err(errors::value(format!("batch_size: {batch_size} is not in 1..={MAX_BUFFER}")));
    }
    if shuffle_buffer > MAX_BUFFER {
        return Err(errors::value(format!("shuffle_buffer: {shuffle_buffer} is above {MAX_BUFFER}")));
    }
    let encoding = crate::network::parse_encoding(encoding)?;
    let target: Target = target.parse().map_err(|e| errors::value(format!("target: {e}")))?;
    if !(0.0..=1.0).contains(&score_weight) {
        return Err(errors::value(format!("score_weight: {score_weight} must be in 0..=1")));
    }
    if !(score_scale.is_finite() && score_scale > 0.0) {
        return Err(errors::value(format!("score_scale: {score_scale} must be positive")));
    }
    let share = GameShare::parse(split, val_fraction, worker)?;
    // Open the first file now, so a missing or foreign file raises here, not at the first
    // batch.
    if let Some(first) = files.first() {
        fanorona_data::RecordReader::open(first).map_err(errors::data)?;
    }
    let config = SampleConfig {
        skip_plies,
        score_weight: target.score_weight(score_weight),
        score_scale,
        dedup,
        mirror,
        check_rules: false,
        quiet_only,
        max_score,
    };
    Ok(SampleBatches {
        samples: Samples::filtered(&files, config, share.filter()),
        encoding,
        buffer: Vec::with_capacity(shuffle_buffer.min(1 << 20)),
        capacity: shuffle_buffer,
        batch_size,
        rng: Rng::new(seed),
        exhausted: false,
    })
}
