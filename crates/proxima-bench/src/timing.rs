//! What every harness runner measures with: timed passes (one untimed warm-up pass, then
//! `repeat` timed passes, wall clock), per-step clocks net of the timer's own cost, medians,
//! and the UTC date for meta records. Single thread; nothing here allocates inside a timed
//! region (step samples are preallocated).

use std::hint::black_box;
use std::time::{Instant, SystemTime, UNIX_EPOCH};

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
pub fn time_passes(repeat: usize, mut pass: impl FnMut()) -> Vec<u64> {
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
pub fn median(mut v: Vec<f64>) -> Option<f64> {
    if v.is_empty() {
        return None;
    }
    v.sort_by(f64::total_cmp);
    let k = v.len() / 2;
    Some(if v.len() % 2 == 1 { v[k] } else { 0.5 * (v[k - 1] + v[k]) })
}

/// Per-step timing: every step of a pass timed on its own (`Instant` pair), after one
/// untimed warm-up pass. The overhead of an empty timer pair (median of many) is measured once
/// and subtracted by [`StepClock::net_ns`]. Samples are preallocated: recording a step
/// allocates nothing.
pub struct StepClock {
    samples: Vec<u64>,
    recording: bool,
    overhead_ns: f64,
}

impl StepClock {
    /// Times one step (recorded only in the timed passes).
    #[inline]
    pub fn step<R>(&mut self, f: impl FnOnce() -> R) -> R {
        let start = Instant::now();
        let r = f();
        let ns = u64::try_from(start.elapsed().as_nanos()).unwrap_or(u64::MAX);
        if self.recording {
            self.samples.push(ns);
        }
        r
    }

    /// Every recorded step time minus the timer overhead (clamped at 0), in ns.
    pub fn net_ns(&self) -> Vec<f64> {
        self.samples.iter().map(|&t| (t as f64 - self.overhead_ns).max(0.0)).collect()
    }

    /// The median cost of one empty timer reading pair, in ns.
    pub fn overhead_ns(&self) -> f64 {
        self.overhead_ns
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
pub fn time_steps(repeat: usize, n_steps: usize, mut pass: impl FnMut(&mut StepClock)) -> StepClock {
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
    fn medians() {
        assert_eq!(median(vec![]), None);
        assert_eq!(median(vec![3.0, 1.0, 2.0]), Some(2.0));
        assert_eq!(median(vec![4.0, 1.0, 2.0, 10.0]), Some(3.0));
    }

    /// A warm-up pass is not recorded; every timed step is.
    #[test]
    fn step_clock_records_the_timed_passes_only() {
        let mut passes = 0;
        let clock = time_steps(3, 4, |clock| {
            passes += 1;
            for k in 0..4 {
                black_box(clock.step(|| k));
            }
        });
        assert_eq!(passes, 4);
        assert_eq!(clock.net_ns().len(), 12);
        assert!(clock.overhead_ns() >= 0.0);
        assert_eq!(time_passes(2, || {}).len(), 2);
    }
}
