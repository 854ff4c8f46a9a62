//! fanorona-engine (work in progress).
