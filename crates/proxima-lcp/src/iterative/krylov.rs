//! Krylov sub-solvers: restarted GMRES and PCG (in progress).
