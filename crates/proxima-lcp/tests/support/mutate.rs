//! Seeded byte-level mutations of text inputs, for the readers' fuzz stand-in tests (the LCP
//! readers here, the scene files in `proxima-scene`, the geometry workloads in
//! `proxima-cli-support`): bit flips, truncations, inserted tokens (numbers at the edge of f64,
//! NaN spellings, brackets, quotes, invalid UTF-8), deleted and duplicated runs, swapped headers.

use rand::Rng;
use rand::rngs::SmallRng;

const INSERTS: &[&[u8]] = &[
    b"NaN",
    b"nan",
    b"inf",
    b"-Infinity",
    b"1e308",
    b"1e999",
    b"-1e-999",
    b"1e-1000000",
    b"1e1000000",
    b"18446744073709551616",
    b"999999999999",
    b"4294967297",
    b"0",
    b"-",
    b"-0",
    b"1/0",
    b"1/3",
    b"0.1",
    b".",
    b"e",
    b"/",
    b"\"",
    b"[",
    b"]",
    b"{",
    b"}",
    b",",
    b":",
    b"\n",
    b" ",
    b"\t",
    b"\r\n",
    b"%",
    b"%%MatrixMarket",
    b"#",
    b"\0",
    b"\xff",
    b"\xc3\xa9",
    b"\\u0000",
    b"\\ud800",
    b"null",
    b"true",
];

const HEADERS: &[&[u8]] = &[
    b"%%MatrixMarket matrix coordinate real general\n",
    b"%%MatrixMarket matrix coordinate real symmetric\n",
    b"%%MatrixMarket matrix coordinate real skew-symmetric\n",
    b"%%MatrixMarket matrix array real general\n",
    b"%%MatrixMarket matrix coordinate pattern general\n",
    b"3\n1\n3\n3\n",
    b"3\n0\n3\n3\n3 3\n",
    b"64\n1\n64\n64\n",
    b"{\"kind\": \"lcp\", ",
    b"{\"kind\": \"qp\", ",
];

/// One to four random edits of `input`.
pub fn mutate(rng: &mut SmallRng, input: &[u8]) -> Vec<u8> {
    let mut v = input.to_vec();
    for _ in 0..rng.random_range(1..=4) {
        let len = v.len();
        let at = if len == 0 { 0 } else { rng.random_range(0..=len) };
        match rng.random_range(0..9) {
            0 if len > 0 => {
                let i = at.min(len - 1);
                v[i] ^= 1 << rng.random_range(0..8);
            }
            1 => v.truncate(at),
            2 => {
                let ins = INSERTS[rng.random_range(0..INSERTS.len())];
                v.splice(at..at, ins.iter().copied());
            }
            3 => {
                // Replace a run of digits (or anything) with a number from the insert list.
                let end = (at + rng.random_range(0..6)).min(len);
                let ins = INSERTS[rng.random_range(0..INSERTS.len())];
                v.splice(at..end, ins.iter().copied());
            }
            4 => {
                let end = (at + rng.random_range(0..64)).min(len);
                v.drain(at..end);
            }
            5 if len > 0 => {
                // Duplicate a chunk (repeated lines, duplicate keys, extra entries).
                let start = rng.random_range(0..len);
                let end = (start + rng.random_range(1..80)).min(len);
                let chunk: Vec<u8> = v[start..end].to_vec();
                v.splice(at..at, chunk);
            }
            6 => {
                // Header edit: swap the first line(s) for another format's header.
                let cut = v.iter().position(|&b| b == b'\n').map_or(0, |p| p + 1);
                let h = HEADERS[rng.random_range(0..HEADERS.len())];
                v.splice(0..cut, h.iter().copied());
            }
            7 if len > 0 => {
                let i = at.min(len - 1);
                v[i] = b"0123456789-+.eE/ \n"[rng.random_range(0..18)];
            }
            _ => {
                let i = at.min(len);
                v.insert(i, rng.random());
            }
        }
    }
    v
}
