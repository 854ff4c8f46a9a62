//! Writing a chart to PNG or SVG, atomically.

use std::path::{Path, PathBuf};

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::PlotError;

/// Chart size in pixels.
pub(crate) const SIZE: (u32, u32) = (960, 600);

fn draw_error(path: &Path, e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw { path: path.display().to_string(), message: e.to_string() }
}

/// Draws with `draw` onto a PNG or SVG backend (by `path`'s extension), then renames the
/// temporary file onto `path`.
pub(crate) fn render(
    path: &Path,
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
    draw_svg: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), PlotError> {
    crate::font::ensure_registered();
    let is_svg = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let mut tmp: PathBuf = path.to_path_buf();
    let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_else(|| "chart".into());
    tmp.set_file_name(format!(".{name}.tmp{}", if is_svg { ".svg" } else { ".png" }));
    let result = if is_svg {
        let root = SVGBackend::new(&tmp, SIZE).into_drawing_area();
        draw_svg(&root).and_then(|()| root.present().map_err(|e| e.to_string()))
    } else {
        let root = BitMapBackend::new(&tmp, SIZE).into_drawing_area();
        draw(&root).and_then(|()| root.present().map_err(|e| e.to_string()))
    };
    if let Err(e) = result {
        let _ = std::fs::remove_file(&tmp);
        return Err(draw_error(path, e));
    }
    std::fs::rename(&tmp, path).map_err(|source| PlotError::Io { path: path.display().to_string(), source })
}
