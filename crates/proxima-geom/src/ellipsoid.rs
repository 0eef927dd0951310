//! Ellipsoid distance queries (in progress).
