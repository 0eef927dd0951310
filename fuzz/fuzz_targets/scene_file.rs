//! Feeds arbitrary bytes to the scene-file reader. Any panic is a bug: a malformed scene is an
//! error naming the field or the line.
//!
//! Seed corpus: `mkdir -p fuzz/corpus/scene_file && cp crates/proxima-scene/tests/data/*.json
//! fuzz/corpus/scene_file/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let _ = proxima_scene::parse_scene(&String::from_utf8_lossy(data));
});
