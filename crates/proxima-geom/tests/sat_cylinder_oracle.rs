//! Cylinder–cylinder separating-axis test against an independent oracle: inner and outer
//! regular-prism approximations of each cylinder (inscribed n-gon prism ⊂ cylinder ⊂
//! circumscribed n-gon prism), compared by the separating-axis test for polytopes (face
//! normals and edge cross products — exact for polytopes). If the inner prisms overlap (by a
//! margin), the cylinders intersect; if the outer prisms are separated (by a margin), the
//! cylinders are separated; otherwise the pair is undecided and counted. Also the shared
//! `cylinders` workload, the spec's ablation check (§23) and the certificates of every answer.

use std::f64::consts::PI;

use nalgebra::{Point3, Vector3};
use proxima_geom::Pose;
use proxima_geom::sat_cylinder::{
    CylinderGeom, CylinderSat, CylinderSatSettings, SatStage, intersects_cylinder_cylinder,
    intersects_cylinder_cylinder_raw,
};
use proxima_geom::shape::Cylinder;
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type V3 = Vector3<f64>;

/// Sides of the oracle prisms.
const N: usize = 64;
/// The oracle decides only with this margin (a length).
const ORACLE_MARGIN: f64 = 1e-7;

/// A regular N-gon prism around a cylinder's axis: vertices at angles 2πk/N, radius `rho`.
struct Prism {
    c: Point3<f64>,
    u: V3,
    v: V3,
    w: V3,
    rho: f64,
    h: f64,
}

impl Prism {
    fn new(c: &CylinderGeom, outer: bool) -> Self {
        let w = c.axis;
        let e = if w.x.abs() < 0.6 { V3::x() } else { V3::y() };
        let u = w.cross(&e).normalize();
        let v = w.cross(&u);
        let rho = if outer { c.radius / (PI / N as f64).cos() } else { c.radius };
        Prism { c: c.center, u, v, w, rho, h: c.half_height }
    }

    /// Half-width of the projection onto d (closed form for the regular polygon).
    fn half_extent(&self, d: &V3) -> f64 {
        let (du, dv) = (d.dot(&self.u), d.dot(&self.v));
        let m = (du * du + dv * dv).sqrt();
        let step = 2.0 * PI / N as f64;
        let phi = dv.atan2(du);
        let delta = phi - step * (phi / step).round();
        self.h * d.dot(&self.w).abs() + self.rho * m * delta.cos()
    }

    /// Face normals (caps + N/2 side normals up to sign) and edge directions (axis + N/2 side
    /// edges up to sign).
    fn normals_and_edges(&self) -> (Vec<V3>, Vec<V3>) {
        let step = 2.0 * PI / N as f64;
        let mut normals = vec![self.w];
        let mut edges = vec![self.w];
        for k in 0..N / 2 {
            let a = step * (k as f64 + 0.5);
            normals.push(self.u * a.cos() + self.v * a.sin());
            edges.push(self.u * (-a.sin()) + self.v * a.cos());
        }
        (normals, edges)
    }
}

/// Separating-axis test of two prisms: the largest gap over all candidate axes (> 0:
/// separated by that much along a unit axis; ≤ 0: intersecting, −gap = least overlap).
fn prism_gap(p: &Prism, q: &Prism, stop_above: f64) -> f64 {
    let (n0, e0) = p.normals_and_edges();
    let (n1, e1) = q.normals_and_edges();
    let delta = q.c - p.c;
    let mut best = f64::NEG_INFINITY;
    let mut test = |d: V3| {
        let n = d.norm();
        if n < 1e-9 {
            return false;
        }
        let d = d / n;
        let gap = d.dot(&delta).abs() - p.half_extent(&d) - q.half_extent(&d);
        best = best.max(gap);
        best > stop_above
    };
    for d in n0.iter().chain(n1.iter()) {
        if test(*d) {
            return best;
        }
    }
    for a in &e0 {
        for b in &e1 {
            if test(a.cross(b)) {
                return best;
            }
        }
    }
    best
}

#[derive(Debug, Clone, Copy, PartialEq)]
enum Oracle {
    Separated,
    Intersecting,
    Undecided,
}

fn oracle(a: &CylinderGeom, b: &CylinderGeom) -> Oracle {
    if prism_gap(&Prism::new(a, true), &Prism::new(b, true), ORACLE_MARGIN) > ORACLE_MARGIN {
        return Oracle::Separated;
    }
    if prism_gap(&Prism::new(a, false), &Prism::new(b, false), f64::INFINITY) < -ORACLE_MARGIN {
        return Oracle::Intersecting;
    }
    Oracle::Undecided
}

/// The certificate of an answer, checked with the closed-form projections / distances.
fn verify(a: &CylinderGeom, b: &CylinderGeom, r: &CylinderSat) {
    let scale = 1.0 + a.radius + b.radius + a.half_height + b.half_height + (b.center - a.center).norm();
    match *r {
        CylinderSat::Separated { direction, margin, .. } => {
            assert!((direction.norm() - 1.0).abs() < 1e-12);
            let (_, amax) = a.projection(&direction);
            let (bmin, _) = b.projection(&direction);
            assert!(bmin - amax > 0.0, "direction does not separate: gap {}", bmin - amax);
            assert!((bmin - amax - margin).abs() <= 1e-12 * scale);
        }
        CylinderSat::Intersecting { point, residual } => {
            let r = a.distance_to_point(&point).max(b.distance_to_point(&point));
            assert_eq!(r, residual);
            assert!(residual <= 1e-9 * scale, "common point residual {residual}");
        }
    }
}

fn unit(rng: &mut SmallRng) -> V3 {
    loop {
        let v =
            V3::new(rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0), rng.random_range(-1.0..1.0));
        let n = v.norm();
        if n > 0.1 && n <= 1.0 {
            return v / n;
        }
    }
}

fn gaussian(rng: &mut SmallRng) -> f64 {
    // Box–Muller.
    let u1: f64 = rng.random_range(f64::MIN_POSITIVE..1.0);
    let u2: f64 = rng.random_range(0.0..1.0);
    (-2.0 * u1.ln()).sqrt() * (2.0 * PI * u2).cos()
}

/// Spec §23 distribution: random unit axes, r ∈ [0.1, 2], h ∈ [0.1, 4] (full height),
/// C₁ Gaussian scaled by U(0.5, 4), C₀ = 0.
fn random_pair(rng: &mut SmallRng) -> (CylinderGeom, CylinderGeom) {
    let cyl = |rng: &mut SmallRng, c: [f64; 3]| {
        let w = unit(rng);
        CylinderGeom::new(c, w.into(), rng.random_range(0.1..2.0), rng.random_range(0.1..4.0) / 2.0).unwrap()
    };
    let a = cyl(rng, [0.0; 3]);
    let k = rng.random_range(0.5..4.0);
    let c1 = [gaussian(rng) * k, gaussian(rng) * k, gaussian(rng) * k];
    let b = cyl(rng, c1);
    (a, b)
}

#[test]
fn random_pairs_agree_with_prism_oracle() {
    let mut rng = SmallRng::seed_from_u64(23);
    let s = CylinderSatSettings::default();
    let off = CylinderSatSettings { search_other_directions: false, ..Default::default() };
    let (mut sep, mut int, mut undecided, mut other_only, mut ablation_misses) = (0, 0, 0, 0, 0);
    let n = 4000;
    for _ in 0..n {
        let (a, b) = random_pair(&mut rng);
        let r = intersects_cylinder_cylinder_raw(&a, &b, &s).unwrap();
        verify(&a, &b, &r);
        match oracle(&a, &b) {
            Oracle::Separated => {
                sep += 1;
                assert!(r.is_separated(), "oracle: separated; got {r:?} for {a:?} {b:?}");
            }
            Oracle::Intersecting => {
                int += 1;
                assert!(!r.is_separated(), "oracle: intersecting; got {r:?} for {a:?} {b:?}");
            }
            Oracle::Undecided => undecided += 1,
        }
        // Swapping the cylinders does not change the verdict.
        let r2 = intersects_cylinder_cylinder_raw(&b, &a, &s).unwrap();
        verify(&b, &a, &r2);
        assert_eq!(r.is_separated(), r2.is_separated());
        // Ablation: without the other-directions search only its own pairs are lost.
        let is_other = matches!(r, CylinderSat::Separated { stage: SatStage::OtherDirections, .. });
        other_only += is_other as usize;
        let r_off = intersects_cylinder_cylinder_raw(&a, &b, &off).unwrap();
        if r_off.is_separated() != r.is_separated() {
            assert!(is_other, "ablation changed a pair not found by the other-directions search");
            ablation_misses += 1;
        }
    }
    eprintln!(
        "random pairs: {n}; oracle separated {sep}, intersecting {int}, undecided {undecided}; \
         separated only by other directions: {other_only} (ablation misses {ablation_misses})"
    );
    assert_eq!(sep + int + undecided, n);
    assert!(undecided * 50 < n, "too many undecided pairs: {undecided}");
    assert_eq!(other_only, ablation_misses);
}

/// Random near-contact pairs: b is moved along a random direction until the cylinders just
/// touch (bisection on the verdict), then offset by ±1e-6 — the verdict must follow the
/// offset, and every certificate must hold.
#[test]
fn near_contact_pairs_have_certificates() {
    let mut rng = SmallRng::seed_from_u64(24);
    let s = CylinderSatSettings::default();
    for _ in 0..60 {
        let (a, b) = random_pair(&mut rng);
        let dir = unit(&mut rng);
        let at = |t: f64| CylinderGeom { center: a.center + dir * t, ..b };
        let (mut lo, mut hi) = (0.0, 20.0);
        if intersects_cylinder_cylinder_raw(&a, &at(lo), &s).unwrap().is_separated() {
            continue;
        }
        for _ in 0..60 {
            let m = 0.5 * (lo + hi);
            if intersects_cylinder_cylinder_raw(&a, &at(m), &s).unwrap().is_separated() {
                hi = m;
            } else {
                lo = m;
            }
        }
        let out = at(hi + 1e-6);
        let inn = at(lo - 1e-6);
        let r = intersects_cylinder_cylinder_raw(&a, &out, &s).unwrap();
        verify(&a, &out, &r);
        assert!(r.is_separated());
        let r = intersects_cylinder_cylinder_raw(&a, &inn, &s).unwrap();
        verify(&a, &inn, &r);
        assert!(!r.is_separated());
        // Away from exact contact both touching conventions agree.
        let t = CylinderSatSettings { touching_is_separated: true, ..Default::default() };
        assert!(intersects_cylinder_cylinder_raw(&a, &out, &t).unwrap().is_separated());
        assert!(!intersects_cylinder_cylinder_raw(&a, &inn, &t).unwrap().is_separated());
    }
}

#[test]
fn workload_cylinders_agree_with_prism_oracle() {
    let path = concat!(env!("CARGO_MANIFEST_DIR"), "/../../testdata/geometry/workloads/cylinders.json");
    // The vendored extract of the harness workload (every 8th query, testdata/geometry/README.md).
    let text = std::fs::read_to_string(path).unwrap_or_else(|e| panic!("{path}: {e}"));
    let v: serde_json::Value = serde_json::from_str(&text).unwrap();
    let shapes: std::collections::HashMap<&str, Cylinder> = v["shapes"]
        .as_array()
        .unwrap()
        .iter()
        .map(|s| {
            let c = Cylinder::new(s["radius"].as_f64().unwrap(), s["half_height"].as_f64().unwrap()).unwrap();
            (s["id"].as_str().unwrap(), c)
        })
        .collect();
    let pose = |p: &serde_json::Value| {
        let f = |x: &serde_json::Value| x.as_f64().unwrap();
        let t = &p["translation"];
        let r = &p["rotation"];
        Pose::new(
            core::array::from_fn(|i| core::array::from_fn(|j| f(&r[i][j]))),
            core::array::from_fn(|i| f(&t[i])),
        )
        .unwrap()
    };
    let s = CylinderSatSettings::default();
    let (mut sep, mut int, mut undecided, mut intersecting) = (0, 0, 0, 0);
    let queries = v["queries"].as_array().unwrap();
    for q in queries {
        let (ca, cb) = (&shapes[q["a"].as_str().unwrap()], &shapes[q["b"].as_str().unwrap()]);
        let (pa, pb) = (pose(&q["pose_a"]), pose(&q["pose_b"]));
        let r = intersects_cylinder_cylinder(ca, &pa, cb, &pb, &s).unwrap();
        let (a, b) = (CylinderGeom::from_shape(ca, &pa), CylinderGeom::from_shape(cb, &pb));
        verify(&a, &b, &r);
        intersecting += (!r.is_separated()) as usize;
        match oracle(&a, &b) {
            Oracle::Separated => {
                sep += 1;
                assert!(r.is_separated(), "workload: oracle separated, got {r:?}");
            }
            Oracle::Intersecting => {
                int += 1;
                assert!(!r.is_separated(), "workload: oracle intersecting, got {r:?}");
            }
            Oracle::Undecided => {
                undecided += 1;
                // Explain: the oracle's bracket is within the prisms' approximation error,
                // i.e. the pair is within ~r(1/cos(π/N) − 1) of contact.
                let outer = prism_gap(&Prism::new(&a, true), &Prism::new(&b, true), f64::INFINITY);
                let inner = prism_gap(&Prism::new(&a, false), &Prism::new(&b, false), f64::INFINITY);
                let band = (a.radius + b.radius) * (1.0 / (PI / N as f64).cos() - 1.0);
                eprintln!(
                    "undecided: outer-prism gap {outer:e}, inner-prism gap {inner:e}, band {band:e}, ours {r:?}"
                );
                assert!(outer <= ORACLE_MARGIN && inner >= -ORACLE_MARGIN && inner - outer <= band + 1e-12);
            }
        }
    }
    eprintln!(
        "workload cylinders: {} queries; ours intersecting {intersecting}; oracle separated {sep}, \
         intersecting {int}, undecided {undecided}",
        queries.len()
    );
    assert_eq!(sep + int + undecided, queries.len());
}
