//! `proxima demo`, workcell section (the README's main job): the spec's W25 robot workcell
//! (or a scene file) run for a few thousand 1 kHz cycles through the triage scheduler, every
//! cycle cross-checked against a brute-force all-pairs evaluation, then the real-robot cell
//! (two Franka Pandas from the shipped URDF, exact mesh hulls, on a table with a bin and a
//! post: self, arm–arm and arm–fixture pairs), then the scaled scene (three arms among 100
//! obstacles). Prints cycle-time statistics and writes an SVG plot per run and the 3D replay
//! page `index.html` ([`crate::demo_page`]) into `--out DIR`.

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use anyhow::{Context, Result};
use indicatif::{ProgressBar, ProgressStyle};
use proxima_cli_support::plot::plotters::prelude::*;
use proxima_scene::workcell::{self, PrismModel};
use proxima_scene::{
    ColdQuery, ScheduleSettings, Scheduler, TrackedQuery, Workcell, brute_force_minimum, parse_scene_file,
};
use serde_json::{Value, json};

use proxima_cli_support::files;

use crate::demo_page::{self, CellRecorder};

/// The cycle budget the demo checks against.
const BUDGET: Duration = Duration::from_millis(1);
/// Agreement required between the scheduler's minimum and brute force. The cold query is
/// deterministic, so equal pairs give bit-equal values; 1e-9 admits only ties between pairs.
const MATCH_TOL: f64 = 1e-9;

/// What one workcell run measured.
pub struct RunSummary {
    /// Scene name.
    pub name: String,
    /// Pairs monitored.
    pub pairs: usize,
    /// Objects in the world.
    pub objects: usize,
    /// Cycles run.
    pub cycles: usize,
    /// Per-cycle wall time (kinematics + scheduler), sorted ascending.
    pub cycle_times: Vec<Duration>,
    /// Per-cycle wall time of the brute-force all-pairs cold evaluation, sorted.
    pub brute_times: Vec<Duration>,
    /// Smallest distance over the run, its cycle and pair names.
    pub min: (f64, usize, String, String),
    /// Cycles whose minimum differed from brute force by more than 1e-9.
    pub mismatches: usize,
    /// Cycles over the 1 ms budget.
    pub over_budget: usize,
    /// Cycles the scheduler reported overloaded.
    pub overloads: usize,
    /// Mean and max queries per cycle.
    pub queries_mean: f64,
    /// Largest number of queries in a cycle.
    pub queries_max: usize,
    /// SVG plot path.
    pub plot: PathBuf,
    /// Cycle period (s).
    pub dt: f64,
    /// The run recorded for the page (taken when the page is written).
    pub recording: Option<CellRecorder>,
}

fn pct(sorted: &[Duration], p: f64) -> Duration {
    if sorted.is_empty() {
        return Duration::ZERO;
    }
    let i = ((sorted.len() as f64 - 1.0) * p).round() as usize;
    sorted[i.min(sorted.len() - 1)]
}

fn us(d: Duration) -> f64 {
    d.as_secs_f64() * 1e6
}

fn slug(name: &str) -> String {
    name.chars().map(|c| if c.is_ascii_alphanumeric() { c.to_ascii_lowercase() } else { '-' }).collect()
}

/// Runs `cycles` cycles of `cell`, cross-checking each against brute force; prints a sampled
/// trace (every `print_every` cycles) and writes the plot into `out`.
fn run_cell(
    cell: &mut Workcell,
    cycles: usize,
    print_every: usize,
    text: bool,
    out: &Path,
) -> Result<RunSummary> {
    let settings = ScheduleSettings::default();
    let mut sched = Scheduler::new(TrackedQuery::default(), settings, &cell.world, &cell.pairs)?;
    let mut recording = CellRecorder::new(cell, cycles, sched.settings().margin)?;
    let brute_query = ColdQuery::default();
    let bar = ProgressBar::new(cycles as u64);
    bar.set_style(
        ProgressStyle::with_template("{msg} [{bar:30}] {pos}/{len} cycles ({eta})")
            .expect("static template")
            .progress_chars("=> "),
    );
    bar.set_message(cell.name.clone());
    let mut cycle_times = Vec::with_capacity(cycles);
    let mut brute_times = Vec::with_capacity(cycles);
    let mut trace = Vec::with_capacity(cycles);
    let mut min = (f64::INFINITY, 0, String::new(), String::new());
    let (mut mismatches, mut overloads, mut queries, mut queries_max) = (0, 0, 0usize, 0usize);
    if text && print_every > 0 {
        println!(
            "  {:>6} {:>7}  {:>12}  {:<16} {:>8} {:>9}",
            "cycle", "t (s)", "min dist (m)", "closest pair", "queried", "cycle µs"
        );
    }
    for c in 0..cycles {
        let start = Instant::now();
        cell.set_cycle(c)?;
        let report = sched.run_cycle(&cell.world)?;
        let elapsed = start.elapsed();
        recording.record(cell, &sched, &report, us(elapsed))?;
        let b0 = Instant::now();
        let brute = brute_force_minimum(&brute_query, &cell.world, &cell.pairs)?;
        brute_times.push(b0.elapsed());
        let closest = report.closest.context("the scheduler queried no pair")?;
        let d = closest.result.distance();
        let (_, truth) = brute.context("no pairs")?;
        if (d - truth).abs() > MATCH_TOL {
            mismatches += 1;
        }
        let (na, nb) = (&cell.world.object(closest.pair.a).name, &cell.world.object(closest.pair.b).name);
        if d < min.0 {
            min = (d, c, na.clone(), nb.clone());
        }
        if report.overload {
            overloads += 1;
        }
        queries += report.queried();
        queries_max = queries_max.max(report.queried());
        cycle_times.push(elapsed);
        trace.push((c as f64 * cell.dt, d, us(elapsed)));
        if print_every > 0 && c % print_every == 0 {
            let pair = format!("{na}-{nb}");
            if text {
                bar.suspend(|| {
                    println!(
                        "  {c:>6} {:>7.3}  {d:>12.6}  {pair:<16} {:>8} {:>9.2}",
                        c as f64 * cell.dt,
                        report.queried(),
                        us(elapsed)
                    )
                });
            } else {
                let rec = json!({"scene": cell.name, "cycle": c, "t": c as f64 * cell.dt, "min_distance": d,
                    "closest_pair": [na, nb], "queried": report.queried(), "cycle_us": us(elapsed)});
                bar.suspend(|| println!("{rec}"));
            }
        }
        bar.inc(1);
    }
    bar.finish_and_clear();
    let over_budget = cycle_times.iter().filter(|&&t| t > BUDGET).count();
    cycle_times.sort_unstable();
    brute_times.sort_unstable();
    std::fs::create_dir_all(out).with_context(|| format!("creating {}", out.display()))?;
    let plot = out.join(format!("workcell-{}.svg", slug(&cell.name)));
    write_plot(&plot, &cell.name, &trace, sched.settings().margin)?;
    Ok(RunSummary {
        name: cell.name.clone(),
        pairs: cell.pairs.len(),
        objects: cell.world.len(),
        cycles,
        cycle_times,
        brute_times,
        min,
        mismatches,
        over_budget,
        overloads,
        queries_mean: queries as f64 / cycles.max(1) as f64,
        queries_max,
        plot,
        dt: cell.dt,
        recording: Some(recording),
    })
}

fn write_plot(path: &Path, name: &str, trace: &[(f64, f64, f64)], margin: f64) -> Result<()> {
    let draw = || -> std::result::Result<(), Box<dyn std::error::Error>> {
        let root = SVGBackend::new(path, (960, 640)).into_drawing_area();
        root.fill(&WHITE)?;
        let (top, bottom) = root.split_vertically(330);
        let t_end = trace.last().map_or(1.0, |p| p.0).max(1e-3);
        let d_max = trace.iter().map(|p| p.1).fold(margin, f64::max) * 1.05;
        let mut chart = ChartBuilder::on(&top)
            .caption(format!("{name}: minimum distance over all pairs"), ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..t_end, 0.0..d_max)?;
        chart.configure_mesh().x_desc("t (s)").y_desc("distance (m)").draw()?;
        chart
            .draw_series(LineSeries::new(trace.iter().map(|p| (p.0, p.1)), &BLUE))?
            .label("minimum distance")
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], BLUE));
        chart
            .draw_series(LineSeries::new([(0.0, margin), (t_end, margin)], &RED))?
            .label(format!("safety margin {margin} m"))
            .legend(|(x, y)| PathElement::new(vec![(x, y), (x + 20, y)], RED));
        chart.configure_series_labels().background_style(WHITE).border_style(BLACK).draw()?;
        let mut sorted: Vec<f64> = trace.iter().map(|p| p.2).collect();
        sorted.sort_by(f64::total_cmp);
        // clip the y range at 2x the p99 so a single preemption spike does not flatten the plot
        let p99 = sorted.get(((sorted.len() as f64 - 1.0) * 0.99) as usize).copied().unwrap_or(1.0);
        let y_max = (p99 * 2.0).max(1.0);
        let mut chart = ChartBuilder::on(&bottom)
            .caption("cycle time (kinematics + triage + queries)", ("sans-serif", 18))
            .margin(12)
            .x_label_area_size(32)
            .y_label_area_size(60)
            .build_cartesian_2d(0.0..t_end, 0.0..y_max)?;
        chart.configure_mesh().x_desc("t (s)").y_desc("µs").draw()?;
        chart.draw_series(LineSeries::new(trace.iter().map(|p| (p.0, p.2.min(y_max))), &BLACK))?;
        root.present()?;
        Ok(())
    };
    draw().map_err(|e| anyhow::anyhow!("writing the plot {}: {e}", path.display()))
}

fn print_summary(s: &RunSummary) {
    let ct = &s.cycle_times;
    println!(
        "  {} cycles, {} objects, {} pairs; queries per cycle: mean {:.1}, max {}",
        s.cycles, s.objects, s.pairs, s.queries_mean, s.queries_max
    );
    println!(
        "  cycle time (kinematics + triage + queries): p50 {:.2} µs, p99 {:.2} µs, max {:.2} µs",
        us(pct(ct, 0.5)),
        us(pct(ct, 0.99)),
        us(pct(ct, 1.0))
    );
    println!(
        "  brute force, every pair cold:               p50 {:.2} µs, p99 {:.2} µs, max {:.2} µs",
        us(pct(&s.brute_times, 0.5)),
        us(pct(&s.brute_times, 0.99)),
        us(pct(&s.brute_times, 1.0))
    );
    println!(
        "  minimum distance {:.6} m ({} - {}) at cycle {} (t = {:.3} s)",
        s.min.0,
        s.min.2,
        s.min.3,
        s.min.1,
        s.min.1 as f64 * 1e-3
    );
    let budget = if s.over_budget == 0 {
        "every cycle met the 1 ms budget".to_string()
    } else {
        format!(
            "{} of {} cycles exceeded the 1 ms budget (wall clock, OS preemption included)",
            s.over_budget, s.cycles
        )
    };
    println!("  {budget}; overloaded cycles: {}", s.overloads);
    println!(
        "  brute-force cross-check: {} mismatches in {} cycles (tolerance {MATCH_TOL:e})",
        s.mismatches, s.cycles
    );
    println!("  plot: {}", s.plot.display());
}

/// The run's summary as the page shows it (the first line carries the minimum distance in
/// full, as in the JSON summary).
fn summary_lines(s: &RunSummary) -> Vec<String> {
    let ct = &s.cycle_times;
    vec![
        format!(
            "{}: minimum distance {} m ({} – {}) at cycle {} (t = {:.3} s)",
            s.name,
            s.min.0,
            s.min.2,
            s.min.3,
            s.min.1,
            s.min.1 as f64 * s.dt
        ),
        format!(
            "{} cycles, {} objects, {} pairs; cycle time p50 {:.2} µs, p99 {:.2} µs, max {:.2} µs",
            s.cycles,
            s.objects,
            s.pairs,
            us(pct(ct, 0.5)),
            us(pct(ct, 0.99)),
            us(pct(ct, 1.0))
        ),
        format!(
            "brute-force cross-check: {} mismatches; {} of {} cycles over the 1 ms budget",
            s.mismatches, s.over_budget, s.cycles
        ),
    ]
}

/// Writes `out/index.html`: the main run's summary, one replay tab per run.
fn write_page(out: &Path, runs: &mut [&mut RunSummary]) -> Result<PathBuf> {
    let mut summary = Vec::new();
    let mut views = Vec::new();
    for (k, s) in runs.iter_mut().enumerate() {
        let lines = summary_lines(s);
        if k == 0 {
            summary.extend(lines.iter().cloned());
        } else {
            summary.push(lines[0].clone());
        }
        if let Some(rec) = s.recording.take() {
            views.push(rec.finish(lines)?);
        }
    }
    demo_page::write_page(out, summary, runs[0].min.0, views)
}

fn summary_json(s: &RunSummary) -> Value {
    let ct = &s.cycle_times;
    json!({
        "scene": s.name,
        "objects": s.objects,
        "pairs": s.pairs,
        "cycles": s.cycles,
        "cycle_us": {"p50": us(pct(ct, 0.5)), "p99": us(pct(ct, 0.99)), "max": us(pct(ct, 1.0))},
        "brute_force_us": {"p50": us(pct(&s.brute_times, 0.5)), "p99": us(pct(&s.brute_times, 0.99)), "max": us(pct(&s.brute_times, 1.0))},
        "queries_per_cycle": {"mean": s.queries_mean, "max": s.queries_max},
        "min_distance": s.min.0,
        "min_pair": [s.min.2, s.min.3],
        "min_cycle": s.min.1,
        "brute_force_mismatches": s.mismatches,
        "cycles_over_budget": s.over_budget,
        "overloaded_cycles": s.overloads,
        "plot": s.plot.display().to_string(),
    })
}

/// One more cell after the main one: a header (`{title}: {name} ({n} objects: {objects}; {m}
/// pairs{pairs})`), its run without a sampled trace, its summary.
fn section(
    cell: &mut Workcell,
    cycles: usize,
    (title, objects, pairs): (&str, &str, &str),
    text: bool,
    out: &Path,
) -> Result<RunSummary> {
    if text {
        println!();
        println!(
            "{title}: {} ({} objects: {objects}; {} pairs{pairs}), {cycles} cycles:",
            cell.name,
            cell.world.len(),
            cell.pairs.len()
        );
    }
    let s = run_cell(cell, cycles, 0, text, out)?;
    if text {
        print_summary(&s);
    }
    Ok(s)
}

/// Runs the workcell section. `cycles` overrides the scene's cycle count; the scaled scene runs
/// `scale_cycles` cycles (skipped when 0 or with a scene file). With JSON, prints sampled trace
/// lines and the summary as the last line.
pub fn run(
    scene: Option<&Path>,
    cycles: Option<usize>,
    scale_cycles: usize,
    robot_cell: Option<(&Path, usize)>,
    out: &Path,
    text: bool,
) -> Result<()> {
    let mut main_cell = match scene {
        Some(path) => {
            files::read_text(path)?;
            parse_scene_file(path).with_context(|| format!("scene file {}", path.display()))?
        }
        None => workcell::w25(PrismModel::Exact, false)?,
    };
    let main_cycles = cycles.unwrap_or(main_cell.cycles);
    if text {
        println!(
            "Proxima demo: robot workcell \"{}\" ({} objects, {} pairs), {} cycles at {} Hz,",
            main_cell.name,
            main_cell.world.len(),
            main_cell.pairs.len(),
            main_cycles,
            (1.0 / main_cell.dt).round()
        );
        println!(
            "triage scheduling (2 cm safety margin, proven minimum), every cycle checked by brute force."
        );
        if scene.is_none() {
            println!(
                "Model: the spec's W25 arm (14 links: boxes and exact regular prisms, GJK) over a floor"
            );
            println!("with one fixture. Sampled trace:");
        }
    }
    let every = (main_cycles / 16).max(1);
    let mut main = run_cell(&mut main_cell, main_cycles, every, text, out)?;
    if text {
        println!();
        println!("Summary, {}:", main.name);
        print_summary(&main);
    }
    let mut robots_summary = None;
    if let (None, Some((urdf, n))) = (scene, robot_cell.filter(|(_, n)| *n > 0)) {
        let mut cell = workcell::panda_cell(urdf)
            .with_context(|| format!("the real-robot cell ({})", urdf.display()))?;
        let what = "2 x 11 Panda links as exact hulls of the shipped meshes, table, bin, post";
        robots_summary =
            Some(section(&mut cell, n, ("Real robots", what, ": self, arm-arm, arm-fixture"), text, out)?);
    }
    let mut scale_summary = None;
    if scene.is_none() && scale_cycles > 0 {
        let mut big = workcell::scaled(3, 100, PrismModel::Exact)?;
        let what = "3 arms x 14 links, 100 obstacles, 3 fixtures, floor";
        scale_summary = Some(section(&mut big, scale_cycles, ("Scale", what, ""), text, out)?);
    }
    let mut runs = vec![&mut main];
    runs.extend(robots_summary.as_mut());
    runs.extend(scale_summary.as_mut());
    let page = write_page(out, &mut runs)?;
    if text {
        println!();
        println!("3D replay page: {} (open it in a browser; no network needed)", page.display());
        let all_ok = main.mismatches == 0
            && scale_summary.as_ref().is_none_or(|s| s.mismatches == 0)
            && robots_summary.as_ref().is_none_or(|s| s.mismatches == 0);
        println!(
            "workcell: {} (brute-force mismatches {}{}{})",
            if all_ok { "ok" } else { "MISMATCH" },
            main.mismatches,
            robots_summary.as_ref().map_or(String::new(), |s| format!(", real robots {}", s.mismatches)),
            scale_summary.as_ref().map_or(String::new(), |s| format!(", scale {}", s.mismatches))
        );
    } else {
        let mut plots = vec![main.plot.display().to_string()];
        let mut extra = json!({"main": summary_json(&main)});
        if let Some(s) = &robots_summary {
            plots.push(s.plot.display().to_string());
            extra["robots"] = summary_json(s);
        }
        if let Some(s) = &scale_summary {
            plots.push(s.plot.display().to_string());
            extra["scale"] = summary_json(s);
        }
        let ct = &main.cycle_times;
        let summary = json!({
            "cycles": main.cycles,
            "cycle_us": {"p50": us(pct(ct, 0.5)), "p99": us(pct(ct, 0.99)), "max": us(pct(ct, 1.0))},
            "min_distance": main.min.0,
            "brute_force_mismatches": main.mismatches
                + scale_summary.as_ref().map_or(0, |s| s.mismatches)
                + robots_summary.as_ref().map_or(0, |s| s.mismatches),
            "plots": plots,
            "page": page.display().to_string(),
            "budget_met": main.over_budget == 0,
            "details": extra,
        });
        println!("{summary}");
    }
    Ok(())
}
