//! The `fanorona` Python package's native module (`fanorona._fanorona`): positions, record
//! files, training samples as numpy arrays and value networks, over the fanorona crates.

mod errors;
mod games;
mod network;
mod position;
mod samples;

use pyo3::prelude::*;

/// The native module; `fanorona/__init__.py` re-exports it.
#[pymodule]
fn _fanorona(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::PyPosition>()?;
    m.add_class::<games::Game>()?;
    m.add_class::<games::GameReader>()?;
    m.add_class::<samples::SampleBatches>()?;
    m.add_class::<network::PyNetwork>()?;
    m.add_function(wrap_pyfunction!(games::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(samples::samples, m)?)?;
    m.add_function(wrap_pyfunction!(network::weight_limits, m)?)?;
    m.add("INPUTS", fanorona_nn::INPUTS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
