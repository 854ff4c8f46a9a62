//! The network's weights and its plain-Rust forward pass.

use fanorona_core::Position;

use crate::{Architecture, FormatError, encode_as};
use fanorona_core::Rng;

/// One fully connected layer: `y = x W + b`, with `W` stored input-major (`weights[i * outputs +
/// o]` multiplies input `i` into output `o`), the layout of burn's `Linear` weight.
#[derive(Clone, Debug, PartialEq)]
pub struct Layer {
    inputs: usize,
    outputs: usize,
    weights: Vec<f32>,
    bias: Vec<f32>,
}

impl Layer {
    /// Number of inputs.
    pub fn inputs(&self) -> usize {
        self.inputs
    }

    /// Number of outputs.
    pub fn outputs(&self) -> usize {
        self.outputs
    }

    /// The weights, input-major (`[inputs][outputs]`, row-major).
    pub fn weights(&self) -> &[f32] {
        &self.weights
    }

    /// The biases.
    pub fn bias(&self) -> &[f32] {
        &self.bias
    }

    /// The weights that input `i` contributes to every output (one row).
    #[inline]
    pub fn row(&self, i: usize) -> &[f32] {
        &self.weights[i * self.outputs..(i + 1) * self.outputs]
    }

    /// `out += a * row(i)` for every input `i` with a non-zero activation `a`; `out` starts as
    /// whatever the caller put there (normally the bias). `active` is scratch space for at
    /// least `inputs` indices: the non-zero inputs are first gathered without branches (ReLU
    /// outputs are zero about half the time, a branch per input would mispredict often).
    #[inline]
    fn accumulate(&self, x: &[f32], out: &mut [f32], active: &mut [u16]) {
        let mut n = 0;
        for (i, &a) in x.iter().enumerate().take(self.inputs.min(active.len())) {
            active[n] = i as u16;
            n += usize::from(a != 0.0);
        }
        let active = &active[..n];
        // Outputs in blocks of 16 held in registers across all inputs (the sums are added in
        // the same order as one output at a time, so the result is the same to the bit).
        const BLOCK: usize = 16;
        let outputs = out.len().min(self.outputs);
        let mut start = 0;
        while start + BLOCK <= outputs {
            let mut acc = [0f32; BLOCK];
            acc.copy_from_slice(&out[start..start + BLOCK]);
            for &i in active {
                let i = usize::from(i);
                let a = x[i];
                let base = i * self.outputs + start;
                if let Ok(row) = <&[f32; BLOCK]>::try_from(&self.weights[base..base + BLOCK]) {
                    for (y, &w) in acc.iter_mut().zip(row) {
                        *y += a * w;
                    }
                }
            }
            out[start..start + BLOCK].copy_from_slice(&acc);
            start += BLOCK;
        }
        if start < outputs {
            for &i in active {
                let i = usize::from(i);
                let a = x[i];
                for (y, &w) in out[start..outputs].iter_mut().zip(&self.row(i)[start..]) {
                    *y += a * w;
                }
            }
        }
    }
}

/// A value network: an [`Architecture`] and its weights. Hidden layers use the architecture's
/// activation, the output tanh: [`Network::forward`] returns the side to move's value in
/// [-1, 1].
#[derive(Clone, Debug, PartialEq)]
pub struct Network {
    arch: Architecture,
    layers: Vec<Layer>,
    description: String,
}

impl Network {
    /// A network from its weights: one `(weights, bias)` pair per layer, weights input-major.
    ///
    /// # Errors
    /// When the architecture is invalid, a layer has the wrong number of values, or a value is
    /// not finite.
    pub fn from_layers(
        arch: Architecture,
        params: Vec<(Vec<f32>, Vec<f32>)>,
        description: impl Into<String>,
    ) -> Result<Network, FormatError> {
        arch.validate()?;
        let sizes = arch.layer_sizes();
        if params.len() != sizes.len() - 1 {
            return Err(FormatError::Architecture(format!(
                "{arch} has {} layers, {} were given",
                sizes.len() - 1,
                params.len()
            )));
        }
        let mut layers = Vec::with_capacity(params.len());
        for (layer, ((weights, bias), w)) in params.into_iter().zip(sizes.windows(2)).enumerate() {
            let (inputs, outputs) = (w[0], w[1]);
            if weights.len() != inputs * outputs {
                return Err(FormatError::Shape { layer, expected: inputs * outputs, got: weights.len() });
            }
            if bias.len() != outputs {
                return Err(FormatError::Shape { layer, expected: outputs, got: bias.len() });
            }
            if let Some(index) = weights.iter().chain(&bias).position(|v| !v.is_finite()) {
                return Err(FormatError::NonFinite { layer, index });
            }
            layers.push(Layer { inputs, outputs, weights, bias });
        }
        Ok(Network { arch, layers, description: description.into() })
    }

    /// A network with random weights (uniform in ±1/sqrt(fan-in), like burn's default
    /// initialisation), for tests and benchmarks.
    ///
    /// # Errors
    /// When the architecture is invalid.
    pub fn random(arch: &Architecture, seed: u64) -> Result<Network, FormatError> {
        arch.validate()?;
        let mut rng = Rng::new(seed);
        let params = arch
            .layer_sizes()
            .windows(2)
            .map(|w| {
                let bound = 1.0 / (w[0] as f64).sqrt();
                let mut draw = || ((rng.next_f64() * 2.0 - 1.0) * bound) as f32;
                let weights = (0..w[0] * w[1]).map(|_| draw()).collect();
                let bias = (0..w[1]).map(|_| draw()).collect();
                (weights, bias)
            })
            .collect();
        Network::from_layers(arch.clone(), params, "random")
    }

    /// The architecture.
    pub fn arch(&self) -> &Architecture {
        &self.arch
    }

    /// The layers, input first.
    pub fn layers(&self) -> &[Layer] {
        &self.layers
    }

    /// Free text stored with the network (what it was trained on, by whom).
    pub fn description(&self) -> &str {
        &self.description
    }

    /// Replaces the description.
    pub fn set_description(&mut self, description: impl Into<String>) {
        self.description = description.into();
    }

    /// The widest layer output (scratch buffer size).
    pub(crate) fn max_width(&self) -> usize {
        self.layers.iter().map(|l| l.outputs).max().unwrap_or(1)
    }

    /// The value of an encoded input (see [`crate::encode_as`]; inputs beyond the
    /// encoding's count are ignored, missing ones are 0), in [-1, 1]. The output bucket is that
    /// of the input's stone count (its non-zero stone-plane inputs).
    pub fn forward(&self, input: &[f32]) -> f32 {
        let first = &self.layers[0];
        let mut pre = first.bias.clone();
        let w = self.max_width().max(first.inputs);
        let mut active = vec![0u16; w];
        first.accumulate(&input[..input.len().min(first.inputs)], &mut pre, &mut active);
        let bucket = self.arch.bucket(crate::encode::stones_in(input));
        self.finish(&pre, bucket, &mut vec![0.0; w], &mut vec![0.0; w], &mut active)
    }

    /// The value of `pos` for its side to move, in [-1, 1] (from scratch, in the network's
    /// encoding).
    pub fn evaluate(&self, pos: &Position) -> f32 {
        self.forward(&encode_as(self.arch.encoding, pos))
    }

    /// The rest of the forward pass from the first layer's pre-activations `pre`, through
    /// output `bucket`; `a`, `b` and `active` are scratch buffers of at least
    /// [`Network::max_width`] values. Allocates nothing.
    #[inline]
    pub(crate) fn finish(
        &self,
        pre: &[f32],
        bucket: usize,
        a: &mut [f32],
        b: &mut [f32],
        active: &mut [u16],
    ) -> f32 {
        if self.layers.len() == 1 {
            return pre[bucket.min(pre.len() - 1)].tanh();
        }
        let act = self.arch.activation;
        let mut width = pre.len();
        for (y, &x) in a.iter_mut().zip(pre) {
            *y = act.apply(x);
        }
        let (mut cur, mut next) = (a, b);
        let last = self.layers.len() - 1;
        for (k, layer) in self.layers.iter().enumerate().skip(1) {
            let out = &mut next[..layer.outputs];
            out.copy_from_slice(&layer.bias);
            layer.accumulate(&cur[..width], out, active);
            if k == last {
                return out[bucket.min(out.len() - 1)].tanh();
            }
            for y in out.iter_mut() {
                *y = act.apply(*y);
            }
            width = layer.outputs;
            core::mem::swap(&mut cur, &mut next);
        }
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hand_computed_forward() {
        // 90 -> 2 -> 1: h = relu(x W1 + b1), y = tanh(h W2 + b2).
        let arch = Architecture::mlp(&[2]).unwrap();
        let mut w1 = vec![0.0f32; 90 * 2];
        w1[0] = 0.5; // input 0 -> h0
        w1[1] = -1.0; // input 0 -> h1
        w1[2 * 45 + 1] = 2.0; // input 45 -> h1
        let b1 = vec![0.1, 0.0];
        let w2 = vec![1.0, 0.25];
        let b2 = vec![-0.05];
        let net = Network::from_layers(arch, vec![(w1, b1), (w2, b2)], "hand").unwrap();
        let mut x = [0.0f32; crate::INPUTS];
        x[0] = 1.0;
        // h0 = 0.6, h1 = relu(-1) = 0 -> y = tanh(0.6 - 0.05)
        assert!((net.forward(&x) - 0.55f32.tanh()).abs() < 1e-7);
        x[45] = 1.0;
        // h1 = relu(-1 + 2) = 1 -> y = tanh(0.6 + 0.25 - 0.05)
        assert!((net.forward(&x) - 0.8f32.tanh()).abs() < 1e-7);
    }

    #[test]
    fn shapes_are_checked() {
        let arch = Architecture::mlp(&[2]).unwrap();
        let bad = Network::from_layers(arch.clone(), vec![(vec![0.0; 10], vec![0.0; 2])], "");
        assert!(matches!(bad, Err(FormatError::Architecture(_))));
        let bad = Network::from_layers(
            arch.clone(),
            vec![(vec![0.0; 180], vec![0.0; 2]), (vec![0.0; 3], vec![0.0])],
            "",
        );
        assert!(matches!(bad, Err(FormatError::Shape { layer: 1, expected: 2, got: 3 })));
        let bad = Network::from_layers(
            arch,
            vec![(vec![0.0; 180], vec![f32::NAN, 0.0]), (vec![0.0; 2], vec![0.0])],
            "",
        );
        assert!(matches!(bad, Err(FormatError::NonFinite { layer: 0, index: 180 })));
    }

    #[test]
    fn linear_model_and_output_range() {
        let lin = Network::random(&"linear".parse().unwrap(), 1).unwrap();
        let v = lin.evaluate(&Position::start());
        assert!((-1.0..=1.0).contains(&v));
        let net = Network::random(&Architecture::default(), 2).unwrap();
        assert!((-1.0..=1.0).contains(&net.evaluate(&Position::start())));
    }
}
