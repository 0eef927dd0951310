//! The W25 workcell against the spec's numbers (`multi-object-workcell.md` §7, §9 checks 1–2).
//!
//! Box links are exactly the spec's, so their distances must match the §7.7 spot values (printed
//! to 4 decimals: tolerance 5e-5 + rounding). Prism links are modelled by their bounding boxes
//! (the default until a polyhedron–box query exists), which contain the prisms: their distances
//! must be ≤ the spec's.

use proxima_geom::{Pose, QuerySettings, Shape, distance};
use proxima_scene::workcell::{self, PrismModel};
use proxima_scene::{Axis, Workcell};

const PRISM_LINKS: [&str; 4] = ["P2", "P4", "P7", "P10"];

fn pair_distances(cell: &Workcell) -> Vec<f64> {
    cell.pairs
        .iter()
        .map(|p| {
            let (a, b) = (cell.world.object(p.a), cell.world.object(p.b));
            distance(a.shape(), a.pose(), b.shape(), b.pose(), &QuerySettings::default()).unwrap().distance()
        })
        .collect()
}

#[test]
fn geometry_counts_and_inward_normals() {
    let arm = workcell::w25_arm(Pose::identity(), PrismModel::Exact).unwrap();
    let facets: Vec<usize> = arm
        .links
        .iter()
        .map(|l| match &l.shape {
            Shape::Cuboid(_) => 6,
            Shape::Polyhedron(p) => p.normals().len(),
            other => panic!("unexpected shape {:?}", other.kind()),
        })
        .collect();
    assert_eq!(facets, [6, 10, 6, 8, 6, 6, 8, 6, 6, 10, 6, 6, 6, 6]);
    assert_eq!(facets.iter().sum::<usize>(), 96);
    // every prism contains its centre strictly, and its bounding box contains its vertices
    for (k, axis, apothem, half) in
        [(8, Axis::Z, 0.28, 0.125), (6, Axis::Y, 0.18, 0.25), (8, Axis::X, 0.09, 0.06)]
    {
        let Shape::Polyhedron(p) = workcell::prism(k, axis, apothem, half, PrismModel::Exact).unwrap() else {
            panic!()
        };
        assert!(p.offsets().iter().all(|&d| d > 0.0));
        let Shape::Cuboid(b) = workcell::prism(k, axis, apothem, half, PrismModel::BoundingBox).unwrap()
        else {
            panic!()
        };
        let h = b.half_extents();
        for v in p.vertices() {
            for i in 0..3 {
                assert!(v[i].abs() <= h[i] + 1e-12, "vertex {v:?} outside box {h:?}");
            }
        }
        // tight: some vertex reaches every face of the box
        for i in 0..3 {
            assert!(p.vertices().iter().any(|v| (v[i].abs() - h[i]).abs() < 1e-12));
        }
    }
}

#[test]
fn reach_and_initial_tool_tip() {
    let arm = workcell::w25_arm(Pose::identity(), PrismModel::BoundingBox).unwrap();
    let mut frames = Vec::new();
    let tip = |frames: &Vec<Pose>| frames[6].transform_point(&[0.22, 0.0, 0.0].into());
    // full stretch: q2 = 90°, scan q3 for the largest horizontal reach
    let mut best: f64 = 0.0;
    for i in 0..=2000 {
        let q3 = (-90.0 + 20.0 * i as f64 / 2000.0_f64).to_radians();
        arm.frames(&[0.0, 90f64.to_radians(), q3, 0.0, 0.0, 0.0], &mut frames).unwrap();
        let p = tip(&frames);
        best = best.max(p.x.hypot(p.y));
    }
    assert!((best - 2.3008).abs() < 1e-3, "reach {best}");
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    cell.set_cycle(0).unwrap();
    let mut q = Vec::new();
    cell.robots[0].trajectory.at(0, cell.dt, &mut q);
    let deg: Vec<f64> = q.iter().map(|x| x.to_degrees()).collect();
    for (got, want) in deg.iter().zip([0.0, 65.98, 45.0, 0.0, 30.0, 0.0]) {
        assert!((got - want).abs() < 5e-3, "{deg:?}");
    }
    arm.frames(&q, &mut frames).unwrap();
    let p = tip(&frames);
    assert!((p.x - 0.797).abs() < 5e-4 && p.y.abs() < 5e-4 && (p.z - 0.195).abs() < 5e-4, "{p:?}");
}

#[test]
fn spot_values_match_the_spec() {
    // §7.7, W25 list order: P1…P14 × O, then P4…P14 × F
    let spots: [(usize, [f64; 25]); 5] = [
        (
            0,
            [
                0.7460, 0.9852, 0.7459, 0.7222, 0.5471, 0.8515, 0.4894, 0.5663, 0.1971, 0.2439, 0.2558,
                0.3739, 0.3950, 0.5054, 0.5700, 0.6587, 0.8027, 0.9546, 1.0663, 0.4515, 0.3581, 0.2713,
                0.2539, 0.1754, 0.1794,
            ],
        ),
        (
            172,
            [
                0.7460, 0.9852, 0.8350, 0.7690, 0.4679, 0.8395, 0.4293, 0.5135, 0.0473, 0.0998, 0.1486,
                0.3056, 0.3436, 0.4500, 0.5700, 0.6566, 0.8068, 0.9122, 1.0135, 0.3991, 0.3125, 0.2482,
                0.2293, 0.1878, 0.2264,
            ],
        ),
        (
            1000,
            [
                0.7460, 0.9852, 0.9580, 1.0105, 1.1587, 1.1446, 1.4384, 1.6291, 1.6391, 1.6715, 1.6872,
                1.7519, 1.7503, 1.8555, 0.5700, 0.6681, 0.7869, 1.1092, 1.3242, 0.7157, 0.6363, 0.5374,
                0.5082, 0.4145, 0.3716,
            ],
        ),
        (
            2000,
            [
                0.7460, 0.9852, 0.7459, 0.7222, 0.8684, 1.0097, 1.1625, 1.3845, 1.3194, 1.3252, 1.2935,
                1.2878, 1.2340, 1.2741, 0.5700, 0.7258, 0.7209, 1.4594, 1.5860, 1.6821, 1.7964, 1.7890,
                1.7855, 1.7340, 1.7741,
            ],
        ),
        (
            3856,
            [
                0.7460, 0.9852, 0.7807, 0.7992, 0.7681, 0.9607, 0.6833, 0.7558, 0.5101, 0.5471, 0.5326,
                0.6024, 0.6016, 0.6975, 0.5700, 0.6617, 0.7971, 1.0067, 1.1465, 0.5058, 0.4131, 0.3106,
                0.2732, 0.1791, 0.1403,
            ],
        ),
    ];
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    assert_eq!(cell.pairs.len(), 25);
    for (cycle, want) in spots {
        cell.set_cycle(cycle).unwrap();
        let got = pair_distances(&cell);
        for (i, p) in cell.pairs.iter().enumerate() {
            let link = &cell.world.object(p.a).name;
            if PRISM_LINKS.contains(&link.as_str()) {
                assert!(
                    got[i] <= want[i] + 5e-5,
                    "cycle {cycle} pair {i} ({link}): {} > {}",
                    got[i],
                    want[i]
                );
            } else {
                assert!(
                    (got[i] - want[i]).abs() <= 5.1e-5,
                    "cycle {cycle} pair {i} ({link}): {} vs {}",
                    got[i],
                    want[i]
                );
            }
        }
    }
}

#[test]
fn w22_pair_list() {
    let cell = workcell::w25(PrismModel::BoundingBox, true).unwrap();
    assert_eq!(cell.pairs.len(), 22);
    let floor_links: Vec<&str> = cell
        .pairs
        .iter()
        .filter(|p| cell.world.object(p.b).name == "F")
        .map(|p| cell.world.object(p.a).name.as_str())
        .collect();
    assert_eq!(floor_links, ["P7", "P8", "P9", "P10", "P11", "P12", "P13", "P14"]);
}

/// The global minimum 0.047254 m (P9–O at t = 0.172 s) and the floor minimum 0.140298 m
/// (P14–F at t = 3.856 s) over one period, both box–box pairs: ±1e-5 m and ±1 ms (§9 check 2).
#[test]
fn period_minima_of_the_box_pairs() {
    let mut cell = workcell::w25(PrismModel::BoundingBox, false).unwrap();
    let find = |cell: &Workcell, a: &str, b: &str| {
        cell.pairs
            .iter()
            .position(|p| cell.world.object(p.a).name == a && cell.world.object(p.b).name == b)
            .unwrap()
    };
    let (i9, i14) = (find(&cell, "P9", "O"), find(&cell, "P14", "F"));
    let mut best = [(f64::INFINITY, 0usize); 2];
    for c in 0..4000 {
        cell.set_cycle(c).unwrap();
        for (k, idx) in [i9, i14].into_iter().enumerate() {
            let p = cell.pairs[idx];
            let (a, b) = (cell.world.object(p.a), cell.world.object(p.b));
            let d = distance(a.shape(), a.pose(), b.shape(), b.pose(), &QuerySettings::default())
                .unwrap()
                .distance();
            if d < best[k].0 {
                best[k] = (d, c);
            }
        }
    }
    assert!((best[0].0 - 0.047254).abs() < 1e-5 && best[0].1.abs_diff(172) <= 1, "{:?}", best[0]);
    assert!((best[1].0 - 0.140298).abs() < 1e-5 && best[1].1.abs_diff(3856) <= 1, "{:?}", best[1]);
}
