//! The network in integers, as the search runs it (NNUE-style).
//!
//! A [`Network`] with clipped-ReLU hidden layers is quantised once, when it is loaded:
//! - the first layer (the accumulator) in i16, scaled by [`FT_SCALE`] = 127 x 4: its
//!   activation `clamp(x, 0, 1)` is `clamp((acc + 2) >> 2, 0, 127)`, a u8 in 0..=127;
//! - the other hidden layers in i8 weights scaled by [`HIDDEN_SCALE`] = 64 and i32 biases
//!   (scaled by 127 x 64): sums of u8 x i8 products in i32, activation `clamp((sum + 32) >> 6, 0,
//!   127)`;
//! - the output layer in i16 weights scaled by [`OUTPUT_SCALE`] = 512 and an i32 bias (127 x
//!   512): the sum is 65024 times the pre-tanh value `z`, and the score is `round(400 z)`
//!   centi-stones clamped to ±1198, which is what [`crate::value_to_score`] makes of `tanh(z)`.
//!
//! A weight that does not fit its integer type after scaling, or a first-layer neuron whose
//! sum could leave the i16 range in some position, is refused ([`QuantError`]), never clipped.
//! Shapes are padded with zeros to the SIMD widths of [`crate::simd`].

use crate::aligned::Aligned;
use crate::simd::{self, ExtraRows, IN_ALIGN, Kernel, OUT_ALIGN, ROW_ALIGN, RowDelta};
use crate::{Activation, Encoding, Network, PendingRows, SCORE_SCALE};
use fanorona_core::Point;

/// First-layer scale: the accumulator holds 508 times the pre-activation; its activation is
/// `(acc + 2) >> 2` clamped to 0..=127 ([`simd::ft_activate`], [`simd::ft_dot`]).
pub const FT_SCALE: f32 = 508.0;
/// Hidden-layer weight scale.
pub const HIDDEN_SCALE: f32 = 64.0;
const HIDDEN_SHIFT: u32 = 6;
/// Output-layer weight scale.
pub const OUTPUT_SCALE: f32 = 512.0;
/// An activation of 1.0.
const ONE: f32 = 127.0;
/// The largest score a network gives (`value_to_score` of a value of ±0.995).
pub const MAX_NET_SCORE: i32 = 1198;

/// The magnitudes to which a trainer clips layer `k`'s weights and biases (of `layers`
/// layers) so that a clipped-ReLU network of stone planes always quantises: first-layer
/// weights to 1.4 and biases to 2 (44 stones x 1.4 + 2 stays below the i16 accumulator's
/// 64.5), hidden weights to 1.98 (i8 at scale 64), output weights to 63. For another encoding
/// see [`weight_limits_for`].
pub fn weight_limits(k: usize, layers: usize) -> (f32, f32) {
    weight_limits_for(Encoding::StonePlanes, k, layers)
}

/// [`weight_limits`] for a network over `encoding`: the first-layer weights are clipped so
/// that all of its [`Encoding::max_active`] inputs together stay in the i16 accumulator (0.7
/// for threat planes, whose 88 inputs may be set at once).
pub fn weight_limits_for(encoding: Encoding, k: usize, layers: usize) -> (f32, f32) {
    if k == 0 && layers > 1 {
        let limit = if encoding.max_active() > 44 { 0.7 } else { 1.4 };
        (limit, 2.0)
    } else if k + 1 == layers {
        (63.0, 1000.0)
    } else {
        (1.98, 1000.0)
    }
}

impl QuantError {
    /// Always `true`: the network's weights do not fit in integers.
    pub fn is_bad_input(&self) -> bool {
        true
    }
}

/// Why a network cannot run in integers.
#[derive(Clone, Debug, PartialEq, thiserror::Error)]
pub enum QuantError {
    /// Only clipped-ReLU networks with at least one hidden layer are quantised.
    #[error("a network with {activation} hidden layers and {hidden} hidden layer(s) runs in floats only")]
    NotQuantisable {
        /// The activation's name.
        activation: &'static str,
        /// Hidden layers.
        hidden: usize,
    },
    /// A weight or bias is too large for its integer type after scaling.
    #[error(
        "layer {layer} {what} {index} is {value}: scaled by {scale} it does not fit {ty} \
         (at most {max} in magnitude); retrain with weight clipping"
    )]
    Overflow {
        /// Layer, from 0.
        layer: usize,
        /// `weight` or `bias`.
        what: &'static str,
        /// Index in the layer (`input * outputs + output` for weights).
        index: usize,
        /// The float value.
        value: f32,
        /// The scale applied.
        scale: f32,
        /// The integer type.
        ty: &'static str,
        /// The largest magnitude allowed before scaling.
        max: f32,
    },
    /// A first-layer neuron whose sum could leave the i16 range.
    #[error(
        "layer 0 neuron {neuron}: its bias and 22 largest weights per side add up to {bound} \
         after scaling, beyond the i16 accumulator's 32767"
    )]
    Accumulator {
        /// The neuron.
        neuron: usize,
        /// The bound reached.
        bound: i64,
    },
}

/// A hidden layer after the first: i8 weights in the kernels' blocked layout.
#[derive(Clone, Debug)]
struct HiddenLayer {
    inputs: usize,
    outputs: usize,
    weights: Aligned<i8>,
    bias: Vec<i32>,
}

/// A network quantised for the search; see the module documentation.
#[derive(Clone, Debug)]
pub struct QuantisedNetwork {
    /// The input encoding: stone planes (all in the accumulator) or threat planes (the threat
    /// rows added at evaluation, [`QuantisedNetwork::score_pending`]).
    encoding: Encoding,
    /// Padded first-layer width.
    width: usize,
    /// `[INPUTS][width]`.
    ft_weights: Aligned<i16>,
    ft_bias: Aligned<i16>,
    hidden: Vec<HiddenLayer>,
    /// Output buckets.
    buckets: usize,
    /// The last hidden layer's padded width: one bucket's share of `out_weights`.
    out_width: usize,
    /// `[buckets][out_width]`: each bucket's weights together.
    out_weights: Aligned<i16>,
    /// One per bucket.
    out_bias: Vec<i32>,
    kernel: Kernel,
}

/// Scratch space for one evaluation (allocated once per evaluator).
#[derive(Clone, Debug)]
pub struct Scratch {
    a: Aligned<u8>,
    b: Aligned<u8>,
    sums: Vec<i32>,
    groups: Vec<u16>,
}

fn padded(n: usize, align: usize) -> usize {
    n.div_ceil(align) * align
}

fn quantise<T: TryFrom<i64>>(
    value: f32,
    scale: f32,
    (layer, what, index): (usize, &'static str, usize),
    ty: &'static str,
    max: i64,
) -> Result<T, QuantError> {
    let q = (value * scale).round();
    let overflow = || QuantError::Overflow { layer, what, index, value, scale, ty, max: max as f32 / scale };
    if q.is_nan() || q.abs() > max as f32 {
        return Err(overflow());
    }
    T::try_from(q as i64).map_err(|_| overflow())
}

/// Whether the engine can load `net`: `Ok` for a network it runs in floats (ReLU, or no hidden
/// layer) or in integers; the [`QuantError`] naming the layer, the value and the limit for a
/// clipped-ReLU network whose weights do not fit the integers (the engine refuses it: what
/// `fanorona net import`, `net info` and the Python package's `Network.save` check).
///
/// # Errors
/// [`QuantError::Overflow`] or [`QuantError::Accumulator`].
pub fn engine_check(net: &Network) -> Result<(), QuantError> {
    match QuantisedNetwork::new(net) {
        Ok(_) | Err(QuantError::NotQuantisable { .. }) => Ok(()),
        Err(e) => Err(e),
    }
}

impl QuantisedNetwork {
    /// Quantises `net` for the fastest kernel of this CPU.
    ///
    /// # Errors
    /// [`QuantError`] when the network is not a clipped-ReLU network with a hidden layer, or a
    /// value does not fit.
    pub fn new(net: &Network) -> Result<QuantisedNetwork, QuantError> {
        QuantisedNetwork::with_kernel(net, Kernel::detect())
    }

    /// Quantises `net` for `kernel` (every kernel gives the same scores; tests compare them).
    ///
    /// # Errors
    /// As [`QuantisedNetwork::new`].
    pub fn with_kernel(net: &Network, kernel: Kernel) -> Result<QuantisedNetwork, QuantError> {
        let arch = net.arch();
        if arch.activation != Activation::ClippedRelu || arch.hidden.is_empty() {
            return Err(QuantError::NotQuantisable {
                activation: arch.activation.name(),
                hidden: arch.hidden.len(),
            });
        }
        let layers = net.layers();
        let (ft_weights, ft_bias, width) = first_layer(&layers[0])?;
        let mut hidden = Vec::new();
        let mut in_width = width;
        for (k, layer) in layers.iter().enumerate().take(layers.len() - 1).skip(1) {
            let h = hidden_layer(k, layer, in_width)?;
            in_width = h.outputs;
            hidden.push(h);
        }
        let (out_weights, out_bias) = output_layer(layers.len() - 1, &layers[layers.len() - 1], in_width)?;
        let (buckets, out_width) = (arch.buckets, in_width);
        Ok(QuantisedNetwork {
            encoding: arch.encoding,
            width,
            ft_weights: Aligned::from_slice(&ft_weights),
            ft_bias: Aligned::from_slice(&ft_bias),
            hidden,
            buckets,
            out_width,
            out_weights: Aligned::from_slice(&out_weights),
            out_bias,
            kernel,
        })
    }

    /// The output bucket of `pos` (see [`crate::Architecture::bucket`]).
    #[inline]
    pub fn bucket(&self, pos: &fanorona_core::Position) -> usize {
        if self.buckets == 1 {
            return 0;
        }
        crate::arch::bucket_of(crate::arch::stones(pos), self.buckets)
    }

    /// The input encoding.
    pub fn encoding(&self) -> Encoding {
        self.encoding
    }

    /// The kernel it runs with.
    pub fn kernel(&self) -> Kernel {
        self.kernel
    }

    /// The accumulator's width (the first layer's, padded).
    pub fn width(&self) -> usize {
        self.width
    }

    /// Scratch space for [`QuantisedNetwork::score`].
    pub fn scratch(&self) -> Scratch {
        let widest = self.hidden.iter().map(|h| h.outputs).chain([self.width]).max().unwrap_or(self.width);
        Scratch {
            a: Aligned::filled(widest, 0),
            b: Aligned::filled(widest, 0),
            sums: vec![0; widest],
            groups: vec![0; widest / IN_ALIGN + 1],
        }
    }

    /// The first layer's biases (the accumulator of an empty board).
    pub(crate) fn ft_bias(&self) -> &[i16] {
        &self.ft_bias
    }

    /// The first layer's row of input `i`.
    #[inline]
    pub(crate) fn ft_row(&self, i: usize) -> &[i16] {
        &self.ft_weights[i * self.width..(i + 1) * self.width]
    }

    /// `dst = src + row(add) - rows(sub)` in the first layer.
    #[inline]
    pub(crate) fn update(&self, src: &[i16], dst: &mut [i16], delta: RowDelta<'_>) {
        simd::update_row(self.kernel, &self.ft_weights, src, dst, delta);
    }

    /// The score in centi-stones (side to move) of a position whose accumulator, from the side
    /// to move's view, is `acc`, through output `bucket` ([`QuantisedNetwork::bucket`]; 0 for
    /// a network without buckets, and a bucket beyond the last is the last). Allocates nothing.
    #[inline]
    pub fn score(&self, acc: &[i16], bucket: usize, s: &mut Scratch) -> i32 {
        self.score_with(acc, ExtraRows::NONE, bucket, s)
    }

    /// The score of `pos` by this network's encoding: [`QuantisedNetwork::score`] through its
    /// bucket for stone planes; for threat planes, the rows of its threat inputs
    /// ([`crate::threat_features`]) are added as the accumulator is activated. `acc` is its
    /// stone-plane accumulator from the side to move's view. Allocates nothing.
    #[inline]
    pub fn score_position(&self, acc: &[i16], pos: &fanorona_core::Position, s: &mut Scratch) -> i32 {
        self.score_pending(acc, &mut PendingRows::new(), pos, s)
    }

    /// [`QuantisedNetwork::score_position`] of an accumulator that still lacks the rows of
    /// `pending` ([`crate::LazyAccumulator::values_pending`]): they are added and taken away as
    /// it is activated, with the threat inputs (appended to `pending`) for threat planes.
    #[inline]
    pub fn score_pending(
        &self,
        acc: &[i16],
        pending: &mut PendingRows,
        pos: &fanorona_core::Position,
        s: &mut Scratch,
    ) -> i32 {
        if self.encoding == Encoding::ThreatPlanes {
            let n = crate::threat_features(pos, pending.room());
            pending.added_more(n);
        }
        let extra = ExtraRows { weights: &self.ft_weights, rows: pending.added(), sub: pending.taken() };
        self.score_with(acc, extra, self.bucket(pos), s)
    }

    /// The score of the accumulator `acc` with the `extra` first-layer rows added.
    #[inline]
    fn score_with(&self, acc: &[i16], extra: ExtraRows<'_>, bucket: usize, s: &mut Scratch) -> i32 {
        let bucket = bucket.min(self.buckets - 1);
        let n = self.out_width;
        let out_weights = &self.out_weights[bucket * n..(bucket + 1) * n];
        let acc = &acc[..self.width.min(acc.len())];
        if self.hidden.is_empty() {
            return output_score(self.out_bias[bucket] + simd::ft_dot(self.kernel, acc, extra, out_weights));
        }
        simd::dispatch(
            self.kernel,
            #[inline(always)]
            || self.hidden_and_output(acc, extra, out_weights, self.out_bias[bucket], s),
        )
    }

    /// The rest of [`QuantisedNetwork::score_with`] for a network with hidden layers after the
    /// first: the first layer activated into bytes, each hidden layer, the output.
    #[inline(always)]
    fn hidden_and_output(
        &self,
        acc: &[i16],
        extra: ExtraRows<'_>,
        out_weights: &[i16],
        out_bias: i32,
        s: &mut Scratch,
    ) -> i32 {
        let mut width = acc.len();
        simd::ft_activate(self.kernel, acc, extra, &mut s.a[..width]);
        let (mut cur, mut next) = (&mut s.a, &mut s.b);
        for layer in &self.hidden {
            width = width.min(layer.inputs);
            let n = simd::nonzero_groups(self.kernel, &cur[..width], &mut s.groups);
            let sums = &mut s.sums[..layer.outputs];
            simd::affine(self.kernel, &cur[..width], &s.groups[..n], &layer.weights, &layer.bias, sums);
            for (y, &x) in next.iter_mut().zip(sums.iter()) {
                *y = ((x + (1 << (HIDDEN_SHIFT - 1))) >> HIDDEN_SHIFT).clamp(0, 127) as u8;
            }
            width = layer.outputs;
            core::mem::swap(&mut cur, &mut next);
        }
        let sum: i32 = cur[..width].iter().zip(out_weights).map(|(&a, &w)| i32::from(a) * i32::from(w)).sum();
        output_score(out_bias + sum)
    }
}

/// `round(400 z)` clamped to ±[`MAX_NET_SCORE`], where the sum is `127 * 512 * z`.
#[inline]
fn output_score(sum: i32) -> i32 {
    let denominator = (ONE * OUTPUT_SCALE) as i64;
    let scaled = i64::from(sum) * SCORE_SCALE as i64;
    let rounded = (scaled + denominator / 2).div_euclid(denominator);
    rounded.clamp(-i64::from(MAX_NET_SCORE), i64::from(MAX_NET_SCORE)) as i32
}

/// The output layer `k` over `in_width` (padded) inputs: weights bucket-major, one bias per
/// bucket.
fn output_layer(k: usize, out: &crate::Layer, in_width: usize) -> Result<(Vec<i16>, Vec<i32>), QuantError> {
    let buckets = out.outputs();
    let mut weights = vec![0i16; buckets * in_width];
    for i in 0..out.inputs() {
        for (b, &w) in out.row(i).iter().enumerate() {
            let index = i * buckets + b;
            weights[b * in_width + i] =
                quantise(w, OUTPUT_SCALE, (k, "weight", index), "i16", i64::from(i16::MAX))?;
        }
    }
    let bias = out
        .bias()
        .iter()
        .enumerate()
        .map(|(b, &v)| quantise(v, ONE * OUTPUT_SCALE, (k, "bias", b), "i32", 1 << 30))
        .collect::<Result<Vec<i32>, _>>()?;
    Ok((weights, bias))
}

type FirstLayer = (Vec<i16>, Vec<i16>, usize);

fn first_layer(layer: &crate::Layer) -> Result<FirstLayer, QuantError> {
    let (inputs, outputs) = (layer.inputs(), layer.outputs());
    let width = padded(outputs, ROW_ALIGN);
    let mut weights = vec![0i16; inputs * width];
    let mut bias = vec![0i16; width];
    let max = i64::from(i16::MAX);
    for i in 0..inputs {
        for (o, &w) in layer.row(i).iter().enumerate() {
            weights[i * width + o] = quantise(w, FT_SCALE, (0, "weight", i * outputs + o), "i16", max)?;
        }
    }
    for (o, &b) in layer.bias().iter().enumerate() {
        bias[o] = quantise(b, FT_SCALE, (0, "bias", o), "i16", max)?;
    }
    for o in 0..outputs {
        let bound = accumulator_bound(&weights, &bias, (inputs, width), o);
        if bound > max {
            return Err(QuantError::Accumulator { neuron: o, bound });
        }
    }
    Ok((weights, bias, width))
}

/// The largest magnitude neuron `o`'s accumulator can reach: its bias plus the 22 largest
/// weights of each plane of 45 inputs (a side has at most 22 stones, and a threat plane marks
/// stones of one side).
fn accumulator_bound(weights: &[i16], bias: &[i16], (inputs, width): (usize, usize), o: usize) -> i64 {
    let plane = |first: usize| {
        let mut w: Vec<i64> =
            (first..first + Point::NUM).map(|i| i64::from(weights[i * width + o]).abs()).collect();
        w.sort_unstable_by(|a, b| b.cmp(a));
        w.iter().take(22).sum::<i64>()
    };
    i64::from(bias[o]).abs() + (0..inputs / Point::NUM).map(|k| plane(k * Point::NUM)).sum::<i64>()
}

fn hidden_layer(k: usize, layer: &crate::Layer, in_width: usize) -> Result<HiddenLayer, QuantError> {
    let (n_in, n_out) = (layer.inputs(), layer.outputs());
    let outputs = padded(n_out, OUT_ALIGN);
    let inputs = padded(in_width.max(n_in), IN_ALIGN);
    let mut w = vec![0i8; inputs * outputs];
    for i in 0..n_in {
        for (o, &v) in layer.row(i).iter().enumerate() {
            w[i * outputs + o] =
                quantise(v, HIDDEN_SCALE, (k, "weight", i * n_out + o), "i8", i64::from(i8::MAX))?;
        }
    }
    let mut bias = vec![0i32; outputs];
    for (o, &b) in layer.bias().iter().enumerate() {
        bias[o] = quantise(b, ONE * HIDDEN_SCALE, (k, "bias", o), "i32", 1 << 30)?;
    }
    Ok(HiddenLayer {
        inputs,
        outputs,
        weights: Aligned::from_slice(&simd::block_weights(&w, inputs, outputs)),
        bias,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Architecture, encode};

    #[test]
    fn output_score_rounds_and_clamps() {
        assert_eq!(output_score(0), 0);
        // z = 1: 400 centi-stones.
        assert_eq!(output_score(65_024), 400);
        assert_eq!(output_score(-65_024), -400);
        // z = 1/800 rounds half up to 1... and 1/1600 to 1 as well (0.25 -> 0).
        assert_eq!(output_score(65_024 / 800), 0);
        assert_eq!(output_score(65_024 / 400 + 1), 1);
        assert_eq!(output_score(i32::MAX), MAX_NET_SCORE);
        assert_eq!(output_score(i32::MIN), -MAX_NET_SCORE);
    }

    #[test]
    fn relu_and_linear_networks_stay_in_floats() {
        let relu =
            Network::random(&Architecture::mlp(&[32]).unwrap().with_activation(Activation::Relu), 1).unwrap();
        assert!(matches!(QuantisedNetwork::new(&relu), Err(QuantError::NotQuantisable { .. })));
        let linear = Network::random(&"linear".parse().unwrap(), 1).unwrap();
        assert!(matches!(QuantisedNetwork::new(&linear), Err(QuantError::NotQuantisable { .. })));
    }

    #[test]
    fn overflowing_weights_are_refused_naming_the_layer_and_weight() {
        let arch = Architecture::mlp(&[32, 8]).unwrap();
        let mut params: Vec<(Vec<f32>, Vec<f32>)> = Network::random(&arch, 2)
            .unwrap()
            .layers()
            .iter()
            .map(|l| (l.weights().to_vec(), l.bias().to_vec()))
            .collect();
        // 2.5 x 64 = 160 does not fit i8.
        params[1].0[37] = 2.5;
        let net = Network::from_layers(arch.clone(), params.clone(), "").unwrap();
        let err = QuantisedNetwork::new(&net).unwrap_err();
        assert!(matches!(err, QuantError::Overflow { layer: 1, what: "weight", index: 37, .. }), "{err}");
        assert!(err.to_string().contains("layer 1 weight 37 is 2.5"), "{err}");
        // First-layer weights of 2 on every input: 44 x 2 x 508 is beyond i16.
        params[1].0[37] = 0.0;
        for i in 0..90 {
            params[0].0[i * 32 + 5] = 2.0;
        }
        let net = Network::from_layers(arch, params, "").unwrap();
        let err = QuantisedNetwork::new(&net).unwrap_err();
        assert!(matches!(err, QuantError::Accumulator { neuron: 5, .. }), "{err}");
    }

    #[test]
    fn threat_planes_bound_the_accumulator_over_all_four_planes() {
        let with_first_weights = |encoding: Encoding, w: f32| {
            let arch = Architecture::mlp(&[32]).unwrap().with_encoding(encoding);
            let mut params: Vec<(Vec<f32>, Vec<f32>)> = Network::random(&arch, 3)
                .unwrap()
                .layers()
                .iter()
                .map(|l| (l.weights().to_vec(), vec![0.0; l.bias().len()]))
                .collect();
            for i in 0..encoding.inputs() {
                params[0].0[i * 32 + 3] = w;
            }
            QuantisedNetwork::new(&Network::from_layers(arch, params, "").unwrap())
        };
        // The trainer's limits: 1.4 on stone planes, 0.7 on threat planes, always fit.
        for e in [Encoding::StonePlanes, Encoding::ThreatPlanes] {
            let (limit, _) = weight_limits_for(e, 0, 2);
            let q = with_first_weights(e, limit).unwrap();
            assert_eq!((q.encoding(), q.ft_row(e.inputs() - 1).len()), (e, 32));
        }
        // 1.4 on all 180 inputs: 88 x 1.4 x 508 is beyond i16.
        let err = with_first_weights(Encoding::ThreatPlanes, 1.4).unwrap_err();
        assert!(matches!(err, QuantError::Accumulator { neuron: 3, .. }), "{err}");
        assert_eq!(weight_limits(0, 2), weight_limits_for(Encoding::StonePlanes, 0, 2));
    }

    #[test]
    fn close_to_the_float_network_from_scratch() {
        let net = Network::random(&Architecture::mlp(&[64, 16]).unwrap(), 4).unwrap();
        let q = QuantisedNetwork::new(&net).unwrap();
        let mut s = q.scratch();
        let pos = fanorona_core::Position::start();
        let x = encode(&pos);
        let mut acc = q.ft_bias().to_vec();
        for (i, &v) in x.iter().enumerate() {
            if v != 0.0 {
                for (a, &r) in acc.iter_mut().zip(q.ft_row(i)) {
                    *a = a.wrapping_add(r);
                }
            }
        }
        let float = crate::value_to_score(net.forward(&x));
        let int = q.score(&acc, 0, &mut s);
        assert!((float - int).abs() <= 4, "{float} vs {int}");
    }
}
