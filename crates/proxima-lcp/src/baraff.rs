//! Baraff-style incremental pivoting (Dantzig) with an incremental factorization (in progress).
