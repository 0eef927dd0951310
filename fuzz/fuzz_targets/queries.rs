//! The query API on two shapes and poses decoded from the bytes
//! (`proxima_geom::fuzz::fuzz_queries`): no panic, no NaN, every bracket holding and the
//! algorithms' brackets agreeing; any violation panics.
#![no_main]

use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    proxima_geom::fuzz::fuzz_queries(data);
});
