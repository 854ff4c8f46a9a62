//! Samples as columns: the arrays of `fanorona data export --format npz` and of the Python
//! package's `fanorona.samples` (schema in `FORMAT.md`, "Training samples as arrays").

use fanorona_nn::{Encoding, encode_bytes_into};

use crate::Sample;
use crate::npy::Dtype;
use crate::npz::{Column, NpzWriter};

/// Arrays per sample.
pub const COLUMNS: usize = 13;

/// The arrays for inputs of `encoding`, in archive order: name, element type, elements per
/// row.
pub const fn sample_columns(encoding: Encoding) -> [Column; COLUMNS] {
    [
        Column { name: "inputs", dtype: Dtype::U8, width: encoding.inputs() },
        Column { name: "result", dtype: Dtype::I8, width: 1 },
        Column { name: "score", dtype: Dtype::I32, width: 1 },
        Column { name: "has_score", dtype: Dtype::Bool, width: 1 },
        Column { name: "target", dtype: Dtype::F32, width: 1 },
        Column { name: "ply", dtype: Dtype::U32, width: 1 },
        Column { name: "game", dtype: Dtype::U64, width: 1 },
        Column { name: "stm", dtype: Dtype::U8, width: 1 },
        Column { name: "mirrored", dtype: Dtype::Bool, width: 1 },
        Column { name: "action", dtype: Dtype::U16, width: 1 },
        Column { name: "depth", dtype: Dtype::U16, width: 1 },
        Column { name: "exploration", dtype: Dtype::Bool, width: 1 },
        Column { name: "plies_left", dtype: Dtype::U32, width: 1 },
    ]
}

/// Samples as one vector per array of [`sample_columns`].
#[derive(Clone, Debug, Default, PartialEq)]
pub struct SampleArrays {
    /// The input encoding of `inputs`.
    pub encoding: Encoding,
    /// `[n * encoding.inputs()]`: each position's inputs (0 or 1), row-major.
    pub inputs: Vec<u8>,
    /// The game result for the side to move: 1, 0, -1.
    pub result: Vec<i8>,
    /// The recorded search score (centi-stones, side to move's view); 0 where there is none.
    pub score: Vec<i32>,
    /// Whether the turn played has a search score.
    pub has_score: Vec<bool>,
    /// The training target ([`crate::SampleExtractor`]'s blend).
    pub target: Vec<f32>,
    /// The position's ply in its game.
    pub ply: Vec<u32>,
    /// The game's index across all the files read.
    pub game: Vec<u64>,
    /// The side to move: 0 White, 1 Black.
    pub stm: Vec<u8>,
    /// Whether the sample is a mirrored copy.
    pub mirrored: Vec<bool>,
    /// The turn played: its first step's action ([`crate::action`]).
    pub action: Vec<u16>,
    /// The turn's completed search depth (0: none).
    pub depth: Vec<u16>,
    /// Whether the turn was a random opening turn or an exploration pick.
    pub exploration: Vec<bool>,
    /// Turns from the position to the game's end.
    pub plies_left: Vec<u32>,
}

impl SampleArrays {
    /// Empty arrays of `encoding`'s inputs with room for `n` samples.
    pub fn with_capacity(encoding: Encoding, n: usize) -> SampleArrays {
        SampleArrays {
            encoding,
            inputs: Vec::with_capacity(n * encoding.inputs()),
            result: Vec::with_capacity(n),
            score: Vec::with_capacity(n),
            has_score: Vec::with_capacity(n),
            target: Vec::with_capacity(n),
            ply: Vec::with_capacity(n),
            game: Vec::with_capacity(n),
            stm: Vec::with_capacity(n),
            mirrored: Vec::with_capacity(n),
            action: Vec::with_capacity(n),
            depth: Vec::with_capacity(n),
            exploration: Vec::with_capacity(n),
            plies_left: Vec::with_capacity(n),
        }
    }

    /// Samples held.
    pub fn len(&self) -> usize {
        self.result.len()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.result.is_empty()
    }

    /// Appends one sample.
    pub fn push(&mut self, s: &Sample) {
        encode_bytes_into(self.encoding, &s.position, &mut self.inputs);
        self.result.push(s.result as i8);
        self.score.push(s.score.unwrap_or(0));
        self.has_score.push(s.score.is_some());
        self.target.push(s.target);
        self.ply.push(s.ply);
        self.game.push(s.game);
        self.stm.push(s.position.turn() as u8);
        self.mirrored.push(s.mirrored);
        self.action.push(s.action);
        self.depth.push(s.depth);
        self.exploration.push(s.exploration);
        self.plies_left.push(s.plies_left);
    }

    /// Empties every array.
    pub fn clear(&mut self) {
        self.inputs.clear();
        self.result.clear();
        self.score.clear();
        self.has_score.clear();
        self.target.clear();
        self.ply.clear();
        self.game.clear();
        self.stm.clear();
        self.mirrored.clear();
        self.action.clear();
        self.depth.clear();
        self.exploration.clear();
        self.plies_left.clear();
    }

    /// Appends the samples to `w` (a writer of [`sample_columns`] of the same encoding).
    ///
    /// # Errors
    /// The writer's.
    pub fn write_to(&self, w: &mut NpzWriter) -> std::io::Result<()> {
        fn le<T: Copy, const N: usize>(v: &[T], f: impl Fn(T) -> [u8; N]) -> Vec<u8> {
            v.iter().flat_map(|&x| f(x)).collect()
        }
        let bools = |v: &[bool]| v.iter().map(|&b| u8::from(b)).collect::<Vec<u8>>();
        let columns: [Vec<u8>; COLUMNS] = [
            self.inputs.clone(),
            le(&self.result, i8::to_le_bytes),
            le(&self.score, i32::to_le_bytes),
            bools(&self.has_score),
            le(&self.target, f32::to_le_bytes),
            le(&self.ply, u32::to_le_bytes),
            le(&self.game, u64::to_le_bytes),
            self.stm.clone(),
            bools(&self.mirrored),
            le(&self.action, u16::to_le_bytes),
            le(&self.depth, u16::to_le_bytes),
            bools(&self.exploration),
            le(&self.plies_left, u32::to_le_bytes),
        ];
        let slices: Vec<&[u8]> = columns.iter().map(Vec::as_slice).collect();
        w.append(self.len(), &slices)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use fanorona_core::{Color, Position};

    #[test]
    fn one_row_per_sample() {
        let mut a = SampleArrays::default();
        assert_eq!(a.encoding, Encoding::StonePlanes);
        let black = Position::start().with_turn(Color::Black);
        let s = Sample {
            position: black,
            result: -1.0,
            score: Some(-250),
            target: -0.5,
            game: 7,
            ply: 3,
            mirrored: true,
            action: 7,
            depth: 3,
            exploration: true,
            plies_left: 9,
        };
        a.push(&s);
        a.push(&Sample { score: None, ..s });
        assert_eq!(a.len(), 2);
        assert_eq!(a.inputs.len(), 2 * fanorona_nn::INPUTS);
        assert_eq!(a.inputs.iter().filter(|&&x| x == 1).count(), 2 * 44);
        assert_eq!((a.result[0], a.score[0], a.has_score[0], a.stm[0]), (-1, -250, true, 1));
        assert_eq!((a.score[1], a.has_score[1]), (0, false));
        assert_eq!((a.ply[1], a.game[1], a.mirrored[1]), (3, 7, true));
        assert_eq!((a.action[1], a.depth[1], a.exploration[1], a.plies_left[1]), (7, 3, true, 9));
        let mut t = SampleArrays::with_capacity(Encoding::ThreatPlanes, 1);
        t.push(&s);
        assert_eq!(t.inputs.len(), fanorona_nn::THREAT_INPUTS);
        assert_eq!(&t.inputs[..90], &a.inputs[..90]);
        assert_eq!(t.inputs[90..].iter().filter(|&&x| x == 1).count(), 10);
        a.clear();
        assert!(a.is_empty() && a.inputs.is_empty());
    }
}
