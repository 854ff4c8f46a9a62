//! [`merge`]: joins the shard files of one run into one file.

use std::path::{Path, PathBuf};

use crate::{DataError, RecordReader, RecordWriter};

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
/// and renamed when complete.
///
/// # Errors
/// [`DataError::Mismatch`] when the inputs do not belong together; any error reading an input
/// (a truncated input is refused: resume or repair its run first); I/O errors writing.
pub fn merge(inputs: &[PathBuf], out: &Path) -> Result<MergeReport, DataError> {
    let mut files = Vec::new();
    for p in inputs {
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
    let mut part = out.as_os_str().to_os_string();
    part.push(".part");
    let part = PathBuf::from(part);
    let copy = || -> Result<u64, DataError> {
        let mut w = RecordWriter::create(&part, &header)?;
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
            let _ = std::fs::remove_file(&part);
            return Err(e);
        }
    };
    std::fs::rename(&part, out).map_err(|e| DataError::io(out, e))?;
    Ok(MergeReport {
        out: out.display().to_string(),
        inputs: files.iter().map(|(p, _)| p.display().to_string()).collect(),
        shards,
        shard_count: first.shard_count,
        games,
    })
}
