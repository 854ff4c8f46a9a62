//! fanorona-eval (work in progress).
