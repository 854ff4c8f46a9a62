//! Fanorona in the browser: a local HTTP server (`fanorona serve`) with a JSON API under
//! `/api/` and an embedded page to replay record files, analyse positions with any engine spec
//! and play against any engine.
//!
//! The server is a small synchronous HTTP/1.1 implementation on `std::net` (one thread per
//! connection, bounded request sizes); the page is plain HTML, CSS and JavaScript embedded
//! with `include_str!`, drawing the board as SVG.
#![deny(missing_docs)]

pub mod api;
mod assets;
pub mod catalog;
pub mod error;
pub mod http;
pub mod server;

pub use error::ApiError;
pub use server::{Config, DEFAULT_ENGINE, ServeError, Server};
