//! fanorona-data (work in progress).
