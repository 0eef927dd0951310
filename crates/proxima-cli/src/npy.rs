//! NumPy files: `.npy` arrays read (float64 / float32, C order) and written (float64, int64,
//! bool, fixed-width unicode), `.npz` archives written (an uncompressed zip of `.npy` members,
//! as `numpy.savez` makes them; fixed timestamps, so equal arrays give equal bytes).
//!
//! Format: magic `\x93NUMPY`, version 1.0, a little-endian u16 header length, a Python dict
//! literal `{'descr': ..., 'fortran_order': False, 'shape': (...), }` padded with spaces and a
//! newline so the data starts at a multiple of 64 bytes, then the data in C order.

use anyhow::{Context, Result, bail};

/// A rectangular table of f64 read from a file: `rows` × `width`, row-major.
#[derive(Debug, Clone, PartialEq)]
pub struct Table {
    /// Values per row.
    pub width: usize,
    /// The values, row-major.
    pub values: Vec<f64>,
}

impl Table {
    /// Number of rows.
    pub fn rows(&self) -> usize {
        self.values.len().checked_div(self.width).unwrap_or(0)
    }

    /// The rows.
    pub fn iter(&self) -> impl Iterator<Item = &[f64]> {
        self.values.chunks(self.width.max(1))
    }
}

/// A NumPy `.npy` array of float64 or float32, shape (n,) (one row) or (rows, n), C order.
pub fn read_npy(bytes: &[u8]) -> Result<Table> {
    if bytes.len() < 10 || &bytes[..6] != b"\x93NUMPY" {
        bail!("not a NumPy .npy file");
    }
    let (header_len, start) = match bytes[6] {
        1 => (usize::from(u16::from_le_bytes([bytes[8], bytes[9]])), 10),
        2 | 3 if bytes.len() >= 12 => {
            (u32::from_le_bytes([bytes[8], bytes[9], bytes[10], bytes[11]]) as usize, 12)
        }
        v => bail!("unsupported .npy version {v}"),
    };
    let header = bytes.get(start..start + header_len).context("truncated .npy header")?;
    let header = std::str::from_utf8(header).context(".npy header is not text")?;
    let field = |key: &str| -> Result<&str> {
        let at = header.find(&format!("'{key}'")).with_context(|| format!(".npy header has no {key:?}"))?;
        Ok(header[at + key.len() + 2..].trim_start().trim_start_matches(':').trim_start())
    };
    let descr = field("descr")?;
    let width = if descr.starts_with("'<f8'") || descr.starts_with("'float64'") {
        8
    } else if descr.starts_with("'<f4'") {
        4
    } else {
        bail!(
            "unsupported .npy dtype {} (little-endian float64 or float32)",
            descr.split(',').next().unwrap_or("")
        );
    };
    if field("fortran_order")?.starts_with("True") {
        bail!("Fortran-ordered .npy arrays are not supported (save with C order)");
    }
    let shape = field("shape")?;
    let inside =
        shape.strip_prefix('(').and_then(|s| s.split(')').next()).context(".npy shape is not a tuple")?;
    let dims: Vec<usize> = inside
        .split(',')
        .map(str::trim)
        .filter(|s| !s.is_empty())
        .map(|s| s.parse::<usize>().with_context(|| format!(".npy shape entry {s:?}")))
        .collect::<Result<_>>()?;
    let (rows, cols) = match dims[..] {
        [n] => (1, n),
        [r, c] => (r, c),
        _ => bail!(".npy array of shape {dims:?}: expected (dof,) or (n, dof)"),
    };
    let data = &bytes[start + header_len..];
    let count = rows.checked_mul(cols).context(".npy shape too large")?;
    if Some(data.len()) != count.checked_mul(width) {
        bail!(".npy data has {} bytes, the shape needs {}", data.len(), count * width);
    }
    let values = data
        .chunks_exact(width)
        .map(|b| match width {
            8 => f64::from_le_bytes(b.try_into().expect("8 bytes")),
            _ => f64::from(f32::from_le_bytes(b.try_into().expect("4 bytes"))),
        })
        .collect();
    Ok(Table { width: cols, values })
}

/// An array to write: its dtype descriptor, shape and little-endian C-order data.
#[derive(Debug, Clone, PartialEq)]
pub struct Array {
    descr: String,
    shape: Vec<usize>,
    data: Vec<u8>,
}

impl Array {
    /// float64 values of `shape`.
    pub fn f64(shape: &[usize], values: impl IntoIterator<Item = f64>) -> Self {
        let data: Vec<u8> = values.into_iter().flat_map(f64::to_le_bytes).collect();
        Self::checked("<f8", shape, data, 8)
    }

    /// int64 values of `shape`.
    pub fn i64(shape: &[usize], values: impl IntoIterator<Item = i64>) -> Self {
        let data: Vec<u8> = values.into_iter().flat_map(i64::to_le_bytes).collect();
        Self::checked("<i8", shape, data, 8)
    }

    /// bool values of `shape`.
    pub fn bool(shape: &[usize], values: impl IntoIterator<Item = bool>) -> Self {
        let data: Vec<u8> = values.into_iter().map(u8::from).collect();
        Self::checked("|b1", shape, data, 1)
    }

    /// Strings as fixed-width unicode (UTF-32, the width of the longest), of `shape`.
    pub fn strings(shape: &[usize], values: &[&str]) -> Self {
        let width = values.iter().map(|s| s.chars().count()).max().unwrap_or(0).max(1);
        let mut data = Vec::with_capacity(values.len() * width * 4);
        for s in values {
            let n = s.chars().count();
            data.extend(s.chars().flat_map(|c| u32::from(c).to_le_bytes()));
            data.extend(std::iter::repeat_n(0u8, (width - n) * 4));
        }
        Self::checked(&format!("<U{width}"), shape, data, width * 4)
    }

    fn checked(descr: &str, shape: &[usize], data: Vec<u8>, item: usize) -> Self {
        assert_eq!(shape.iter().product::<usize>() * item, data.len(), "array data does not fill its shape");
        Self { descr: descr.to_string(), shape: shape.to_vec(), data }
    }

    /// The `.npy` file's bytes.
    pub fn to_npy(&self) -> Vec<u8> {
        let dims: Vec<String> = self.shape.iter().map(usize::to_string).collect();
        let shape = match dims.len() {
            1 => format!("({},)", dims[0]),
            _ => format!("({})", dims.join(", ")),
        };
        let mut header = format!("{{'descr': '{}', 'fortran_order': False, 'shape': {shape}, }}", self.descr);
        // magic (6) + version (2) + length (2) + header + '\n' is a multiple of 64
        while !(10 + header.len() + 1).is_multiple_of(64) {
            header.push(' ');
        }
        header.push('\n');
        let mut out = Vec::with_capacity(10 + header.len() + self.data.len());
        out.extend_from_slice(b"\x93NUMPY\x01\x00");
        out.extend_from_slice(&(header.len() as u16).to_le_bytes());
        out.extend_from_slice(header.as_bytes());
        out.extend_from_slice(&self.data);
        out
    }
}

/// The bytes of an `.npz` archive holding `arrays` as `NAME.npy` members, uncompressed, in
/// the given order. Errors past the classic zip limits (4 GiB, 65535 members).
pub fn to_npz(arrays: &[(&str, Array)]) -> Result<Vec<u8>> {
    // DOS date 1980-01-01, time 00:00: the same bytes for the same arrays
    const DATE: u16 = (1 << 5) | 1;
    let mut out = Vec::new();
    let mut central = Vec::new();
    if arrays.len() > usize::from(u16::MAX) {
        bail!("too many arrays for one .npz");
    }
    for (name, array) in arrays {
        let member = format!("{name}.npy");
        let data = array.to_npy();
        let crc = crc32fast::hash(&data);
        let size = u32::try_from(data.len()).context("an .npz member over 4 GiB: write .npy or .csv")?;
        let offset = u32::try_from(out.len()).context("an .npz archive over 4 GiB: write .npy or .csv")?;
        let name_len = u16::try_from(member.len()).context("array name too long")?;
        // local file header
        out.extend_from_slice(&0x0403_4b50u32.to_le_bytes());
        for v in [20u16, 0, 0, 0, DATE] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            out.extend_from_slice(&v.to_le_bytes());
        }
        out.extend_from_slice(&name_len.to_le_bytes());
        out.extend_from_slice(&0u16.to_le_bytes());
        out.extend_from_slice(member.as_bytes());
        out.extend_from_slice(&data);
        // central directory entry
        central.extend_from_slice(&0x0201_4b50u32.to_le_bytes());
        for v in [20u16, 20, 0, 0, 0, DATE] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [crc, size, size] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        for v in [name_len, 0, 0, 0, 0] {
            central.extend_from_slice(&v.to_le_bytes());
        }
        central.extend_from_slice(&0u32.to_le_bytes());
        central.extend_from_slice(&offset.to_le_bytes());
        central.extend_from_slice(member.as_bytes());
    }
    let central_offset =
        u32::try_from(out.len()).context("an .npz archive over 4 GiB: write .npy or .csv")?;
    let central_size = central.len() as u32;
    out.extend_from_slice(&central);
    out.extend_from_slice(&0x0605_4b50u32.to_le_bytes());
    let count = arrays.len() as u16;
    for v in [0u16, 0, count, count] {
        out.extend_from_slice(&v.to_le_bytes());
    }
    out.extend_from_slice(&central_size.to_le_bytes());
    out.extend_from_slice(&central_offset.to_le_bytes());
    out.extend_from_slice(&0u16.to_le_bytes());
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn npy_round_trip_and_alignment() {
        let a = Array::f64(&[2, 3], [1.0, -2.5, f64::INFINITY, 0.0, 1e-300, f64::NAN]);
        let bytes = a.to_npy();
        assert_eq!((bytes.len() - 48) % 64, 0, "header padded to 64");
        let t = read_npy(&bytes).unwrap();
        assert_eq!(t.width, 3);
        assert_eq!(t.rows(), 2);
        assert_eq!(t.values[..5], [1.0, -2.5, f64::INFINITY, 0.0, 1e-300]);
        assert!(t.values[5].is_nan());
        let one = Array::f64(&[4], [1.0, 2.0, 3.0, 4.0]).to_npy();
        assert!(String::from_utf8_lossy(&one).contains("'shape': (4,), }"));
        assert_eq!(read_npy(&one).unwrap().rows(), 1);
    }

    #[test]
    fn unicode_strings_are_padded_utf32() {
        let a = Array::strings(&[2], &["ab", "c"]);
        assert_eq!(a.descr, "<U2");
        assert_eq!(a.data, [97, 0, 0, 0, 98, 0, 0, 0, 99, 0, 0, 0, 0, 0, 0, 0]);
    }

    /// The archive's structure: a local header per member at the offsets the central
    /// directory names, CRCs of the member bytes, the end record counting both.
    #[test]
    fn npz_members_and_directory() {
        let arrays = [("x", Array::i64(&[3], [1, -1, 7])), ("flag", Array::bool(&[2], [true, false]))];
        let zip = to_npz(&arrays).unwrap();
        let u32_at = |k: usize| u32::from_le_bytes(zip[k..k + 4].try_into().unwrap());
        let u16_at = |k: usize| u16::from_le_bytes(zip[k..k + 2].try_into().unwrap());
        let end = zip.len() - 22;
        assert_eq!(u32_at(end), 0x0605_4b50);
        assert_eq!((u16_at(end + 8), u16_at(end + 10)), (2, 2));
        let mut entry = u32_at(end + 16) as usize;
        for (name, array) in &arrays {
            assert_eq!(u32_at(entry), 0x0201_4b50);
            let local = u32_at(entry + 42) as usize;
            let name_len = usize::from(u16_at(entry + 28));
            assert_eq!(&zip[entry + 46..entry + 46 + name_len], format!("{name}.npy").as_bytes());
            assert_eq!(u32_at(local), 0x0403_4b50);
            let data = &zip[local + 30 + name_len..local + 30 + name_len + u32_at(local + 18) as usize];
            assert_eq!(data, array.to_npy());
            assert_eq!(u32_at(local + 14), crc32fast::hash(data));
            entry += 46 + name_len;
        }
        assert_eq!(to_npz(&arrays).unwrap(), zip, "the same bytes twice");
    }
}
