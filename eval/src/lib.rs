//! Engine matches for Fanorona: which engine or checkpoint is stronger, and by how much.

pub mod stats;
