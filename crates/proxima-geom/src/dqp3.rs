//! DQP3: active-set distance between half-space polyhedra (in progress).
