//! Alpha-beta search: negamax with principal-variation search, iterative deepening, a
//! transposition table, move ordering (table move, bigger captures, killers, history), draws by
//! repetition and no progress, forced-result scores, and limits by depth, nodes and time; on
//! one thread or several sharing the table (Lazy SMP).

mod limits;
pub mod mobility;
mod pick;
mod reduce;
mod root;
mod searcher;
mod tablebase;
mod threads;
pub mod tt;

pub use limits::Limits;
pub use mobility::has_paika_move;
pub use root::SearchRoot;
pub use searcher::{DEFAULT_QUIESCENCE, Info, MAX_QUIESCENCE, SearchResult, Searcher};
pub use threads::{MAX_THREADS, ThreadsError, available_threads, check_threads};
pub use tt::TableError;

/// The deepest iteration a search makes, in turns.
pub const MAX_DEPTH: u32 = 64;
/// The largest transposition table, in MiB.
pub const MAX_HASH_MIB: usize = 4_096;
/// The deepest ply (search turns from the root, quiescence included).
pub const MAX_PLY: usize = 128;
