//! Charts for people to look at: training curves, rating progress, rating tables.
//!
//! Each chart is written as a PNG (or an SVG when the path ends in `.svg`), drawn in memory and
//! written atomically by fanorona-io (`PATH.part`, synced, renamed into place; `/dev/null` or
//! a FIFO written through), so a reader never sees half a chart. Text uses the
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
    /// Whether the error is the input's fault: a chart with nothing to draw, an output path
    /// that cannot be one (a directory); drawing failures and other writing failures are the
    /// system's.
    pub fn is_bad_input(&self) -> bool {
        match self {
            PlotError::NoData(_) => true,
            PlotError::Io { source, .. } => source.is_bad_input(),
            PlotError::Draw { .. } => false,
        }
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
        /// What went wrong.
        #[source]
        source: fanorona_io::IoError,
    },
}

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(PlotError,);
