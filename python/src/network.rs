//! `fanorona.Network`: the engine's value network as numpy arrays and back.

use std::path::PathBuf;
use std::sync::Arc;

use fanorona_data::{Existing, Output};
use fanorona_nn::{Activation, Architecture, Encoding, Inference, MAX_BUCKETS, Network};
use numpy::{PyArray1, PyArray2, PyArrayDyn, PyArrayMethods, PyUntypedArrayMethods};
use pyo3::prelude::*;

use crate::errors;
use crate::position::PyPosition;

/// A value network of the engine: fully connected layers `y = x @ W + b` (W shaped
/// `[inputs, outputs]`), the hidden ones with clipped ReLU (`crelu`, the default) or ReLU,
/// the single output with tanh: a value in [-1, 1] for the side to move.
#[pyclass(name = "Network", module = "fanorona")]
#[derive(Debug)]
pub struct PyNetwork {
    net: Arc<Network>,
    /// The search's inference, built at the first `score`.
    inference: Option<Inference>,
}

impl PyNetwork {
    fn new(net: Network) -> PyNetwork {
        PyNetwork { net: Arc::new(net), inference: None }
    }

    /// The network (shared with the engines built over it).
    pub fn network(&self) -> &Arc<Network> {
        &self.net
    }
}

/// One layer's `(W, b)` as numpy arrays.
type LayerArrays<'py> = (Bound<'py, PyArray2<f32>>, Bound<'py, PyArray1<f32>>);

/// `x` as a C-contiguous float32 numpy array (numpy's own conversion of any array-like).
fn float32<'py>(py: Python<'py>, x: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyArrayDyn<f32>>> {
    let np = py.import("numpy")?;
    let a = np.getattr("ascontiguousarray")?.call1((x, np.getattr("float32")?))?;
    Ok(a.cast_into::<PyArrayDyn<f32>>()?)
}

#[pymethods]
impl PyNetwork {
    /// Reads a network file (`.fnet`); raises OSError when it cannot be read, ValueError when
    /// it is not a valid network (the message names the file and the problem).
    #[staticmethod]
    fn load(path: PathBuf) -> PyResult<PyNetwork> {
        Network::read_file(&path).map(PyNetwork::new).map_err(errors::net)
    }

    /// A network from its layers: `[(W, b), ...]`, input layer first, each `W` shaped
    /// `[inputs, outputs]` and `b` `[outputs]` (any array-like, converted to float32). The
    /// first layer takes the 180 inputs of the threat planes (`encoding="threats"`, the
    /// trainer's default) or the 90 of the stone planes (`"stones"`); without `encoding` it is
    /// the one of the first layer's width. The last layer has one output (or one per output
    /// bucket). Raises ValueError for wrong shapes or a NaN or infinite value.
    #[staticmethod]
    #[pyo3(signature = (layers, description="", activation="crelu", encoding=None))]
    fn from_layers(
        py: Python<'_>,
        layers: Vec<(Bound<'_, PyAny>, Bound<'_, PyAny>)>,
        description: &str,
        activation: &str,
        encoding: Option<&str>,
    ) -> PyResult<PyNetwork> {
        let activation =
            activation.parse::<Activation>().map_err(|e| errors::value(format!("activation: {e}")))?;
        let mut params = Vec::with_capacity(layers.len());
        let mut sizes = Vec::with_capacity(layers.len() + 1);
        for (k, (w, b)) in layers.iter().enumerate() {
            let (w, b) = (float32(py, w)?, float32(py, b)?);
            let (&[i, o], &[ob]) = (w.shape(), b.shape()) else {
                return Err(errors::value(format!(
                    "layer {k}: W must be 2-D [inputs, outputs] and b 1-D [outputs], got shapes {:?} and {:?}",
                    w.shape(),
                    b.shape()
                )));
            };
            if k == 0 {
                sizes.push(first_width(encoding, i)?);
            }
            let expected = sizes[k];
            if i != expected || ob != o {
                return Err(errors::value(format!(
                    "layer {k}: W is {:?} and b {:?}; expected [{expected}, n] and [n]",
                    w.shape(),
                    b.shape()
                )));
            }
            sizes.push(o);
            params.push((w.readonly().as_slice()?.to_vec(), b.readonly().as_slice()?.to_vec()));
        }
        if sizes.len() < 2 || !(1..=MAX_BUCKETS).contains(&sizes[sizes.len() - 1]) {
            return Err(errors::value(format!(
                "the last layer must have 1 output, or one per output bucket up to {MAX_BUCKETS} \
                 (layer sizes {sizes:?})"
            )));
        }
        let encoding = encoding_of(encoding, sizes[0])?;
        let hidden = sizes[1..sizes.len() - 1].to_vec();
        let buckets = sizes[sizes.len() - 1];
        let arch = Architecture { encoding, hidden, activation, buckets };
        Network::from_layers(arch, params, description).map(PyNetwork::new).map_err(errors::value)
    }

    /// Writes the network file (through a temporary renamed into place; replaces a regular
    /// file, writes a device such as /dev/null through). Raises ValueError, naming the layer,
    /// the value and the limit, for a network the engine would refuse (weights of a
    /// clipped-ReLU network beyond its integers: clip them with `weight_limits`).
    fn save(&self, path: PathBuf) -> PyResult<()> {
        fanorona_nn::engine_check(&self.net)
            .map_err(|e| errors::value(format!("{}: {e}", path.display())))?;
        let output = Output::new(&path, Existing::Replace)
            .map_err(|e| errors::data(fanorona_data::DataError::from(e)))?;
        let part = output.write_path();
        let written = std::fs::write(&part, self.net.to_bytes())
            .map_err(|e| fanorona_data::DataError::io(&path, e))
            .and_then(|()| output.commit().map_err(fanorona_data::DataError::from));
        written.map_err(|e| {
            output.abandon();
            errors::data(e)
        })
    }

    /// None when the engine can load the network (in integers or in floats), else why it
    /// would refuse it (as `fanorona net info`'s `engine_error`).
    #[getter]
    fn engine_error(&self) -> Option<String> {
        fanorona_nn::engine_check(&self.net).err().map(|e| e.to_string())
    }

    /// The layers as numpy arrays: `[(W, b), ...]`, `W` float32 `[inputs, outputs]`.
    fn layers<'py>(&self, py: Python<'py>) -> PyResult<Vec<LayerArrays<'py>>> {
        self.net
            .layers()
            .iter()
            .map(|l| {
                let w = PyArray1::from_slice(py, l.weights()).reshape([l.inputs(), l.outputs()])?;
                Ok((w, PyArray1::from_slice(py, l.bias())))
            })
            .collect()
    }

    /// The value of `position` for its side to move, in [-1, 1] (the float network).
    fn evaluate(&self, position: &PyPosition) -> f32 {
        self.net.evaluate(&position.0)
    }

    /// The score of `position` in centi-stones for its side to move, as the engine's search
    /// gets it (integer inference for a clipped-ReLU network, as `fanorona net eval`).
    fn score(&mut self, position: &PyPosition) -> i32 {
        let net = &self.net;
        // No search follows: each position is scored from scratch (no plies to allocate).
        let inference = self.inference.get_or_insert_with(|| {
            Inference::new(net.clone(), 0).unwrap_or_else(|_| Inference::float(net.clone()))
        });
        inference.score(&position.0)
    }

    /// The float network's values of a batch of inputs (`[n, 180]` for a threat-plane network,
    /// `[n, 90]` for a stone-plane one, as `Position.encode` or the `inputs` of `samples`):
    /// float32 `[n]`; a single row `[180]` gives a float.
    fn forward<'py>(&self, py: Python<'py>, inputs: &Bound<'py, PyAny>) -> PyResult<Bound<'py, PyAny>> {
        let x = float32(py, inputs)?;
        let encoding = self.net.arch().encoding;
        let width = encoding.inputs();
        let wrong = || {
            errors::value(format!(
                "inputs must be [n, {width}] or [{width}] for a network of {encoding} inputs, got {:?}",
                x.shape()
            ))
        };
        let single = match *x.shape() {
            [w] if w == width => true,
            [_, w] if w == width => false,
            _ => return Err(wrong()),
        };
        let ro = x.readonly();
        let flat = ro.as_slice()?;
        let out: Vec<f32> = flat.chunks_exact(width).map(|r| self.net.forward(r)).collect();
        if single {
            return Ok(out[0].into_pyobject(py)?.into_any());
        }
        Ok(PyArray1::from_vec(py, out).into_any())
    }

    /// The input encoding: `"stones"` (90 inputs) or `"threats"` (180).
    #[getter]
    fn encoding(&self) -> &'static str {
        self.net.arch().encoding.name()
    }

    /// The architecture, e.g. `stones:90-256-1` (`:relu` for ReLU hidden layers).
    #[getter]
    fn architecture(&self) -> String {
        self.net.arch().to_string()
    }

    /// `"crelu"` or `"relu"`.
    #[getter]
    fn activation(&self) -> &'static str {
        self.net.arch().activation.name()
    }

    /// The hidden layer sizes.
    #[getter]
    fn hidden(&self) -> Vec<usize> {
        self.net.arch().hidden.clone()
    }

    /// Output buckets (1: a single output; more: the last layer has one output per bucket, and
    /// a position uses the one of its stone count).
    #[getter]
    fn buckets(&self) -> usize {
        self.net.arch().buckets
    }

    /// The description stored with the network.
    #[getter]
    fn description(&self) -> &str {
        self.net.description()
    }

    /// Weights and biases in all.
    #[getter]
    fn parameter_count(&self) -> usize {
        self.net.arch().parameter_count()
    }

    /// The CRC-32 the network file stores (as `fanorona net info` prints it).
    #[getter]
    fn checksum(&self) -> u32 {
        self.net.checksum()
    }

    fn __repr__(&self) -> String {
        format!("Network('{}', description={:?})", self.net.arch(), self.net.description())
    }
}

/// The magnitudes `(weights, biases)` to which a trainer clips layer `k` of a clipped-ReLU
/// network of `layers` layers over `encoding` (threats by default: 0.7 for the first layer's
/// weights, 1.4 for stones) so that the engine can run it in integers (as `fanorona train`
/// clips).
#[pyfunction]
#[pyo3(signature = (k, layers, encoding="threats"))]
pub fn weight_limits(k: usize, layers: usize, encoding: &str) -> PyResult<(f32, f32)> {
    Ok(fanorona_nn::weight_limits_for(parse_encoding(encoding)?, k, layers))
}

/// The encoding named `name` (ValueError with the command line's message).
pub fn parse_encoding(name: &str) -> PyResult<Encoding> {
    name.parse::<Encoding>().map_err(errors::value)
}

/// The first layer's width: `encoding`'s inputs, or `width` itself when no encoding is named.
fn first_width(encoding: Option<&str>, width: usize) -> PyResult<usize> {
    encoding.map_or(Ok(width), |e| parse_encoding(e).map(Encoding::inputs))
}

/// The encoding named, or the one of `width` inputs.
fn encoding_of(encoding: Option<&str>, width: usize) -> PyResult<Encoding> {
    match encoding {
        Some(e) => parse_encoding(e),
        None => Encoding::ALL.into_iter().find(|e| e.inputs() == width).ok_or_else(|| {
            let widths: Vec<String> = Encoding::ALL.iter().map(|e| format!("{} ({e})", e.inputs())).collect();
            errors::value(format!("layer 0: W has {width} inputs; an encoding has {}", widths.join(" or ")))
        }),
    }
}
