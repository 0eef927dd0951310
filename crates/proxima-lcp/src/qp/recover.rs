//! The solve driver: Lemke on the reduced LCP, recovery of x and the multipliers, and the
//! infeasible-versus-unbounded decision after a ray termination.

use proxima_num::Field;

use super::{ConvexQp, QpMultipliers, QpSettings, QpSolution, QpStatus};
use crate::error::LcpError;
use crate::lemke::{Covering, solve_lemke};
use crate::problem::Lcp;
use crate::solution::{LcpResidual, LcpSolution, LcpStatus, SolvePath};

/// The answer of the (zero-size) LCP of a QP whose variables are all free and unconstrained.
fn empty_lcp_solution<T: Field>() -> LcpSolution<T> {
    LcpSolution {
        status: LcpStatus::Trivial,
        z: Vec::new(),
        w: Vec::new(),
        pivots: 0,
        residual: LcpResidual {
            min_map_inf: T::zero(),
            complementarity: T::zero(),
            min_z: T::zero(),
            min_w: T::zero(),
        },
        path: SolvePath::Trivial,
    }
}

fn zero_multipliers<T: Field>(qp: &ConvexQp<T>) -> QpMultipliers<T> {
    QpMultipliers {
        bounds: vec![T::zero(); qp.n()],
        inequalities: vec![T::zero(); qp.num_inequalities()],
        equalities: vec![T::zero(); qp.num_equalities()],
    }
}

/// Result of the feasibility LP "minimize 0 subject to the constraints".
enum Feasibility<T> {
    /// A feasible point.
    Feasible(Vec<T>),
    /// The constraints admit no point.
    Infeasible,
    /// The auxiliary solve stopped on its pivot limit or a numerical failure.
    Undecided(LcpStatus),
}

/// Solves the feasibility LP as LCP(M, q) with M = [[0, −G'ᵀ], [G', 0]], q = [0; −h] in the
/// variables x' = [x; x⁻_u] ≥ 0 (free x = x⁺ − x⁻, the x⁺ kept in place), G' = [G, −G_u].
/// M is skew-symmetric, hence positive semidefinite: Lemke ray-terminates only when no x'
/// is feasible.
fn feasibility<T: Field>(qp: &ConvexQp<T>, settings: &QpSettings) -> Result<Feasibility<T>, LcpError> {
    let n = qp.n();
    let (g, h) = qp.stacked_constraints();
    let mg = h.len();
    if mg == 0 {
        return Ok(Feasibility::Feasible(vec![T::zero(); n]));
    }
    let free = qp.free();
    let nx = n + free.len();
    let size = nx + mg;
    let mut mm = vec![T::zero(); size * size];
    for row in 0..mg {
        for col in 0..nx {
            let v = if col < n { g[row * n + col].clone() } else { g[row * n + free[col - n]].neg() };
            mm[col * size + nx + row] = v.neg();
            mm[(nx + row) * size + col] = v;
        }
    }
    let mut q = vec![T::zero(); nx];
    q.extend(h.iter().map(T::neg));
    let lcp = Lcp::new(mm, q)?;
    let mut lemke = settings.lemke.clone();
    lemke.covering = Covering::Ones;
    let sol = solve_lemke(&lcp, &lemke)?;
    Ok(match sol.status {
        LcpStatus::Trivial | LcpStatus::Solved => {
            let mut x = sol.z[..n].to_vec();
            for (k, &u) in free.iter().enumerate() {
                x[u] = x[u].sub(&sol.z[n + k]);
            }
            Feasibility::Feasible(x)
        }
        LcpStatus::NoSolution => Feasibility::Infeasible,
        other => Feasibility::Undecided(other),
    })
}

fn undecided(status: LcpStatus) -> QpStatus {
    match status {
        LcpStatus::MaxIterations => QpStatus::MaxIterations,
        _ => QpStatus::NumericalFailure,
    }
}

/// See [`super::solve_qp`].
pub(super) fn solve<T: Field>(qp: &ConvexQp<T>, settings: &QpSettings) -> Result<QpSolution<T>, LcpError> {
    let reduced = qp.to_lcp()?;
    settings.lemke.validate(reduced.size())?;
    let lcp_solution = match reduced.lcp() {
        Some(lcp) => solve_lemke(lcp, &settings.lemke)?,
        None => empty_lcp_solution(),
    };
    let status = match lcp_solution.status {
        LcpStatus::Trivial | LcpStatus::Solved => QpStatus::Solved,
        LcpStatus::NoSolution => {
            let (status, x) = match feasibility(qp, settings)? {
                Feasibility::Feasible(x) => (QpStatus::Unbounded, x),
                Feasibility::Infeasible => (QpStatus::Infeasible, vec![T::zero(); qp.n()]),
                Feasibility::Undecided(s) => (undecided(s), vec![T::zero(); qp.n()]),
            };
            let objective = qp.objective(&x);
            return Ok(QpSolution {
                status,
                x,
                objective,
                multipliers: zero_multipliers(qp),
                lcp: lcp_solution,
            });
        }
        other => undecided(other),
    };
    let x = reduced.recover_x(&lcp_solution.z);
    let (inequalities, equalities) = reduced.recover_multipliers(&lcp_solution.z);
    let mut bounds = qp.stationarity(&x, &inequalities, &equalities);
    for &u in qp.free() {
        bounds[u] = T::zero();
    }
    let objective = qp.objective(&x);
    Ok(QpSolution {
        status,
        x,
        objective,
        multipliers: QpMultipliers { bounds, inequalities, equalities },
        lcp: lcp_solution,
    })
}
