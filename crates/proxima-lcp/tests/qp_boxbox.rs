//! Example 6 of Eberly, "Convex Quadratic Programming" (§3.1): the distance between two
//! oriented boxes in 3D as a convex QP, x = (ξ0, ξ1) ∈ ℝ⁶,
//!
//! ```text
//! A = [[I, −R0ᵀR1], [−R1ᵀR0, I]],  b = [−R0ᵀΔ; R1ᵀΔ],  c = ½|Δ|²,  D = −I,  e = −(ℓ0; ℓ1),
//! ```
//!
//! Δ = K1 − K0. Checks that `ConvexQp::to_lcp` is exactly (bit for bit in f64, exactly in
//! Rational) the reference's direct 12 × 12 LCP M = [[A, −Dᵀ], [D, 0]], q = [b; −e], and that
//! the optimum √(2f) is right: witness points reproduce it, the KKT conditions hold (exactly in
//! Rational), and no sampled pair of box points is closer.

use proxima_lcp::qp::{ConvexQp, QpSettings, QpStatus, solve_qp};
use proxima_lcp::{Field, Rational};
use rand::rngs::SmallRng;
use rand::{Rng, SeedableRng};

type M3<T> = [[T; 3]; 3];

struct OrientedBox<T> {
    /// The corner K.
    corner: [T; 3],
    /// Columns are the axes U_j.
    rot: M3<T>,
    /// Edge lengths ℓ.
    len: [T; 3],
}

/// The rotation of the quaternion (w, x, y, z), not necessarily unit: exactly orthogonal in an
/// exact field.
fn rotation<T: Field>(q: [T; 4]) -> M3<T> {
    let [w, x, y, z] = q;
    let s = w.mul(&w).add(&x.mul(&x)).add(&y.mul(&y)).add(&z.mul(&z));
    let two = T::from_i64(2);
    let sq = |a: &T| a.mul(a);
    let tw = |a: &T, b: &T, c: &T, d: &T| two.mul(&a.mul(b).add(&c.mul(d)));
    let m = [
        [sq(&w).add(&sq(&x)).sub(&sq(&y)).sub(&sq(&z)), tw(&x, &y, &w.neg(), &z), tw(&x, &z, &w, &y)],
        [tw(&x, &y, &w, &z), sq(&w).sub(&sq(&x)).add(&sq(&y)).sub(&sq(&z)), tw(&y, &z, &w.neg(), &x)],
        [tw(&x, &z, &w.neg(), &y), tw(&y, &z, &w, &x), sq(&w).sub(&sq(&x)).sub(&sq(&y)).add(&sq(&z))],
    ];
    m.map(|row| row.map(|v| v.div(&s)))
}

fn random_box<T: Field>(rng: &mut SmallRng) -> OrientedBox<T> {
    let q: [T; 4] = if T::EXACT {
        // Integer quaternions give exactly orthogonal rational rotations.
        loop {
            let q = [0; 4].map(|_| rng.random_range(-6i64..=6));
            if q.iter().any(|&v| v != 0) {
                break q.map(T::from_i64);
            }
        }
    } else {
        [0; 4].map(|_| T::from_f64(rng.random_range(-1.0..1.0)).unwrap())
    };
    let frac = |rng: &mut SmallRng, lo: i64, hi: i64| {
        if T::EXACT {
            T::from_i64(rng.random_range(lo * 4..=hi * 4)).div(&T::from_i64(4))
        } else {
            T::from_f64(rng.random_range(lo as f64..hi as f64)).unwrap()
        }
    };
    OrientedBox {
        corner: [0; 3].map(|_| frac(rng, -3, 3)),
        rot: rotation(q),
        len: [0; 3].map(|_| frac(rng, 1, 3)),
    }
}

/// (A 6×6, b, c, D 6×6, e) of equations (39)–(40).
fn box_box_data<T: Field>(b0: &OrientedBox<T>, b1: &OrientedBox<T>) -> (Vec<T>, Vec<T>, T, Vec<T>, Vec<T>) {
    let delta: [T; 3] = [0, 1, 2].map(|i| b1.corner[i].sub(&b0.corner[i]));
    let mut a = vec![T::zero(); 36];
    for i in 0..3 {
        a[i * 6 + i] = T::one();
        a[(i + 3) * 6 + i + 3] = T::one();
        for j in 0..3 {
            // (R0ᵀR1)_ij = U0_i · U1_j.
            let mut dot = T::zero();
            for k in 0..3 {
                dot.add_mul_assign(&b0.rot[k][i], &b1.rot[k][j]);
            }
            a[i * 6 + j + 3] = dot.neg();
            a[(j + 3) * 6 + i] = dot.neg();
        }
    }
    let mut b = vec![T::zero(); 6];
    for i in 0..3 {
        for k in 0..3 {
            b[i].sub_mul_assign(&b0.rot[k][i], &delta[k]);
            b[i + 3].add_mul_assign(&b1.rot[k][i], &delta[k]);
        }
    }
    let c = delta.iter().fold(T::zero(), |acc, v| acc.add(&v.mul(v))).div(&T::from_i64(2));
    let mut d = vec![T::zero(); 36];
    for i in 0..6 {
        d[i * 6 + i] = T::one().neg();
    }
    let e: Vec<T> = b0.len.iter().chain(&b1.len).map(T::neg).collect();
    (a, b, c, d, e)
}

fn same_bits<T: Field>(x: &T, y: &T) -> bool {
    if T::EXACT { x == y } else { x.to_f64().to_bits() == y.to_f64().to_bits() }
}

fn point<T: Field>(bx: &OrientedBox<T>, xi: &[T]) -> [T; 3] {
    [0, 1, 2].map(|i| {
        let mut p = bx.corner[i].clone();
        for j in 0..3 {
            p.add_mul_assign(&bx.rot[i][j], &xi[j]);
        }
        p
    })
}

fn check_box_box<T: Field>(seed: u64, trials: usize) {
    let mut rng = SmallRng::seed_from_u64(seed);
    let mut separated = 0;
    for trial in 0..trials {
        let b0 = random_box::<T>(&mut rng);
        let b1 = random_box::<T>(&mut rng);
        let (a, b, c, d, e) = box_box_data(&b0, &b1);
        let qp =
            ConvexQp::new(a.clone(), b.clone(), c).unwrap().with_inequalities(d.clone(), e.clone()).unwrap();

        // The reference's direct construction of the 12 × 12 LCP.
        let mut m_ref = vec![T::zero(); 144];
        for i in 0..6 {
            for j in 0..6 {
                m_ref[i * 12 + j] = a[i * 6 + j].clone();
                m_ref[i * 12 + 6 + j] = d[j * 6 + i].neg();
                m_ref[(6 + i) * 12 + j] = d[i * 6 + j].clone();
            }
        }
        let q_ref: Vec<T> = b.iter().cloned().chain(e.iter().map(T::neg)).collect();
        let reduced = qp.to_lcp().unwrap();
        let lcp = reduced.lcp().unwrap();
        assert_eq!(lcp.n(), 12);
        assert!(lcp.m().iter().zip(&m_ref).all(|(x, y)| same_bits(x, y)), "trial {trial}: M differs");
        assert!(lcp.q().iter().zip(&q_ref).all(|(x, y)| same_bits(x, y)), "trial {trial}: q differs");

        let s = solve_qp(&qp, &QpSettings::default()).unwrap();
        assert_eq!(s.status, QpStatus::Solved, "trial {trial} ({})", T::NAME);
        let tol = if T::EXACT { 0.0 } else { 1e-9 };
        let scale = 1.0 + qp.c().to_f64();
        // Feasibility 0 ≤ ξ ≤ ℓ, multipliers and complementarity.
        let y = &s.multipliers.inequalities;
        let mu = &s.multipliers.bounds;
        for i in 0..6 {
            let slack = s.x[i].add(&e[i]).neg(); // ℓ_i − x_i
            assert!(s.x[i].to_f64() >= -tol && slack.to_f64() >= -tol * scale, "trial {trial}: x infeasible");
            assert!(y[i].to_f64() >= -tol * scale && mu[i].to_f64() >= -tol * scale, "trial {trial}: sign");
            let c1 = s.x[i].mul(&mu[i]).to_f64().abs();
            let c2 = y[i].mul(&slack).to_f64().abs();
            assert!(c1 <= tol * scale && c2 <= tol * scale, "trial {trial}: complementarity {c1} {c2}");
            if T::EXACT {
                assert!(s.x[i].mul(&mu[i]).is_zero() && y[i].mul(&slack).is_zero());
            }
        }
        // Stationarity from the data: μ = A x + b − Dᵀy is what was returned.
        assert_eq!(qp.stationarity(&s.x, y, &[]), *mu);

        // The witness points reproduce the objective: |P0 − P1|² = 2f.
        let p0 = point(&b0, &s.x[..3]);
        let p1 = point(&b1, &s.x[3..]);
        let dist2 = (0..3).fold(T::zero(), |acc, i| {
            let di = p0[i].sub(&p1[i]);
            acc.add(&di.mul(&di))
        });
        let two_f = s.objective.mul(&T::from_i64(2));
        if T::EXACT {
            assert_eq!(dist2, two_f, "trial {trial}");
        } else {
            assert!((dist2.to_f64() - two_f.to_f64()).abs() <= 1e-9 * scale, "trial {trial}");
        }
        let dist = two_f.to_f64().max(0.0).sqrt();
        if dist > 1e-6 {
            separated += 1;
        }

        // Independent upper-bound check: no sampled pair of box points is closer.
        let to64 = |bx: &OrientedBox<T>| OrientedBox {
            corner: bx.corner.clone().map(|v| v.to_f64()),
            rot: bx.rot.clone().map(|r| r.map(|v| v.to_f64())),
            len: bx.len.clone().map(|v| v.to_f64()),
        };
        let (f0, f1) = (to64(&b0), to64(&b1));
        let sample = |bx: &OrientedBox<f64>, rng: &mut SmallRng| {
            let xi: Vec<f64> = (0..3)
                .map(|j| match rng.random_range(0..4) {
                    0 => 0.0,
                    1 => bx.len[j],
                    _ => rng.random_range(0.0..=bx.len[j]),
                })
                .collect();
            point(bx, &xi)
        };
        for _ in 0..300 {
            let (u, v) = (sample(&f0, &mut rng), sample(&f1, &mut rng));
            let sd = (0..3).map(|i| (u[i] - v[i]).powi(2)).sum::<f64>().sqrt();
            assert!(sd >= dist - 1e-9, "trial {trial}: sampled distance {sd} < {dist}");
        }
    }
    assert!(separated > trials / 4, "too few separated configurations: {separated}/{trials}");
}

#[test]
fn box_box_f64() {
    check_box_box::<f64>(1, 150);
}

#[test]
fn box_box_rational() {
    check_box_box::<Rational>(2, 30);
}

/// Two axis-aligned unit cubes 3 apart along x (distance 2) and overlapping cubes (distance 0).
fn axis_aligned<T: Field>() {
    let id = [[1, 0, 0], [0, 1, 0], [0, 0, 1]].map(|r| r.map(T::from_i64));
    let cube = |x: i64| OrientedBox {
        corner: [x, 0, 0].map(T::from_i64),
        rot: id.clone(),
        len: [1, 1, 1].map(T::from_i64),
    };
    let (a, b, c, d, e) = box_box_data(&cube(0), &cube(3));
    let qp = ConvexQp::new(a, b, c).unwrap().with_inequalities(d, e).unwrap();
    let s = solve_qp(&qp, &QpSettings::default()).unwrap();
    assert_eq!(s.status, QpStatus::Solved);
    assert_eq!(s.objective, T::from_i64(2)); // ½ · 2²
    assert_eq!(s.x[0], T::one());
    assert_eq!(s.x[3], T::zero());
    let (a, b, c, d, e) = box_box_data(&cube(0), &cube(0));
    let qp = ConvexQp::new(a, b, c).unwrap().with_inequalities(d, e).unwrap();
    let s = solve_qp(&qp, &QpSettings::default()).unwrap();
    assert_eq!(s.status, QpStatus::Solved);
    assert_eq!(s.objective, T::zero());
}

#[test]
fn box_box_axis_aligned() {
    axis_aligned::<f64>();
    axis_aligned::<Rational>();
}
