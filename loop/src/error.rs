//! Errors of the loop.

use std::path::PathBuf;

impl LoopError {
    /// Whether the error comes from what the user gave (a configuration, a run directory),
    /// rather than from a failure while running.
    pub fn is_bad_input(&self) -> bool {
        if let LoopError::RunFile(d) = self {
            return d.is_bad_input();
        }
        matches!(
            self,
            LoopError::Config(_)
                | LoopError::ConfigFile { .. }
                | LoopError::ConfigTooLarge { .. }
                | LoopError::Toml { .. }
                | LoopError::RunDir { .. }
                | LoopError::State { .. }
        )
    }
}

impl From<fanorona_data::DataError> for LoopError {
    fn from(e: fanorona_data::DataError) -> LoopError {
        LoopError::RunFile(Box::new(e))
    }
}

/// A shard the cluster command did not write.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MissingShard {
    /// The shard's index (the array task's, the array counting from 0).
    pub shard: u32,
    /// The shard file that is missing.
    pub file: PathBuf,
    /// The task's log (`slurm-%a.out` in the shard directory, through `SBATCH_OUTPUT`).
    pub log: PathBuf,
    /// Whether the log exists.
    pub log_exists: bool,
    /// Its last lines, for the first few missing shards.
    pub log_tail: Option<String>,
}

/// Missing shards named at most in the message (the rest are counted).
const MISSING_NAMED: usize = 10;

/// The message of [`LoopError::Cluster`]: how the command ended, then each missing shard with
/// its task, file and log (and the log's last lines).
fn cluster_failure(command: &str, status: Option<&str>, shards: u32, missing: &[MissingShard]) -> String {
    let mut m = match status {
        Some(s) => format!("the cluster command `{command}` failed ({s})"),
        None => format!("the cluster command `{command}` returned"),
    };
    if missing.is_empty() {
        m.push_str(", though every shard was written");
        return m;
    }
    let verb = if missing.len() == 1 { "is" } else { "are" };
    m.push_str(&format!(" and {} of its {shards} shards {verb} missing:", missing.len()));
    for s in missing.iter().take(MISSING_NAMED) {
        m.push_str(&format!("\n  shard {} (array task {}): no {}; ", s.shard, s.shard, s.file.display()));
        if s.log_exists {
            m.push_str(&format!("its log is {}", s.log.display()));
        } else {
            m.push_str(&format!("no log at {} (not a Slurm array counting from 0?)", s.log.display()));
        }
        if let Some(tail) = s.log_tail.as_deref().filter(|t| !t.trim().is_empty()) {
            m.push_str(", ending:");
            for line in tail.lines() {
                m.push_str(&format!("\n    | {line}"));
            }
        }
    }
    if missing.len() > MISSING_NAMED {
        m.push_str(&format!("\n  and {} more", missing.len() - MISSING_NAMED));
    }
    m
}

/// Why the loop stopped.
#[derive(Debug, thiserror::Error)]
pub enum LoopError {
    /// A bad configuration value.
    #[error("loop configuration: {0}")]
    Config(String),
    /// A configuration file could not be read.
    #[error("cannot read the loop configuration {path}: {source}")]
    ConfigFile {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A configuration file over the size bound (or an endless one, like `/dev/zero`).
    #[error("loop configuration {path}: larger than {} MiB, not a loop configuration", limit >> 20)]
    ConfigTooLarge {
        /// The file.
        path: PathBuf,
        /// The bound, in bytes.
        limit: u64,
    },
    /// A configuration is not valid TOML or has unknown or mistyped fields.
    #[error("loop configuration{}: {source}", path.as_ref().map(|p| format!(" {}", p.display())).unwrap_or_default())]
    Toml {
        /// The file, when read from one.
        path: Option<PathBuf>,
        /// The parser's error.
        source: toml::de::Error,
    },
    /// The configuration could not be written as TOML.
    #[error("the loop configuration cannot be written as TOML: {0}")]
    TomlOut(#[source] toml::ser::Error),
    /// The run directory is not usable as asked.
    #[error("run directory {path}: {what}")]
    RunDir {
        /// The directory.
        path: PathBuf,
        /// What is wrong.
        what: String,
    },
    /// A file could not be read or written.
    #[error("{path}: {source}")]
    Io {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// A saved state file (a stage's marker) is unreadable.
    #[error("unreadable state; remove {path} to redo that stage")]
    State {
        /// The file.
        path: PathBuf,
        /// What is wrong.
        #[source]
        source: Box<fanorona_data::DataError>,
    },
    /// A file of the run directory could not be written or read.
    #[error(transparent)]
    RunFile(Box<fanorona_data::DataError>),
    /// Self-play failed.
    #[error("generation {generation}, self-play: {source}")]
    Selfplay {
        /// The generation.
        generation: u32,
        /// The cause.
        source: Box<fanorona_selfplay::SelfplayError>,
    },
    /// Self-play on the cluster did not deliver every shard: the cluster command failed or
    /// returned with shards missing (a task failed). Not bad input: the run continues with
    /// `--resume` once the cause is fixed.
    #[error("generation {generation}, self-play on the cluster: {}", cluster_failure(command, status.as_deref(), *shards, missing))]
    Cluster {
        /// The generation.
        generation: u32,
        /// The cluster command.
        command: String,
        /// How the command ended when it failed (`exit status: 1`); `None` when it succeeded.
        status: Option<String>,
        /// The shard count.
        shards: u32,
        /// The shards not written, in shard order.
        missing: Vec<MissingShard>,
    },
    /// Training failed.
    #[error("generation {generation}, training: {source}")]
    Train {
        /// The generation.
        generation: u32,
        /// The cause.
        source: Box<fanorona_train::TrainError>,
    },
    /// A match failed.
    #[error("{stage}: {source}")]
    Match {
        /// Which match.
        stage: String,
        /// The cause.
        source: Box<fanorona_eval::EvalError>,
    },
    /// A chart could not be drawn.
    #[error(transparent)]
    Plot(#[from] fanorona_plot::PlotError),
}
