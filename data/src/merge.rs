//! [`merge`]: joins the shard files of one run into one file.

use std::path::{Path, PathBuf};

use crate::{DataError, Existing, Output, RecordReader, RecordWriter};

/// What [`merge`] wrote.
#[derive(Clone, Debug, serde::Serialize)]
pub struct MergeReport {
    /// The output file.
    pub out: String,
    /// Input files, in the order their games were written (by shard index).
    pub inputs: Vec<String>,
    /// Shard indices the output holds.
    pub shards: Vec<u32>,
    /// The run's shard count.
    pub shard_count: u32,
    /// Games written.
    pub games: u64,
}

/// Joins `inputs`, shard files of one run (same kind, configuration, seed and shard count,
/// no shard twice), into `out`, ordered by shard index, so that the games come in the run's
/// game order. The output's header lists every shard it holds. It is written to `OUT.part`
/// and renamed when complete (see [`Output`]); an existing `out` is replaced only with
/// [`Existing::Replace`], and an input that is the output or its temporary is refused.
///
/// # Errors
/// [`DataError::Mismatch`] when the inputs do not belong together; any error reading an input
/// (a truncated input is refused: resume or repair its run first); I/O errors writing.
pub fn merge(inputs: &[PathBuf], out: &Path, existing: Existing) -> Result<MergeReport, DataError> {
    let output = Output::new(out, existing)?;
    let mut files = Vec::new();
    for p in inputs {
        if output.clobbers(p) {
            return Err(DataError::Output {
                path: p.clone(),
                what: format!("is an input and the output {} (or its temporary)", out.display()),
            });
        }
        let r = RecordReader::open(p)?;
        files.push((p.clone(), r.header().clone()));
    }
    let Some((first_path, first)) = files.first().cloned() else {
        return Err(DataError::Mismatch { path: out.to_path_buf(), what: "nothing to merge".into() });
    };
    let mut shards: Vec<u32> = Vec::new();
    for (p, h) in &files {
        h.same_run(&first).map_err(|what| DataError::Mismatch {
            path: p.clone(),
            what: format!("not from the same run as {}: {what}", first_path.display()),
        })?;
        for s in &h.shards {
            if shards.contains(s) {
                return Err(DataError::Mismatch {
                    path: p.clone(),
                    what: format!("shard {s} of {} is already in another input", h.shard_count),
                });
            }
            shards.push(*s);
        }
    }
    files.sort_by_key(|(_, h)| h.shards.iter().min().copied().unwrap_or(0));
    shards.sort_unstable();
    let mut header = first.clone();
    header.format_version = crate::FORMAT_VERSION;
    header.shard = shards.first().copied().unwrap_or(0);
    header.shards = shards.clone();
    let copy = || -> Result<u64, DataError> {
        let mut w = RecordWriter::create(&output.write_path(), &header)?;
        for (p, _) in &files {
            for rec in RecordReader::open(p)? {
                w.write(&rec?)?;
            }
        }
        Ok(w.finish()?.1)
    };
    let games = match copy() {
        Ok(g) => g,
        Err(e) => {
            output.abandon();
            return Err(e);
        }
    };
    output.commit()?;
    Ok(MergeReport {
        out: out.display().to_string(),
        inputs: files.iter().map(|(p, _)| p.display().to_string()).collect(),
        shards,
        shard_count: first.shard_count,
        games,
    })
}
