//! Charts for people to look at: training curves, rating progress, rating tables.
//!
//! Each chart is written as a PNG (or an SVG when the path ends in `.svg`), to a temporary
//! name first and renamed into place, so a reader never sees half a chart. Text uses the
//! DejaVu Sans font embedded in the binary: no system fonts are needed.
//!
//! ```no_run
//! use fanorona_plot::{Chart, Series, write_line_chart};
//! let chart = Chart {
//!     title: "loss".into(),
//!     x_label: "epoch".into(),
//!     y_label: "MSE".into(),
//!     series: vec![Series { name: "train".into(), points: vec![(1.0, 0.5), (2.0, 0.4)] }],
//! };
//! write_line_chart(&chart, std::path::Path::new("loss.png")).unwrap();
//! ```

mod bar;
mod font;
mod line;
mod output;

pub use bar::{Bar, BarChart, write_bar_chart};
pub use line::{Chart, Series, write_line_chart};

impl PlotError {
    /// Whether the error is the input's fault: a chart with nothing to draw (drawing and
    /// writing failures are the system's).
    pub fn is_bad_input(&self) -> bool {
        matches!(self, PlotError::NoData(_))
    }
}

/// Why a chart could not be written.
#[derive(Debug, thiserror::Error)]
pub enum PlotError {
    /// The chart has nothing to draw.
    #[error("chart {0:?} has no data to draw")]
    NoData(String),
    /// Drawing failed.
    #[error("drawing chart {path}: {message}")]
    Draw {
        /// The output file.
        path: String,
        /// What went wrong.
        message: String,
    },
    /// Writing the file failed.
    #[error("writing chart {path}: {source}")]
    Io {
        /// The output file.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
}
