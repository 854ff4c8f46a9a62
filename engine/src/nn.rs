//! The learned value network: its declaration, file format and plain-Rust forward pass.
//! (Being written.)
