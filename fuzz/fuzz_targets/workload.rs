//! Feeds arbitrary bytes to the geometry workload reader (shapes, poses, queries, tracks). Any
//! panic is a bug: a malformed workload is an error.
//!
//! Seed corpus: `mkdir -p fuzz/corpus/workload && cp testdata/geometry/*.json
//! fuzz/corpus/workload/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = proxima_cli_support::workload::parse(&String::from_utf8_lossy(data), "fuzz");
});
