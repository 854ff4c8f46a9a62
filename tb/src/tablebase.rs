//! A directory of tables, loaded into memory, and probing it.

use std::fs;
use std::path::{Path, PathBuf};

use fanorona_core::Position;

use crate::format::read_table;
use crate::index::Indexer;
use crate::table::Table;
use crate::{MAX_TB_STONES, ProbeError, Signature, TbError, Value};

const SIDE: usize = MAX_TB_STONES as usize + 1;

/// Every table up to some number of stones, in memory.
#[derive(Debug, Clone)]
pub struct Tablebase {
    stones: u32,
    /// Indexed by `us * SIDE + them`.
    tables: Vec<Option<Table>>,
}

fn slot(sig: Signature) -> usize {
    sig.us() as usize * SIDE + sig.them() as usize
}

impl Default for Tablebase {
    fn default() -> Tablebase {
        Tablebase { stones: 0, tables: vec![None; SIDE * SIDE] }
    }
}

impl Tablebase {
    /// Opens the tables in `dir`: every signature up to the largest number of stones found
    /// there must be present and sound.
    ///
    /// # Errors
    /// When the directory holds no tables, a table is missing, or a file is unreadable,
    /// truncated, corrupt, of another version or of another signature (the error names it).
    pub fn open(dir: &Path) -> Result<Tablebase, TbError> {
        fs::read_dir(dir).map_err(|source| TbError::Read { path: dir.to_path_buf(), source })?;
        let path = |sig: Signature| -> PathBuf { dir.join(sig.file_name()) };
        let stones = Signature::up_to(MAX_TB_STONES)
            .filter(|&sig| fs::symlink_metadata(path(sig)).is_ok())
            .map(Signature::stones)
            .max()
            .ok_or_else(|| TbError::Empty(dir.to_path_buf()))?;
        let mut tb = Tablebase::default();
        for sig in Signature::up_to(stones) {
            let p = path(sig);
            if fs::symlink_metadata(&p).is_err() {
                return Err(TbError::Missing { path: p, stones });
            }
            tb.insert(load(&p, sig)?);
        }
        Ok(tb)
    }

    /// Adds a table (the generator builds the tablebase up this way).
    pub(crate) fn insert(&mut self, table: Table) {
        let sig = table.signature();
        self.stones = self.stones.max(sig.stones());
        self.tables[slot(sig)] = Some(table);
    }

    /// The most stones the tables hold (a position with more cannot be probed).
    pub fn max_stones(&self) -> u32 {
        self.stones
    }

    /// The table of a signature, if loaded.
    pub fn table(&self, sig: Signature) -> Option<&Table> {
        self.tables.get(slot(sig)).and_then(Option::as_ref)
    }

    /// The value of a position for its side to move.
    ///
    /// # Errors
    /// [`ProbeError::TooManyStones`] beyond the tables, [`ProbeError::GameOver`] when a side
    /// has no stones.
    #[inline]
    pub fn probe(&self, pos: &Position) -> Result<Value, ProbeError> {
        let (us, them) = (pos.us().0, pos.them().0);
        if us == 0 || them == 0 {
            return Err(ProbeError::GameOver);
        }
        let stones = (us | them).count_ones();
        if stones > self.stones {
            return Err(ProbeError::TooManyStones { stones, max: self.stones });
        }
        self.value(us, them).ok_or(ProbeError::TooManyStones { stones, max: self.stones })
    }

    /// The value of the position with stones `us` (to move) and `them`, both non-empty, when
    /// its table is loaded (for searches that work on stone sets; [`Tablebase::probe`] takes a
    /// position).
    #[inline]
    pub fn value(&self, us: u64, them: u64) -> Option<Value> {
        let sig = Signature::new(us.count_ones(), them.count_ones())?;
        self.table(sig)?.value(us, them)
    }
}

/// Loads one table file.
fn load(path: &Path, sig: Signature) -> Result<Table, TbError> {
    let indexer = Indexer::new(sig);
    let (data, counts) = read_table(path, sig, &indexer)?;
    Ok(Table::new(indexer, data, counts))
}

/// Loads one table file if it is there (`Ok(None)` when it is not).
///
/// # Errors
/// As [`Tablebase::open`], for a file that is there but not sound.
pub(crate) fn load_if_present(path: &Path, sig: Signature) -> Result<Option<Table>, TbError> {
    if fs::symlink_metadata(path).is_err() {
        return Ok(None);
    }
    load(path, sig).map(Some)
}
