//! One file per shape pair (parry's naming rule: `distance_<a>_<b>.rs`, the simpler shape
//! first), plus `lcp`, the adapter from shapes and poses to the LCP kernels of
//! [`crate::lcp_queries`].
//!
//! | file | pairs |
//! |---|---|
//! | `box_box_depth` | box – box overlapping: depth by the 15 separating axes, proven bracket (signed distance) |
//! | `distance_segment_segment` | every pair of point, segment, line (and sphere, capsule around them) |
//! | `distance_point_cuboid` | point (sphere) – cuboid / aligned box |
//! | `distance_point_cylinder` | point (sphere) – cylinder |
//! | `distance_segment_box` | segment (capsule) – cuboid / aligned box when apart (else GJK) |
//! | `distance_segment_triangle` | point / segment (sphere / capsule) – triangle when apart (else GJK) |
//! | `distance_triangle_box` | triangle – cuboid / aligned box when apart (else the LCP kernel) |
//! | `distance_triangle_triangle` | triangle – triangle when apart (else GJK) |
//! | `distance_flat_cylinder` | box / triangle – cylinder when apart and a candidate feature pair is certified (else GJK) |
//! | `distance_cylinder_cylinder` | cylinder – cylinder / capsule when the sides are closest (else GJK) |
//! | `gjk` | every pair of bounded shapes (GJK + EPA on the cores) |
//! | `lcp` | box–box, triangle–box, segment/line–triangle, point–polytope, triangle–cylinder (test) |

pub(crate) mod box_box_depth;
pub(crate) mod distance_cylinder_cylinder;
pub(crate) mod distance_flat_cylinder;
pub(crate) mod distance_point_cuboid;
pub(crate) mod distance_point_cylinder;
pub(crate) mod distance_segment_box;
pub(crate) mod distance_segment_segment;
pub(crate) mod distance_segment_triangle;
pub(crate) mod distance_triangle_box;
pub(crate) mod distance_triangle_triangle;
pub(crate) mod dqp3;
pub(crate) mod ellipsoid;
pub(crate) mod gjk;
pub(crate) mod lcp;
