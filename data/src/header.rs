//! [`Header`]: what a record file says about itself.

use serde::{Deserialize, Serialize};

/// The first 8 bytes of every record file.
pub const MAGIC: [u8; 8] = *b"FANOREC\x1a";

/// The format version this build writes (and the newest it reads).
pub const FORMAT_VERSION: u32 = 1;

/// The most bytes a file header's payload may have.
pub const MAX_HEADER_LEN: u32 = 1 << 20;

/// The most bytes one record's payload may have (16 MiB, far above any real game: a 300-turn
/// game takes about 3 KiB). A frame claiming more is reported as damage, never allocated.
pub const MAX_RECORD_LEN: u32 = 1 << 24;

/// What produced the games of a file.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub enum Kind {
    /// Self-play games (`fanorona selfplay`).
    SelfPlay,
    /// Engine match games (`fanorona eval`, `fanorona match`).
    Match,
}

impl std::fmt::Display for Kind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Kind::SelfPlay => "selfplay",
            Kind::Match => "match",
        })
    }
}

/// A record file's header: the format version and the metadata of the run that wrote it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Header {
    /// The format version the file was written with ([`FORMAT_VERSION`] for new files). It is
    /// stored in the fixed part of the header, before the payload.
    #[serde(skip)]
    pub format_version: u32,
    /// The program that wrote it, like `fanorona 0.1.0`.
    pub program: String,
    /// What produced the games.
    pub kind: Kind,
    /// The generator's full configuration as JSON (players, limits, randomisation, draw rules),
    /// as its producer chooses to write it; readers compare it as text.
    pub config: String,
    /// The run's seed.
    pub seed: u64,
    /// This shard's index, `0..shard_count`.
    pub shard: u32,
    /// How many shards the run was split into (1 = not split).
    pub shard_count: u32,
    /// The shard indices whose games this file holds (`[shard]` for one shard; the union for a
    /// merged file).
    pub shards: Vec<u32>,
}

impl Header {
    /// A header for a single-shard run.
    pub fn new(program: impl Into<String>, kind: Kind, config: impl Into<String>, seed: u64) -> Header {
        Header {
            format_version: FORMAT_VERSION,
            program: program.into(),
            kind,
            config: config.into(),
            seed,
            shard: 0,
            shard_count: 1,
            shards: vec![0],
        }
    }

    /// The same header for shard `index` of `count`.
    pub fn with_shard(mut self, index: u32, count: u32) -> Header {
        self.shard = index;
        self.shard_count = count;
        self.shards = vec![index];
        self
    }

    /// Whether another file's header comes from the same run (same kind, configuration, seed
    /// and shard count); says what differs when not.
    pub fn same_run(&self, other: &Header) -> Result<(), String> {
        if self.kind != other.kind {
            return Err(format!("kind {} differs from {}", other.kind, self.kind));
        }
        if self.seed != other.seed {
            return Err(format!("seed {} differs from {}", other.seed, self.seed));
        }
        if self.shard_count != other.shard_count {
            return Err(format!("shard count {} differs from {}", other.shard_count, self.shard_count));
        }
        if self.config != other.config {
            return Err(format!("configuration {} differs from {}", other.config, self.config));
        }
        Ok(())
    }
}
