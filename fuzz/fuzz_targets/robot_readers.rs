//! Feeds arbitrary bytes to every robot-description reader (URDF and the model build, SRDF,
//! OBJ, STL, COLLADA and the hulls of their parts). Any panic is a bug: readers must return
//! errors.
//!
//! Seed corpus: `mkdir -p fuzz/corpus/robot_readers && cp testdata/robots/panda/panda.urdf
//! testdata/robots/panda/meshes/collision/*.obj fuzz/corpus/robot_readers/`.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    proxima_robot::fuzz_readers(data);
});
