//! The network's declaration: input encoding and layer sizes.

use core::fmt;
use core::str::FromStr;

use crate::FormatError;

/// Most hidden layers a network may have.
pub const MAX_HIDDEN_LAYERS: usize = 8;
/// Most neurons in one layer.
pub const MAX_LAYER_SIZE: usize = 4096;
/// Most output buckets.
pub const MAX_BUCKETS: usize = 8;
/// Stones on a full board (the bucket of a position divides `1..=STONES` evenly).
const STONES: usize = 44;

/// How a position becomes the network's input vector.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum Encoding {
    /// Side-to-move-relative stone planes: input `i` in `0..45` is 1 when the side to move has
    /// a stone on point `i`, input `45 + i` when the opponent has one; when Black is to move the
    /// board is first turned 180 degrees (point `i` becomes `44 - i`), so each side sees its own
    /// stones start at the bottom. 90 inputs, each 0 or 1.
    #[default]
    StonePlanes,
    /// The stone planes, then threat planes, turned as the stone planes: input `90 + i` is 1
    /// when the opponent's stone on point `i` is the first victim of some capturing step of
    /// the side to move, input `135 + i` when the side to move's stone on `i` is the first
    /// victim of some capturing step the opponent would have if it were to move
    /// ([`fanorona_core::Position::capture_targets`]). 180 inputs, each 0 or 1.
    ThreatPlanes,
}

impl Encoding {
    /// Its identifier in the network file header.
    pub const fn id(self) -> u32 {
        match self {
            Encoding::StonePlanes => 1,
            Encoding::ThreatPlanes => 2,
        }
    }

    /// The encoding with file identifier `id`.
    pub const fn from_id(id: u32) -> Option<Encoding> {
        match id {
            1 => Some(Encoding::StonePlanes),
            2 => Some(Encoding::ThreatPlanes),
            _ => None,
        }
    }

    /// Number of inputs.
    pub const fn inputs(self) -> usize {
        match self {
            Encoding::StonePlanes => crate::INPUTS,
            Encoding::ThreatPlanes => crate::THREAT_INPUTS,
        }
    }

    /// Every encoding.
    pub const ALL: [Encoding; 2] = [Encoding::StonePlanes, Encoding::ThreatPlanes];

    /// Its name in the architecture text and configuration files (`stones`, `threats`).
    pub const fn name(self) -> &'static str {
        match self {
            Encoding::StonePlanes => "stones",
            Encoding::ThreatPlanes => "threats",
        }
    }

    /// Most inputs set at once: every stone, and for threats every stone once more.
    pub const fn max_active(self) -> usize {
        match self {
            Encoding::StonePlanes => 44,
            Encoding::ThreatPlanes => 88,
        }
    }
}

impl FromStr for Encoding {
    type Err = FormatError;

    /// `stones` or `threats`.
    fn from_str(s: &str) -> Result<Encoding, FormatError> {
        Encoding::ALL.into_iter().find(|e| e.name().eq_ignore_ascii_case(s.trim())).ok_or_else(|| {
            FormatError::Architecture(format!("`{s}` is not an input encoding (`stones` or `threats`)"))
        })
    }
}

impl fmt::Display for Encoding {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// The activation of the hidden layers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Activation {
    /// `max(x, 0)`: the networks of the first format (float inference only).
    Relu,
    /// `clamp(x, 0, 1)`: bounded, so the search runs the network in integers
    /// ([`crate::QuantisedNetwork`]); the default.
    ClippedRelu,
}

impl Activation {
    /// Its identifier in the network file header.
    pub const fn id(self) -> u32 {
        match self {
            Activation::Relu => 1,
            Activation::ClippedRelu => 2,
        }
    }

    /// The activation with file identifier `id`.
    pub const fn from_id(id: u32) -> Option<Activation> {
        match id {
            1 => Some(Activation::Relu),
            2 => Some(Activation::ClippedRelu),
            _ => None,
        }
    }

    /// The activation of `x`.
    #[inline]
    pub fn apply(self, x: f32) -> f32 {
        match self {
            Activation::Relu => x.max(0.0),
            Activation::ClippedRelu => x.clamp(0.0, 1.0),
        }
    }

    /// Every activation.
    pub const ALL: [Activation; 2] = [Activation::Relu, Activation::ClippedRelu];

    /// Its name in the architecture text (`relu`, `crelu`).
    pub const fn name(self) -> &'static str {
        match self {
            Activation::Relu => "relu",
            Activation::ClippedRelu => "crelu",
        }
    }
}

impl FromStr for Activation {
    type Err = FormatError;

    /// `crelu` or `relu`, exactly: the one reading of every configuration, command and binding
    /// that names an activation.
    fn from_str(s: &str) -> Result<Activation, FormatError> {
        Activation::ALL.into_iter().find(|a| a.name() == s).ok_or_else(|| {
            FormatError::Architecture(format!("`{s}` is not an activation (`crelu` or `relu`)"))
        })
    }
}

impl fmt::Display for Activation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// A value network: the encoding, then fully connected layers of the given hidden sizes with
/// the activation, then one output neuron with tanh — or, with output buckets, one output
/// neuron per bucket, of which a position uses the one of its stone count
/// ([`Architecture::bucket`]), as Stockfish's material buckets.
///
/// `Display` writes the layer sizes and the activation, e.g. `stones:90-256-32-1` (clipped ReLU,
/// the default, is not written), `stones:90-128-1:relu`, and the buckets when there are more
/// than one, e.g. `stones:90-256-1:buckets=4`; `FromStr` reads the hidden sizes as a list, e.g.
/// `256,32`, `128,32:relu`, `256:buckets=4`, or the full display form.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct Architecture {
    /// The input encoding.
    pub encoding: Encoding,
    /// Hidden layer sizes, first layer first (may be empty: a linear model with tanh).
    pub hidden: Vec<usize>,
    /// The hidden layers' activation.
    pub activation: Activation,
    /// Output buckets (1 = a single output): the last layer has one output per bucket.
    pub buckets: usize,
}

/// The default hidden layer sizes: one clipped-ReLU layer of 256, twice the width of the first
/// networks' 128, at a lower cost per evaluation than the handcrafted evaluator in integers
/// (a second hidden layer of 32 made each evaluation about four times dearer: measured with
/// `cargo run --release -p fanorona-engine --example nnspeed`).
pub const DEFAULT_HIDDEN: [usize; 1] = [256];

impl Default for Architecture {
    /// The default network: 90 inputs, a hidden layer of 256 with clipped ReLU, one output (run
    /// in integers by the search).
    fn default() -> Architecture {
        Architecture {
            encoding: Encoding::StonePlanes,
            hidden: DEFAULT_HIDDEN.to_vec(),
            activation: Activation::ClippedRelu,
            buckets: 1,
        }
    }
}

impl Architecture {
    /// An architecture with stone-plane inputs, these hidden sizes and clipped ReLU, validated.
    ///
    /// # Errors
    /// When a size is 0 or above [`MAX_LAYER_SIZE`], or there are more than
    /// [`MAX_HIDDEN_LAYERS`] hidden layers.
    pub fn mlp(hidden: &[usize]) -> Result<Architecture, FormatError> {
        let a = Architecture {
            encoding: Encoding::StonePlanes,
            hidden: hidden.to_vec(),
            activation: Activation::ClippedRelu,
            buckets: 1,
        };
        a.validate()?;
        Ok(a)
    }

    /// The same layers over another input encoding.
    pub fn with_encoding(mut self, encoding: Encoding) -> Architecture {
        self.encoding = encoding;
        self
    }

    /// The same layers with another activation.
    pub fn with_activation(mut self, activation: Activation) -> Architecture {
        self.activation = activation;
        self
    }

    /// The same layers with `buckets` output buckets.
    ///
    /// # Errors
    /// When `buckets` is outside `1..=`[`MAX_BUCKETS`].
    pub fn with_buckets(mut self, buckets: usize) -> Result<Architecture, FormatError> {
        self.buckets = buckets;
        self.validate()?;
        Ok(self)
    }

    /// The output bucket of a position with `stones` stones on the board (both sides): the
    /// range `1..=44` cut into [`Architecture::buckets`] equal parts, fewest stones first.
    #[inline]
    pub fn bucket(&self, stones: usize) -> usize {
        bucket_of(stones, self.buckets)
    }

    /// Checks the sizes.
    ///
    /// # Errors
    /// As [`Architecture::mlp`], and when the bucket count is outside `1..=`[`MAX_BUCKETS`].
    pub fn validate(&self) -> Result<(), FormatError> {
        if !(1..=MAX_BUCKETS).contains(&self.buckets) {
            return Err(FormatError::Architecture(format!(
                "{} output buckets, 1..={MAX_BUCKETS} allowed",
                self.buckets
            )));
        }
        if self.hidden.len() > MAX_HIDDEN_LAYERS {
            return Err(FormatError::Architecture(format!(
                "{} hidden layers, at most {MAX_HIDDEN_LAYERS} allowed",
                self.hidden.len()
            )));
        }
        if let Some(bad) = self.hidden.iter().find(|&&h| h == 0 || h > MAX_LAYER_SIZE) {
            return Err(FormatError::Architecture(format!(
                "hidden layer size {bad} is outside 1..={MAX_LAYER_SIZE}"
            )));
        }
        Ok(())
    }

    /// Every layer's width: inputs, hidden sizes, then the outputs (one per bucket).
    pub fn layer_sizes(&self) -> Vec<usize> {
        let mut v = Vec::with_capacity(self.hidden.len() + 2);
        v.push(self.encoding.inputs());
        v.extend_from_slice(&self.hidden);
        v.push(self.buckets);
        v
    }

    /// Width of the first layer's output (the accumulator): the first hidden size, or the
    /// outputs of a linear model.
    pub fn first_width(&self) -> usize {
        self.hidden.first().copied().unwrap_or(self.buckets)
    }

    /// Number of weights and biases.
    pub fn parameter_count(&self) -> usize {
        self.layer_sizes().windows(2).map(|w| w[0] * w[1] + w[1]).sum()
    }
}

impl fmt::Display for Architecture {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}:{}", self.encoding, self.encoding.inputs())?;
        for s in &self.hidden {
            write!(f, "-{s}")?;
        }
        f.write_str("-1")?;
        if self.activation != Activation::ClippedRelu && !self.hidden.is_empty() {
            write!(f, ":{}", self.activation.name())?;
        }
        if self.buckets != 1 {
            write!(f, ":buckets={}", self.buckets)?;
        }
        Ok(())
    }
}

impl FromStr for Architecture {
    type Err = FormatError;

    /// Reads `256,32` (hidden sizes), `linear` or `none` (no hidden layer), or the display
    /// form `stones:90-256-32-1`; either may end in `:crelu` (the default) or `:relu`, then in
    /// `:buckets=N`.
    fn from_str(s: &str) -> Result<Architecture, FormatError> {
        let s = s.trim();
        if let Some((rest, n)) = s.rsplit_once(":buckets=") {
            let buckets = n
                .trim()
                .parse::<usize>()
                .map_err(|_| FormatError::Architecture(format!("`{n}` in `{s}` is not a bucket count")))?;
            return rest.parse::<Architecture>()?.with_buckets(buckets);
        }
        for a in Activation::ALL {
            if let Some(rest) = s.strip_suffix(a.name()).and_then(|r| r.strip_suffix(':')) {
                return rest.parse::<Architecture>().map(|arch| arch.with_activation(a));
            }
        }
        if s.eq_ignore_ascii_case("linear") || s.eq_ignore_ascii_case("none") || s.is_empty() {
            return Architecture::mlp(&[]);
        }
        if let Some((name, rest)) = s.split_once(':') {
            return parse_display(name.parse()?, rest, s);
        }
        let sizes = s.split(',').map(|p| parse_size(p, s)).collect::<Result<Vec<_>, _>>()?;
        Architecture::mlp(&sizes)
    }
}

/// The bucket of `stones` stones among `buckets`; see [`Architecture::bucket`].
#[inline]
pub(crate) fn bucket_of(stones: usize, buckets: usize) -> usize {
    (stones.saturating_sub(1) * buckets / STONES).min(buckets.saturating_sub(1))
}

/// Stones on the board, both sides (what picks the output bucket).
#[inline]
pub(crate) fn stones(pos: &fanorona_core::Position) -> usize {
    pos.occupied().count() as usize
}

fn parse_size(part: &str, whole: &str) -> Result<usize, FormatError> {
    part.trim()
        .parse::<usize>()
        .map_err(|_| FormatError::Architecture(format!("`{part}` in `{whole}` is not a layer size")))
}

/// The display form `stones:90-...-1` or `threats:180-...-1` (without its suffixes): `rest`
/// is what follows the encoding's name.
fn parse_display(encoding: Encoding, rest: &str, s: &str) -> Result<Architecture, FormatError> {
    let sizes = rest.split('-').map(|p| parse_size(p, s)).collect::<Result<Vec<_>, _>>()?;
    let inputs = encoding.inputs();
    if sizes.len() < 2 || sizes[0] != inputs || sizes[sizes.len() - 1] != 1 {
        return Err(FormatError::Architecture(format!(
            "`{s}` must start with {inputs} inputs and end with 1 output"
        )));
    }
    Architecture::mlp(&sizes[1..sizes.len() - 1]).map(|a| a.with_encoding(encoding))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sizes_and_text() {
        let a = Architecture::mlp(&[128, 32]).unwrap();
        assert_eq!(a.layer_sizes(), vec![90, 128, 32, 1]);
        assert_eq!(a.parameter_count(), 90 * 128 + 128 + 128 * 32 + 32 + 32 + 1);
        assert_eq!(a.to_string(), "stones:90-128-32-1");
        assert_eq!("stones:90-128-32-1".parse::<Architecture>(), Ok(a.clone()));
        assert_eq!("128, 32".parse::<Architecture>(), Ok(a.clone()));
        assert_eq!("128,32:crelu".parse::<Architecture>(), Ok(a.clone()));
        let relu = a.with_activation(Activation::Relu);
        assert_eq!(relu.to_string(), "stones:90-128-32-1:relu");
        assert_eq!("stones:90-128-32-1:relu".parse::<Architecture>(), Ok(relu.clone()));
        assert_eq!("128,32:relu".parse::<Architecture>(), Ok(relu));
        assert_eq!(Architecture::default().to_string(), "stones:90-256-1");
        for act in [Activation::Relu, Activation::ClippedRelu] {
            assert_eq!(Activation::from_id(act.id()), Some(act));
        }
        assert_eq!(Activation::from_id(3), None);
        for act in Activation::ALL {
            assert_eq!(act.to_string().parse::<Activation>(), Ok(act));
        }
        assert_eq!("crelu".parse::<Activation>(), Ok(Activation::ClippedRelu));
        let err = "tanh".parse::<Activation>().unwrap_err().to_string();
        assert!(err.contains("`tanh` is not an activation (`crelu` or `relu`)"), "{err}");
        assert_eq!(Activation::ClippedRelu.apply(1.5), 1.0);
        assert_eq!(Activation::Relu.apply(1.5), 1.5);
        let lin: Architecture = "linear".parse().unwrap();
        assert_eq!(lin.layer_sizes(), vec![90, 1]);
        assert_eq!(lin.first_width(), 1);
        assert!("128,0".parse::<Architecture>().is_err());
        assert!("128,x".parse::<Architecture>().is_err());
        assert!("stones:80-8-1".parse::<Architecture>().is_err());
        assert!("99999".parse::<Architecture>().is_err());
        assert!("1,1,1,1,1,1,1,1,1".parse::<Architecture>().is_err());
    }

    #[test]
    fn threat_planes_in_text_and_ids() {
        let a: Architecture = "threats:180-256-1:buckets=2".parse().unwrap();
        assert_eq!(a.encoding, Encoding::ThreatPlanes);
        assert_eq!(a.layer_sizes(), vec![180, 256, 2]);
        assert_eq!(a.to_string(), "threats:180-256-1:buckets=2");
        assert_eq!(
            Architecture::default().with_encoding(Encoding::ThreatPlanes).to_string(),
            "threats:180-256-1"
        );
        assert!("threats:90-256-1".parse::<Architecture>().is_err());
        assert!("pieces:90-256-1".parse::<Architecture>().is_err());
        for e in Encoding::ALL {
            assert_eq!(Encoding::from_id(e.id()), Some(e));
            assert_eq!(e.name().parse::<Encoding>(), Ok(e));
        }
        assert_eq!(Encoding::from_id(3), None);
        assert!("queens".parse::<Encoding>().is_err());
    }

    #[test]
    fn buckets_in_sizes_text_and_positions() {
        let a: Architecture = "256:buckets=4".parse().unwrap();
        assert_eq!(a.buckets, 4);
        assert_eq!(a.layer_sizes(), vec![90, 256, 4]);
        assert_eq!(a.parameter_count(), 90 * 256 + 256 + 256 * 4 + 4);
        assert_eq!(a.to_string(), "stones:90-256-1:buckets=4");
        assert_eq!(a.to_string().parse::<Architecture>(), Ok(a.clone()));
        let relu: Architecture = "128,32:relu:buckets=2".parse().unwrap();
        assert_eq!(relu.to_string(), "stones:90-128-32-1:relu:buckets=2");
        assert_eq!(relu.to_string().parse::<Architecture>(), Ok(relu));
        // 44 stones in four buckets of 11: 1-11, 12-22, 23-33, 34-44.
        let buckets: Vec<usize> = [1, 11, 12, 22, 23, 33, 34, 44].iter().map(|&n| a.bucket(n)).collect();
        assert_eq!(buckets, [0, 0, 1, 1, 2, 2, 3, 3]);
        assert_eq!(Architecture::default().bucket(44), 0);
        assert_eq!(a.bucket(0), 0);
        assert_eq!(a.bucket(99), 3);
        assert!("256:buckets=0".parse::<Architecture>().is_err());
        assert!("256:buckets=9".parse::<Architecture>().is_err());
        assert!("256:buckets=x".parse::<Architecture>().is_err());
        let lin: Architecture = "linear:buckets=3".parse().unwrap();
        assert_eq!((lin.first_width(), lin.layer_sizes()), (3, vec![90, 3]));
    }
}
