//! Training throughput on synthetic batches (the figure `fanorona train --bench` prints).

use std::time::Instant;

use burn::nn::loss::{MseLoss, Reduction};
use burn::optim::GradientsParams;
use burn::prelude::*;
use fanorona_core::Position;
use fanorona_engine::nn::{INPUTS, encode};
use fanorona_engine::rng::Rng;
use serde::{Deserialize, Serialize};

use crate::model::{ValueNet, device_for};
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
    /// Training samples per second (host batch to tensor, forward, backward, optimiser step).
    pub samples_per_second: f64,
}

/// Times `steps` training steps of the configured model at the configured batch size on
/// encoded random-play positions (3 untimed warm-up steps first).
///
/// # Errors
/// When the configuration or backend is invalid.
pub fn measure_throughput(config: &TrainConfig, steps: u64) -> Result<Throughput, TrainError> {
    let arch = config.architecture()?;
    let batch = config.optim.batch_size;
    let device = device_for(config.backend)?.autodiff();
    let mut model = ValueNet::init(&arch, config.seed, &device)?;
    let mut optim = burn::optim::AdamWConfig::new().init();
    // A pool of positions from random play.
    let mut rng = Rng::new(config.seed);
    let mut pool = Vec::with_capacity(4096);
    let mut pos = Position::start();
    while pool.len() < 4096 {
        let moves = pos.legal_moves();
        if moves.is_empty() {
            pos = Position::start();
            continue;
        }
        pos.play_unchecked(&moves[rng.below(moves.len() as u64) as usize]);
        pool.push(pos);
    }
    let mse = MseLoss::new();
    let mut timed = None;
    for s in 0..steps + 3 {
        if s == 3 {
            timed = Some(Instant::now());
        }
        let mut x = Vec::with_capacity(batch * INPUTS);
        let mut y = Vec::with_capacity(batch);
        for _ in 0..batch {
            let p = &pool[rng.below(pool.len() as u64) as usize];
            x.extend_from_slice(&encode(p));
            y.push(if p.us().count() >= p.them().count() { 0.5 } else { -0.5 });
        }
        let x = Tensor::<2>::from_data(TensorData::new(x, [batch, INPUTS]), &device);
        let y = Tensor::<2>::from_data(TensorData::new(y, [batch, 1]), &device);
        let loss = mse.forward(model.forward(x), y, Reduction::Mean);
        let grads = GradientsParams::from_grads(loss.backward(), &model);
        model = optim.step(1e-3, model, grads);
        let _: f32 = loss.into_scalar();
    }
    let secs = timed.map_or(0.0, |t| t.elapsed().as_secs_f64()).max(1e-9);
    Ok(Throughput {
        backend: format!("{:?}", config.backend).to_lowercase(),
        arch: arch.to_string(),
        batch_size: batch,
        steps,
        samples_per_second: (steps * batch as u64) as f64 / secs,
    })
}
