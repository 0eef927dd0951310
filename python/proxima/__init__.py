"""Proxima: certified convex proximity queries and LCP / convex QP solvers (Rust, via pyo3).

Every distance carries a proven bracket ``lower <= true distance <= upper``; every LCP answer
its residuals recomputed from the data. Bad input raises ``ProximaError`` (a ``ValueError``)
or one of its subclasses with the library's message; a non-converged run is a status, never
a silent answer.

Shapes (axes along z, centred at the origin)::

    Box(half_extents)            Sphere(radius)              Capsule(radius, half_length)
    Cylinder(radius, half_height) Cone(radius, half_height)  Ellipsoid(radii)
    ConvexHull(vertices, faces=None)  Triangle(p0, p1, p2)   Polyhedron(normals, offsets)

Poses are 4x4 homogeneous float arrays (rotation checked to 1e-6, bottom row 0 0 0 1);
``pose(translation, quaternion_wxyz)`` builds one.

Queries: ``distance(a, Ta, b, Tb, **settings)`` -> ``DistanceResult``;
``signed_distance(...)`` -> float; ``intersects(...)`` -> bool;
``distance_batch(a, Ta, b, Tb, threads=None, **settings)`` -> ``DistanceBatch`` (the GIL
released, rows in input order for any thread count); ``Tracker(a, b, **settings)`` for
warm-started tracking.

Continuous collision: ``time_of_impact(a, Ta0, Ta1, b, Tb0, Tb1, margin=0.0, **settings)`` ->
``ToiResult``: the first time the shapes come within ``margin`` while each moves from its
pose at t = 0 to its pose at t = 1 (straight-line translation, constant-axis rotation about
its origin), certified by conservative advancement (no tunnelling); ``outcome`` is
``"initial_contact"``, ``"hit"`` (contact in [t_safe, t_hit]), ``"miss"`` (proven, with the
last certified bound) or ``"undecided"``. ``time_of_impact_batch(..., threads=None)`` ->
``ToiBatch`` over (N, 4, 4) pose arrays, the GIL released.
``time_of_impact_motions(a, motion_a, b, motion_b, ...)`` takes ``RigidMotion`` objects
(a constant twist about a given centre, e.g. a hinge; ``RigidMotion.from_poses(T0, T1,
centre)``).

Query settings (keyword arguments, checked by the library):

* ``algorithm``: ``"auto"`` (default), ``"closed_form"``, ``"lcp"``, ``"gjk"``,
  ``"ellipsoid"``, ``"dqp3"`` (``"lp"``, ``"sat"`` for ``intersects``);
* ``arithmetic``: ``"certified"`` (default: f64, exact re-solve when the certificate is loose),
  ``"float"``, ``"exact"`` (LCP-formulated pairs);
* ``gap_tolerance`` (1e-9), ``touching_tolerance`` (0), ``penetration_depth`` (True: measure
  the depth of overlapping shapes), ``gjk_max_iterations`` (128), ``epa_max_iterations`` (512, the depth's
  expansion steps), ``gjk_tolerance`` (1e-10),
  ``gjk_acceleration`` (``"none"``, ``"nesterov"``, ``"polyak"``).

Robots: ``Robot.from_urdf(path, srdf=None, package_dirs=())`` (meshes as exact convex hulls,
all link pairs but parent-child ones and those the SRDF disables) with ``.distances(q)`` and
``.distances_batch(Q, threads=None)`` (the GIL released); configurations in URDF order of the
actuated, non-mimic joints (``.joint_names``).

Solvers: ``solve_lcp(M, q, method="lemke", exact=False, tol=1e-9, max_iter=None)`` with
dense or ``scipy.sparse`` M and the methods in ``LCP_METHODS`` (those of
``proxima solve --method``); ``solve_qp(H, c, A, b, A_eq, b_eq, free=..., exact=...)``.

Every object pickles to an equal object (``multiprocessing``-ready).
"""

from ._proxima import (
    ALGORITHMS,
    LCP_METHODS,
    Box,
    Capsule,
    Cone,
    ConvexHull,
    Cylinder,
    DistanceBatch,
    DistanceResult,
    Ellipsoid,
    GeomError,
    InternalError,
    LcpError,
    LcpResult,
    Polyhedron,
    ProximaError,
    QpResult,
    Robot,
    RobotBatch,
    RobotDistances,
    RigidMotion,
    RobotError,
    SceneError,
    Shape,
    Sphere,
    ToiBatch,
    ToiResult,
    Tracker,
    Triangle,
    UndecidedError,
    __version__,
    distance,
    distance_batch,
    intersects,
    pose,
    signed_distance,
    solve_lcp,
    solve_qp,
    time_of_impact,
    time_of_impact_batch,
    time_of_impact_motions,
)

__all__ = [
    "ALGORITHMS",
    "LCP_METHODS",
    "Box",
    "Capsule",
    "Cone",
    "ConvexHull",
    "Cylinder",
    "DistanceBatch",
    "DistanceResult",
    "Ellipsoid",
    "GeomError",
    "InternalError",
    "LcpError",
    "LcpResult",
    "Polyhedron",
    "ProximaError",
    "QpResult",
    "Robot",
    "RobotBatch",
    "RobotDistances",
    "RigidMotion",
    "RobotError",
    "SceneError",
    "Shape",
    "Sphere",
    "ToiBatch",
    "ToiResult",
    "Tracker",
    "Triangle",
    "UndecidedError",
    "__version__",
    "distance",
    "distance_batch",
    "intersects",
    "pose",
    "signed_distance",
    "solve_lcp",
    "solve_qp",
    "time_of_impact",
    "time_of_impact_batch",
    "time_of_impact_motions",
]
