//! What a request may ask of the engine: a spec text from a request names no file on the
//! server and asks for at most one thread, [`MAX_HASH_MIB`] of table and depth
//! [`MAX_DEPTH`]; and every alpha-beta search the server runs for a request (a level, a
//! request's spec or the server's own engine) stops within [`MAX_MOVETIME_MS`].

use fanorona_engine::{EvalSpec, PlayerSpec};

use crate::error::{ApiError, ApiResult};

/// The longest an engine turn or an analysis search runs, in milliseconds.
pub const MAX_MOVETIME_MS: u64 = 5000;
/// The largest transposition table a request may ask for, in MiB.
pub const MAX_HASH_MIB: usize = 64;
/// The deepest search a request may ask for, in turns.
pub const MAX_DEPTH: u32 = 30;
/// The most search threads a request may ask for.
pub const MAX_THREADS: usize = 1;

/// The spec a request wrote in field `what`, refused when it names a file on the server
/// (`eval=net:`, `tb=`, `book=`) or asks for more than a request may.
///
/// # Errors
/// 400 naming the limit.
pub fn request_spec(text: &str, what: &str) -> ApiResult<PlayerSpec> {
    let spec = super::input::spec(Some(text), what)?;
    if let PlayerSpec::AlphaBeta(ab) = &spec {
        if matches!(ab.eval, EvalSpec::Net(_)) || ab.tb.is_some() || ab.book.is_some() {
            return Err(ApiError::bad(format!(
                "{what}: a request cannot name files on the server: use eval=embedded, material or \
                 handcrafted (tables: start the server with --tb)"
            )));
        }
        if ab.threads > MAX_THREADS {
            return Err(ApiError::bad(format!(
                "{what}: threads={}: a request may search on {MAX_THREADS} thread",
                ab.threads
            )));
        }
        if ab.hash_mib > MAX_HASH_MIB {
            return Err(ApiError::bad(format!(
                "{what}: hash={}: a request may use at most {MAX_HASH_MIB} MiB of hash",
                ab.hash_mib
            )));
        }
        if let Some(d) = ab.depth
            && d > MAX_DEPTH
        {
            return Err(ApiError::bad(format!(
                "{what}: depth={d}: a request may search at most depth {MAX_DEPTH}"
            )));
        }
    }
    Ok(spec)
}

/// `spec` with its time limit at most [`MAX_MOVETIME_MS`] (alpha-beta specs; the others
/// answer at once), and whether that changed it.
pub fn capped(spec: &PlayerSpec) -> (PlayerSpec, bool) {
    match spec {
        PlayerSpec::AlphaBeta(ab) => {
            let movetime = ab.movetime.map_or(MAX_MOVETIME_MS, |t| t.min(MAX_MOVETIME_MS));
            let mut ab = ab.clone();
            let changed = ab.movetime != Some(movetime);
            ab.movetime = Some(movetime);
            (PlayerSpec::AlphaBeta(ab), changed)
        }
        other => (other.clone(), false),
    }
}

/// Whether turns of `spec` take an engine slot (searches do; random and greedy turns are
/// instant).
pub fn needs_slot(spec: &PlayerSpec) -> bool {
    matches!(spec, PlayerSpec::AlphaBeta(_))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn request_specs_name_no_files_and_stay_small() {
        for (text, needle) in [
            ("alphabeta:depth=2,eval=net:/etc/passwd", "cannot name files on the server"),
            ("alphabeta:depth=2,tb=/tmp", "cannot name files on the server"),
            ("alphabeta:depth=2,threads=2", "threads=2"),
            ("alphabeta:depth=2,hash=65", "at most 64 MiB"),
            ("alphabeta:depth=31", "at most depth 30"),
        ] {
            let e = request_spec(text, "engine").unwrap_err();
            assert_eq!(e.status, 400, "{text}");
            assert!(e.message.contains(needle), "{text}: {}", e.message);
            assert!(!e.message.contains("passwd"), "{}", e.message);
        }
        for ok in ["random", "greedy", "alphabeta:depth=30,hash=64,threads=1,eval=material"] {
            request_spec(ok, "engine").unwrap();
        }
    }

    #[test]
    fn searches_are_capped_in_time() {
        let spec = |t: &str| t.parse::<PlayerSpec>().unwrap();
        let (s, changed) = capped(&spec("alphabeta:depth=3,movetime=999999"));
        assert!(changed);
        assert_eq!(s, spec("alphabeta:depth=3,movetime=5000"));
        let (s, changed) = capped(&spec("alphabeta:depth=3"));
        assert!(changed);
        assert_eq!(s, spec("alphabeta:depth=3,movetime=5000"));
        let (s, changed) = capped(&spec("alphabeta:depth=3,movetime=100"));
        assert!(!changed);
        assert_eq!(s, spec("alphabeta:depth=3,movetime=100"));
        assert_eq!(capped(&spec("greedy")), (spec("greedy"), false));
        assert!(!needs_slot(&spec("random")));
        assert!(needs_slot(&spec("alphabeta:depth=1")));
    }
}
