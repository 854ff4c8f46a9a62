//! Charts (work in progress).
