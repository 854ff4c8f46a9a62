//! The embedded font, registered with plotters once.

use std::sync::Once;

use plotters::style::FontStyle;

/// The family name charts use.
pub(crate) const FAMILY: &str = "sans-serif";

/// Registers DejaVu Sans as [`FAMILY`] (idempotent).
pub(crate) fn ensure_registered() {
    static ONCE: Once = Once::new();
    ONCE.call_once(|| {
        // Both calls only fail on an invalid font file, and the embedded one is valid; a
        // failure would only make text disappear from the charts.
        let _ = plotters::style::register_font(FAMILY, FontStyle::Normal, dejavu::sans::regular());
        let _ = plotters::style::register_font(FAMILY, FontStyle::Bold, dejavu::sans::bold());
    });
}
