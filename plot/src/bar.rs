//! Bar charts with error bars: ratings tables.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::PlotError;
use crate::font::FAMILY;

/// One bar: a label, a value and a symmetric error (0 for none).
#[derive(Clone, Debug, PartialEq)]
pub struct Bar {
    /// Text under the bar.
    pub label: String,
    /// Height.
    pub value: f64,
    /// Half-width of the error bar.
    pub error: f64,
}

/// A bar chart, bars drawn left to right in order.
#[derive(Clone, Debug, PartialEq)]
pub struct BarChart {
    /// Title above the plot.
    pub title: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// The bars.
    pub bars: Vec<Bar>,
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &BarChart,
    (y0, y1): (f64, f64),
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let n = chart.bars.len();
    let labels: Vec<String> = chart.bars.iter().map(|b| b.label.clone()).collect();
    let mut c = ChartBuilder::on(root)
        .caption(&chart.title, (FAMILY, 28))
        .margin(20)
        .x_label_area_size(60)
        .y_label_area_size(70)
        .build_cartesian_2d(-0.5f64..(n as f64 - 0.5), y0..y1)
        .map_err(|e| e.to_string())?;
    c.configure_mesh()
        .disable_x_mesh()
        .x_labels(n.max(1))
        .x_label_formatter(&|x| {
            let i = x.round();
            if (x - i).abs() < 1e-6 && i >= 0.0 {
                labels.get(i as usize).cloned().unwrap_or_default()
            } else {
                String::new()
            }
        })
        .y_desc(&chart.y_label)
        .label_style((FAMILY, 14))
        .axis_desc_style((FAMILY, 18))
        .draw()
        .map_err(|e| e.to_string())?;
    let color = RGBColor(31, 119, 180);
    c.draw_series(chart.bars.iter().enumerate().map(|(i, b)| {
        let x = i as f64;
        let base = 0f64.clamp(y0, y1);
        Rectangle::new([(x - 0.3, base), (x + 0.3, b.value)], color.mix(0.7).filled())
    }))
    .map_err(|e| e.to_string())?;
    c.draw_series(chart.bars.iter().enumerate().filter(|(_, b)| b.error > 0.0).map(|(i, b)| {
        let x = i as f64;
        ErrorBar::new_vertical(x, b.value - b.error, b.value, b.value + b.error, BLACK.stroke_width(2), 12)
    }))
    .map_err(|e| e.to_string())?;
    Ok(())
}

/// Writes `chart` to `path` (PNG, or SVG when the name ends in `.svg`).
///
/// # Errors
/// [`PlotError::NoData`] when there is no bar with a finite value; drawing and I/O errors.
pub fn write_bar_chart(chart: &BarChart, path: &Path) -> Result<(), PlotError> {
    let finite: Vec<&Bar> =
        chart.bars.iter().filter(|b| b.value.is_finite() && b.error.is_finite()).collect();
    if finite.is_empty() || finite.len() != chart.bars.len() {
        return Err(PlotError::NoData(chart.title.clone()));
    }
    let lo = finite.iter().map(|b| b.value - b.error).fold(0.0, f64::min);
    let hi = finite.iter().map(|b| b.value + b.error).fold(0.0, f64::max);
    let pad = ((hi - lo) * 0.1).max(1.0);
    let range = (lo - pad, hi + pad);
    crate::output::render(path, |root| draw(root, chart, range), |root| draw(root, chart, range))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn writes_ratings_png() {
        let chart = BarChart {
            title: "ratings".into(),
            y_label: "Elo".into(),
            bars: vec![
                Bar { label: "gen-0".into(), value: 0.0, error: 0.0 },
                Bar { label: "gen-1".into(), value: 35.5, error: 20.0 },
                Bar { label: "gen-2".into(), value: -10.0, error: 15.0 },
            ],
        };
        let dir = tempfile::tempdir().unwrap();
        let p = dir.path().join("ratings.png");
        write_bar_chart(&chart, &p).unwrap();
        assert_eq!(&std::fs::read(&p).unwrap()[..4], b"\x89PNG");
        let bad = BarChart { bars: vec![Bar { label: "x".into(), value: f64::NAN, error: 0.0 }], ..chart };
        assert!(matches!(write_bar_chart(&bad, &p), Err(PlotError::NoData(_))));
    }
}
