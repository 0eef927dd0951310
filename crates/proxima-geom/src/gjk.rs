//! Support maps, GJK distance and penetration depth for every convex pair (in progress).
