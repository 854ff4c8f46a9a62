//! fanorona-selfplay (work in progress).
