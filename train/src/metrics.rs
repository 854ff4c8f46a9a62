//! Per-epoch metrics: CSV, JSON and the loss plot.

use std::path::Path;

use fanorona_data::rundir::{write_atomic, write_json};
use serde::{Deserialize, Serialize};

use crate::{BaselineReport, TrainError};

/// What one epoch measured.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EpochMetrics {
    /// Epoch number, from 1.
    pub epoch: u32,
    /// Optimiser steps so far (all epochs).
    pub step: u64,
    /// Training samples seen this epoch.
    pub samples: u64,
    /// Mean training loss (MSE) over the epoch.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub train_loss: f64,
    /// Validation loss (MSE); `NaN` when there is no validation data.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub val_loss: f64,
    /// Share of validation positions of decisive games whose winner the sign of the value names.
    #[serde(with = "fanorona_data::rundir::nan_as_null")]
    pub val_accuracy: f64,
    /// Training samples per second (the optimisation, not validation).
    pub samples_per_second: f64,
    /// The learning rate at the end of the epoch.
    pub lr: f64,
    /// Seconds the epoch took, validation included.
    pub seconds: f64,
}

/// Writes `metrics.csv`, `metrics.json` and `loss.png` into `dir`.
///
/// # Errors
/// When a file cannot be written.
pub fn write_metrics(
    dir: &Path,
    epochs: &[EpochMetrics],
    baseline: Option<&BaselineReport>,
) -> Result<(), TrainError> {
    let mut csv = String::from(
        "epoch,step,samples,train_loss,val_loss,val_accuracy,samples_per_second,lr,seconds,baseline_val_loss\n",
    );
    let base = baseline.map_or(f64::NAN, |b| b.val_loss);
    for m in epochs {
        csv.push_str(&format!(
            "{},{},{},{:.6},{:.6},{:.4},{:.0},{:.3e},{:.2},{:.6}\n",
            m.epoch,
            m.step,
            m.samples,
            m.train_loss,
            m.val_loss,
            m.val_accuracy,
            m.samples_per_second,
            m.lr,
            m.seconds,
            base
        ));
    }
    write_atomic(&dir.join("metrics.csv"), csv.as_bytes())?;
    write_json(&dir.join("metrics.json"), &serde_json::json!({ "epochs": epochs, "baseline": baseline }))?;
    plot(dir, epochs, baseline)
}

fn plot(dir: &Path, epochs: &[EpochMetrics], baseline: Option<&BaselineReport>) -> Result<(), TrainError> {
    use fanorona_plot::{Chart, Series, write_line_chart};
    let finite = |v: f64| v.is_finite();
    let mut series = vec![Series {
        name: "train loss".into(),
        points: epochs.iter().map(|m| (f64::from(m.epoch), m.train_loss)).collect(),
    }];
    let val: Vec<(f64, f64)> =
        epochs.iter().filter(|m| finite(m.val_loss)).map(|m| (f64::from(m.epoch), m.val_loss)).collect();
    if !val.is_empty() {
        series.push(Series { name: "validation loss".into(), points: val });
    }
    if let (Some(b), Some(first), Some(last)) = (baseline, epochs.first(), epochs.last())
        && b.val_loss.is_finite()
    {
        series.push(Series {
            name: "material baseline (validation)".into(),
            points: vec![(f64::from(first.epoch), b.val_loss), (f64::from(last.epoch), b.val_loss)],
        });
    }
    let chart = Chart {
        title: "value network training".into(),
        x_label: "epoch".into(),
        y_label: "MSE loss".into(),
        series,
    };
    write_line_chart(&chart, &dir.join("loss.png"))?;
    Ok(())
}
