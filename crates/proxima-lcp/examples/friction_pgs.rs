//! A boxed LCP with friction, solved by projected Gauss–Seidel (PGS) — the form a physics
//! engine hands over.
//!
//! `cargo run -p proxima-lcp --example friction_pgs`
//!
//! Find λ with y = A λ + b and, per variable, lo ≤ λ ≤ hi and
//! λ inside its box ⇒ y = 0, λ at lo ⇒ y ≥ 0, λ at hi ⇒ y ≤ 0. A *friction index* lets a
//! variable take its bounds from another one: |λ_t| ≤ µ λ_n (ODE's box model of the Coulomb
//! cone), bounds that move with the normal impulse λ_n.
//!
//! The scene (in the x–z plane): a block of mass 1 on the ground, a second block of mass 1 on
//! top of it. Both fall at 1 m/s; the top one also slides at `slide` m/s. Two contacts, each a
//! normal and a tangent impulse: λ = (λ1n, λ1t, λ2n, λ2t), velocities v = (x1, z1, x2, z2),
//! contact Jacobian J (rows: ground normal z1, ground tangent x1, stack normal z2 − z1, stack
//! tangent x2 − x1), A = J M⁻¹ Jᵀ (coupled: the contacts share the lower block), b = J u.
//!
//! By hand with µ = 0.5: the normal impulses stop the falls (λ2n = 1, λ1n = 2). Sliding at
//! 1 m/s, the top block needs 1 N·s to stop but friction gives at most µλ2n = 0.5: it keeps
//! 0.5 m/s; the drag of 0.5 on the lower block is below its ground cap µλ1n = 1, so it stays.
//! Sliding at 0.3 m/s, friction stops the top block and the lower one holds too.

use proxima_lcp::LcpError;
use proxima_lcp::iterative::{BoxBounds, BoxedSettings, IterativeStatus, StoppingCriteria, solve_boxed_pgs};
use proxima_lcp::operator::DenseMatrix;

/// Contact Jacobian rows over the velocities (x1, z1, x2, z2).
const J: [[f64; 4]; 4] = [
    [0.0, 1.0, 0.0, 0.0],  // ground normal: z1
    [1.0, 0.0, 0.0, 0.0],  // ground tangent: x1
    [0.0, -1.0, 0.0, 1.0], // stack normal: z2 − z1
    [-1.0, 0.0, 1.0, 0.0], // stack tangent: x2 − x1
];

fn main() -> Result<(), LcpError> {
    let mu = 0.5;
    let inverse_mass = 1.0; // both blocks weigh 1
    // A = J M⁻¹ Jᵀ, row-major.
    let mut a = vec![0.0; 16];
    for i in 0..4 {
        for j in 0..4 {
            a[4 * i + j] = (0..4).map(|k| J[i][k] * inverse_mass * J[j][k]).sum();
        }
    }
    let a = DenseMatrix::from_row_major(4, a)?;
    // Normals in [0, ∞); tangents in ±µ|their normal| (the `hi` entry holds µ, the friction
    // index names the normal).
    let bounds = BoxBounds::from_findex(
        vec![0.0; 4],
        vec![f64::INFINITY, mu, f64::INFINITY, mu],
        &[None, Some(0), None, Some(2)],
    )?;
    // Stop on the natural residual ‖λ − clamp(λ − y, lo, hi)‖∞ < 1e-12: only that status
    // (`ConvergedAbsolute`) certifies an answer; the others say why the run stopped.
    let settings = BoxedSettings {
        stopping: StoppingCriteria { max_iterations: 10_000, absolute: 1e-12, ..Default::default() },
        ..Default::default()
    };
    settings.validate()?;

    for (slide, top_after) in [(1.0, 0.5), (0.3, 0.0)] {
        let u = [0.0, -1.0, slide, -1.0];
        let b: Vec<f64> = J.iter().map(|row| row.iter().zip(&u).map(|(j, u)| j * u).sum()).collect();
        let sol = solve_boxed_pgs(&a, &b, &bounds, None, &settings)?;
        // Velocity after the impulses: u + M⁻¹ Jᵀ λ.
        let v: Vec<f64> =
            (0..4).map(|k| u[k] + inverse_mass * (0..4).map(|i| J[i][k] * sol.x[i]).sum::<f64>()).collect();
        println!(
            "top block sliding at {slide}: λ = {:.6?} after {} sweeps ({:?}, residual {:.1e}); velocities after {:.6?}",
            sol.x, sol.iterations, sol.status, sol.residual.natural_inf, v
        );
        assert_eq!(sol.status, IterativeStatus::ConvergedAbsolute);
        assert!(sol.residual.natural_inf < 1e-12 && sol.residual.bound_violation <= 0.0);
        // The hand solution (PGS stops at a natural residual of 1e-12 on entries of size 1).
        let want = [0.0, 0.0, top_after, 0.0];
        assert!(
            v.iter().zip(&want).all(|(v, w)| (v - w).abs() < 1e-9),
            "velocities {v:?}, expected {want:?}"
        );
        assert!((sol.x[0] - 2.0).abs() < 1e-9 && (sol.x[2] - 1.0).abs() < 1e-9);
        // Coulomb's box holds at both contacts.
        assert!(sol.x[1].abs() <= mu * sol.x[0] + 1e-12 && sol.x[3].abs() <= mu * sol.x[2] + 1e-12);
    }

    // Bad input is an error, not a silent answer: a box with lo > hi.
    assert!(BoxBounds::new(vec![1.0], vec![0.0]).is_err());
    println!("ok: sliding and sticking match the hand solutions");
    Ok(())
}
