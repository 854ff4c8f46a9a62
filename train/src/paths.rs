//! Paths saved in a run directory: relative to the directory, so that a run can be continued
//! from any working directory (and the directory moved).

use std::path::{Path, PathBuf};

use fanorona_data::output::normal;

/// `path` as seen from `dir` (`../games/g1.bin`), or `path` itself when there is no
/// relative way (another drive) or the working directory is unknown.
pub fn relative_to(path: &Path, dir: &Path) -> PathBuf {
    let (Ok(p), Ok(d)) = (std::path::absolute(path), std::path::absolute(dir)) else {
        return path.to_path_buf();
    };
    let (p, d) = (normal(&p), normal(&d));
    let (pc, dc): (Vec<_>, Vec<_>) = (p.components().collect(), d.components().collect());
    if pc.first() != dc.first() {
        return p;
    }
    let common = pc.iter().zip(&dc).take_while(|(a, b)| a == b).count();
    let mut out = PathBuf::new();
    for _ in common..dc.len() {
        out.push("..");
    }
    for c in &pc[common..] {
        out.push(c);
    }
    if out.as_os_str().is_empty() { PathBuf::from(".") } else { out }
}

/// A path saved by [`relative_to`] back as a usable path: `dir/path` when relative.
pub fn rebase(path: &Path, dir: &Path) -> PathBuf {
    if path.is_absolute() { path.to_path_buf() } else { normal(&dir.join(path)) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn round_trip_from_another_directory() {
        let run = Path::new("/runs/loop/gen-001/train");
        let games = Path::new("/runs/loop/gen-001/games.bin");
        let saved = relative_to(games, run);
        assert_eq!(saved, PathBuf::from("../games.bin"));
        assert_eq!(rebase(&saved, run), games);
        assert_eq!(
            relative_to(Path::new("/runs/loop/gen-001/train/best.fnet"), run),
            PathBuf::from("best.fnet")
        );
        assert_eq!(rebase(Path::new("/abs/x.bin"), run), PathBuf::from("/abs/x.bin"));
        // A relative run directory: the result holds from the run directory, wherever it is.
        let saved = relative_to(Path::new("data/g.bin"), Path::new("out/run"));
        assert_eq!(saved, PathBuf::from("../../data/g.bin"));
        assert_eq!(rebase(&saved, Path::new("/elsewhere/out/run")), PathBuf::from("/elsewhere/data/g.bin"));
    }
}
