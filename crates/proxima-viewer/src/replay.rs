//! Recording a run cycle by cycle into a [`Timeline`]: [`ReplayRecorder`].
//!
//! # Size
//!
//! A frame stores 7 `f32` per object (translation, quaternion: 28 bytes), the closest pair, its
//! `f64` distance, its witness points (6 `f32`) and the pairs under the margin. Frames are kept
//! every `stride`-th cycle, the stride chosen once, at the first recorded cycle, so that
//! `expected cycles / stride × objects × 28 bytes ≤` [`ReplaySettings::max_frame_bytes`]
//! (6 MB by default: the 4000-cycle W25 run keeps every cycle). The cycle of the run's minimum
//! is always kept as a frame, so the page can show the minimum's pose exactly. Objects whose
//! pose never changes are dropped from the frames (they keep their first pose). The plots'
//! series (minimum distance, cycle time) keep every cycle, as `f32`.
//!
//! Rounding: `f32` positions carry a relative error ≤ 6e-8 (0.1 µm at 2 m), quaternion
//! components ≤ 6e-8; distances shown as numbers are the recorded `f64`.

use proxima_geom::Pose;

use crate::encode;
use crate::error::ViewerError;
use crate::model::{Marker, Minimum, Timeline, pose7};

/// Frame-size budget of a [`ReplayRecorder`].
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplaySettings {
    /// Bytes of pose data (before base64) the frames of one view may take. Default 6 MB.
    pub max_frame_bytes: usize,
}

impl Default for ReplaySettings {
    fn default() -> Self {
        Self { max_frame_bytes: 6_000_000 }
    }
}

impl ReplaySettings {
    /// Checks the settings: the budget must hold at least one frame of one object (28 bytes).
    pub fn validate(&self) -> Result<(), ViewerError> {
        if self.max_frame_bytes < POSE_BYTES {
            return Err(ViewerError::mismatch("max_frame_bytes", "must be at least 28 (one pose)"));
        }
        Ok(())
    }
}

const POSE_BYTES: usize = 7 * 4;

/// The closest pair of one cycle.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClosestSample {
    /// Index into the view's pair list.
    pub pair: u32,
    /// Its distance.
    pub distance: f64,
    /// Its witness points (world frame), when the answer has them.
    pub witnesses: Option<([f64; 3], [f64; 3])>,
}

/// One recorded frame.
#[derive(Debug, Clone, Default)]
struct Frame {
    cycle: usize,
    poses: Vec<f32>,
    closest: i32,
    distance: f64,
    witness: [f32; 6],
    under: Vec<u32>,
}

/// Records a run: call [`ReplayRecorder::record`] once per cycle, then
/// [`ReplayRecorder::finish`].
#[derive(Debug, Clone)]
pub struct ReplayRecorder {
    objects: usize,
    pairs: usize,
    stride: usize,
    cycles: usize,
    frames: Vec<Frame>,
    best: Option<Frame>,
    series_distance: Vec<f64>,
    series_us: Vec<f64>,
    measured_time: bool,
    scratch: Frame,
}

impl ReplayRecorder {
    /// A recorder for `objects` objects and `pairs` pairs over about `expected_cycles` cycles
    /// (it sets the stride; more cycles are accepted).
    pub fn new(
        objects: usize,
        pairs: usize,
        expected_cycles: usize,
        settings: ReplaySettings,
    ) -> Result<Self, ViewerError> {
        settings.validate()?;
        let per_frame = (objects * POSE_BYTES).max(1);
        let stride = (expected_cycles.max(1) * per_frame).div_ceil(settings.max_frame_bytes).max(1);
        Ok(Self {
            objects,
            pairs,
            stride,
            cycles: 0,
            frames: Vec::new(),
            best: None,
            series_distance: Vec::with_capacity(expected_cycles),
            series_us: Vec::with_capacity(expected_cycles),
            measured_time: false,
            scratch: Frame::default(),
        })
    }

    /// Frames are kept every `stride()` cycles.
    pub fn stride(&self) -> usize {
        self.stride
    }

    /// Records the next cycle: every object's pose (in object order), the closest pair, the
    /// pairs under the margin, the cycle's wall time in µs (`None` when not measured). On an
    /// error nothing is recorded.
    pub fn record<'a>(
        &mut self,
        poses: impl IntoIterator<Item = &'a Pose>,
        closest: Option<ClosestSample>,
        under_margin: impl IntoIterator<Item = u32>,
        cycle_us: Option<f64>,
    ) -> Result<(), ViewerError> {
        let cycle = self.cycles;
        let at = |what: &str| format!("cycle {cycle} {what}");
        let distance = closest.map_or(f64::NAN, |c| c.distance);
        if let Some(c) = closest {
            if !distance.is_finite() {
                return Err(ViewerError::NonFinite { at: at("distance") });
            }
            if c.pair as usize >= self.pairs {
                return Err(ViewerError::mismatch(
                    at("closest pair"),
                    format!("index {} of {} pairs", c.pair, self.pairs),
                ));
            }
        }
        let mut f = std::mem::take(&mut self.scratch);
        f.cycle = cycle;
        f.poses.clear();
        f.under.clear();
        let filled = self.fill(&mut f, poses, closest, under_margin, &at);
        if let Err(e) = filled {
            self.scratch = f;
            return Err(e);
        }
        let is_best = closest.is_some() && self.best.as_ref().is_none_or(|b| distance < b.distance);
        let keep = cycle.is_multiple_of(self.stride);
        self.series_distance.push(distance);
        self.series_us.push(cycle_us.unwrap_or(f64::NAN));
        self.measured_time |= cycle_us.is_some();
        self.cycles += 1;
        match (keep, is_best) {
            (true, true) => {
                self.best = Some(f.clone());
                self.frames.push(f);
            }
            (true, false) => self.frames.push(f),
            // kept aside until finish(); the previous best's storage is recycled
            (false, true) => self.scratch = self.best.replace(f).unwrap_or_default(),
            (false, false) => self.scratch = f,
        }
        Ok(())
    }

    /// Writes one cycle into `f`, checking every value.
    fn fill<'a>(
        &self,
        f: &mut Frame,
        poses: impl IntoIterator<Item = &'a Pose>,
        closest: Option<ClosestSample>,
        under_margin: impl IntoIterator<Item = u32>,
        at: &dyn Fn(&str) -> String,
    ) -> Result<(), ViewerError> {
        for p in poses {
            let p7 = pose7(p);
            if p7.iter().any(|x| !x.is_finite()) {
                return Err(ViewerError::NonFinite { at: at("poses") });
            }
            f.poses.extend(p7.iter().map(|&x| x as f32));
        }
        if f.poses.len() != self.objects * 7 {
            return Err(ViewerError::mismatch(
                at("poses"),
                format!("{} poses for {} objects", f.poses.len() / 7, self.objects),
            ));
        }
        f.closest = closest.map_or(-1, |c| c.pair as i32);
        f.distance = closest.map_or(f64::NAN, |c| c.distance);
        f.witness = match closest.and_then(|c| c.witnesses) {
            Some((a, b)) => [a[0], a[1], a[2], b[0], b[1], b[2]].map(|x| x as f32),
            None => [f32::NAN; 6],
        };
        for p in under_margin {
            if p as usize >= self.pairs {
                return Err(ViewerError::mismatch(at("pairs under the margin"), format!("index {p}")));
            }
            f.under.push(p);
        }
        Ok(())
    }

    /// The timeline of the recorded run, `dt` seconds per cycle. Errors: no cycle recorded.
    pub fn finish(self, dt: f64) -> Result<Timeline, ViewerError> {
        if self.cycles == 0 {
            return Err(ViewerError::mismatch("replay", "no cycle was recorded"));
        }
        if !(dt.is_finite() && dt > 0.0) {
            return Err(ViewerError::NonFinite { at: "replay dt".into() });
        }
        let mut frames = self.frames;
        if let Some(best) = &self.best
            && let Err(at) = frames.binary_search_by_key(&best.cycle, |f| f.cycle)
        {
            frames.insert(at, best.clone());
        }
        let first = &frames[0].poses;
        let moving: Vec<u32> = (0..self.objects)
            .filter(|&o| frames.iter().any(|f| f.poses[7 * o..7 * o + 7] != first[7 * o..7 * o + 7]))
            .map(|o| o as u32)
            .collect();
        let mut poses = Vec::with_capacity(frames.len() * moving.len() * 7);
        let mut offsets = Vec::with_capacity(frames.len() + 1);
        let mut under = Vec::new();
        offsets.push(0u32);
        for f in &frames {
            for &o in &moving {
                poses.extend(f.poses[7 * o as usize..7 * o as usize + 7].iter().map(|&x| f64::from(x)));
            }
            under.extend_from_slice(&f.under);
            offsets.push(under.len() as u32);
        }
        let minimum = self.best.as_ref().map(|b| Minimum {
            cycle: b.cycle,
            distance: b.distance,
            pair: b.closest as u32,
        });
        Ok(Timeline {
            dt,
            unit: "cycle".into(),
            cycles: self.cycles,
            stride: self.stride,
            frame_cycle: encode::u32s(&frames.iter().map(|f| f.cycle as u32).collect::<Vec<_>>()),
            moving,
            poses: encode::f32s(&poses),
            closest: encode::i32s(&frames.iter().map(|f| f.closest).collect::<Vec<_>>()),
            distance: encode::f64s(&frames.iter().map(|f| f.distance).collect::<Vec<_>>()),
            witness: encode::f32s(&frames.iter().flat_map(|f| f.witness.map(f64::from)).collect::<Vec<_>>()),
            under_offsets: encode::u32s(&offsets),
            under_pairs: encode::u32s(&under),
            series_distance: encode::f32s(&self.series_distance),
            series_cycle_us: self.measured_time.then(|| encode::f32s(&self.series_us)),
            minimum,
            markers: Vec::<Marker>::new(),
        })
    }
}

#[cfg(test)]
mod tests {
    use base64::Engine;
    use base64::engine::general_purpose::STANDARD;

    use super::*;

    fn decode_u32(e: &crate::encode::Encoded) -> Vec<u32> {
        let raw = STANDARD.decode(&e.b64).unwrap();
        raw.chunks(4).map(|c| u32::from_le_bytes(c.try_into().unwrap())).collect()
    }

    fn run(cycles: usize, budget: usize) -> (Timeline, usize) {
        let settings = ReplaySettings { max_frame_bytes: budget };
        let mut r = ReplayRecorder::new(2, 1, cycles, settings).unwrap();
        let stride = r.stride();
        let fixed = Pose::identity();
        for c in 0..cycles {
            let moving = Pose::from_translation([c as f64, 0.0, 0.0]).unwrap();
            // distance dips to its minimum at cycle 7
            let d = 1.0 + (c as f64 - 7.0).abs();
            let closest = ClosestSample { pair: 0, distance: d, witnesses: Some(([0.0; 3], [d, 0.0, 0.0])) };
            let under = if d < 2.5 { vec![0] } else { vec![] };
            r.record([&fixed, &moving], Some(closest), under, Some(1.0)).unwrap();
        }
        (r.finish(1e-3).unwrap(), stride)
    }

    #[test]
    fn every_cycle_within_budget_and_static_objects_dropped() {
        let (t, stride) = run(20, 1_000_000);
        assert_eq!(stride, 1);
        assert_eq!(decode_u32(&t.frame_cycle), (0..20).collect::<Vec<u32>>());
        assert_eq!(t.moving, [1], "object 0 never moves");
        assert_eq!(t.minimum, Some(Minimum { cycle: 7, distance: 1.0, pair: 0 }));
        // cycles 6, 7, 8 have d < 2.5 (d = 2, 1, 2)
        let offsets = decode_u32(&t.under_offsets);
        let under: Vec<u32> = (0..20).map(|f| offsets[f + 1] - offsets[f]).collect();
        let want: Vec<u32> = (0..20).map(|c| u32::from((6..=8).contains(&c))).collect();
        assert_eq!(under, want);
    }

    #[test]
    fn a_small_budget_subsamples_but_keeps_the_minimum() {
        // 2 objects × 28 bytes = 56 per frame; 20 cycles in 300 bytes → stride ⌈1120/300⌉ = 4
        let (t, stride) = run(20, 300);
        assert_eq!(stride, 4);
        assert_eq!(decode_u32(&t.frame_cycle), [0, 4, 7, 8, 12, 16]);
        assert_eq!(t.cycles, 20);
        assert_eq!(t.series_distance.len, 20, "plots keep every cycle");
    }

    #[test]
    fn bad_input_is_an_error_not_a_panic() {
        let mut r = ReplayRecorder::new(1, 1, 10, ReplaySettings::default()).unwrap();
        let p = Pose::identity();
        let bad = ClosestSample { pair: 0, distance: f64::NAN, witnesses: None };
        assert!(matches!(r.record([&p], Some(bad), [], None), Err(ViewerError::NonFinite { .. })));
        let out_of_range = ClosestSample { pair: 3, distance: 1.0, witnesses: None };
        assert!(matches!(r.record([&p], Some(out_of_range), [], None), Err(ViewerError::Mismatch { .. })));
        assert!(matches!(r.record([&p, &p], None, [], None), Err(ViewerError::Mismatch { .. })));
        assert!(matches!(r.record([&p], None, [5], None), Err(ViewerError::Mismatch { .. })));
        let empty = ReplayRecorder::new(1, 1, 10, ReplaySettings::default()).unwrap();
        assert!(empty.finish(1e-3).is_err());
        assert!(ReplayRecorder::new(1, 1, 10, ReplaySettings { max_frame_bytes: 3 }).is_err());
    }
}
