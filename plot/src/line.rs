//! Line charts: one or more series of (x, y) points.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::PlotError;
use crate::font::FAMILY;

/// One named line.
#[derive(Clone, Debug, PartialEq)]
pub struct Series {
    /// Legend text.
    pub name: String,
    /// Points in drawing order; non-finite values are skipped.
    pub points: Vec<(f64, f64)>,
}

/// A line chart.
#[derive(Clone, Debug, PartialEq)]
pub struct Chart {
    /// Title above the plot.
    pub title: String,
    /// Label of the horizontal axis.
    pub x_label: String,
    /// Label of the vertical axis.
    pub y_label: String,
    /// The lines.
    pub series: Vec<Series>,
}

const PALETTE: [RGBColor; 6] = [
    RGBColor(31, 119, 180),
    RGBColor(255, 127, 14),
    RGBColor(44, 160, 44),
    RGBColor(214, 39, 40),
    RGBColor(148, 103, 189),
    RGBColor(140, 86, 75),
];

/// (x range, y range) with a margin, or `None` when there is no finite point.
fn bounds(chart: &Chart) -> Option<((f64, f64), (f64, f64))> {
    let pts =
        chart.series.iter().flat_map(|s| s.points.iter()).filter(|(x, y)| x.is_finite() && y.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    let mut any = false;
    for &(x, y) in pts {
        any = true;
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if !any {
        return None;
    }
    let pad = |a: f64, b: f64| {
        let m = if b > a { (b - a) * 0.05 } else { a.abs().max(1.0) * 0.05 };
        (a - m, b + m)
    };
    Some((pad(x0, x1), pad(y0, y1)))
}

fn draw<DB: DrawingBackend>(
    root: &DrawingArea<DB, Shift>,
    chart: &Chart,
    ((x0, x1), (y0, y1)): ((f64, f64), (f64, f64)),
) -> Result<(), String> {
    root.fill(&WHITE).map_err(|e| e.to_string())?;
    let mut c = ChartBuilder::on(root)
        .caption(&chart.title, (FAMILY, 28))
        .margin(20)
        .x_label_area_size(50)
        .y_label_area_size(70)
        .build_cartesian_2d(x0..x1, y0..y1)
        .map_err(|e| e.to_string())?;
    c.configure_mesh()
        .x_desc(&chart.x_label)
        .y_desc(&chart.y_label)
        .label_style((FAMILY, 16))
        .axis_desc_style((FAMILY, 18))
        .draw()
        .map_err(|e| e.to_string())?;
    for (i, s) in chart.series.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let pts: Vec<(f64, f64)> =
            s.points.iter().copied().filter(|(x, y)| x.is_finite() && y.is_finite()).collect();
        c.draw_series(LineSeries::new(pts.clone(), color.stroke_width(2)))
            .map_err(|e| e.to_string())?
            .label(s.name.clone())
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], color.stroke_width(2)));
        c.draw_series(pts.into_iter().map(|p| Circle::new(p, 3, color.filled())))
            .map_err(|e| e.to_string())?;
    }
    c.configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .label_font((FAMILY, 16))
        .draw()
        .map_err(|e| e.to_string())?;
    Ok(())
}

/// Writes `chart` to `path` (PNG, or SVG when the name ends in `.svg`).
///
/// # Errors
/// [`PlotError::NoData`] when no series has a finite point; drawing and I/O errors otherwise.
pub fn write_line_chart(chart: &Chart, path: &Path) -> Result<(), PlotError> {
    let b = bounds(chart).ok_or_else(|| PlotError::NoData(chart.title.clone()))?;
    crate::output::render(path, |root| draw(root, chart, b), |root| draw(root, chart, b))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn chart() -> Chart {
        Chart {
            title: "loss".into(),
            x_label: "epoch".into(),
            y_label: "MSE".into(),
            series: vec![
                Series { name: "train".into(), points: vec![(1.0, 0.5), (2.0, 0.4), (3.0, 0.35)] },
                Series { name: "validation".into(), points: vec![(1.0, 0.55), (2.0, f64::NAN), (3.0, 0.42)] },
            ],
        }
    }

    #[test]
    fn writes_png_and_svg() {
        let dir = tempfile::tempdir().unwrap();
        let png = dir.path().join("loss.png");
        write_line_chart(&chart(), &png).unwrap();
        let bytes = std::fs::read(&png).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n");
        let svg = dir.path().join("loss.svg");
        write_line_chart(&chart(), &svg).unwrap();
        let text = std::fs::read_to_string(&svg).unwrap();
        assert!(text.contains("<svg") && text.contains("validation"));
        // Only the two charts: no temporary files left behind.
        assert_eq!(std::fs::read_dir(dir.path()).unwrap().count(), 2);
    }

    #[test]
    fn empty_chart_is_an_error() {
        let mut c = chart();
        c.series.clear();
        let dir = tempfile::tempdir().unwrap();
        assert!(matches!(write_line_chart(&c, &dir.path().join("x.png")), Err(PlotError::NoData(_))));
        assert_eq!(bounds(&chart()).map(|b| b.0.0 < 1.0 && b.1.1 > 0.55), Some(true));
    }
}
