//! The `proxima` binary's lab: benchmark harness runners and experiment reproductions, kept
//! apart from the user commands (`proxima-cli`) so they can grow and churn without touching
//! them. The binary dispatches to these commands under their harness names — the contracts in
//! `../shared/bench/*/README.md` call `proxima bench-geometry`, `proxima bench-lcp`, and
//! `proxima reproduce ...`.
//!
//! | module | command |
//! |---|---|
//! | [`bench_ccd`] | `proxima bench-ccd`: the CCD harness's runner contract (certified time of impact per query) |
//! | [`bench_geometry`] | `proxima bench-geometry`: the geometry harness's runner contract (variants in a table) |
//! | [`bench_lcp`] | `proxima bench-lcp`: the LCP harness's runner contract, any solver of [`proxima_lcp::registry`] |
//! | [`bench_robot`] | `proxima bench-robot`: the robot harness's runner contract (URDF workloads, every pair's certified distance and collision verdict, compared with Pinocchio + coal) |
//! | [`reproduce`] | `proxima reproduce lcp-methods / ellipsoids / dqp3`: a spec's experiments as figures and a report |
//! | [`variants`] | `--variants`: the configurations asked for, checked against the known ones |
//! | [`timing`] | timed passes, per-step clocks, medians, dates: what every runner measures with |
//!
//! Each command module exposes `<Cmd>Args` (clap derive) and `run(&args) -> anyhow::Result<()>`;
//! adding a runner is a module here plus one `Command` variant in
//! `proxima-cli`'s `main.rs`. This crate only serves the binary, so it reports errors with
//! `anyhow` (the library crates keep one typed error each). Inputs shared with the user
//! commands (workload files, result fields, exit codes, plots) come from
//! `proxima-cli-support`; this crate never depends on `proxima-cli`.
#![deny(missing_docs)]

pub mod bench_ccd;
pub mod bench_geometry;
pub mod bench_lcp;
pub mod bench_robot;
pub mod reproduce;
pub mod timing;
pub mod variants;
