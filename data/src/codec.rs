//! The bincode configuration and the framing shared by the reader and the writer.

use serde::Serialize;
use serde::de::DeserializeOwned;

use crate::header::MAX_RECORD_LEN;

/// bincode 2 standard configuration: little endian, variable-length integers, and a decoding
/// limit equal to the largest record, so no claim inside a payload can allocate more.
pub(crate) fn config() -> impl bincode::config::Config {
    bincode::config::standard().with_limit::<{ MAX_RECORD_LEN as usize }>()
}

/// Encodes `value` into `buf` (cleared first).
pub(crate) fn encode_into<T: Serialize>(value: &T, buf: &mut Vec<u8>) -> Result<(), String> {
    buf.clear();
    bincode::serde::encode_into_std_write(value, buf, config()).map(|_| ()).map_err(|e| e.to_string())
}

/// Decodes one value that must take exactly all of `bytes`.
pub(crate) fn decode_exact<T: DeserializeOwned>(bytes: &[u8]) -> Result<T, String> {
    let (v, used) = bincode::serde::decode_from_slice::<T, _>(bytes, config()).map_err(|e| e.to_string())?;
    if used != bytes.len() {
        return Err(format!("{} trailing bytes after the value", bytes.len() - used));
    }
    Ok(v)
}

/// The 8-byte frame in front of a payload: its length and its CRC32, both u32 little endian.
pub(crate) fn frame(payload: &[u8]) -> [u8; 8] {
    let mut f = [0u8; 8];
    f[..4].copy_from_slice(&(payload.len() as u32).to_le_bytes());
    f[4..].copy_from_slice(&crc32fast::hash(payload).to_le_bytes());
    f
}
