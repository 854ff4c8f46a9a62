//! Training throughput on synthetic batches (the figure `fanorona train --bench` prints).

use std::sync::mpsc::{Receiver, sync_channel};
use std::thread::JoinHandle;
use std::time::Instant;

use fanorona_core::Position;
use fanorona_core::Rng;
use fanorona_nn::{Encoding, encode_into};
use serde::{Deserialize, Serialize};

use crate::model::{ValueNet, device_for};
use crate::run::make_optimizer;
use crate::step::train_step;
use crate::{TrainConfig, TrainError};

/// Measured training speed.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Throughput {
    /// The backend.
    pub backend: String,
    /// The architecture.
    pub arch: String,
    /// Samples per step.
    pub batch_size: usize,
    /// Steps timed (after warm-up steps).
    pub steps: u64,
    /// Training samples per second (host batch to tensor, forward, backward, optimiser step,
    /// weight clipping: the trainer's step).
    pub samples_per_second: f64,
}

/// Untimed steps before the clock starts.
const WARMUP_STEPS: u64 = 3;

/// Positions the batches are drawn from.
const POOL: usize = 4096;

/// Times `steps` training steps of the configured model, optimiser and batch size on encoded
/// random-play positions ([`WARMUP_STEPS`] untimed steps first). The step is the trainer's
/// own, and as in training the batches are prepared on a second thread while a step runs.
///
/// # Errors
/// When the configuration or backend is invalid.
pub fn measure_throughput(config: &TrainConfig, steps: u64) -> Result<Throughput, TrainError> {
    let arch = config.architecture()?;
    let batch = config.optim.batch_size;
    let device = device_for(config.backend)?.autodiff();
    let mut model = ValueNet::init(&arch, config.seed, &device)?;
    let mut optim = make_optimizer(config);
    let (rx, loader) = spawn_batches(config.seed, batch, arch.encoding);
    let mut timed = None;
    for s in 0..steps + WARMUP_STEPS {
        if s == WARMUP_STEPS {
            timed = Some(Instant::now());
        }
        let (x, y) = rx.recv().map_err(|_| TrainError::Backend("the batch thread stopped".into()))?;
        (model, _) = train_step(model, &mut optim, config.optim.lr, x, y, &device);
    }
    let secs = timed.map_or(0.0, |t| t.elapsed().as_secs_f64()).max(1e-9);
    drop(rx);
    loader.join().map_err(|_| TrainError::Backend("the batch thread panicked".into()))?;
    Ok(Throughput {
        backend: format!("{:?}", config.backend).to_lowercase(),
        arch: arch.to_string(),
        batch_size: batch,
        steps,
        samples_per_second: (steps * batch as u64) as f64 / secs,
    })
}

/// A host batch: inputs `[batch][inputs]` and targets `[batch]`.
type HostBatch = (Vec<f32>, Vec<f32>);

/// A thread that sends batches of `batch` positions drawn from a pool of random-play
/// positions (target +-0.5 by who has more stones) until the receiver is dropped.
fn spawn_batches(seed: u64, batch: usize, encoding: Encoding) -> (Receiver<HostBatch>, JoinHandle<()>) {
    let (tx, rx) = sync_channel::<HostBatch>(2);
    let handle = std::thread::spawn(move || {
        let mut rng = Rng::new(seed);
        let pool = random_positions(&mut rng, POOL);
        loop {
            let mut x = Vec::with_capacity(batch * encoding.inputs());
            let mut y = Vec::with_capacity(batch);
            for _ in 0..batch {
                let p = &pool[rng.below(pool.len() as u64) as usize];
                encode_into(encoding, p, &mut x);
                y.push(if p.us().count() >= p.them().count() { 0.5 } else { -0.5 });
            }
            if tx.send((x, y)).is_err() {
                return;
            }
        }
    });
    (rx, handle)
}

/// `n` positions of random play from the start (a new game whenever one ends).
fn random_positions(rng: &mut Rng, n: usize) -> Vec<Position> {
    let mut pool = Vec::with_capacity(n);
    let mut pos = Position::start();
    while pool.len() < n {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::start();
            continue;
        }
        pos.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        pool.push(pos);
    }
    pool
}
