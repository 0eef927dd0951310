//! Time of impact (`query::toi`): analytic cases, the tunnelling case for every pair of shape
//! kinds, random motions against dense sampling, bad input, and a vendored slice of the CCD
//! benchmark with its oracle's times.

#[path = "toi/analytic.rs"]
mod analytic;
#[path = "toi/bad_input.rs"]
mod bad_input;
#[path = "toi/common.rs"]
mod common;
#[path = "toi/properties.rs"]
mod properties;
#[path = "toi/tunnelling.rs"]
mod tunnelling;
#[path = "toi/workload.rs"]
mod workload;
