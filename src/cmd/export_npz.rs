//! `fanorona data export --format npz`: training samples as numpy arrays (schema in
//! `data/FORMAT.md`).

use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

use fanorona_data::{Existing, export_npz};

use super::plural;
use super::sample_args::SampleArgs;
use crate::exit::bad_input;

/// Exports the samples of `files` (inputs in `encoding`) to `out` (or its shards) and reports
/// what was written.
pub fn run(
    files: &[PathBuf],
    out: Option<&Path>,
    force: bool,
    shard_size: Option<NonZeroU64>,
    (samples, encoding): (&SampleArgs, fanorona_nn::Encoding),
    json: bool,
) -> anyhow::Result<()> {
    let Some(out) = out else {
        return Err(bad_input(
            "--format npz",
            "needs --out FILE.npz (an archive is not written to a terminal)",
        ));
    };
    let config = samples.config()?;
    let existing = if force { Existing::Replace } else { Existing::Refuse };
    let report = export_npz(files, config, encoding, out, shard_size, existing)?;
    if json {
        println!("{}", serde_json::to_string(&report)?);
    } else {
        eprintln!(
            "wrote {} from {} to {}",
            plural(report.samples as usize, "sample", "samples"),
            plural(report.games as usize, "game", "games"),
            plural(report.outputs.len(), "archive", "archives"),
        );
        for o in &report.outputs {
            eprintln!("  {}: {}", o.path.display(), plural(o.samples as usize, "sample", "samples"));
        }
    }
    let next = fanorona_data::npz_export::shard_path(out, report.outputs.len());
    if shard_size.is_some() && next.exists() {
        eprintln!("note: {} is left from an earlier export (not one of these shards)", next.display());
    }
    Ok(())
}
