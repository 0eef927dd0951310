//! Typed arrays for the page: little-endian `f32` / `f64` / `u32` / `i32` values, base64 text
//! (the page decodes them into `Float32Array`, `Float64Array`, `Uint32Array`, `Int32Array`).
//! JSON numbers would cost 2–3× the bytes and a parse per number.

use base64::Engine;
use base64::engine::general_purpose::STANDARD;
use serde::Serialize;

/// A typed array as the page receives it: `{"dtype": "f32", "b64": "..."}`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct Encoded {
    /// `f32`, `f64`, `u32` or `i32`.
    pub dtype: &'static str,
    /// Number of values.
    pub len: usize,
    /// The little-endian bytes, base64 (standard alphabet, padded).
    pub b64: String,
}

impl Encoded {
    /// Bytes of the base64 text (what the array adds to the page).
    pub fn text_bytes(&self) -> usize {
        self.b64.len()
    }
}

fn encode<const N: usize>(dtype: &'static str, len: usize, bytes: impl Iterator<Item = [u8; N]>) -> Encoded {
    let raw: Vec<u8> = bytes.flatten().collect();
    Encoded { dtype, len, b64: STANDARD.encode(raw) }
}

/// `values` rounded to `f32`.
pub fn f32s(values: &[f64]) -> Encoded {
    encode("f32", values.len(), values.iter().map(|&v| (v as f32).to_le_bytes()))
}

/// `values` as `f64` (full precision).
pub fn f64s(values: &[f64]) -> Encoded {
    encode("f64", values.len(), values.iter().map(|v| v.to_le_bytes()))
}

/// `values` as `u32`.
pub fn u32s(values: &[u32]) -> Encoded {
    encode("u32", values.len(), values.iter().map(|v| v.to_le_bytes()))
}

/// `values` as `i32`.
pub fn i32s(values: &[i32]) -> Encoded {
    encode("i32", values.len(), values.iter().map(|v| v.to_le_bytes()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn little_endian_base64_of_known_values() {
        // 1.0f32 = 0x3f800000 → bytes 00 00 80 3f → "AACAPw=="
        assert_eq!(f32s(&[1.0]).b64, "AACAPw==");
        // 1u32 → 01 00 00 00 → "AQAAAA=="; -1i32 → ff ff ff ff → "/////w=="
        assert_eq!(u32s(&[1]).b64, "AQAAAA==");
        assert_eq!(i32s(&[-1]).b64, "/////w==");
        // 0.5f64 = 0x3fe0000000000000 → 00.. e0 3f
        assert_eq!(f64s(&[0.5]).b64, "AAAAAAAA4D8=");
        assert_eq!(f64s(&[0.5, 0.5]).len, 2);
    }
}
