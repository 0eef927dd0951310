//! Feeds arbitrary bytes to every problem-file reader (JSON, MatrixMarket pair, Siconos,
//! manifest, in f64 and exact mode). Any panic is a bug: readers must return errors.
//!
//! Seed corpus: `mkdir -p fuzz/corpus/readers && cp testdata/siconos-lcp/*.dat
//! testdata/lcp/*.json testdata/qp/*.json fuzz/corpus/readers/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    proxima_lcp::io::fuzz_readers(data);
});
