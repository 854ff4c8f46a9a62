//! stats (todo)
