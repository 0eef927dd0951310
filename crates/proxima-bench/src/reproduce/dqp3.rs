//! `proxima reproduce dqp3 --out DIR`: the shape of the DQP3 thesis results (spec
//! `dqp3-polyhedra-distance.md`, Tables 4.1, 4.3, 4.5 and the §7.2 pass counts) measured on
//! this machine, as SVG plots and a Markdown report beside the thesis numbers.
//!
//! Protocol (spec §7.2): two facet-balls of order n ∈ {2, 4, 6, 8, 10, 15, 20, 30, 40}
//! (N1+N2 = 12 … 4084); object 1 at the origin, object 2 at (5,5,5) + N(0, 0.5²)-like noise
//! (uniform ±0.5 here); random initial orientations; 100 steps per trajectory, object 2
//! translating 0.02 per step along a fixed random direction and each object rotating 1°
//! per step about its own fixed random axis. Modes: cold at every step, warm tracking
//! (built-in transforms) with adjacency, warm tracking with full ratio-test scans.

use std::fmt::Write as _;
use std::path::Path;
use std::time::Instant;

use anyhow::{Context, Result};
use clap::Args;
use indicatif::{ProgressBar, ProgressStyle};
use nalgebra::{Matrix3, Rotation3, Unit, Vector3};
use proxima_cli_support::plot::plotters::prelude::*;
use proxima_geom::Pose;
use proxima_geom::dqp3::{Dqp3Settings, Dqp3Status, Dqp3Tracker, distance_dqp3, genball};

const ORDERS: [usize; 9] = [2, 4, 6, 8, 10, 15, 20, 30, 40];
const STEPS: usize = 100;
/// Thesis Table 4.1 (µs, 166 MHz Pentium): (N1+N2, non-tracking, tracking).
const TABLE_4_1: [(usize, f64, f64); 8] = [
    (12, 79.7, 18.2),
    (44, 141.9, 22.3),
    (92, 236.4, 28.8),
    (164, 465.0, 38.5),
    (256, 659.9, 56.5),
    (576, 1640.1, 143.4),
    (1020, 2585.4, 249.4),
    (2296, 6668.8, 643.3),
];
/// Thesis Table 4.3, 900 MHz Athlon (µs): (N1+N2, non-tracking, tracking).
const TABLE_4_3: [(usize, f64, f64); 8] = [
    (12, 9.3, 1.6),
    (44, 16.4, 1.7),
    (92, 21.4, 2.2),
    (164, 32.4, 2.8),
    (256, 31.4, 5.1),
    (576, 79.1, 11.6),
    (1020, 127.4, 14.9),
    (2296, 329.5, 47.3),
];
/// Spec §7.2 reference mean passes per query (cold, warm).
const PASSES_REF: [(usize, f64, f64); 7] = [
    (12, 5.40, 1.66),
    (44, 5.68, 1.67),
    (92, 5.54, 1.65),
    (256, 5.32, 1.78),
    (576, 5.51, 2.14),
    (1020, 5.52, 2.29),
    (2296, 5.48, 2.51),
];
/// Thesis Table 4.5 DQP3 columns (µs, P166): steps → (N=12, N=92, N=576).
const TABLE_4_5: [(usize, f64, f64, f64); 5] = [
    (1, 79.7, 236.4, 1640.1),
    (5, 40.6, 130.0, 1165.8),
    (20, 22.6, 52.3, 387.2),
    (50, 19.3, 34.6, 204.2),
    (100, 18.2, 28.8, 143.4),
];
const AMORTISE: [usize; 5] = [1, 5, 20, 50, 100];

/// Measured numbers for one size.
struct Row {
    total_facets: usize,
    cold_us: f64,
    warm_adj_us: f64,
    warm_full_us: f64,
    cold_passes: f64,
    warm_passes: f64,
    max_cold_passes: usize,
    max_warm_passes: usize,
    failures: usize,
}

fn rot(rng: &mut u64, max: f64) -> Matrix3<f64> {
    let mut u = || {
        // xorshift64*: a fixed-seed generator, enough for test poses.
        *rng ^= *rng >> 12;
        *rng ^= *rng << 25;
        *rng ^= *rng >> 27;
        (rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
    };
    let axis = Vector3::new(2.0 * u() - 1.0, 2.0 * u() - 1.0, 2.0 * u() - 1.0 + 1e-3);
    *Rotation3::from_axis_angle(&Unit::new_normalize(axis), u() * max).matrix()
}

fn uniform(rng: &mut u64) -> f64 {
    *rng ^= *rng >> 12;
    *rng ^= *rng << 25;
    *rng ^= *rng >> 27;
    (rng.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 11) as f64 / (1u64 << 53) as f64
}

fn trajectory(rng: &mut u64) -> Result<Vec<(Pose, Pose)>> {
    let (mut ra, mut rb) = (rot(rng, std::f64::consts::TAU), rot(rng, std::f64::consts::TAU));
    let (wa, wb) = (rot(rng, 1f64.to_radians()), rot(rng, 1f64.to_radians()));
    let mut t = Vector3::new(5.0, 5.0, 5.0)
        + Vector3::new(uniform(rng) - 0.5, uniform(rng) - 0.5, uniform(rng) - 0.5);
    let dir = Vector3::new(uniform(rng) - 0.5, uniform(rng) - 0.5, uniform(rng) - 0.5).normalize() * 0.02;
    let mut out = Vec::with_capacity(STEPS);
    for _ in 0..STEPS {
        out.push((Pose::from_matrix(ra, Vector3::zeros())?, Pose::from_matrix(rb, t)?));
        ra = wa * ra;
        rb = wb * rb;
        t += dir;
    }
    Ok(out)
}

fn measure(order: usize, trajectories: usize, seed: u64) -> Result<Row> {
    let ball = genball(order)?;
    let mut rng = seed;
    let tracks: Vec<Vec<(Pose, Pose)>> =
        (0..trajectories).map(|_| trajectory(&mut rng)).collect::<Result<_>>()?;
    let settings = Dqp3Settings::default();
    let full = Dqp3Settings { use_adjacency: false, ..Default::default() };
    let mut row = Row {
        total_facets: 2 * ball.num_facets(),
        cold_us: 0.0,
        warm_adj_us: 0.0,
        warm_full_us: 0.0,
        cold_passes: 0.0,
        warm_passes: 0.0,
        max_cold_passes: 0,
        max_warm_passes: 0,
        failures: 0,
    };
    let (mut cold_n, mut warm_n) = (0usize, 0usize);
    let mut sink = 0.0;
    // Cold at every step.
    let start = Instant::now();
    for t in &tracks {
        for (pa, pb) in t {
            let r = distance_dqp3(&ball, pa, &ball, pb, &settings)?;
            sink += r.upper;
            row.cold_passes += r.passes as f64;
            row.max_cold_passes = row.max_cold_passes.max(r.passes);
            row.failures += usize::from(r.status != Dqp3Status::Optimal);
            cold_n += 1;
        }
    }
    row.cold_us = start.elapsed().as_secs_f64() * 1e6 / cold_n as f64;
    // Warm tracking (steps 2..100 timed; the cold first step is done outside the clock).
    for (s, slot) in [(&settings, 0), (&full, 1)] {
        let mut elapsed = 0.0;
        let mut n = 0usize;
        for t in &tracks {
            let mut tracker = Dqp3Tracker::with_settings(&ball, &ball, s.clone())?;
            sink += tracker.step(&t[0].0, &t[0].1).upper;
            let start = Instant::now();
            for (pa, pb) in &t[1..] {
                let r = tracker.step(pa, pb);
                sink += r.upper;
                if slot == 0 {
                    row.warm_passes += r.passes as f64;
                    row.max_warm_passes = row.max_warm_passes.max(r.passes);
                    row.failures += usize::from(r.status != Dqp3Status::Optimal);
                    warm_n += 1;
                }
            }
            elapsed += start.elapsed().as_secs_f64();
            n += t.len() - 1;
        }
        let us = elapsed * 1e6 / n as f64;
        if slot == 0 { row.warm_adj_us = us } else { row.warm_full_us = us }
    }
    row.cold_passes /= cold_n as f64;
    row.warm_passes /= warm_n as f64;
    std::hint::black_box(sink);
    Ok(row)
}

fn amortised(row: &Row, steps: usize) -> f64 {
    (row.cold_us + (steps - 1) as f64 * row.warm_adj_us) / steps as f64
}

type Series<'a> = (&'a str, RGBColor, Vec<(f64, f64)>);

fn plot(path: &Path, title: &str, xlabel: &str, ylabel: &str, series: &[Series]) -> Result<()> {
    let pts = series.iter().flat_map(|s| s.2.iter());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::INFINITY, 0.0f64, f64::INFINITY, 0.0f64);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    let root = SVGBackend::new(path, (800, 560)).into_drawing_area();
    root.fill(&WHITE).map_err(|e| anyhow::anyhow!("{e}"))?;
    let mut chart = ChartBuilder::on(&root)
        .caption(title, ("sans-serif", 22))
        .margin(20)
        .x_label_area_size(45)
        .y_label_area_size(70)
        .build_cartesian_2d((x0 * 0.8..x1 * 1.25).log_scale(), (y0 * 0.7..y1 * 1.5).log_scale())
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    chart.configure_mesh().x_desc(xlabel).y_desc(ylabel).draw().map_err(|e| anyhow::anyhow!("{e}"))?;
    for (label, color, data) in series {
        let c = *color;
        chart
            .draw_series(LineSeries::new(data.iter().copied(), c.stroke_width(2)))
            .map_err(|e| anyhow::anyhow!("{e}"))?
            .label(*label)
            .legend(move |(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], c.stroke_width(2)));
        chart
            .draw_series(data.iter().map(|&p| Circle::new(p, 3, c.filled())))
            .map_err(|e| anyhow::anyhow!("{e}"))?;
    }
    chart
        .configure_series_labels()
        .background_style(WHITE.mix(0.8))
        .border_style(BLACK)
        .draw()
        .map_err(|e| anyhow::anyhow!("{e}"))?;
    root.present().map_err(|e| anyhow::anyhow!("{e}"))?;
    Ok(())
}

/// Arguments of `proxima reproduce dqp3`.
#[derive(Debug, Args)]
pub struct Dqp3Args {
    /// Output directory (created if missing).
    #[arg(long)]
    pub out: std::path::PathBuf,
    /// Trajectories per size (spec §7.2 protocol, 100 steps each).
    #[arg(long, default_value_t = 100)]
    pub trajectories: usize,
}

/// Runs the measurements and writes `report.md` and the SVG plots into `args.out`.
pub fn run(args: &Dqp3Args) -> Result<()> {
    let (out, trajectories) = (args.out.as_path(), args.trajectories);
    anyhow::ensure!(trajectories > 0, "--trajectories must be positive");
    std::fs::create_dir_all(out).with_context(|| format!("cannot create {}", out.display()))?;
    let bar = ProgressBar::new(ORDERS.len() as u64);
    bar.set_style(ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len}").expect("static template"));
    let mut rows = Vec::new();
    for (i, &order) in ORDERS.iter().enumerate() {
        bar.set_message(format!("DQP3 order {order}"));
        rows.push(measure(order, trajectories, 0x9E37_79B9_7F4A_7C15 ^ (i as u64 + 1))?);
        bar.inc(1);
    }
    bar.finish_and_clear();
    let n = |r: &Row| r.total_facets as f64;
    plot(
        &out.join("time_vs_facets.svg"),
        "DQP3: time per query vs N1+N2",
        "N1+N2 (facets)",
        "µs per query",
        &[
            ("cold (centroid start, adjacency)", RED, rows.iter().map(|r| (n(r), r.cold_us)).collect()),
            ("tracking, full scan", BLUE, rows.iter().map(|r| (n(r), r.warm_full_us)).collect()),
            ("tracking, adjacency", GREEN, rows.iter().map(|r| (n(r), r.warm_adj_us)).collect()),
            ("thesis tracking, 900 MHz Athlon", BLACK, TABLE_4_3.iter().map(|t| (t.0 as f64, t.2)).collect()),
        ],
    )?;
    let pick = |m: usize| rows.iter().find(|r| r.total_facets == m);
    let mut amort_series = Vec::new();
    for (m, color) in [(12, RED), (92, BLUE), (576, GREEN)] {
        if let Some(r) = pick(m) {
            amort_series.push((
                m,
                color,
                AMORTISE.iter().map(|&k| (k as f64, amortised(r, k))).collect::<Vec<_>>(),
            ));
        }
    }
    let labels: Vec<String> = amort_series.iter().map(|s| format!("N1+N2 = {}", s.0)).collect();
    let series: Vec<Series> =
        amort_series.iter().zip(&labels).map(|(s, l)| (l.as_str(), s.1, s.2.clone())).collect();
    plot(
        &out.join("amortised_vs_steps.svg"),
        "DQP3: amortised time per query over a track",
        "steps",
        "µs per query",
        &series,
    )?;
    plot(
        &out.join("passes_vs_facets.svg"),
        "DQP3: mean passes per query",
        "N1+N2 (facets)",
        "passes",
        &[
            ("cold", RED, rows.iter().map(|r| (n(r), r.cold_passes)).collect()),
            ("tracking", GREEN, rows.iter().map(|r| (n(r), r.warm_passes)).collect()),
            ("spec §7.2 cold", BLACK, PASSES_REF.iter().map(|t| (t.0 as f64, t.1)).collect()),
            ("spec §7.2 warm", MAGENTA, PASSES_REF.iter().map(|t| (t.0 as f64, t.2)).collect()),
        ],
    )?;
    let report = report(&rows, trajectories)?;
    std::fs::write(out.join("report.md"), report)
        .with_context(|| format!("cannot write {}", out.display()))?;
    println!(
        "wrote {}/report.md, time_vs_facets.svg, amortised_vs_steps.svg, passes_vs_facets.svg",
        out.display()
    );
    Ok(())
}

fn report(rows: &[Row], trajectories: usize) -> Result<String> {
    let mut s = String::new();
    writeln!(s, "# DQP3 reproduction (spec `dqp3-polyhedra-distance.md`)\n")?;
    writeln!(
        s,
        "Protocol §7.2: {trajectories} trajectories × {STEPS} steps per size (facet-balls, b = −1), \
         built-in transforms. Times are wall-clock µs per query on this machine ({} build); \
         the thesis numbers are a 166 MHz Pentium (Table 4.1) and a 900 MHz Athlon (Table 4.3).\n",
        if cfg!(debug_assertions) { "**debug** — use a release build for timings" } else { "release" }
    )?;
    writeln!(s, "## Time vs facet count, cold vs tracking (Tables 4.1 / 4.3)\n")?;
    writeln!(
        s,
        "| N1+N2 | cold µs | tracking µs (adjacency) | tracking µs (full scan) | thesis cold P166 / Athlon | thesis tracking P166 / Athlon | non-Optimal runs |"
    )?;
    writeln!(s, "|---|---|---|---|---|---|---|")?;
    for r in rows {
        let t41 = TABLE_4_1.iter().find(|t| t.0 == r.total_facets);
        let t43 = TABLE_4_3.iter().find(|t| t.0 == r.total_facets);
        let (c, w) = match (t41, t43) {
            (Some(a), Some(b)) => (format!("{} / {}", a.1, b.1), format!("{} / {}", a.2, b.2)),
            _ => ("—".into(), "—".into()),
        };
        writeln!(
            s,
            "| {} | {:.3} | {:.3} | {:.3} | {c} | {w} | {} |",
            r.total_facets, r.cold_us, r.warm_adj_us, r.warm_full_us, r.failures
        )?;
    }
    writeln!(s, "\n![time vs facets](time_vs_facets.svg)\n")?;
    writeln!(
        s,
        "With adjacency the tracking cost stays nearly flat in N (the thesis predicted the cost of 25–100-facet objects, §5.1); the full-scan curve grows linearly like the thesis's Table 4.1 tracking column.\n"
    )?;
    writeln!(s, "## Passes per query (§7.2 reference values)\n")?;
    writeln!(s, "| N1+N2 | cold mean (max) | tracking mean (max) | spec cold | spec warm |")?;
    writeln!(s, "|---|---|---|---|---|")?;
    for r in rows {
        let p = PASSES_REF.iter().find(|t| t.0 == r.total_facets);
        let (pc, pw) = p.map_or(("—".into(), "—".into()), |t| (format!("{}", t.1), format!("{}", t.2)));
        writeln!(
            s,
            "| {} | {:.2} ({}) | {:.2} ({}) | {pc} | {pw} |",
            r.total_facets, r.cold_passes, r.max_cold_passes, r.warm_passes, r.max_warm_passes
        )?;
    }
    writeln!(s, "\n![passes](passes_vs_facets.svg)\n")?;
    writeln!(s, "## Amortised time over a track: the crossover (Table 4.5)\n")?;
    writeln!(s, "Amortised µs per query = (cold + (k − 1) × tracking step) / k.\n")?;
    writeln!(
        s,
        "| steps | ours N=12 | thesis N=12 (P166) | ours N=92 | thesis N=92 | ours N=576 | thesis N=576 |"
    )?;
    writeln!(s, "|---|---|---|---|---|---|---|")?;
    let pick = |m: usize| rows.iter().find(|r| r.total_facets == m);
    for t in TABLE_4_5 {
        let cell = |m: usize| pick(m).map_or("—".into(), |r| format!("{:.3}", amortised(r, t.0)));
        writeln!(
            s,
            "| {} | {} | {} | {} | {} | {} | {} |",
            t.0,
            cell(12),
            t.1,
            cell(92),
            t.2,
            cell(576),
            t.3
        )?;
    }
    writeln!(s, "\n![amortised](amortised_vs_steps.svg)\n")?;
    writeln!(
        s,
        "The thesis found DQP3 ahead of EGJK after 20–50 tracking steps (Table 4.5); the same shape — a steep fall over the first 5–20 steps to the tracking cost — is visible above."
    )?;
    Ok(s)
}
