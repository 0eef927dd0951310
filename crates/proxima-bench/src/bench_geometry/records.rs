//! The records of `proxima bench-geometry` (`../shared/bench/geometry/FORMAT.md`): timing
//! records per section, query and track records from the untimed pass, and their output
//! order (timing first, then results), shared by every variant's runner.

use anyhow::Result;
use proxima_cli_support::outcome::{Outcome, ResultFields, signed_of};
use proxima_cli_support::workload::Workload;
use proxima_geom::{DistanceResult, Pose, QuerySettings, Shape, signed_distance};
use serde::Serialize;

use crate::timing::{StepClock, median};

/// A timing record (FORMAT.md); per-query figures are `null` when the section had no
/// supported item. Extras: `skipped` (items left out of timing), `num_intersecting` (collide).
#[derive(Debug, Clone, Serialize)]
pub struct TimingRecord {
    kind: &'static str,
    section: &'static str,
    variant: String,
    n: usize,
    repeat: usize,
    total_ns: Vec<u64>,
    ns_per_query_min: Option<f64>,
    ns_per_query_median: Option<f64>,
    skipped: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub num_intersecting: Option<usize>,
    /// Mean over every timed step (all passes) of its own wall time minus the timer overhead
    /// (tracks only: the per-step criterion of issue 8).
    #[serde(skip_serializing_if = "Option::is_none")]
    step_ns_mean: Option<f64>,
    /// Median of the same per-step times.
    #[serde(skip_serializing_if = "Option::is_none")]
    step_ns_median: Option<f64>,
    /// Median cost of one empty timer reading pair, subtracted from every step time.
    #[serde(skip_serializing_if = "Option::is_none")]
    timer_overhead_ns: Option<f64>,
}

impl TimingRecord {
    /// Adds the per-step statistics of a [`StepClock`].
    pub fn with_steps(mut self, clock: &StepClock) -> Self {
        let net = clock.net_ns();
        if !net.is_empty() {
            self.step_ns_mean = Some(net.iter().sum::<f64>() / net.len() as f64);
        }
        self.step_ns_median = median(net);
        self.timer_overhead_ns = Some(clock.overhead_ns());
        self
    }
}

/// A timing record of `section` from the wall times of its passes.
pub fn timing_record(
    section: &'static str,
    variant: &str,
    n: usize,
    skipped: usize,
    repeat: usize,
    total_ns: &[u64],
) -> TimingRecord {
    let per: Vec<f64> =
        if n == 0 { Vec::new() } else { total_ns.iter().map(|&t| t as f64 / n as f64).collect() };
    TimingRecord {
        kind: "timing",
        section,
        variant: variant.to_string(),
        n,
        repeat,
        total_ns: total_ns.to_vec(),
        ns_per_query_min: per.iter().copied().reduce(f64::min),
        ns_per_query_median: median(per),
        skipped,
        num_intersecting: None,
        step_ns_mean: None,
        step_ns_median: None,
        timer_overhead_ns: None,
    }
}

/// Prints one timing record's summary line on stderr.
pub fn summary(w: &Workload, t: &TimingRecord) {
    let f = |x: Option<f64>| x.map_or("-".to_string(), |x| format!("{x:.1}"));
    let steps = match (t.step_ns_median, t.step_ns_mean) {
        (Some(med), Some(mean)) => format!(
            "; per step median {med:.1} mean {mean:.1} (timer overhead {} subtracted)",
            f(t.timer_overhead_ns)
        ),
        _ => String::new(),
    };
    eprintln!(
        "proxima {} {}:{}: n={} skipped={} ns/query min {} median {}{steps}",
        w.name,
        t.section,
        t.variant,
        t.n,
        t.skipped,
        f(t.ns_per_query_min),
        f(t.ns_per_query_median),
    );
}

/// A query or track record (FORMAT.md) from an untimed result; extras after the required
/// fields: the certificate, algorithm and path, or `skipped` with the reason.
#[derive(Debug, Serialize)]
pub struct ResultRecord<'a> {
    kind: &'static str,
    variant: &'a str,
    i: usize,
    #[serde(skip_serializing_if = "Option::is_none")]
    k: Option<usize>,
    distance: Option<f64>,
    /// Distance, or minus the penetration depth; `null` when unknown.
    signed_distance: Option<f64>,
    p_a: Option<[f64; 3]>,
    p_b: Option<[f64; 3]>,
    #[serde(skip_serializing_if = "Option::is_none")]
    lower: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    upper: Option<f64>,
    #[serde(skip_serializing_if = "Option::is_none")]
    algorithm: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    path: Option<String>,
    #[serde(skip_serializing_if = "std::ops::Not::not")]
    skipped: bool,
    #[serde(skip_serializing_if = "Option::is_none")]
    status: Option<&'static str>,
    #[serde(skip_serializing_if = "Option::is_none")]
    error: Option<String>,
}

/// The record of one answered (or skipped) query or track step.
pub fn result_record<'a>(
    kind: &'static str,
    variant: &'a str,
    i: usize,
    k: Option<usize>,
    out: &Outcome<DistanceResult>,
    signed: Option<f64>,
) -> ResultRecord<'a> {
    let (f, path) = ResultFields::of_distance(out);
    let ok = matches!(out, Outcome::Ok(_));
    ResultRecord {
        kind,
        variant,
        i,
        k,
        distance: f.distance,
        signed_distance: f.signed_distance.or(signed),
        p_a: f.p_a,
        p_b: f.p_b,
        lower: f.lower,
        upper: f.upper,
        algorithm: f.algorithm,
        path,
        skipped: !ok,
        status: (!ok).then(|| out.status()),
        error: out.error().map(str::to_string),
    }
}

/// The signed distance of an answered pair whose answer lacks the depth (untimed).
pub fn signed_fallback(
    out: &Outcome<DistanceResult>,
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
) -> Option<f64> {
    match out {
        Outcome::Ok(r) if signed_of(r).is_none() => {
            signed_distance(a, pa, b, pb, settings).ok().map(|s| s.value)
        }
        _ => None,
    }
}

/// Prints the timing summaries and serializes the records: timing first, then results.
pub fn output_lines(
    w: &Workload,
    timing: &[TimingRecord],
    records: &[ResultRecord<'_>],
) -> Result<Vec<String>> {
    let mut lines = Vec::with_capacity(timing.len() + records.len());
    for rec in timing {
        summary(w, rec);
        lines.push(serde_json::to_string(rec)?);
    }
    for rec in records {
        lines.push(serde_json::to_string(rec)?);
    }
    Ok(lines)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn timing_records() {
        let rec = timing_record("queries", "default", 4, 1, 2, &[400, 800]);
        assert_eq!(rec.ns_per_query_min, Some(100.0));
        assert_eq!(rec.ns_per_query_median, Some(150.0));
        let line = serde_json::to_string(&rec).unwrap();
        assert!(
            line.starts_with(r#"{"kind":"timing","section":"queries","variant":"default","n":4"#),
            "{line}"
        );
        assert_eq!(timing_record("queries", "default", 0, 3, 2, &[0, 0]).ns_per_query_min, None);
    }
}
