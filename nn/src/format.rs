//! Reading and writing network files (layout in `FORMAT.md`).

use std::io::Write;
use std::path::{Path, PathBuf};

use crate::checksum::crc32;
use crate::{
    Activation, Architecture, Encoding, FormatError, MAX_BUCKETS, MAX_HIDDEN_LAYERS, MAX_LAYER_SIZE,
    NetError, Network,
};

/// The first eight bytes of every network file.
pub const MAGIC: [u8; 8] = *b"FANORNET";
/// The newest format version, which this build reads with every older one: version 2 allows
/// output buckets (a last layer of more than one output). A network without buckets is written
/// as version 1, so that older builds read it, byte for byte as before.
pub const FORMAT_VERSION: u32 = 2;
/// Longest description.
const MAX_DESCRIPTION: usize = 1 << 16;
/// Bytes up to and including the description length of the longest header.
const HEADER_PREFIX: usize = 24 + 4 * (MAX_HIDDEN_LAYERS + 2) + 4;

/// The file length that a header declares, when `prefix` (the file's first bytes) holds a
/// plausible header: the magic, a layer count and sizes within the limits and a description
/// length within its limit. `None` otherwise (the full parse then says what is wrong).
fn declared_len(prefix: &[u8]) -> Option<u64> {
    let word = |i: usize| prefix.get(i..i + 4).map(|b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]) as u64);
    if prefix.get(..MAGIC.len()) != Some(&MAGIC[..]) {
        return None;
    }
    let n = word(20)? as usize;
    if !(2..=MAX_HIDDEN_LAYERS + 2).contains(&n) {
        return None;
    }
    let sizes = (0..n).map(|k| word(24 + 4 * k)).collect::<Option<Vec<u64>>>()?;
    if sizes.iter().any(|&s| s == 0 || s > MAX_LAYER_SIZE as u64) {
        return None;
    }
    let desc = word(24 + 4 * n)?;
    if desc > MAX_DESCRIPTION as u64 {
        return None;
    }
    let params: u64 = sizes.windows(2).map(|w| w[0] * w[1] + w[1]).sum();
    Some(28 + 4 * n as u64 + desc + 4 * params + 4)
}

struct Cursor<'a> {
    bytes: &'a [u8],
    pos: usize,
}

impl<'a> Cursor<'a> {
    fn take(&mut self, n: usize) -> Result<&'a [u8], FormatError> {
        let end = self.pos.saturating_add(n);
        if end > self.bytes.len() {
            return Err(FormatError::Truncated { needed: end, len: self.bytes.len() });
        }
        let s = &self.bytes[self.pos..end];
        self.pos = end;
        Ok(s)
    }

    fn u32(&mut self) -> Result<u32, FormatError> {
        let b = self.take(4)?;
        Ok(u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
    }

    fn f32s(&mut self, n: usize) -> Result<Vec<f32>, FormatError> {
        let b = self.take(n.saturating_mul(4))?;
        Ok(b.chunks_exact(4).map(|c| f32::from_le_bytes([c[0], c[1], c[2], c[3]])).collect())
    }
}

impl Network {
    /// The network in the file format.
    pub fn to_bytes(&self) -> Vec<u8> {
        let sizes = self.arch().layer_sizes();
        let desc = self.description().as_bytes();
        let desc = &desc[..desc.len().min(MAX_DESCRIPTION)];
        let mut out =
            Vec::with_capacity(32 + 4 * sizes.len() + desc.len() + 4 * self.arch().parameter_count());
        out.extend_from_slice(&MAGIC);
        let version = if self.arch().buckets == 1 { 1 } else { FORMAT_VERSION };
        for v in [version, self.arch().encoding.id(), self.arch().activation.id(), sizes.len() as u32] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for s in &sizes {
            out.extend_from_slice(&(*s as u32).to_le_bytes());
        }
        out.extend_from_slice(&(desc.len() as u32).to_le_bytes());
        out.extend_from_slice(desc);
        for layer in self.layers() {
            for v in layer.weights().iter().chain(layer.bias()) {
                out.extend_from_slice(&v.to_le_bytes());
            }
        }
        let crc = crc32(&out);
        out.extend_from_slice(&crc.to_le_bytes());
        out
    }

    /// The CRC-32 that the file format stores after the network (of every byte before it).
    pub fn checksum(&self) -> u32 {
        let b = self.to_bytes();
        let t = &b[b.len() - 4..];
        u32::from_le_bytes([t[0], t[1], t[2], t[3]])
    }

    /// Reads a network from the file format.
    ///
    /// # Errors
    /// A [`FormatError`] saying what is wrong: magic, version, encoding, sizes, length,
    /// checksum or a non-finite weight.
    pub fn from_bytes(bytes: &[u8]) -> Result<Network, FormatError> {
        let mut c = Cursor { bytes, pos: 0 };
        let magic = c.take(MAGIC.len()).map_err(|_| FormatError::BadMagic { found: bytes.to_vec() })?;
        if magic != MAGIC {
            return Err(FormatError::BadMagic { found: magic.to_vec() });
        }
        let version = c.u32()?;
        if !(1..=FORMAT_VERSION).contains(&version) {
            return Err(FormatError::UnsupportedVersion { found: version, supported: FORMAT_VERSION });
        }
        let encoding_id = c.u32()?;
        let encoding = Encoding::from_id(encoding_id).ok_or(FormatError::UnknownEncoding(encoding_id))?;
        let activation_id = c.u32()?;
        let activation =
            Activation::from_id(activation_id).ok_or(FormatError::UnknownActivation(activation_id))?;
        let n = c.u32()? as usize;
        if !(2..=MAX_HIDDEN_LAYERS + 2).contains(&n) {
            return Err(FormatError::Architecture(format!(
                "{n} layer sizes (must be 2..={})",
                MAX_HIDDEN_LAYERS + 2
            )));
        }
        let sizes = (0..n).map(|_| c.u32().map(|v| v as usize)).collect::<Result<Vec<_>, _>>()?;
        let outputs = if version == 1 { 1..=1 } else { 1..=MAX_BUCKETS };
        if sizes[0] != encoding.inputs() || !outputs.contains(&sizes[n - 1]) {
            return Err(FormatError::Architecture(format!(
                "sizes {sizes:?} must start with the encoding's {} inputs and end with {} output(s) \
                 (one per bucket)",
                encoding.inputs(),
                if version == 1 { "1".to_string() } else { format!("1 to {MAX_BUCKETS}") }
            )));
        }
        let buckets = sizes[n - 1];
        let arch = Architecture { encoding, hidden: sizes[1..n - 1].to_vec(), activation, buckets };
        arch.validate()?;
        let desc_len = c.u32()? as usize;
        if desc_len > MAX_DESCRIPTION {
            return Err(FormatError::Architecture(format!("description of {desc_len} bytes is too long")));
        }
        let description =
            std::str::from_utf8(c.take(desc_len)?).map_err(|_| FormatError::Description)?.to_string();
        let expected = c.pos + 4 * arch.parameter_count() + 4;
        if bytes.len() < expected {
            return Err(FormatError::Truncated { needed: expected, len: bytes.len() });
        }
        if bytes.len() > expected {
            return Err(FormatError::TrailingBytes(bytes.len() - expected));
        }
        let body = &bytes[..expected - 4];
        let t = &bytes[expected - 4..];
        let stored = u32::from_le_bytes([t[0], t[1], t[2], t[3]]);
        let computed = crc32(body);
        if stored != computed {
            return Err(FormatError::Checksum { stored, computed });
        }
        let mut params = Vec::with_capacity(n - 1);
        for w in sizes.windows(2) {
            let weights = c.f32s(w[0] * w[1])?;
            let bias = c.f32s(w[1])?;
            params.push((weights, bias));
        }
        Network::from_layers(arch, params, description)
    }

    /// Reads a network file.
    ///
    /// # Errors
    /// [`NetError::Io`] when the file cannot be read, [`NetError::Format`] when it is not a
    /// valid network; both name the file.
    pub fn read_file(path: &Path) -> Result<Network, NetError> {
        use std::io::Read;
        let io = |error| NetError::Io { path: path.to_path_buf(), error };
        let mut file = std::fs::File::open(path).map_err(io)?;
        // The header says how long the file must be: never read more than that (plus one byte
        // to notice trailing data), so a device or a huge file is not read whole.
        let mut bytes = Vec::new();
        (&mut file).take(HEADER_PREFIX as u64).read_to_end(&mut bytes).map_err(io)?;
        if let Some(len) = declared_len(&bytes) {
            let rest = (len + 1).saturating_sub(bytes.len() as u64);
            file.take(rest).read_to_end(&mut bytes).map_err(io)?;
        }
        Network::from_bytes(&bytes).map_err(|error| NetError::Format { path: path.to_path_buf(), error })
    }

    /// Writes the network to `path` (through a temporary file in the same folder, renamed at
    /// the end, so a reader never sees half a file).
    ///
    /// # Errors
    /// [`NetError::Io`] naming the file.
    pub fn write_file(&self, path: &Path) -> Result<(), NetError> {
        let io = |error| NetError::Io { path: path.to_path_buf(), error };
        let mut tmp_name = path.file_name().map(|n| n.to_os_string()).unwrap_or_default();
        tmp_name.push(format!(".tmp{}", std::process::id()));
        let tmp: PathBuf = path.with_file_name(tmp_name);
        let result = (|| {
            let mut f = std::fs::File::create(&tmp)?;
            f.write_all(&self.to_bytes())?;
            f.sync_all()?;
            std::fs::rename(&tmp, path)
        })();
        if result.is_err() {
            let _ = std::fs::remove_file(&tmp);
        }
        result.map_err(io)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn net() -> Network {
        let mut n = Network::random(&Architecture::mlp(&[8, 4]).unwrap(), 5).unwrap();
        n.set_description("test net");
        n
    }

    #[test]
    fn round_trip_is_exact() {
        let n = net();
        let bytes = n.to_bytes();
        assert_eq!(&bytes[..8], b"FANORNET");
        // header 8 + 4*4 + 4 sizes * 4 + 4 + 8 description, params, crc
        assert_eq!(bytes.len(), 8 + 16 + 16 + 4 + 8 + 4 * n.arch().parameter_count() + 4);
        assert_eq!(Network::from_bytes(&bytes), Ok(n));
    }

    #[test]
    fn every_truncation_and_bit_flip_is_an_error() {
        let bytes = net().to_bytes();
        for len in 0..bytes.len() {
            assert!(Network::from_bytes(&bytes[..len]).is_err(), "truncated to {len}");
        }
        for i in (0..bytes.len()).step_by(7) {
            let mut b = bytes.clone();
            b[i] ^= 0x10;
            assert!(Network::from_bytes(&b).is_err(), "flip at {i}");
        }
        let mut long = bytes.clone();
        long.push(0);
        assert_eq!(Network::from_bytes(&long), Err(FormatError::TrailingBytes(1)));
    }

    #[test]
    fn buckets_are_version_2_and_round_trip() {
        assert_eq!(net().to_bytes()[8], 1, "a network without buckets stays version 1");
        let arch: Architecture = "16:buckets=4".parse().unwrap();
        let bucketed = Network::random(&arch, 7).unwrap();
        let bytes = bucketed.to_bytes();
        assert_eq!(bytes[8], 2);
        assert_eq!(Network::from_bytes(&bytes), Ok(bucketed));
        // A version-1 file may not end in more than one output.
        let mut v1 = bytes.clone();
        v1[8] = 1;
        let body = v1.len() - 4;
        let crc = crc32(&v1[..body]).to_le_bytes();
        v1[body..].copy_from_slice(&crc);
        assert!(
            matches!(Network::from_bytes(&v1), Err(FormatError::Architecture(m)) if m.contains("end with 1"))
        );
    }

    #[test]
    fn specific_errors() {
        let bytes = net().to_bytes();
        assert!(matches!(Network::from_bytes(b"hello world, not a net"), Err(FormatError::BadMagic { .. })));
        let mut v = bytes.clone();
        v[8] = 3;
        assert_eq!(
            Network::from_bytes(&v),
            Err(FormatError::UnsupportedVersion { found: 3, supported: FORMAT_VERSION })
        );
        let mut v = bytes.clone();
        v[12] = 9;
        assert_eq!(Network::from_bytes(&v), Err(FormatError::UnknownEncoding(9)));
        let mut v = bytes.clone();
        let last = v.len() - 5;
        v[last] ^= 1;
        assert!(matches!(Network::from_bytes(&v), Err(FormatError::Checksum { .. })));
        // sizes[0] = 91 (wrong input count)
        let mut v = bytes;
        v[24] = 91;
        assert!(matches!(Network::from_bytes(&v), Err(FormatError::Architecture(_))));
    }

    #[test]
    fn files() {
        let dir = std::env::temp_dir().join(format!("fanorona-nn-format-{}", std::process::id()));
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("a.net");
        let n = net();
        n.write_file(&path).unwrap();
        assert_eq!(Network::read_file(&path).unwrap(), n);
        let missing = Network::read_file(&dir.join("missing.net")).unwrap_err();
        assert!(missing.to_string().contains("missing.net"), "{missing}");
        std::fs::write(&path, b"FANORNET").unwrap();
        let err = Network::read_file(&path).unwrap_err();
        assert!(err.to_string().contains("a.net") && err.to_string().contains("truncated"), "{err}");
        // A valid file followed by a megabyte: refused as trailing bytes, the rest unread.
        let mut long = n.to_bytes();
        long.extend(std::iter::repeat_n(0u8, 1 << 20));
        std::fs::write(&path, &long).unwrap();
        let err = Network::read_file(&path).unwrap_err();
        assert!(err.to_string().contains("unexpected bytes"), "{err}");
        // A device that never ends is refused after its first bytes.
        let err = Network::read_file(Path::new("/dev/zero")).unwrap_err();
        assert!(err.to_string().contains("/dev/zero") && err.to_string().contains("magic"), "{err}");
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
