//! Networks in the safetensors format (what PyTorch users save): an 8-byte little-endian
//! header length, a JSON header naming every tensor's dtype, shape and byte range, then the
//! tensor bytes.
//!
//! [`Network::to_safetensors`] writes, for layer `k` (input first), `layers.K.weight` with
//! shape `[outputs, inputs]` (PyTorch's `nn.Linear` layout: the transpose of the engine's
//! input-major weights) and `layers.K.bias` `[outputs]`, all `F32`, and the metadata
//! `format = fanorona-net`, `architecture`, `activation`, `encoding` and `description`.
//!
//! [`Network::from_safetensors`] reads any file whose tensors come in `NAME.weight` /
//! `NAME.bias` pairs (`F32` or `F64`): the layers are ordered by the last number in `NAME`
//! (`layers.0`, `layers.1`; `0`, `2` of an `nn.Sequential`; `fc1`, `fc2`), the architecture
//! follows from the shapes, and the activation comes from the metadata when it is there, the
//! encoding from the metadata or else from the first layer's width (90 stones, 180 threats).

use std::collections::BTreeMap;

use std::io::Read;
use std::path::Path;

use crate::{Activation, Architecture, Encoding, FormatError, NetError, Network};

/// Longest JSON header read (the format's own limit is 100 MB; a network's is a few KB).
const MAX_HEADER: u64 = 1 << 24;

fn bad(what: impl Into<String>) -> FormatError {
    FormatError::Safetensors(what.into())
}

impl Network {
    /// The network as a safetensors file.
    pub fn to_safetensors(&self) -> Vec<u8> {
        let mut header = serde_json::Map::new();
        let meta = serde_json::json!({
            "format": "fanorona-net",
            "architecture": self.arch().to_string(),
            "activation": self.arch().activation.name(),
            "encoding": self.arch().encoding.to_string(),
            "description": self.description(),
        });
        header.insert("__metadata__".into(), meta);
        let mut data = Vec::with_capacity(4 * self.arch().parameter_count());
        for (k, layer) in self.layers().iter().enumerate() {
            let (i, o) = (layer.inputs(), layer.outputs());
            let start = data.len();
            for out in 0..o {
                for inp in 0..i {
                    data.extend_from_slice(&layer.weights()[inp * o + out].to_le_bytes());
                }
            }
            let tensor = |shape: Vec<usize>, a: usize, b: usize| serde_json::json!({"dtype": "F32", "shape": shape, "data_offsets": [a, b]});
            header.insert(format!("layers.{k}.weight"), tensor(vec![o, i], start, data.len()));
            let start = data.len();
            for v in layer.bias() {
                data.extend_from_slice(&v.to_le_bytes());
            }
            header.insert(format!("layers.{k}.bias"), tensor(vec![o], start, data.len()));
        }
        let mut json = serde_json::Value::Object(header).to_string().into_bytes();
        // Pad the header with spaces so the tensors start 8-byte aligned.
        json.resize(json.len().next_multiple_of(8), b' ');
        let mut out = Vec::with_capacity(8 + json.len() + data.len());
        out.extend_from_slice(&(json.len() as u64).to_le_bytes());
        out.extend_from_slice(&json);
        out.extend_from_slice(&data);
        out
    }

    /// How many bytes a safetensors file whose first bytes are `prefix` declares, when the
    /// prefix holds its whole header: `Some(Err)` when the header is malformed, `None` when
    /// more bytes are needed to tell.
    pub fn safetensors_len(prefix: &[u8]) -> Option<Result<u64, FormatError>> {
        let n = u64::from_le_bytes(prefix.get(..8)?.try_into().ok()?);
        if n > MAX_HEADER {
            return Some(Err(bad(format!("header of {n} bytes (at most {MAX_HEADER})"))));
        }
        let json = prefix.get(8..8 + n as usize)?;
        Some(
            parse_header(json)
                .map(|(_, tensors)| 8 + n + tensors.values().map(|t| t.end).max().unwrap_or(0) as u64),
        )
    }

    /// Reads a network from safetensors bytes; `activation` (when given) replaces the one in
    /// the metadata (clipped ReLU when there is none); the encoding is the metadata's, else the
    /// one of the first layer's input count.
    ///
    /// # Errors
    /// [`FormatError::Safetensors`] for a malformed file, tensors that do not pair up or a
    /// dtype other than F32/F64; the architecture, shape and non-finite errors of
    /// [`Network::from_layers`].
    pub fn from_safetensors(bytes: &[u8], activation: Option<Activation>) -> Result<Network, FormatError> {
        let n = bytes.get(..8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default()));
        let n = n.ok_or(FormatError::Truncated { needed: 8, len: bytes.len() })?;
        if n > MAX_HEADER {
            return Err(bad(format!("header of {n} bytes (at most {MAX_HEADER})")));
        }
        let data_start = 8 + n as usize;
        let json = bytes
            .get(8..data_start)
            .ok_or(FormatError::Truncated { needed: data_start, len: bytes.len() })?;
        let (meta, tensors) = parse_header(json)?;
        let data = &bytes[data_start..];
        let end = tensors.values().map(|t| t.end).max().unwrap_or(0);
        if end > data.len() {
            return Err(FormatError::Truncated { needed: data_start + end, len: bytes.len() });
        }
        if end < data.len() {
            return Err(FormatError::TrailingBytes(data.len() - end));
        }
        let activation = match (activation, meta.get("activation")) {
            (Some(a), _) => a,
            (None, None) => Activation::ClippedRelu,
            (None, Some(name)) => [Activation::Relu, Activation::ClippedRelu]
                .into_iter()
                .find(|a| a.name() == name)
                .ok_or_else(|| bad(format!("unknown activation {name:?} in the metadata")))?,
        };
        let layers = pair_layers(&tensors)?;
        let mut hidden = Vec::new();
        let mut buckets = 1;
        let mut params = Vec::with_capacity(layers.len());
        for (k, (w, b)) in layers.iter().enumerate() {
            let (&[o, i], &[ob]) = (w.shape.as_slice(), b.shape.as_slice()) else {
                return Err(bad(format!("layer {k}: weight must be 2-D [outputs, inputs] and bias 1-D")));
            };
            if ob != o {
                return Err(bad(format!("layer {k}: weight has {o} outputs, bias {ob}")));
            }
            let wv = w.values(data)?;
            let mut weights = vec![0f32; i * o];
            for out in 0..o {
                for inp in 0..i {
                    weights[inp * o + out] = wv[out * i + inp];
                }
            }
            if k + 1 < layers.len() {
                hidden.push(o);
            } else {
                buckets = o;
            }
            params.push((weights, b.values(data)?));
        }
        let encoding = match meta.get("encoding") {
            None => encoding_of_width(layers.first().map_or(0, |(w, _)| w.shape[1]))?,
            Some(name) => name
                .parse::<Encoding>()
                .map_err(|_| bad(format!("unknown encoding {name:?} in the metadata")))?,
        };
        let arch = Architecture { encoding, hidden, activation, buckets };
        if let Some(((w, _), inputs)) = layers.first().zip(Some(arch.encoding.inputs()))
            && w.shape[1] != inputs
        {
            return Err(FormatError::Architecture(format!(
                "the first layer has {} inputs, the encoding {inputs}",
                w.shape[1]
            )));
        }
        let description = meta.get("description").cloned().unwrap_or_default();
        Network::from_layers(arch, params, description)
    }
}

/// The encoding whose input count is `width` (a file without the `encoding` metadata, as
/// PyTorch writes it).
fn encoding_of_width(width: usize) -> Result<Encoding, FormatError> {
    Encoding::ALL.into_iter().find(|e| e.inputs() == width).ok_or_else(|| {
        let widths: Vec<String> = Encoding::ALL.iter().map(|e| format!("{} ({e})", e.inputs())).collect();
        FormatError::Architecture(format!(
            "the first layer has {width} inputs; an encoding has {}",
            widths.join(" or ")
        ))
    })
}

impl Network {
    /// Reads a safetensors file (see [`Network::from_safetensors`]), never more bytes than its
    /// header declares (plus one, to notice trailing data).
    ///
    /// # Errors
    /// [`NetError::Io`] or [`NetError::Format`], naming the file.
    pub fn read_safetensors(path: &Path, activation: Option<Activation>) -> Result<Network, NetError> {
        let io = |error| NetError::Io { path: path.to_path_buf(), error };
        let format = |error| NetError::Format { path: path.to_path_buf(), error };
        let mut file = std::fs::File::open(path).map_err(io)?;
        let mut bytes = Vec::new();
        (&mut file).take(8).read_to_end(&mut bytes).map_err(io)?;
        if let Some(n) = bytes.get(..8).map(|b| u64::from_le_bytes(b.try_into().unwrap_or_default())) {
            (&mut file).take(n.min(MAX_HEADER)).read_to_end(&mut bytes).map_err(io)?;
        }
        if let Some(len) = Network::safetensors_len(&bytes) {
            let rest = (len.map_err(format)? + 1).saturating_sub(bytes.len() as u64);
            file.take(rest).read_to_end(&mut bytes).map_err(io)?;
        }
        Network::from_safetensors(&bytes, activation).map_err(format)
    }
}

/// One tensor of the header.
#[derive(Debug)]
struct Tensor {
    dtype: Dtype,
    shape: Vec<usize>,
    start: usize,
    end: usize,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Dtype {
    F32,
    F64,
}

impl Tensor {
    fn values(&self, data: &[u8]) -> Result<Vec<f32>, FormatError> {
        let bytes = &data[self.start..self.end];
        Ok(match self.dtype {
            Dtype::F32 => {
                bytes.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect()
            }
            Dtype::F64 => bytes
                .chunks_exact(8)
                .map(|c| f64::from_le_bytes([c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7]]) as f32)
                .collect(),
        })
    }
}

type Header = (BTreeMap<String, String>, BTreeMap<String, Tensor>);

fn parse_header(json: &[u8]) -> Result<Header, FormatError> {
    let value: serde_json::Value =
        serde_json::from_slice(json).map_err(|e| bad(format!("the header is not JSON: {e}")))?;
    let serde_json::Value::Object(map) = value else { return Err(bad("the header is not a JSON object")) };
    let mut meta = BTreeMap::new();
    let mut tensors = BTreeMap::new();
    for (name, v) in map {
        if name == "__metadata__" {
            let Some(m) = v.as_object() else { return Err(bad("__metadata__ is not an object")) };
            for (k, v) in m {
                let s = v.as_str().ok_or_else(|| bad(format!("metadata {k:?} is not a string")))?;
                meta.insert(k.clone(), s.to_string());
            }
            continue;
        }
        let t = tensor(&name, &v)?;
        tensors.insert(name, t);
    }
    Ok((meta, tensors))
}

fn tensor(name: &str, v: &serde_json::Value) -> Result<Tensor, FormatError> {
    let what = |w: &str| bad(format!("tensor {name:?}: {w}"));
    let dtype = match v.get("dtype").and_then(|d| d.as_str()) {
        Some("F32") => Dtype::F32,
        Some("F64") => Dtype::F64,
        Some(d) => return Err(what(&format!("dtype {d} (F32 or F64 are read)"))),
        None => return Err(what("no dtype")),
    };
    let nums = |key: &str| -> Result<Vec<usize>, FormatError> {
        let a = v.get(key).and_then(|a| a.as_array()).ok_or_else(|| what(&format!("no {key}")))?;
        a.iter()
            .map(|x| {
                x.as_u64().and_then(|x| usize::try_from(x).ok()).ok_or_else(|| what(&format!("bad {key}")))
            })
            .collect()
    };
    let shape = nums("shape")?;
    let offsets = nums("data_offsets")?;
    let &[start, end] = offsets.as_slice() else { return Err(what("data_offsets must be [begin, end]")) };
    let size = match dtype {
        Dtype::F32 => 4,
        Dtype::F64 => 8,
    };
    let count =
        shape.iter().try_fold(1usize, |a, &d| a.checked_mul(d)).ok_or_else(|| what("shape too large"))?;
    if start > end || count.checked_mul(size) != Some(end - start) {
        return Err(what(&format!("shape {shape:?} does not match data_offsets [{start}, {end}]")));
    }
    Ok(Tensor { dtype, shape, start, end })
}

/// The `NAME.weight` / `NAME.bias` pairs, ordered by the last number in `NAME`.
fn pair_layers(tensors: &BTreeMap<String, Tensor>) -> Result<Vec<(&Tensor, &Tensor)>, FormatError> {
    let mut layers: BTreeMap<u64, (&str, Option<&Tensor>, Option<&Tensor>)> = BTreeMap::new();
    for (name, t) in tensors {
        let (prefix, is_weight) = match (name.strip_suffix(".weight"), name.strip_suffix(".bias")) {
            (Some(p), _) => (p, true),
            (None, Some(p)) => (p, false),
            _ => return Err(bad(format!("tensor {name:?} is neither a .weight nor a .bias"))),
        };
        let number = last_number(prefix)
            .ok_or_else(|| bad(format!("tensor {name:?}: no layer number in {prefix:?}")))?;
        let entry = layers.entry(number).or_insert((prefix, None, None));
        if entry.0 != prefix {
            return Err(bad(format!("layers {:?} and {prefix:?} have the same number {number}", entry.0)));
        }
        if is_weight { entry.1 = Some(t) } else { entry.2 = Some(t) }
    }
    if layers.is_empty() {
        return Err(bad("no tensors"));
    }
    layers
        .into_values()
        .map(|(p, w, b)| match (w, b) {
            (Some(w), Some(b)) => Ok((w, b)),
            _ => Err(bad(format!("layer {p:?} needs both {p}.weight and {p}.bias"))),
        })
        .collect()
}

/// The last run of digits in `s`, as a number.
fn last_number(s: &str) -> Option<u64> {
    let end = s.rfind(|c: char| c.is_ascii_digit())? + 1;
    let start = s[..end].rfind(|c: char| !c.is_ascii_digit()).map_or(0, |i| i + 1);
    s[start..end].parse().ok()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Network {
        let mut n = Network::random(&Architecture::mlp(&[8, 4]).expect("arch"), 9).expect("net");
        n.set_description("safetensors test");
        n
    }

    #[test]
    fn round_trip_is_exact() {
        let n = net();
        let bytes = n.to_safetensors();
        assert_eq!(
            Network::safetensors_len(&bytes).expect("whole header").expect("valid"),
            bytes.len() as u64
        );
        assert_eq!(Network::from_safetensors(&bytes, None).expect("reads"), n);
        let relu = Network::from_safetensors(&bytes, Some(Activation::Relu)).expect("reads");
        assert_eq!(relu.arch().activation, Activation::Relu);
        assert_eq!(relu.layers(), n.layers());
        let arch: Architecture = "8:buckets=3".parse().expect("arch");
        let bucketed = Network::random(&arch, 4).expect("net");
        let back = Network::from_safetensors(&bucketed.to_safetensors(), None).expect("reads");
        assert_eq!((back.arch().buckets, back), (3, bucketed));
    }

    #[test]
    fn pytorch_layout_and_names() {
        let n = net();
        let bytes = n.to_safetensors();
        let len = u64::from_le_bytes(bytes[..8].try_into().expect("8")) as usize;
        let header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + len]).expect("json");
        assert_eq!(header["layers.0.weight"]["shape"], serde_json::json!([8, 90]));
        assert_eq!(header["layers.2.bias"]["shape"], serde_json::json!([1]));
        assert_eq!(header["__metadata__"]["architecture"], "stones:90-8-4-1");
        assert_eq!(header["__metadata__"]["activation"], "crelu");
        assert_eq!((8 + len) % 8, 0);
        // Weight [out][in] = engine weight [in][out]: element (out 1, in 2).
        let t = &header["layers.0.weight"]["data_offsets"];
        let start = 8 + len + t[0].as_u64().expect("offset") as usize + 4 * (90 + 2);
        let v = f32::from_le_bytes(bytes[start..start + 4].try_into().expect("4"));
        assert_eq!(v, n.layers()[0].weights()[2 * 8 + 1]);
        assert_eq!(last_number("fc12"), Some(12));
        assert_eq!(last_number("layers.3"), Some(3));
        assert_eq!(last_number("head"), None);
    }

    #[test]
    fn bad_files_are_errors() {
        let bytes = net().to_safetensors();
        for len in [0, 7, 8, 100, bytes.len() - 1] {
            assert!(Network::from_safetensors(&bytes[..len], None).is_err(), "truncated to {len}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(Network::from_safetensors(&long, None), Err(FormatError::TrailingBytes(1)));
        let mut nan = bytes.clone();
        let end = nan.len();
        nan[end - 4..].copy_from_slice(&f32::NAN.to_le_bytes());
        assert!(matches!(Network::from_safetensors(&nan, None), Err(FormatError::NonFinite { .. })));
        let mut huge = bytes;
        huge[..8].copy_from_slice(&u64::MAX.to_le_bytes());
        assert!(matches!(Network::from_safetensors(&huge, None), Err(FormatError::Safetensors(_))));
    }

    /// `bytes` with the `__metadata__` left out (as PyTorch's `save_file` writes a file).
    fn without_metadata(bytes: &[u8]) -> Vec<u8> {
        let len = u64::from_le_bytes(bytes[..8].try_into().expect("8")) as usize;
        let mut header: serde_json::Value = serde_json::from_slice(&bytes[8..8 + len]).expect("json");
        header.as_object_mut().expect("object").remove("__metadata__");
        let json = serde_json::to_vec(&header).expect("json");
        let mut out = (json.len() as u64).to_le_bytes().to_vec();
        out.extend_from_slice(&json);
        out.extend_from_slice(&bytes[8 + len..]);
        out
    }

    #[test]
    fn without_metadata_the_encoding_follows_the_first_layer() {
        let arch = Architecture::mlp(&[8]).expect("arch").with_encoding(Encoding::ThreatPlanes);
        let threats = Network::random(&arch, 5).expect("net");
        let back =
            Network::from_safetensors(&without_metadata(&threats.to_safetensors()), None).expect("reads");
        assert_eq!(back.arch().encoding, Encoding::ThreatPlanes);
        assert_eq!(back.layers(), threats.layers());
        let stones =
            Network::from_safetensors(&without_metadata(&net().to_safetensors()), None).expect("reads");
        assert_eq!(stones.arch().encoding, Encoding::StonePlanes);
        assert_eq!(
            encoding_of_width(91).expect_err("no encoding").to_string(),
            "invalid architecture: the first layer has 91 inputs; an encoding has 90 (stones) or 180 (threats)"
        );
    }
}
