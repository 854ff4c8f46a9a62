//! The engine side of the text protocol (docs/PROTOCOL.md): commands read from any
//! [`std::io::BufRead`], answers written to any [`std::io::Write`], the search on its own thread
//! so that `stop`, `isready` and `quit` are answered while it thinks.

mod command;
mod line;
mod session;

pub use command::{Command, CommandError, Go, parse_command};
pub use line::{Line, LineReader, MAX_LINE, read_line};
pub use session::{EngineConfig, run_engine, turn_budget_ms};
