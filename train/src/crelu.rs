//! Clipped ReLU with a cheap backward pass.

use burn::prelude::*;

/// `clamp(x, 0, 1)`, written as `x * pass + high` with the constants `pass = [0 <= x <= 1]` and
/// `high = [x > 1]` computed outside the autodiff graph. Values and gradient are those of
/// burn's `clamp` (the gradient passes where `0 <= x <= 1`), but autodiff records one multiply
/// and one add instead of two masked fills, whose forward and backward passes were the largest
/// cost of a training step on flex. (An infinite `x` gives NaN where `clamp` gives a bound;
/// the trainer stops on a non-finite loss either way.)
pub(crate) fn clipped_relu<const D: usize>(x: Tensor<D>) -> Tensor<D> {
    let raw = x.clone().inner();
    let pass = raw.clone().greater_equal_elem(0.0).bool_and(raw.clone().lower_equal_elem(1.0)).float();
    let high = raw.greater_elem(1.0).float();
    x.mul(pass).add(high)
}

/// `t` clamped to `[-limit, limit]` outside the autodiff graph, as a fresh leaf that tracks
/// gradients again when `t` did (the optimiser keeps its state by the parameter's id, not the
/// tensor's).
pub(crate) fn clamp_param<const D: usize>(t: Tensor<D>, limit: f32) -> Tensor<D> {
    let (autodiff, require_grad) = (t.is_autodiff(), t.is_require_grad());
    let t = t.inner().clamp(-limit, limit);
    let t = if autodiff { t.autodiff() } else { t };
    if require_grad { t.require_grad() } else { t }
}

#[cfg(test)]
mod tests {
    use super::*;
    use burn::tensor::TensorData;

    fn values(t: Tensor<1>) -> Vec<f32> {
        t.into_data().try_to_vec().unwrap()
    }

    const X: [f32; 9] = [-2.0, -0.5, -0.0, 0.0, 0.25, 0.999, 1.0, 1.5, 40.0];

    #[test]
    fn values_and_gradient_are_those_of_clamp() {
        let device = Device::flex().autodiff();
        let x = || Tensor::<1>::from_data(TensorData::new(X.to_vec(), [X.len()]), &device).require_grad();
        // Weights 1..=9 so that each element's gradient is distinguishable.
        let w = Tensor::<1>::from_data(TensorData::new((1..=9).map(|i| i as f32).collect(), [9]), &device);
        let (a, b) = (x(), x());
        let ya = clipped_relu(a.clone());
        let yb = b.clone().clamp(0.0, 1.0);
        assert_eq!(values(ya.clone()), values(yb.clone()));
        assert_eq!(values(ya.clone()), vec![0.0, 0.0, 0.0, 0.0, 0.25, 0.999, 1.0, 1.0, 1.0]);
        let ga = a.grad(&(ya * w.clone()).sum().backward()).unwrap();
        let gb = b.grad(&(yb * w).sum().backward()).unwrap();
        let (ga, gb): (Vec<f32>, Vec<f32>) =
            (ga.into_data().try_to_vec().unwrap(), gb.into_data().try_to_vec().unwrap());
        assert_eq!(ga, gb);
        assert_eq!(ga, vec![0.0, 0.0, 3.0, 4.0, 5.0, 6.0, 7.0, 0.0, 0.0]);
    }

    #[test]
    fn clamped_parameters_stay_leaves_that_track_gradients() {
        let device = Device::flex().autodiff();
        let t = Tensor::<1>::from_data(TensorData::new(vec![-3.0f32, 0.5, 3.0], [3]), &device).require_grad();
        let c = clamp_param(t, 1.4);
        assert!(c.is_autodiff() && c.is_require_grad());
        assert_eq!(values(c.clone()), vec![-1.4, 0.5, 1.4]);
        let g = c.grad(&(c.clone() * 2.0).sum().backward()).unwrap();
        assert_eq!(g.into_data().try_to_vec::<f32>().unwrap(), vec![2.0, 2.0, 2.0]);
        let plain =
            clamp_param(Tensor::<1>::from_data(TensorData::new(vec![2.0f32], [1]), &Device::flex()), 1.0);
        assert!(!plain.is_autodiff() && !plain.is_require_grad());
    }
}
