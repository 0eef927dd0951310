//! Splitting methods: projected Jacobi, PGS, PSOR, QP-based PGS (in progress).
