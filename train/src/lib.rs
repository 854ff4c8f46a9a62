//! fanorona-train (work in progress).
