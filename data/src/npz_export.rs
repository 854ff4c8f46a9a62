//! Training samples of record files into `.npz` archives ([`export_npz`]): streaming, in
//! game then ply order, optionally split into shards of a fixed number of samples.
//!
//! Every archive is written under a temporary name; all of them are renamed into place only
//! when the whole export has succeeded, so a failed export leaves no archive that looks
//! complete (and replaces nothing).

use std::io::{BufWriter, Write};
use std::num::NonZeroU64;
use std::path::{Path, PathBuf};

use serde::Serialize;

use crate::npz::NpzWriter;
use crate::sample_arrays::{SampleArrays, sample_columns};
use crate::{DataError, Existing, Output, SampleConfig, Samples};
use fanorona_nn::Encoding;

/// Samples buffered before they go to the column files.
const BATCH: usize = 4096;

/// What [`export_npz`] wrote.
#[derive(Clone, Debug, Default, PartialEq, Serialize)]
pub struct NpzReport {
    /// Games read.
    pub games: u64,
    /// Samples written.
    pub samples: u64,
    /// The archives, in order, with their sample counts.
    pub outputs: Vec<NpzOutput>,
}

/// One archive written.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct NpzOutput {
    /// Its path.
    pub path: PathBuf,
    /// Samples in it.
    pub samples: u64,
}

/// The path of shard `k` of the output `out`: `OUT.npz` gives `OUT-00000.npz`, ...
pub fn shard_path(out: &Path, k: usize) -> PathBuf {
    let name = out.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let stem = name.strip_suffix(".npz").unwrap_or(&name);
    out.with_file_name(format!("{stem}-{k:05}.npz"))
}

/// The folder for an output's column temporaries: beside it (same file system), or the
/// system's temporary folder for a device or FIFO.
fn temp_dir(output: &Output) -> PathBuf {
    match output.target().parent() {
        Some(dir) if !output.is_special() && !dir.as_os_str().is_empty() => dir.to_path_buf(),
        _ if !output.is_special() => PathBuf::from("."),
        _ => std::env::temp_dir(),
    }
}

/// An archive being written.
struct Shard {
    output: Output,
    writer: NpzWriter,
}

/// The export's state: the archives done (under their temporary names) and the one open.
struct Export<'a> {
    inputs: &'a [PathBuf],
    encoding: Encoding,
    out: &'a Path,
    shard_size: Option<NonZeroU64>,
    existing: Existing,
    done: Vec<(Output, u64)>,
    open: Option<Shard>,
}

impl Export<'_> {
    fn start_shard(&mut self) -> Result<&mut Shard, DataError> {
        if self.open.is_none() {
            let path = match self.shard_size {
                Some(_) => shard_path(self.out, self.done.len()),
                None => self.out.to_path_buf(),
            };
            let output = Output::new(&path, self.existing)?;
            if let Some(f) = self.inputs.iter().find(|f| output.clobbers(f)) {
                return Err(DataError::Output {
                    path,
                    what: format!("{} is an input: the export would replace it", f.display()),
                });
            }
            let writer = NpzWriter::new(&sample_columns(self.encoding), &temp_dir(&output))
                .map_err(|e| DataError::io(&path, e))?;
            self.open = Some(Shard { output, writer });
        }
        self.open.as_mut().ok_or_else(|| DataError::Output { path: self.out.into(), what: "no shard".into() })
    }

    /// Writes `batch` (never more than the open shard has room for) to the open shard.
    fn write(&mut self, batch: &SampleArrays) -> Result<(), DataError> {
        let limit = self.shard_size;
        let shard = self.start_shard()?;
        let path = shard.output.given().to_path_buf();
        batch.write_to(&mut shard.writer).map_err(|e| DataError::io(path, e))?;
        if limit.is_some_and(|n| shard.writer.rows() >= n.get()) {
            self.close_shard()?;
        }
        Ok(())
    }

    /// Room left in the open shard (a whole batch when unsharded).
    fn room(&self) -> usize {
        match (self.shard_size, &self.open) {
            (Some(n), Some(s)) => (n.get() - s.writer.rows()).min(BATCH as u64) as usize,
            (Some(n), None) => n.get().min(BATCH as u64) as usize,
            (None, _) => BATCH,
        }
    }

    fn close_shard(&mut self) -> Result<(), DataError> {
        let Some(Shard { output, writer }) = self.open.take() else { return Ok(()) };
        let rows = writer.rows();
        let part = output.write_path();
        let given = output.given().to_path_buf();
        let regular = !output.is_special();
        let result = (|| {
            let file = std::fs::File::create(&part)?;
            let mut w = BufWriter::with_capacity(1 << 16, file);
            writer.finish(&mut w)?;
            w.flush()?;
            // A device such as /dev/null cannot be synced (EINVAL).
            if regular { w.get_ref().sync_all() } else { Ok(()) }
        })();
        // Registered before the result is looked at, so a failure removes this one too.
        self.done.push((output, rows));
        result.map_err(|e| DataError::io(given, e))
    }

    fn abandon(&mut self) {
        if let Some(s) = self.open.take() {
            s.output.abandon();
        }
        for (o, _) in &self.done {
            o.abandon();
        }
    }
}

/// Writes the samples of the games of `inputs` (with `config`, as [`Samples`] gives them, the
/// positions in `encoding`) to `out`, or, with `shard_size`, to `OUT-00000.npz`, `OUT-00001.npz`, ... of `shard_size`
/// samples each (the last one smaller; one empty archive when there are no samples).
///
/// # Errors
/// A damaged input or illegal turn ([`DataError`] naming file and record), an existing output
/// (unless `existing` is [`Existing::Replace`]), an output that is an input, or a write error;
/// no archive is left in place then.
pub fn export_npz(
    inputs: &[PathBuf],
    config: SampleConfig,
    encoding: Encoding,
    out: &Path,
    shard_size: Option<NonZeroU64>,
    existing: Existing,
) -> Result<NpzReport, DataError> {
    let mut e = Export { inputs, encoding, out, shard_size, existing, done: Vec::new(), open: None };
    let mut samples = Samples::open(inputs, config);
    let result = (|| {
        // Check the first output before reading anything.
        e.start_shard()?;
        let mut batch = SampleArrays::with_capacity(encoding, BATCH);
        for s in samples.by_ref() {
            batch.push(&s?);
            if batch.len() >= e.room() {
                e.write(&batch)?;
                batch.clear();
            }
        }
        if !batch.is_empty() || e.open.is_some() || e.done.is_empty() {
            e.write(&batch)?;
            e.close_shard()?;
        }
        for (o, _) in &e.done {
            o.commit()?;
        }
        Ok(())
    })();
    if let Err(err) = result {
        e.abandon();
        return Err(err);
    }
    let outputs =
        e.done.iter().map(|(o, n)| NpzOutput { path: o.given().to_path_buf(), samples: *n }).collect();
    Ok(NpzReport { games: samples.games(), samples: e.done.iter().map(|(_, n)| n).sum(), outputs })
}
