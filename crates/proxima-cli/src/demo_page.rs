//! `proxima demo`'s page (`DIR/index.html`): each workcell run recorded cycle by cycle
//! ([`CellRecorder`]) and replayed in 3D by `proxima_viewer`.
//!
//! What a frame shows comes from the run itself: the poses the scheduler saw, its closest pair
//! (the proven minimum over all pairs) with the query's witness points, and the pairs under
//! the safety margin — the pairs queried in that cycle whose certified distance is ≤ the
//! margin. That set is complete: a pair that could be within the margin is mandatory in the
//! triage schedule, so it was queried (`proxima_scene::schedule`, step 1).

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};
use proxima_scene::{CycleReport, PairQuery, Scheduler, Workcell};
use proxima_viewer::{ClosestSample, Page, ReplayRecorder, ReplaySettings, SceneBuilder, View, ViewKind};

/// Records one workcell run for the page.
pub struct CellRecorder {
    scene: SceneBuilder,
    recorder: ReplayRecorder,
    pairs: Vec<[u32; 2]>,
    margin: f64,
    dt: f64,
    name: String,
    under: Vec<u32>,
}

impl CellRecorder {
    /// A recorder for `cycles` cycles of `cell` (its objects at their current poses).
    pub fn new(cell: &Workcell, cycles: usize, margin: f64) -> Result<Self> {
        let mut scene = SceneBuilder::new();
        for o in cell.world.objects() {
            scene
                .add(&o.name, &o.group, o.shape(), o.pose())
                .with_context(|| format!("page of {}", cell.name))?;
        }
        let pairs: Vec<[u32; 2]> = cell.pairs.iter().map(|p| [p.a.0, p.b.0]).collect();
        let recorder = ReplayRecorder::new(cell.world.len(), pairs.len(), cycles, ReplaySettings::default())?;
        Ok(Self { scene, recorder, pairs, margin, dt: cell.dt, name: cell.name.clone(), under: Vec::new() })
    }

    /// Records the cycle the scheduler just ran on `cell`'s world.
    pub fn record<Q: PairQuery>(
        &mut self,
        cell: &Workcell,
        sched: &Scheduler<Q>,
        report: &CycleReport,
        cycle_us: f64,
    ) -> Result<()> {
        let closest = report.closest.map(|c| ClosestSample {
            pair: c.index as u32,
            distance: c.result.distance(),
            witnesses: c.result.witnesses().map(|(a, b)| ([a.x, a.y, a.z], [b.x, b.y, b.z])),
        });
        self.under.clear();
        for (i, r) in sched.records().iter().enumerate() {
            if r.last_cycle == Some(report.cycle) && r.distance <= self.margin {
                self.under.push(i as u32);
            }
        }
        let poses = cell.world.objects().iter().map(|o| o.pose());
        self.recorder.record(poses, closest, self.under.iter().copied(), Some(cycle_us))?;
        Ok(())
    }

    /// The replay view, with `summary` lines beside it.
    pub fn finish(self, summary: Vec<String>) -> Result<View> {
        let mut view = self.scene.into_view(self.name, ViewKind::Replay);
        view.pairs = self.pairs;
        view.margin = self.margin;
        view.summary = summary;
        view.timeline = Some(self.recorder.finish(self.dt)?);
        Ok(view)
    }
}

/// Writes `out/index.html` with one tab per view; returns its path.
pub fn write_page(out: &Path, summary: Vec<String>, min_distance: f64, views: Vec<View>) -> Result<PathBuf> {
    let page = Page {
        title: "Proxima demo: workcell replay".into(),
        summary,
        min_distance: Some(min_distance),
        views,
    };
    let html = proxima_viewer::render(&page)?;
    let path = out.join("index.html");
    std::fs::write(&path, html).with_context(|| format!("writing {}", path.display()))?;
    Ok(path)
}
