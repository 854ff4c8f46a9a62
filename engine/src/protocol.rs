//! The engine side of the text protocol (shared/PROTOCOL.md): commands read from any
//! [`std::io::BufRead`], answers written to any [`std::io::Write`], the search on its own thread
//! so that `stop`, `isready` and `quit` are answered while it thinks.

mod command;
mod session;

pub use command::{Command, CommandError, Go, parse_command};
pub use session::{EngineConfig, run_engine};
