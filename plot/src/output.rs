//! Writing a chart to PNG or SVG, atomically.

use std::path::Path;

use plotters::coord::Shift;
use plotters::prelude::*;

use crate::PlotError;

/// Chart size in pixels.
pub(crate) const SIZE: (u32, u32) = (960, 600);

fn draw_error(path: &Path, e: impl std::fmt::Display) -> PlotError {
    PlotError::Draw { path: path.display().to_string(), message: e.to_string() }
}

/// Draws with `draw` onto a PNG or SVG backend (by `path`'s extension) in memory, then writes
/// the file atomically ([`fanorona_io::write_atomic`]).
pub(crate) fn render(
    path: &Path,
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
    draw_svg: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<(), PlotError> {
    crate::font::ensure_registered();
    let is_svg = path.extension().is_some_and(|e| e.eq_ignore_ascii_case("svg"));
    let bytes = if is_svg { svg(draw_svg) } else { png(draw) }.map_err(|e| draw_error(path, e))?;
    fanorona_io::write_atomic(path, &bytes)
        .map_err(|source| PlotError::Io { path: path.display().to_string(), source })
}

/// The SVG text of a chart.
fn svg(
    draw: impl FnOnce(&DrawingArea<SVGBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    let mut text = String::new();
    {
        let root = SVGBackend::with_string(&mut text, SIZE).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    Ok(text.into_bytes())
}

/// The PNG file of a chart: drawn into an RGB buffer, then encoded.
fn png(
    draw: impl FnOnce(&DrawingArea<BitMapBackend<'_>, Shift>) -> Result<(), String>,
) -> Result<Vec<u8>, String> {
    use image::ImageEncoder;
    let (w, h) = SIZE;
    let mut rgb = vec![0u8; w as usize * h as usize * 3];
    {
        let root = BitMapBackend::with_buffer(&mut rgb, SIZE).into_drawing_area();
        draw(&root)?;
        root.present().map_err(|e| e.to_string())?;
    }
    let mut bytes = Vec::new();
    image::codecs::png::PngEncoder::new(&mut bytes)
        .write_image(&rgb, w, h, image::ColorType::Rgb8)
        .map_err(|e| e.to_string())?;
    Ok(bytes)
}
