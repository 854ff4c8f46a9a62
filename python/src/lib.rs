//! The `fanorona` Python package's native module (`fanorona._fanorona`): positions, games under
//! the rules with an action numbering, record files, training samples as numpy arrays, value
//! networks and the engine's search, over the fanorona crates.

mod decode;
mod engine;
mod errors;
mod game;
mod games;
mod network;
mod position;
mod samples;

use pyo3::prelude::*;

/// The native module; `fanorona/__init__.py` re-exports it.
#[pymodule]
fn _fanorona(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<position::PyPosition>()?;
    m.add_class::<games::RecordedGame>()?;
    m.add_class::<game::PyGame>()?;
    m.add_class::<engine::PyEngine>()?;
    m.add_class::<games::GameReader>()?;
    m.add_class::<samples::SampleBatches>()?;
    m.add_class::<network::PyNetwork>()?;
    m.add_function(wrap_pyfunction!(games::read_games, m)?)?;
    m.add_function(wrap_pyfunction!(samples::samples, m)?)?;
    m.add_function(wrap_pyfunction!(network::weight_limits, m)?)?;
    m.add_function(wrap_pyfunction!(game::action_masks, m)?)?;
    m.add_function(wrap_pyfunction!(game::action_name_of, m)?)?;
    m.add("INPUTS", fanorona_nn::THREAT_INPUTS)?;
    m.add("STONE_INPUTS", fanorona_nn::INPUTS)?;
    m.add("ACTIONS", fanorona_data::action::ACTIONS)?;
    m.add("STOP", fanorona_data::action::STOP)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
