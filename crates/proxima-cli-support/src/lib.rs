//! What the `proxima` binary's two halves share: the user commands (`proxima-cli`: `solve`,
//! `query`, `demo`, ...) and the benchmark lab (`proxima-bench`: `bench-*`, `reproduce`).
//!
//! | module | what |
//! |---|---|
//! | [`exit`] | how a command ends: exit code 2 for bad input, 3 for an internal error (a caught panic), messages on one line |
//! | [`files`] | reading input and creating output files with errors that name the file |
//! | [`ccd_workload`] | CCD workload files (`../shared/bench/ccd/FORMAT.md`: four poses per query, a margin) and one query's time of impact |
//! | [`workload`] | geometry workload files (`../shared/bench/geometry/FORMAT.md`), shapes through [`proxima_geom::shape::ShapeSpec`] |
//! | [`outcome`] | one query's outcome (answer / unsupported / error) and the result fields `query` and `bench-geometry` both write |
//! | [`plot`] | SVG line charts (plotters, SVG backend only) for the demo and the experiment reports |
//!
//! It sits between the libraries and the binary (scene → cli-support → bench → cli), so the
//! lab never depends on the user commands nor the user commands on the lab for these. It
//! serves only the binary, hence `anyhow` errors.
#![deny(missing_docs)]

pub mod ccd_workload;
pub mod exit;
pub mod files;
pub mod outcome;
pub mod plot;
pub mod workload;
