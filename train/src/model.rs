//! The burn model, built from the engine's network declaration.

use burn::module::Param;
use burn::nn::Linear;
use burn::prelude::*;
use burn::tensor::activation::relu;
use fanorona_nn::{Activation, Architecture, Encoding, INPUTS, Network, QuantisedNetwork, weight_limits_for};

use crate::TrainError;
use crate::crelu::{clamp_param, clipped_relu};

/// The value network in burn: the engine's [`Architecture`] as `Linear` layers with its
/// activation between them and tanh at the end, exactly the engine's float forward pass
/// (including the choice of an output bucket by the position's stone count).
#[derive(Module, Debug)]
pub struct ValueNet {
    layers: Vec<Linear>,
    #[module(skip)]
    activation: Activation,
    #[module(skip)]
    buckets: usize,
    #[module(skip)]
    encoding: Encoding,
}

impl ValueNet {
    /// A burn copy of `net` on `device`.
    pub fn from_network(net: &Network, device: &Device) -> ValueNet {
        let layers = net
            .layers()
            .iter()
            .map(|l| {
                let w = TensorData::new(l.weights().to_vec(), [l.inputs(), l.outputs()]);
                let b = TensorData::new(l.bias().to_vec(), [l.outputs()]);
                Linear {
                    weight: Param::from_tensor(Tensor::<2>::from_data(w, device)),
                    bias: Some(Param::from_tensor(Tensor::<1>::from_data(b, device))),
                }
            })
            .collect();
        let arch = net.arch();
        ValueNet { layers, activation: arch.activation, buckets: arch.buckets, encoding: arch.encoding }
    }

    /// A network of `arch` with random weights drawn from `seed` (the engine's initialisation,
    /// so a seed gives the same start on every backend).
    ///
    /// # Errors
    /// When the architecture is invalid.
    pub fn init(arch: &Architecture, seed: u64, device: &Device) -> Result<ValueNet, TrainError> {
        Ok(ValueNet::from_network(&Network::random(arch, seed)?, device))
    }

    /// Values in [-1, 1] of a batch of encoded positions.
    ///
    /// # Shapes
    /// `x`: `[batch, inputs]` -> `[batch, 1]`.
    pub fn forward(&self, x: Tensor<2>) -> Tensor<2> {
        let last = self.layers.len().saturating_sub(1);
        let bucket = (self.buckets > 1).then(|| self.bucket_indices(x.clone()));
        let mut x = x;
        for (i, layer) in self.layers.iter().enumerate() {
            x = layer.forward(x);
            if i < last {
                x = match self.activation {
                    Activation::Relu => relu(x),
                    Activation::ClippedRelu => clipped_relu(x),
                };
            }
        }
        match bucket {
            Some(b) => x.gather(1, b).tanh(),
            None => x.tanh(),
        }
    }

    /// Each position's output bucket, `[batch, 1]`: its stone count `n` (the sum of its 0/1
    /// stone-plane inputs) as [`Architecture::bucket`] maps it, `floor((n - 1) * buckets /
    /// 44)` clamped (exact in floats: the quotient of small integers is never within rounding
    /// of the next).
    fn bucket_indices(&self, x: Tensor<2>) -> Tensor<2, Int> {
        let b = self.buckets as f32;
        x.narrow(1, 0, INPUTS)
            .sum_dim(1)
            .sub_scalar(1.0)
            .clamp_min(0.0)
            .mul_scalar(b)
            .div_scalar(44.0)
            .floor()
            .clamp(0.0, b - 1.0)
            .int()
    }

    /// Clips every weight and bias to the range the search's integer types hold
    /// ([`weight_limits_for`] the encoding), keeping the parameters' identities (and so the optimiser's state).
    /// ReLU networks are not clipped.
    pub fn clip_weights(self) -> ValueNet {
        if self.activation != Activation::ClippedRelu {
            return self;
        }
        let n = self.layers.len();
        let layers = self
            .layers
            .into_iter()
            .enumerate()
            .map(|(k, l)| {
                let (w, b) = weight_limits_for(self.encoding, k, n);
                let weight = l.weight.map(|t| clamp_param(t, w));
                let bias = l.bias.map(|p| p.map(|t| clamp_param(t, b)));
                Linear { weight, bias }
            })
            .collect();
        ValueNet { layers, activation: self.activation, buckets: self.buckets, encoding: self.encoding }
    }

    /// The input encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The layer sizes, input first.
    pub fn layer_sizes(&self) -> Vec<usize> {
        let mut v = Vec::new();
        for (i, l) in self.layers.iter().enumerate() {
            let [inp, out] = l.weight.val().dims();
            if i == 0 {
                v.push(inp);
            }
            v.push(out);
        }
        v
    }

    /// The weights in the engine's format.
    ///
    /// # Errors
    /// When the model does not match `arch` or a weight is not finite.
    pub fn to_network(&self, arch: &Architecture, description: &str) -> Result<Network, TrainError> {
        let mut params = Vec::with_capacity(self.layers.len());
        for l in &self.layers {
            let w: Vec<f32> = l
                .weight
                .val()
                .into_data()
                .try_to_vec()
                .map_err(|e| TrainError::Config(format!("reading weights: {e:?}")))?;
            let b: Vec<f32> = match &l.bias {
                Some(b) => b
                    .val()
                    .into_data()
                    .try_to_vec()
                    .map_err(|e| TrainError::Config(format!("reading biases: {e:?}")))?,
                None => vec![0.0; l.weight.val().dims()[1]],
            };
            params.push((w, b));
        }
        let net = Network::from_layers(arch.clone(), params, description)?;
        if arch.activation == Activation::ClippedRelu && !arch.hidden.is_empty() {
            // Refuse, naming the layer and the weight, rather than clip silently.
            QuantisedNetwork::new(&net)?;
        }
        Ok(net)
    }
}

/// The device for a backend.
///
/// # Errors
/// When the backend was not compiled in.
pub fn device_for(backend: crate::Backend) -> Result<Device, TrainError> {
    match backend {
        crate::Backend::Flex => Ok(Device::flex()),
        #[cfg(feature = "wgpu")]
        crate::Backend::Wgpu => Ok(Device::wgpu(burn::tensor::DeviceKind::DefaultDevice)),
        #[cfg(feature = "cuda")]
        crate::Backend::Cuda => Ok(Device::cuda(burn::tensor::DeviceIndex::Default)),
        #[cfg(feature = "ndarray")]
        #[allow(deprecated)]
        crate::Backend::Ndarray => Ok(Device::ndarray()),
        #[allow(unreachable_patterns)]
        other => Err(TrainError::Config(format!(
            "backend {other:?} is not compiled in (build fanorona-train with the cargo feature `{}`)",
            format!("{other:?}").to_lowercase()
        ))),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_nn::encode;

    #[test]
    fn clipping_keeps_weights_within_the_integer_ranges() {
        let arch = Architecture::mlp(&[8, 4]).unwrap();
        let mut params: Vec<(Vec<f32>, Vec<f32>)> = Network::random(&arch, 3)
            .unwrap()
            .layers()
            .iter()
            .map(|l| (l.weights().to_vec(), l.bias().to_vec()))
            .collect();
        params[1].0[5] = 3.0; // beyond i8 after scaling by 64
        let net = Network::from_layers(arch.clone(), params, "").unwrap();
        let model = ValueNet::from_network(&net, &Device::flex());
        let err = model.to_network(&arch, "").unwrap_err();
        assert!(err.to_string().contains("layer 1 weight 5 is 3"), "{err}");
        let clipped = model.clip_weights().to_network(&arch, "").unwrap();
        let (limit, _) = fanorona_nn::weight_limits(1, 3);
        assert_eq!(clipped.layers()[1].weights()[5], limit);
        assert_eq!(clipped.layers()[1].weights()[4], net.layers()[1].weights()[4]);
    }

    #[test]
    fn round_trip_through_burn_is_exact() {
        let arch = Architecture::mlp(&[8, 4]).unwrap();
        let net = Network::random(&arch, 3).unwrap();
        let device = Device::flex();
        let model = ValueNet::from_network(&net, &device);
        assert_eq!(model.layer_sizes(), vec![90, 8, 4, 1]);
        let back = model.to_network(&arch, "random").unwrap();
        assert_eq!(back, net);
        let x = encode(&fanorona_core::Position::start());
        let t = Tensor::<2>::from_data(TensorData::new(x.to_vec(), [1, 90]), &device);
        let v: f32 = model.forward(t).into_scalar();
        assert!((v - net.forward(&x)).abs() < 1e-6);
    }

    #[test]
    fn buckets_pick_the_engines_output() {
        let arch: Architecture = "8:buckets=4".parse().unwrap();
        let net = Network::random(&arch, 5).unwrap();
        let device = Device::flex();
        let model = ValueNet::from_network(&net, &device);
        assert_eq!(model.layer_sizes(), vec![90, 8, 4]);
        // Positions of 44, 30, 12, 11 and 2 stones: buckets 3, 2, 1, 0, 0.
        let mut positions = vec![fanorona_core::Position::start()];
        let mut rng = fanorona_core::Rng::new(9);
        let mut pos = fanorona_core::Position::start();
        while positions.len() < 40 {
            let moves = pos.legal_moves();
            if moves.is_empty() {
                break;
            }
            pos = pos.play(&moves[rng.below(moves.len() as u64) as usize]).unwrap();
            positions.push(pos);
        }
        let inputs: Vec<f32> = positions.iter().flat_map(|p| encode(p).to_vec()).collect();
        let t = Tensor::<2>::from_data(TensorData::new(inputs, [positions.len(), 90]), &device);
        let values: Vec<f32> = model.forward(t).into_data().try_to_vec().unwrap();
        let mut seen = std::collections::HashSet::new();
        for (p, v) in positions.iter().zip(values) {
            seen.insert(arch.bucket(p.occupied().count() as usize));
            assert!((v - net.evaluate(p)).abs() < 1e-5, "{v} vs {} at {p}", net.evaluate(p));
        }
        assert!(seen.len() >= 2, "{seen:?}");
    }
}
