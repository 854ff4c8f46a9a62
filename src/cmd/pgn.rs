//! PGN for `fanorona data`: the tags of an export, and `data import` (PGN text back into a
//! record file).

use std::io::Write;
use std::path::Path;

use fanorona_data::pgn::{PgnError, PgnReader, PgnTags};
use fanorona_data::{Existing, Header, Kind, Output, PROGRAM, RecordWriter};

use super::plural;
use crate::exit::bad_input;

/// The tags of games exported from a record file with `header` (records keep no dates or
/// times: unknown).
pub fn export_tags(header: &Header) -> PgnTags {
    PgnTags {
        event: format!("fanorona {}", header.kind),
        site: "?".into(),
        date: "????.??.??".into(),
        time_control: "-".into(),
    }
}

/// `fanorona data import INPUT -o OUT`: every game of the PGN file, checked, into a new record
/// file (written whole or not at all).
pub fn import(input: &Path, out: &Path, force: bool, json: bool) -> anyhow::Result<()> {
    // A directory opens but cannot be read; a FIFO is read as it comes (bounded by the reader).
    if std::fs::metadata(input).is_ok_and(|m| m.is_dir()) {
        return Err(bad_input(input.display(), "is a directory"));
    }
    let file = std::fs::File::open(input).map_err(|e| bad_input(input.display(), e))?;
    let existing = if force { Existing::Replace } else { Existing::Refuse };
    let output = Output::new(out, existing)?;
    if output.clobbers(input) {
        return Err(bad_input(
            format!("--out {}", out.display()),
            "is the input: the import would replace it",
        ));
    }
    let config = serde_json::json!({ "imported_from": input.display().to_string() }).to_string();
    let header = Header::new(PROGRAM, Kind::Match, config, 0);
    let written = (|| -> anyhow::Result<u64> {
        let mut w = RecordWriter::create(&output.write_path(), &header)?;
        let mut n = 0u64;
        for rec in PgnReader::new(std::io::BufReader::new(file)) {
            let rec = rec.map_err(|e| match e {
                PgnError::Syntax { .. } => bad_input(input.display(), e),
                PgnError::Io(io) => anyhow::Error::new(io).context(format!("reading {}", input.display())),
            })?;
            w.write(&rec)?;
            n += 1;
        }
        if n == 0 {
            return Err(bad_input(input.display(), "holds no game"));
        }
        w.finish()?;
        Ok(n)
    })();
    let n = match written {
        Ok(n) => n,
        Err(e) => {
            output.abandon();
            return Err(e);
        }
    };
    output.commit()?;
    let mut stdout = std::io::stdout().lock();
    if json {
        writeln!(stdout, "{}", serde_json::json!({ "games": n, "out": out.display().to_string() }))?;
    } else {
        writeln!(stdout, "wrote {} to {}", plural(n as usize, "game", "games"), out.display())?;
    }
    Ok(())
}
