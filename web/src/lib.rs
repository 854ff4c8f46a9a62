//! Fanorona in the browser: a local HTTP server (`fanorona serve`) with a JSON API under
//! `/api/` and an embedded page to replay record files (given to the server or uploaded to
//! it), analyse positions with an engine spec and play against a level or an engine.
//!
//! The server is a small synchronous HTTP/1.1 implementation on `std::net` (one thread per
//! connection, bounded request sizes, engine work bounded in time and in number at once); the
//! page is plain HTML, CSS and JavaScript embedded with `include_str!`, drawing the board as
//! SVG.
#![deny(missing_docs)]

pub mod api;
mod assets;
pub mod catalog;
pub mod deadline;
pub mod error;
pub mod hangup;
pub mod http;
pub mod levels;
pub mod peers;
pub mod server;
pub mod slots;
pub mod timeouts;
pub mod upload;

pub use error::ApiError;
pub use server::{Config, DEFAULT_ENGINE, ServeError, Server};
pub use timeouts::Timeouts;

// Every error type of the crate, each saying whether it is bad input (see
// `fanorona_core::BadInput`): a test of the `fanorona` program fails when one is left off.
fanorona_core::bad_input_errors!(
    ApiError,
    ServeError,
    catalog::CatalogError,
    http::ReadError,
    levels::UnknownLevel,
);
