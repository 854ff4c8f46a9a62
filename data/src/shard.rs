//! [`Shard`]: which part of a run this process generates, from `--shard I/N` or the
//! environment of a cluster job array.

use std::fmt;
use std::path::{Path, PathBuf};
use std::str::FromStr;

use serde::{Deserialize, Serialize};

/// Shard `index` of `count` (`0 <= index < count`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct Shard {
    /// This shard, from 0.
    pub index: u32,
    /// How many shards.
    pub count: u32,
}

/// The environment variable that gives the shard count with `JOB_COMPLETION_INDEX`
/// (Kubernetes indexed jobs do not export the count).
pub const SHARD_COUNT_ENV: &str = "FANORONA_SHARD_COUNT";

impl Shard {
    /// The whole run in one shard.
    pub const ONE: Shard = Shard { index: 0, count: 1 };

    /// Shard `index` of `count`.
    ///
    /// # Errors
    /// When `count` is 0 or `index >= count`.
    pub fn new(index: u32, count: u32) -> Result<Shard, String> {
        if count == 0 {
            return Err("the shard count must be at least 1".into());
        }
        if index >= count {
            return Err(format!(
                "shard index {index} is not below the shard count {count} (indices start at 0)"
            ));
        }
        Ok(Shard { index, count })
    }

    /// The shard a cluster job array gives this process, read through `var` (normally
    /// `std::env::var`):
    /// - Slurm: `SLURM_ARRAY_TASK_ID` and `SLURM_ARRAY_TASK_COUNT` (the index counts from
    ///   `SLURM_ARRAY_TASK_MIN` when set, so `--array=1-8` gives shards 0..8);
    /// - Kubernetes indexed jobs: `JOB_COMPLETION_INDEX`, with the count from
    ///   `count_hint` (`--shard-count`) or `FANORONA_SHARD_COUNT`.
    ///
    /// `Ok(None)` when none is set.
    ///
    /// # Errors
    /// When a variable is set but unusable (not a number, index out of range, no count).
    pub fn from_env(
        var: impl Fn(&str) -> Option<String>,
        count_hint: Option<u32>,
    ) -> Result<Option<Shard>, String> {
        let num =
            |name: &str| -> Result<Option<u32>, String> {
                match var(name) {
                    None => Ok(None),
                    Some(v) => v.trim().parse::<u32>().map(Some).map_err(|_| {
                        format!("environment variable {name}={v:?} is not a non-negative integer")
                    }),
                }
            };
        if let Some(id) = num("SLURM_ARRAY_TASK_ID")? {
            let count = match (count_hint, num("SLURM_ARRAY_TASK_COUNT")?) {
                (Some(c), _) | (None, Some(c)) => c,
                (None, None) => {
                    return Err(
                        "SLURM_ARRAY_TASK_ID is set but not SLURM_ARRAY_TASK_COUNT; give --shard-count"
                            .into(),
                    );
                }
            };
            let min = num("SLURM_ARRAY_TASK_MIN")?.unwrap_or(0);
            let index = id
                .checked_sub(min)
                .ok_or_else(|| format!("SLURM_ARRAY_TASK_ID {id} is below SLURM_ARRAY_TASK_MIN {min}"))?;
            return Shard::new(index, count).map(Some).map_err(|e| format!("from Slurm: {e}"));
        }
        if let Some(index) = num("JOB_COMPLETION_INDEX")? {
            let count = match (count_hint, num(SHARD_COUNT_ENV)?) {
                (Some(c), _) | (None, Some(c)) => c,
                (None, None) => {
                    return Err(format!(
                        "JOB_COMPLETION_INDEX is set but the shard count is unknown: give --shard-count or set {SHARD_COUNT_ENV}"
                    ));
                }
            };
            return Shard::new(index, count).map(Some).map_err(|e| format!("from JOB_COMPLETION_INDEX: {e}"));
        }
        Ok(None)
    }
}

/// The text in an output path that [`Shard::path`] replaces with the shard index.
pub const SHARD_PLACEHOLDER: &str = "{shard}";

/// A shard's part of a run's games: game `first` to `first + games - 1` of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ShardGames {
    /// The run-wide index of the shard's first game.
    pub first: u64,
    /// How many games the shard plays.
    pub games: u64,
}

impl Shard {
    /// This shard's part of a run of `total` games: the games are dealt out in order, and the
    /// first `total % count` shards play one game more than the others (100 games in 12
    /// shards: four shards of 9, then eight of 8).
    pub fn split(self, total: u64) -> ShardGames {
        let count = u64::from(self.count.max(1));
        let index = u64::from(self.index);
        let (base, extra) = (total / count, total % count);
        ShardGames { first: index * base + index.min(extra), games: base + u64::from(index < extra) }
    }

    /// `pattern` with every [`SHARD_PLACEHOLDER`] replaced by the shard index, zero-padded to
    /// the width of the largest index (`shard-{shard}.bin` is `shard-03.bin` for shard 3 of
    /// 12), so that the files sort in shard order. A pattern without the placeholder is
    /// returned as it is.
    pub fn path(self, pattern: &Path) -> PathBuf {
        let text = pattern.to_string_lossy();
        if !text.contains(SHARD_PLACEHOLDER) {
            return pattern.to_path_buf();
        }
        let width = (self.count.max(1) - 1).to_string().len();
        PathBuf::from(text.replace(SHARD_PLACEHOLDER, &format!("{:0width$}", self.index)))
    }

    /// Every shard of a run of `count` shards, in index order.
    pub fn all(count: u32) -> impl Iterator<Item = Shard> {
        (0..count).map(move |index| Shard { index, count })
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

impl FromStr for Shard {
    type Err = String;

    /// `I/N`, like `3/8`.
    fn from_str(s: &str) -> Result<Shard, String> {
        let (i, n) = s.split_once('/').ok_or_else(|| format!("shard {s:?} is not written I/N (like 3/8)"))?;
        let i = i.trim().parse::<u32>().map_err(|_| format!("shard index {i:?} is not a number"))?;
        let n = n.trim().parse::<u32>().map_err(|_| format!("shard count {n:?} is not a number"))?;
        Shard::new(i, n)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn env<'a>(vars: &'a [(&'a str, &'a str)]) -> impl Fn(&str) -> Option<String> + 'a {
        move |k| vars.iter().find(|(n, _)| *n == k).map(|(_, v)| v.to_string())
    }

    #[test]
    fn parse() {
        assert_eq!("3/8".parse::<Shard>(), Ok(Shard { index: 3, count: 8 }));
        assert!("8/8".parse::<Shard>().is_err());
        assert!("1/0".parse::<Shard>().is_err());
        assert!("x/2".parse::<Shard>().is_err());
        assert!("3".parse::<Shard>().is_err());
        assert_eq!(Shard { index: 3, count: 8 }.to_string(), "3/8");
    }

    #[test]
    fn split_deals_out_the_remainder() {
        // 100 games in 12 shards: 100 = 12 * 8 + 4, so shards 0-3 play 9 and 4-11 play 8.
        let parts: Vec<ShardGames> = Shard::all(12).map(|s| s.split(100)).collect();
        assert_eq!(parts.iter().map(|p| p.games).collect::<Vec<_>>(), [9, 9, 9, 9, 8, 8, 8, 8, 8, 8, 8, 8]);
        // Contiguous and complete: each shard starts where the previous one ended.
        let mut next = 0;
        for p in &parts {
            assert_eq!(p.first, next);
            next += p.games;
        }
        assert_eq!(next, 100);
        // Even splits, more shards than games, and one shard.
        assert_eq!(Shard { index: 3, count: 4 }.split(40), ShardGames { first: 30, games: 10 });
        assert_eq!(Shard { index: 4, count: 5 }.split(3), ShardGames { first: 3, games: 0 });
        assert_eq!(Shard::ONE.split(7), ShardGames { first: 0, games: 7 });
    }

    #[test]
    fn paths_are_padded_to_the_largest_index() {
        let p = Path::new("d/shard-{shard}.bin");
        assert_eq!(Shard { index: 3, count: 12 }.path(p), PathBuf::from("d/shard-03.bin"));
        assert_eq!(Shard { index: 3, count: 10 }.path(p), PathBuf::from("d/shard-3.bin"));
        assert_eq!(Shard { index: 7, count: 1000 }.path(p), PathBuf::from("d/shard-007.bin"));
        assert_eq!(Shard::ONE.path(Path::new("d/x.bin")), PathBuf::from("d/x.bin"));
        let names: Vec<PathBuf> = Shard::all(12).map(|s| s.path(p)).collect();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(names, sorted, "file names sort in shard order");
    }

    #[test]
    fn environment() {
        assert_eq!(Shard::from_env(env(&[]), None), Ok(None));
        let slurm =
            [("SLURM_ARRAY_TASK_ID", "5"), ("SLURM_ARRAY_TASK_COUNT", "8"), ("SLURM_ARRAY_TASK_MIN", "1")];
        assert_eq!(Shard::from_env(env(&slurm), None), Ok(Some(Shard { index: 4, count: 8 })));
        assert_eq!(Shard::from_env(env(&slurm[..2]), None), Ok(Some(Shard { index: 5, count: 8 })));
        assert!(
            Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "9"), ("SLURM_ARRAY_TASK_COUNT", "8")]), None)
                .is_err()
        );
        assert!(Shard::from_env(env(&[("SLURM_ARRAY_TASK_ID", "x")]), Some(2)).is_err());
        let k8s = [("JOB_COMPLETION_INDEX", "2")];
        assert!(Shard::from_env(env(&k8s), None).is_err());
        assert_eq!(Shard::from_env(env(&k8s), Some(4)), Ok(Some(Shard { index: 2, count: 4 })));
        let k8s = [("JOB_COMPLETION_INDEX", "2"), (SHARD_COUNT_ENV, "3")];
        assert_eq!(Shard::from_env(env(&k8s), None), Ok(Some(Shard { index: 2, count: 3 })));
    }
}
