//! A general primal active-set solver for convex QPs with inequality constraints (in progress).
