//! The variants of `proxima bench-geometry`: one table row per name, saying how its queries
//! run — through the library's dispatcher with fixed settings, or through the DQP3 runner
//! that builds facet forms once. `mod.rs` reads the table; the runners never call back.

use proxima_geom::{Acceleration, Algorithm, Arithmetic, GjkSettings, QuerySettings};

/// Which runner answers a variant's queries.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Runner {
    /// `proxima_geom::distance` / `intersects` / `distance_tracked` with the variant's settings
    /// (`run_dispatch.rs`).
    Dispatch,
    /// DQP3 on facet forms built once, [`proxima_geom::dqp3::Dqp3Tracker`] for tracks
    /// (`run_dqp3.rs`).
    Dqp3,
}

/// One configuration the harness can ask for by name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Variant {
    /// The `--variants` name, written in every record.
    pub name: &'static str,
    /// The algorithm forced (or `Auto`).
    pub algorithm: Algorithm,
    /// The arithmetic of LCP-formulated queries.
    pub arithmetic: Arithmetic,
    /// The GJK direction rule.
    pub acceleration: Acceleration,
    /// Who runs it.
    pub runner: Runner,
}

impl Variant {
    /// The query settings of the variant (for the DQP3 runner: of its signed-distance fallback).
    pub fn settings(&self) -> QuerySettings {
        QuerySettings::default()
            .with_algorithm(self.algorithm)
            .with_arithmetic(self.arithmetic)
            .with_gjk(GjkSettings { acceleration: self.acceleration, ..GjkSettings::default() })
    }
}

const fn dispatch(
    name: &'static str,
    algorithm: Algorithm,
    arithmetic: Arithmetic,
    acceleration: Acceleration,
) -> Variant {
    Variant { name, algorithm, arithmetic, acceleration, runner: Runner::Dispatch }
}

/// Every known variant.
pub const VARIANTS: &[Variant] = &[
    dispatch("default", Algorithm::Auto, Arithmetic::Certified, Acceleration::None),
    dispatch("float", Algorithm::Auto, Arithmetic::Float, Acceleration::None),
    dispatch("exact", Algorithm::Auto, Arithmetic::Exact, Acceleration::None),
    dispatch("lcp", Algorithm::Lcp, Arithmetic::Certified, Acceleration::None),
    dispatch("lcp_float", Algorithm::Lcp, Arithmetic::Float, Acceleration::None),
    dispatch("gjk", Algorithm::Gjk, Arithmetic::Certified, Acceleration::None),
    dispatch("nesterov", Algorithm::Gjk, Arithmetic::Certified, Acceleration::Nesterov),
    dispatch("polyak", Algorithm::Gjk, Arithmetic::Certified, Acceleration::Polyak),
    dispatch("ellipsoid", Algorithm::Ellipsoid, Arithmetic::Certified, Acceleration::None),
    Variant {
        name: "dqp3",
        algorithm: Algorithm::Dqp3,
        arithmetic: Arithmetic::Certified,
        acceleration: Acceleration::None,
        runner: Runner::Dqp3,
    },
];

/// The variant called `name`.
pub fn variant(name: &str) -> Option<&'static Variant> {
    VARIANTS.iter().find(|v| v.name == name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn variants_are_known() {
        for v in VARIANTS {
            assert!(variant(v.name).is_some());
            assert!(v.settings().validate().is_ok());
        }
        assert!(variant("nesterov").is_some());
        assert!(variant("bogus").is_none());
        assert_eq!(variant("dqp3").map(|v| v.runner), Some(Runner::Dqp3));
    }
}
