//! One optimiser step on a host batch: what `fanorona train` does with every batch, and what
//! `fanorona train --bench` times.

use burn::nn::loss::{MseLoss, Reduction};
use burn::optim::{GradientsParams, ModuleOptimizer};
use burn::prelude::*;

use crate::model::ValueNet;

/// Copies the batch `x` (`[n][inputs]`, row-major) and its targets `y` (`[n]`) to `device`,
/// takes one step of `optim` at learning rate `lr` on their mean squared error, clips the
/// weights ([`ValueNet::clip_weights`]), and returns the new model with the batch's loss
/// (before the step).
pub(crate) fn train_step(
    model: ValueNet,
    optim: &mut ModuleOptimizer,
    lr: f64,
    x: Vec<f32>,
    y: Vec<f32>,
    device: &Device,
) -> (ValueNet, f32) {
    let n = y.len();
    let inputs = x.len() / n.max(1);
    debug_assert_eq!(x.len(), n * inputs);
    let x = Tensor::<2>::from_data(TensorData::new(x, [n, inputs]), device);
    let y = Tensor::<2>::from_data(TensorData::new(y, [n, 1]), device);
    let loss = MseLoss::new().forward(model.forward(x), y, Reduction::Mean);
    let grads = GradientsParams::from_grads(loss.backward(), &model);
    let model = optim.step(lr, model, grads).clip_weights();
    (model, loss.into_scalar())
}
