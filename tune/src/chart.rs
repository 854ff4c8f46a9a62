//! The chart of a run: each parameter by iteration, as its place between its bounds (0 %: its
//! minimum, 100 %: its maximum), so that numbers of every scale share one chart.

use std::path::Path;

use fanorona_plot::{Chart, Series, write_line_chart};

use crate::TuneError;
use crate::history::History;

/// The chart's file name in the run directory.
pub const CHART_FILE: &str = "params.png";

/// The series of the chart: one per parameter, from its start (iteration 0) to its value after
/// each iteration.
pub fn series(history: &History) -> Vec<Series> {
    history
        .config
        .params
        .iter()
        .enumerate()
        .map(|(i, p)| {
            let span = (p.max - p.min).max(f64::MIN_POSITIVE);
            let at = |v: f64| 100.0 * (v - p.min) / span;
            let mut points = vec![(0.0, at(p.start))];
            points.extend(
                history.iterations.iter().map(|it| ((it.step.iteration + 1) as f64, at(it.theta[i]))),
            );
            Series { name: format!("{} ({}..{})", p.name, p.min, p.max), points }
        })
        .collect()
}

/// Writes the chart of `history` to `path` (PNG, or SVG for `.svg`).
///
/// # Errors
/// When the chart cannot be drawn or written.
pub fn write_chart(history: &History, path: &Path) -> Result<(), TuneError> {
    let chart = Chart {
        title: format!("SPSA: {}", history.config.engine),
        x_label: "iteration".into(),
        y_label: "place between the bounds (%)".into(),
        series: series(history),
    };
    Ok(write_line_chart(&chart, path)?)
}
