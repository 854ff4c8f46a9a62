//! The one check of a worker-thread count (`--threads` of the commands that spread games,
//! positions or tables over threads): 0 for one per core, at most [`MAX_WORKERS`]. Searching
//! workers (re-scoring, book analysis) are further held to the machine's cores, each with its
//! own hash table built when the worker first searches, so memory stays bounded whatever the
//! count.

/// The most worker threads a command may be asked for.
pub const MAX_WORKERS: usize = 1024;

/// Parses a worker-thread count (clap's `value_parser`: a refusal is a usage error, exit 2).
///
/// # Errors
/// A message when the text is not a count from 0 to [`MAX_WORKERS`].
pub fn parse(text: &str) -> Result<usize, String> {
    let n: usize = text.trim().parse().map_err(|_| format!("{text:?} is not a thread count"))?;
    if n > MAX_WORKERS {
        return Err(format!("{n} threads: at most {MAX_WORKERS} (0: one per core)"));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    #[test]
    fn counts_from_0_to_the_bound_are_accepted() {
        assert_eq!(super::parse("0"), Ok(0));
        assert_eq!(super::parse("1024"), Ok(1024));
        assert!(super::parse("1025").is_err_and(|e| e.contains("at most 1024")));
        assert!(super::parse("100000").is_err());
        assert!(super::parse("-1").is_err() && super::parse("x").is_err());
    }
}
