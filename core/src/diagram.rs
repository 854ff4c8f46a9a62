//! A text drawing of the board with its lines and coordinates.

use crate::{Color, FILES, Point, Position, RANKS};

impl Position {
    /// Draws the board, row 5 on top, with file letters and rank numbers; `W` and `B` are
    /// stones, `.` empty points, and the lines between points are drawn (`|`, `-`, `\`, `/`).
    ///
    /// ```
    /// let text = fanorona_core::Position::start().diagram();
    /// assert!(text.starts_with("5  B-B-B-B-B-B-B-B-B"));
    /// ```
    pub fn diagram(&self) -> String {
        let mut out = String::new();
        for rank in (0..RANKS).rev() {
            out.push_str(&format!("{}  ", rank + 1));
            for file in 0..FILES {
                let c = Point::from_coords(file, rank).and_then(|p| self.color_at(p));
                out.push(match c {
                    Some(Color::White) => 'W',
                    Some(Color::Black) => 'B',
                    None => '.',
                });
                if file < FILES - 1 {
                    out.push('-');
                }
            }
            out.push('\n');
            if rank > 0 {
                out.push_str("   ");
                for file in 0..FILES {
                    out.push('|');
                    if file < FILES - 1 {
                        // Between (file, rank) and (file+1, rank-1): a diagonal "\" when the
                        // upper-left point is strong, "/" when the lower-left point is strong.
                        out.push(if (file + rank) % 2 == 0 { '\\' } else { '/' });
                    }
                }
                out.push('\n');
            }
        }
        out.push_str("   a b c d e f g h i\n");
        out
    }
}
