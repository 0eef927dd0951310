//! `proxima bench-geometry`: the geometry benchmark harness's runner contract
//! (`../shared/bench/geometry/README.md`, "Contract for a third runner"; records per FORMAT.md).
//!
//! Per variant: one untimed pass computes the values written (and finds the pairs the library
//! cannot handle: `"distance":null,"skipped":true`, left out of timing); then each section
//! (`queries`: cold distance; `collide`: `intersects`; `track_cold`: every track step, no warm
//! start; `track_warm`: every track step through `distance_tracked` with one GJK cache per track,
//! reset at the track's start) runs one untimed warm-up pass and `--repeat` timed passes over
//! its supported items, single thread, wall clock, library call only (shapes, poses and caches
//! built before timing; no allocation per query). The track sections then run a second set
//! of passes (warm-up + `--repeat`) timing every step on its own: `step_ns_mean` and
//! `step_ns_median` over all those step times, net of `timer_overhead_ns` (the median cost of
//! an empty timer pair, subtracted), so a per-step criterion ("warm median per step ≤ ½ cold")
//! is read directly.
//!
//! Records: `signed_distance` is the distance, or minus the penetration depth when the shapes
//! overlap (from the distance answer when it carries the depth, else from `signed_distance`
//! in the untimed pass). Track records come from the warm-started pass.

use std::fs::File;
use std::hint::black_box;
use std::io::{BufWriter, Write};
use std::path::PathBuf;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

use anyhow::{Context, Result, bail};
use clap::Args;
use proxima_geom::{
    Acceleration, Algorithm, Arithmetic, DistanceResult, GjkCache, GjkSettings, Intersection, Pose,
    QuerySettings, Shape, distance, distance_tracked, intersects, signed_distance,
};
use serde::Serialize;

use crate::common::{self, Internal};
use crate::query::{self, Outcome, ResultFields};
use crate::workload::{self, Workload};

/// Arguments of `proxima bench-geometry` (names as the harness's other runners).
#[derive(Debug, Args)]
pub struct BenchGeometryArgs {
    /// Workload file (JSON, shared/bench/geometry/FORMAT.md).
    #[arg(long)]
    pub workload: PathBuf,
    /// Timed passes per section (after one untimed warm-up pass).
    #[arg(long, default_value_t = 10)]
    pub repeat: usize,
    /// Results file (JSON Lines).
    #[arg(long)]
    pub out: PathBuf,
    /// Comma-separated configurations: default (auto, certified), float (auto, f64 only),
    /// exact (auto, exact arithmetic), lcp (LCP, certified), lcp_float (LCP, f64 only),
    /// gjk (GJK forced), nesterov / polyak (GJK forced with that acceleration).
    #[arg(long, default_value = "default", value_delimiter = ',')]
    pub variants: Vec<String>,
}

/// The known variants and their settings.
pub const VARIANTS: &[&str] =
    &["default", "float", "exact", "lcp", "lcp_float", "gjk", "nesterov", "polyak", "ellipsoid", "dqp3"];

fn variant_settings(name: &str) -> Option<QuerySettings> {
    let (algorithm, arithmetic, acceleration) = match name {
        "default" => (Algorithm::Auto, Arithmetic::Certified, Acceleration::None),
        "float" => (Algorithm::Auto, Arithmetic::Float, Acceleration::None),
        "exact" => (Algorithm::Auto, Arithmetic::Exact, Acceleration::None),
        "lcp" => (Algorithm::Lcp, Arithmetic::Certified, Acceleration::None),
        "lcp_float" => (Algorithm::Lcp, Arithmetic::Float, Acceleration::None),
        "gjk" => (Algorithm::Gjk, Arithmetic::Certified, Acceleration::None),
        "nesterov" => (Algorithm::Gjk, Arithmetic::Certified, Acceleration::Nesterov),
        "polyak" => (Algorithm::Gjk, Arithmetic::Certified, Acceleration::Polyak),
        "ellipsoid" => (Algorithm::Ellipsoid, Arithmetic::Certified, Acceleration::None),
        "dqp3" => (Algorithm::Dqp3, Arithmetic::Certified, Acceleration::None),
        _ => return None,
    };
    let gjk = GjkSettings { acceleration, ..GjkSettings::default() };
    Some(QuerySettings::default().with_algorithm(algorithm).with_arithmetic(arithmetic).with_gjk(gjk))
}

/// Today's UTC date as `YYYY-MM-DD` (civil-from-days on the Unix day number).
pub fn utc_date() -> String {
    let secs = SystemTime::now().duration_since(UNIX_EPOCH).map_or(0, |d| d.as_secs());
    civil_date(i64::try_from(secs / 86_400).unwrap_or(0))
}

/// `YYYY-MM-DD` of a day number counted from 1970-01-01 (proleptic Gregorian calendar).
pub fn civil_date(days: i64) -> String {
    let z = days + 719_468;
    let era = z.div_euclid(146_097);
    let doe = z.rem_euclid(146_097);
    let yoe = (doe - doe / 1460 + doe / 36_524 - doe / 146_096) / 365;
    let doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    let mp = (5 * doy + 2) / 153;
    let d = doy - (153 * mp + 2) / 5 + 1;
    let m = if mp < 10 { mp + 3 } else { mp - 9 };
    let y = yoe + era * 400 + i64::from(m <= 2);
    format!("{y:04}-{m:02}-{d:02}")
}

/// One untimed warm-up pass, then `repeat` timed passes; wall time of each pass in ns.
pub(crate) fn time_passes(repeat: usize, mut pass: impl FnMut()) -> Vec<u64> {
    pass();
    (0..repeat)
        .map(|_| {
            let start = Instant::now();
            pass();
            u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX)
        })
        .collect()
}

/// Median of a list (mean of the two middle values for an even count).
fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let k = v.len() / 2;
    Some(if v.len() % 2 == 1 { v[k] } else { 0.5 * (v[k - 1] + v[k]) })
}

/// A timing record (FORMAT.md); per-query figures are `null` when the section had no
/// supported item. Extras: `skipped` (items left out of timing), `num_intersecting` (collide).
#[derive(Debug, Clone, Serialize)]
pub(crate) struct TimingRecord {
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
    num_intersecting: Option<usize>,
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
    fn with_steps(mut self, clock: &StepClock) -> Self {
        let net: Vec<f64> = clock.samples.iter().map(|&t| (t as f64 - clock.overhead_ns).max(0.0)).collect();
        if !net.is_empty() {
            self.step_ns_mean = Some(net.iter().sum::<f64>() / net.len() as f64);
        }
        self.step_ns_median = median(net);
        self.timer_overhead_ns = Some(clock.overhead_ns);
        self
    }
}

/// Per-step timing: every step of a pass timed on its own (`Instant` pair), after one
/// untimed warm-up pass. The overhead of an empty timer pair (median of many) is measured once
/// and subtracted by [`TimingRecord::with_steps`]. Samples are preallocated: recording a step
/// allocates nothing.
pub(crate) struct StepClock {
    samples: Vec<u64>,
    recording: bool,
    overhead_ns: f64,
}

impl StepClock {
    /// Times one step (recorded only in the timed passes).
    #[inline]
    pub(crate) fn step<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let r = f();
        let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        if self.recording {
            self.samples.push(ns);
        }
        r
    }
}

/// Median ns of an empty `Instant::now()` / `elapsed()` pair.
fn timer_overhead_ns() -> f64 {
    let v: Vec<f64> = (0..20_001)
        .map(|_| {
            let start = Instant::now();
            black_box(());
            start.elapsed().as_nanos() as f64
        })
        .collect();
    median(v).unwrap_or(0.0)
}

/// One untimed warm-up pass, then `repeat` passes of `n_steps` steps each timed by the clock.
pub(crate) fn time_steps(repeat: usize, n_steps: usize, mut pass: impl FnMut(&mut StepClock)) -> StepClock {
    let mut clock = StepClock {
        samples: Vec::with_capacity(repeat * n_steps),
        recording: false,
        overhead_ns: timer_overhead_ns(),
    };
    pass(&mut clock);
    clock.recording = true;
    for _ in 0..repeat {
        pass(&mut clock);
    }
    clock
}

pub(crate) fn timing_record(
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

pub(crate) fn summary(w: &Workload, t: &TimingRecord) {
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
pub(crate) struct ResultRecord<'a> {
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

pub(crate) fn result_record<'a>(
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
pub(crate) fn signed_fallback(
    out: &Outcome<DistanceResult>,
    (a, pa, b, pb): (&Shape, &Pose, &Shape, &Pose),
    settings: &QuerySettings,
) -> Option<f64> {
    match out {
        Outcome::Ok(r) if query::signed_of(r).is_none() => {
            signed_distance(a, pa, b, pb, settings).ok().map(|s| s.value)
        }
        _ => None,
    }
}

/// All records of one variant, in the order written.
fn run_variant(w: &Workload, variant: &str, settings: &QuerySettings, repeat: usize) -> Result<Vec<String>> {
    let shapes = &w.shapes;
    let mut timing = Vec::new();
    let mut records = Vec::new();

    // queries: untimed values, then timing over the supported ones.
    let outcomes: Vec<Outcome<DistanceResult>> = w
        .queries
        .iter()
        .map(|q| query::run_distance(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, settings))
        .collect();
    let ok: Vec<usize> = (0..outcomes.len()).filter(|&i| matches!(outcomes[i], Outcome::Ok(_))).collect();
    let total = common::catch(|| {
        time_passes(repeat, || {
            for &i in &ok {
                let q = &w.queries[i];
                black_box(
                    distance(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, black_box(settings)).ok(),
                );
            }
        })
    })
    .map_err(|p| Internal(format!("timed distance pass: {p}")))?;
    timing.push(timing_record("queries", variant, ok.len(), outcomes.len() - ok.len(), repeat, &total));
    for (i, o) in outcomes.iter().enumerate() {
        let q = &w.queries[i];
        let signed = signed_fallback(o, (&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b), settings);
        records.push(result_record("query", variant, i, None, o, signed));
    }

    // collide: `intersects` (touching counts), timed over the pairs it supports.
    if !w.queries.is_empty() {
        let hits: Vec<Outcome<Intersection>> = w
            .queries
            .iter()
            .map(|q| query::run_intersects(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, settings))
            .collect();
        let ok: Vec<usize> = (0..hits.len()).filter(|&i| matches!(hits[i], Outcome::Ok(_))).collect();
        let intersecting =
            hits.iter().filter(|h| matches!(h, Outcome::Ok(Intersection::Intersecting { .. }))).count();
        let total = common::catch(|| {
            time_passes(repeat, || {
                for &i in &ok {
                    let q = &w.queries[i];
                    black_box(
                        intersects(&shapes[q.a], &q.pose_a, &shapes[q.b], &q.pose_b, black_box(settings))
                            .ok(),
                    );
                }
            })
        })
        .map_err(|p| Internal(format!("timed intersects pass: {p}")))?;
        let mut rec = timing_record("collide", variant, ok.len(), hits.len() - ok.len(), repeat, &total);
        rec.num_intersecting = Some(intersecting);
        timing.push(rec);
    }

    // track_cold: every step independent; track_warm: one GJK cache per track.
    if !w.tracks.is_empty() {
        let mut steps = Vec::new();
        let mut skipped = 0;
        for t in &w.tracks {
            for (pa, pb) in &t.poses {
                if matches!(query::run_distance(&shapes[t.a], pa, &shapes[t.b], pb, settings), Outcome::Ok(_))
                {
                    steps.push((t.a, pa, t.b, pb));
                } else {
                    skipped += 1;
                }
            }
        }
        let total = common::catch(|| {
            time_passes(repeat, || {
                for &(a, pa, b, pb) in &steps {
                    black_box(distance(&shapes[a], pa, &shapes[b], pb, black_box(settings)).ok());
                }
            })
        })
        .map_err(|p| Internal(format!("timed track pass: {p}")))?;
        let clock = common::catch(|| {
            time_steps(repeat, steps.len(), |clock| {
                for &(a, pa, b, pb) in &steps {
                    black_box(
                        clock.step(|| distance(&shapes[a], pa, &shapes[b], pb, black_box(settings)).ok()),
                    );
                }
            })
        })
        .map_err(|p| Internal(format!("per-step track pass: {p}")))?;
        timing.push(
            timing_record("track_cold", variant, steps.len(), skipped, repeat, &total).with_steps(&clock),
        );

        // Warm: values from an untimed warm-started pass, then the timed passes.
        let mut caches = vec![GjkCache::new(); w.tracks.len()];
        let mut warm_skipped = 0;
        let mut warm_n = 0;
        for (i, t) in w.tracks.iter().enumerate() {
            caches[i].reset();
            for (k, (pa, pb)) in t.poses.iter().enumerate() {
                let o = query::classify(|| {
                    distance_tracked(&shapes[t.a], pa, &shapes[t.b], pb, settings, &mut caches[i])
                });
                if matches!(o, Outcome::Ok(_)) {
                    warm_n += 1;
                } else {
                    warm_skipped += 1;
                }
                let signed = signed_fallback(&o, (&shapes[t.a], pa, &shapes[t.b], pb), settings);
                records.push(result_record("track", variant, i, Some(k), &o, signed));
            }
        }
        let total = common::catch(|| {
            time_passes(repeat, || {
                for (t, cache) in w.tracks.iter().zip(caches.iter_mut()) {
                    cache.reset();
                    for (pa, pb) in &t.poses {
                        black_box(
                            distance_tracked(&shapes[t.a], pa, &shapes[t.b], pb, black_box(settings), cache)
                                .ok(),
                        );
                    }
                }
            })
        })
        .map_err(|p| Internal(format!("timed warm track pass: {p}")))?;
        let n_steps = w.tracks.iter().map(|t| t.poses.len()).sum();
        let clock = common::catch(|| {
            time_steps(repeat, n_steps, |clock| {
                for (t, cache) in w.tracks.iter().zip(caches.iter_mut()) {
                    cache.reset();
                    for (pa, pb) in &t.poses {
                        black_box(clock.step(|| {
                            distance_tracked(&shapes[t.a], pa, &shapes[t.b], pb, black_box(settings), cache)
                                .ok()
                        }));
                    }
                }
            })
        })
        .map_err(|p| Internal(format!("per-step warm track pass: {p}")))?;
        timing.push(
            timing_record("track_warm", variant, warm_n, warm_skipped, repeat, &total).with_steps(&clock),
        );
    }
    output_lines(w, &timing, &records)
}

/// Prints the timing summaries and serializes the records: timing first, then results.
pub(crate) fn output_lines(
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

/// The meta record (first line).
#[derive(Debug, Serialize)]
struct Meta<'a> {
    kind: &'static str,
    runner: &'static str,
    library_version: &'static str,
    workload: &'a str,
    num_queries: usize,
    num_tracks: usize,
    steps: usize,
    repeat: usize,
    variants: Vec<&'a str>,
    date: String,
    signed: bool,
    witness_frame: &'static str,
    /// Timed sections written per variant.
    sections: Vec<&'static str>,
}

/// Runs `proxima bench-geometry`.
pub fn run(args: &BenchGeometryArgs) -> Result<()> {
    if args.repeat == 0 {
        bail!("--repeat must be at least 1");
    }
    let mut variants: Vec<(String, QuerySettings)> = Vec::new();
    for v in &args.variants {
        let v = v.trim();
        let Some(settings) = variant_settings(v) else {
            bail!("unknown variant {v:?}; known variants: {}", VARIANTS.join(", "));
        };
        if !variants.iter().any(|(n, _)| n == v) {
            variants.push((v.to_string(), settings));
        }
    }
    if variants.is_empty() {
        bail!("--variants is empty");
    }
    let w = workload::load(&args.workload)?;
    if let Some(parent) = args.out.parent().filter(|p| !p.as_os_str().is_empty()) {
        std::fs::create_dir_all(parent).with_context(|| format!("cannot create {}", parent.display()))?;
    }
    let file = File::create(&args.out).with_context(|| format!("cannot open {}", args.out.display()))?;
    let mut out = BufWriter::new(file);
    let meta = Meta {
        kind: "meta",
        runner: "proxima",
        library_version: env!("CARGO_PKG_VERSION"),
        workload: &w.name,
        num_queries: w.queries.len(),
        num_tracks: w.tracks.len(),
        steps: w.steps(),
        repeat: args.repeat,
        variants: variants.iter().map(|(n, _)| n.as_str()).collect(),
        date: utc_date(),
        signed: true,
        witness_frame: "world",
        sections: ["queries", "collide", "track_cold", "track_warm"]
            .into_iter()
            .filter(|s| match *s {
                "collide" => !w.queries.is_empty(),
                "track_cold" | "track_warm" => !w.tracks.is_empty(),
                _ => true,
            })
            .collect(),
    };
    serde_json::to_writer(&mut out, &meta)?;
    writeln!(out)?;
    for (name, settings) in &variants {
        let lines = if name == "dqp3" {
            crate::bench_dqp3::run_variant(&w, args.repeat)?
        } else {
            run_variant(&w, name, settings, args.repeat)?
        };
        for rec in lines {
            writeln!(out, "{rec}")?;
        }
    }
    out.flush().with_context(|| format!("cannot write {}", args.out.display()))?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn civil_dates() {
        assert_eq!(civil_date(0), "1970-01-01");
        assert_eq!(civil_date(11_016), "2000-02-29");
        assert_eq!(civil_date(20_779), "2026-11-22");
    }

    #[test]
    fn medians_and_timing_records() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 10.0]), Some(3.0));
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

    #[test]
    fn variants_are_known() {
        for v in VARIANTS {
            assert!(variant_settings(v).is_some());
        }
        assert!(variant_settings("nesterov").is_some());
        assert!(variant_settings("bogus").is_none());
    }
}
