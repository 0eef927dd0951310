//! scratch
use proxima_scene::{ScheduleSettings, Scheduler, TrackedQuery};
use std::time::Instant;
fn main() {
    let mut cell =
        proxima_scene::workcell::panda_cell(std::path::Path::new("testdata/robots/panda/panda.urdf"))
            .unwrap();
    let mut sched =
        Scheduler::new(TrackedQuery::default(), ScheduleSettings::default(), &cell.world, &cell.pairs)
            .unwrap();
    let mut t_set = Vec::new();
    let mut t_run = Vec::new();
    for rep in 0..3 {
        for c in 0..4000 {
            let t = Instant::now();
            cell.set_cycle(c).unwrap();
            let t1 = Instant::now();
            let r = sched.run_cycle(&cell.world).unwrap();
            let t2 = Instant::now();
            std::hint::black_box(r.closest);
            if rep == 2 {
                t_set.push((t1 - t).as_nanos() as f64 / 1e3);
                t_run.push((t2 - t1).as_nanos() as f64 / 1e3);
            }
        }
    }
    t_set.sort_by(f64::total_cmp);
    t_run.sort_by(f64::total_cmp);
    let p = |v: &Vec<f64>, q: f64| v[((v.len() - 1) as f64 * q) as usize];
    println!(
        "set_cycle p50 {:.1} p99 {:.1}; run_cycle p50 {:.1} p99 {:.1}",
        p(&t_set, 0.5),
        p(&t_set, 0.99),
        p(&t_run, 0.5),
        p(&t_run, 0.99)
    );
}
