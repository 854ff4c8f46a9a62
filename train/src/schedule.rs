//! The learning-rate schedule: linear warm-up, then cosine, linear or no decay.

use crate::{OptimConfig, Schedule};

/// The learning rate of step `step` (from 0) of `total` steps.
pub fn learning_rate(o: &OptimConfig, step: u64, total: u64) -> f64 {
    if step < o.warmup_steps {
        return o.lr * (step + 1) as f64 / o.warmup_steps as f64;
    }
    let span = total.saturating_sub(o.warmup_steps).max(1);
    let p = ((step - o.warmup_steps) as f64 / span as f64).clamp(0.0, 1.0);
    match o.schedule {
        Schedule::Constant => o.lr,
        Schedule::Linear => o.lr + (o.min_lr - o.lr) * p,
        Schedule::Cosine => o.min_lr + (o.lr - o.min_lr) * 0.5 * (1.0 + (std::f64::consts::PI * p).cos()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn warm_up_then_decay() {
        let o = OptimConfig { lr: 1.0, min_lr: 0.1, warmup_steps: 10, ..OptimConfig::default() };
        assert!((learning_rate(&o, 0, 110) - 0.1).abs() < 1e-12);
        assert!((learning_rate(&o, 9, 110) - 1.0).abs() < 1e-12);
        assert!((learning_rate(&o, 10, 110) - 1.0).abs() < 1e-12);
        assert!((learning_rate(&o, 60, 110) - 0.55).abs() < 1e-12);
        assert!((learning_rate(&o, 110, 110) - 0.1).abs() < 1e-12);
        let lin = OptimConfig { schedule: Schedule::Linear, ..o.clone() };
        assert!((learning_rate(&lin, 35, 110) - 0.775).abs() < 1e-12);
        let c = OptimConfig { schedule: Schedule::Constant, ..o };
        assert_eq!(learning_rate(&c, 100, 110), 1.0);
    }
}
