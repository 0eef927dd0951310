"""time_of_impact and time_of_impact_batch: analytic times of impact (head-on spheres, a
turning bar, a pellet through a thin plate, a turning thin plate), proven misses with their
certified bound, initial contact with the depth, the vendored CCD slice against its oracle,
batch rows equal to single calls bit for bit for any thread count, bad input, pickling."""

import json
import math
import pickle

import numpy as np
import pytest

import proxima

from conftest import TESTDATA, random_pose, sphere_points
from test_batch import python_steps_in_the_middle

# The library's default distance tolerance is 1e-9 × the pair's size (the sum of the shapes'
# radii about their origins, ~1 here) and its time tolerance 1e-9 of the interval: a hit's
# bracket [t_safe, t_hit] holds the true time, and t_hit is within distance 1e-9 × size of
# contact, i.e. within 1e-9 × size / (closing speed) in time. The speeds below are ≥ 1, the
# sizes ≤ 2: 1e-8 leaves a factor 5 over that.
TIME_TOL = 1e-8


def translation(x, y=0.0, z=0.0):
    return proxima.pose([x, y, z])


def rotation_about(axis, angle, t=(0.0, 0.0, 0.0)):
    """A 4x4 pose: rotation by `angle` about the unit `axis`, then the translation t."""
    axis = np.asarray(axis, dtype=float)
    axis /= np.linalg.norm(axis)
    q = np.concatenate([[math.cos(angle / 2)], math.sin(angle / 2) * axis])
    return proxima.pose(t, q)


def assert_brackets(r, exact):
    """A hit whose bracket [t_safe, t_hit] holds `exact` to TIME_TOL."""
    assert r.outcome == "hit" and r.status == "converged", r
    assert r.toi == r.t_safe
    assert r.t_safe <= r.t_hit
    assert r.t_safe <= exact + TIME_TOL and exact - TIME_TOL <= r.t_hit, (r, exact)
    assert abs(r.toi - exact) <= TIME_TOL, (r.toi, exact)


def test_head_on_spheres_hit_at_the_exact_time():
    # Centres approach along x from 6 apart at relative speed 6 (a: -3 → 3, b at rest):
    # contact when they are r_a + r_b = 0.75 apart, at t = (3 - 0.75) / 6.
    a, b = proxima.Sphere(0.5), proxima.Sphere(0.25)
    r = proxima.time_of_impact(a, translation(-3), translation(3), b, np.eye(4), np.eye(4))
    exact = (3 - 0.75) / 6
    assert_brackets(r, exact)
    # Witnesses at t_hit: the contact point is where the spheres meet, on the x axis.
    x_a = -3 + 6 * r.t_hit
    np.testing.assert_allclose(r.point_a, [x_a + 0.5, 0, 0], atol=1e-12)
    np.testing.assert_allclose(r.point_b, [-0.25, 0, 0], atol=1e-12)
    np.testing.assert_allclose(r.normal, [1, 0, 0], atol=1e-12)
    # The distance bracket at t_hit: within the tolerance of contact, lower <= upper.
    assert 0 <= r.lower <= r.upper <= 1e-9 * 0.75
    assert r.depth is None and r.last_lower is None and r.last_time is None
    # Both moving, towards each other, with a margin: contact when 0.75 + 0.1 apart.
    r = proxima.time_of_impact(a, translation(-3), translation(0), b, translation(3), translation(0), margin=0.1)
    assert_brackets(r, (6 - 0.85) / 6)
    assert 0.1 - 1e-12 <= r.upper <= 0.1 + 1e-9


def test_a_turning_bar_hits_a_sphere_at_the_exact_angle():
    # A bar (half extents 1, 0.1, 0.1) turns about z from 0 to 90 degrees; a ball of radius 0.2
    # sits at (0, 0.8, 0). At angle θ the ball's centre is 0.8 cos θ from the bar's axis (and
    # 0.8 sin θ ≤ 1 along it, inside the bar's length): contact at 0.8 cos θ = 0.1 + 0.2.
    bar, ball = proxima.Box([1.0, 0.1, 0.1]), proxima.Sphere(0.2)
    quarter = rotation_about([0, 0, 1], math.pi / 2)
    at = translation(0, 0.8)
    r = proxima.time_of_impact(bar, np.eye(4), quarter, ball, at, at)
    theta = math.acos(0.3 / 0.8)
    assert 0.8 * math.sin(theta) <= 1
    # Angular speed π/2, reach 1: closing speed ≥ 0.8 sin θ · π/2 ≈ 1.2.
    assert_brackets(r, theta / (math.pi / 2))
    np.testing.assert_allclose(r.normal, [-math.sin(theta), math.cos(theta), 0], atol=1e-7)
    # Swapping the shapes swaps the witnesses and flips the normal; the time is the same.
    s = proxima.time_of_impact(ball, at, at, bar, np.eye(4), quarter)
    assert_brackets(s, theta / (math.pi / 2))
    np.testing.assert_allclose(s.normal, -r.normal, atol=1e-7)


def test_a_pellet_through_a_thin_plate_is_a_hit_not_a_tunnel():
    # A 2 mm plate at rest; a 1 cm pellet from 20 below it to 20 above in one step: both end
    # poses are far from the plate (sampling the ends alone would miss the contact).
    plate, pellet = proxima.Box([1.0, 1.0, 0.001]), proxima.Sphere(0.01)
    below, above = translation(0, 0, -20), translation(0, 0, 20)
    assert proxima.distance(plate, np.eye(4), pellet, below).lower > 19
    assert proxima.distance(plate, np.eye(4), pellet, above).lower > 19
    r = proxima.time_of_impact(plate, np.eye(4), np.eye(4), pellet, below, above)
    # Contact when the pellet's centre is 0.011 below the plate's centre plane.
    assert_brackets(r, (20 - 0.011) / 40)
    np.testing.assert_allclose(r.normal, [0, 0, -1], atol=1e-12)


def test_a_turning_thin_plate_sweeps_through_a_ball():
    # A plate (1, 1, 0.001) turns about x by 0.9π: flat at both ends (the ball above it is
    # 0.4755 away at the end), upright half way, through the ball at (0, 0, 0.5), radius 0.05.
    # At angle φ the ball's centre is 0.5 |cos φ| from the plate's plane (0.5 sin φ ≤ 1 inside
    # it): contact at 0.5 cos φ = 0.001 + 0.05.
    plate, ball = proxima.Box([1.0, 1.0, 0.001]), proxima.Sphere(0.05)
    turn = 0.9 * math.pi
    end = rotation_about([1, 0, 0], turn)
    at = translation(0, 0, 0.5)
    for T in (np.eye(4), end):
        assert proxima.distance(plate, T, ball, at).lower > 0.4
    r = proxima.time_of_impact(plate, np.eye(4), end, ball, at, at)
    assert_brackets(r, math.acos(0.051 / 0.5) / turn)


def box_gap(x, y):
    """Distance between two unit cubes (half extent 0.5), axis-aligned, centres (0,0,0) and
    (x, y, 0)."""
    return math.hypot(max(0.0, abs(x) - 1), max(0.0, abs(y) - 1))


def test_a_box_passing_a_box_is_a_proven_miss():
    # B passes A along x at y = 1.2: the gap never drops below 0.2.
    a = b = proxima.Box([0.5, 0.5, 0.5])
    B0, B1 = translation(-5, 1.2), translation(5, 1.2)
    r = proxima.time_of_impact(a, np.eye(4), np.eye(4), b, B0, B1)
    assert r.outcome == "miss" and r.status == "converged"
    assert r.toi is None and r.t_hit is None and r.point_a is None and r.normal is None
    assert r.t_safe == 1.0
    # The proof's last link: a positive certified bound, below the true distance there.
    assert 0 < r.last_lower <= box_gap(-5 + 10 * r.last_time, 1.2) + 1e-12
    assert 0 <= r.last_time < 1
    # With a margin above the closest gap it is a hit: when the gap is 0.25, i.e. B's centre at
    # x = -1.15 (distance hypot(0.15, 0.2)), t = (5 - 1.15) / 10.
    r = proxima.time_of_impact(a, np.eye(4), np.eye(4), b, B0, B1, margin=0.25)
    assert_brackets(r, (5 - 1.15) / 10)
    # A margin just below the closest gap: still a miss.
    assert proxima.time_of_impact(a, np.eye(4), np.eye(4), b, B0, B1, margin=0.19).outcome == "miss"


def test_starting_in_contact_gives_time_zero_and_the_depth():
    a, b = proxima.Sphere(1.0), proxima.Sphere(1.0)
    r = proxima.time_of_impact(a, np.eye(4), translation(0, 3), b, translation(1.5), translation(1.5))
    assert r.outcome == "initial_contact" and r.status == "converged"
    assert r.toi == 0.0 and r.t_safe == 0.0 and r.t_hit == 0.0 and r.iterations == 0
    # Centres 1.5 apart, radii 1: depth 0.5 (closed form, to round-off).
    assert abs(r.depth - 0.5) <= 1e-12 and abs(r.signed_distance + 0.5) <= 1e-12
    assert r.lower <= r.signed_distance <= r.upper
    assert r.normal is None and r.point_a is not None
    # Without the depth: the overlap is reported, its depth not measured.
    r = proxima.time_of_impact(
        a, np.eye(4), translation(0, 3), b, translation(1.5), translation(1.5), initial_depth=False
    )
    assert r.outcome == "initial_contact" and math.isnan(r.depth) and math.isnan(r.signed_distance)
    assert r.lower == -math.inf and r.upper == 0.0
    # Separated by 0.05 at the start with a margin of 0.1: an initial contact of depth 0.
    r = proxima.time_of_impact(a, np.eye(4), np.eye(4), b, translation(2.05), translation(9), margin=0.1)
    assert r.outcome == "initial_contact" and r.depth == 0.0
    assert abs(r.signed_distance - 0.05) <= 1e-12
    np.testing.assert_allclose(r.normal, [1, 0, 0], atol=1e-12)


def test_the_interval_and_the_step_cap_are_settings():
    a, b = proxima.Sphere(0.5), proxima.Sphere(0.25)
    args = (a, translation(-3), translation(3), b, np.eye(4), np.eye(4))
    exact = (3 - 0.75) / 6
    # An interval that ends before the contact: a miss, t_safe its end.
    early = proxima.time_of_impact(*args, end_time=0.3)
    assert early.outcome == "miss" and early.t_safe == 0.3
    # Starting later and extrapolating past t = 1 follow the same straight-line motion.
    assert_brackets(proxima.time_of_impact(*args, start_time=0.2, end_time=2.0), exact)
    # A head-on approach between a wide ball and a thin box takes more than one step with the
    # default tolerances; a cap of 1 leaves it undecided with the free part proven.
    box = proxima.Box([0.05, 1.0, 1.0])
    rot = rotation_about([0, 0, 1], 1.0)
    r = proxima.time_of_impact(box, np.eye(4), rot, a, translation(3), translation(0.2), max_iterations=1)
    assert r.outcome == "undecided" and r.status == "max_iterations" and r.iterations == 1
    assert r.toi == r.t_safe == r.last_time and r.last_lower > 0 and r.t_hit is None
    full = proxima.time_of_impact(box, np.eye(4), rot, a, translation(3), translation(0.2))
    assert full.outcome == "hit" and full.t_safe >= r.t_safe


def slice_shape(s):
    kind = s["type"]
    if kind == "box":
        return proxima.Box(s["half_extents"])
    if kind == "sphere":
        return proxima.Sphere(s["radius"])
    if kind == "capsule":
        return proxima.Capsule(s["radius"], s["half_height"])
    if kind == "cylinder":
        return proxima.Cylinder(s["radius"], s["half_height"])
    if kind == "cone":
        return proxima.Cone(s["radius"], s["half_height"])
    if kind == "ellipsoid":
        return proxima.Ellipsoid(s["radii"])
    if kind == "convex":
        return proxima.ConvexHull(s["vertices"], s.get("faces"))
    raise AssertionError(kind)


def slice_pose(p):
    T = np.eye(4)
    T[:3, :3] = p["rotation"]
    T[:3, 3] = p["translation"]
    return T


def test_the_vendored_ccd_slice_agrees_with_its_oracle():
    """24 queries from each public CCD family (testdata/ccd) against the oracle's times: no
    missed hit, no false hit, every time of impact within 1e-6 of the oracle's bracket
    [toi, toi_hi] (the harness's acceptance, as compare.py checks it); a batch of one row per
    query equals the single call bit for bit."""
    workload = json.loads((TESTDATA / "ccd" / "public-slice.json").read_text())
    expected = json.loads((TESTDATA / "ccd" / "public-slice.expected.json").read_text())
    shapes = {s["id"]: slice_shape(s) for s in workload["shapes"]}
    margin = workload.get("margin", 0.0)
    assert len(expected) == len(workload["queries"])
    hits = misses = 0
    for q, e in zip(workload["queries"], expected):
        a, b = shapes[q["a"]], shapes[q["b"]]
        poses = [slice_pose(q[k]) for k in ("a0", "a1", "b0", "b1")]
        r = proxima.time_of_impact(a, poses[0], poses[1], b, poses[2], poses[3], margin=margin)
        source = e["source"]
        assert r.status != "max_iterations", (source, r)
        if e["toi"] is None:
            assert r.toi is None, (source, r)
            assert r.outcome == "miss" and r.last_lower > margin, (source, r)
            misses += 1
        else:
            assert r.toi is not None, (source, "missed contact", r)
            lo, hi = e["toi"], e.get("toi_hi", e["toi"])
            assert lo - 1e-6 <= r.toi <= hi + 1e-6, (source, r, lo, hi)
            assert r.outcome in ("hit", "initial_contact"), (source, r)
            hits += 1
        one = proxima.time_of_impact_batch(a, poses[0], poses[1], b, poses[2], poses[3], margin=margin)
        assert_row_equals(one, 0, r)
    assert hits > 60 and misses > 20, (hits, misses)


FLOAT_FIELDS = ["toi", "t_safe", "t_hit", "depth", "signed_distance", "lower", "upper", "last_time", "last_lower"]
POINT_FIELDS = ["point_a", "point_b", "normal"]


def assert_row_equals(batch, i, r):
    """Row i of a ToiBatch is the single result r, bit for bit (None as NaN)."""
    assert batch.outcome[i] == r.outcome and batch.status[i] == r.status
    assert batch.iterations[i] == r.iterations and batch.distance_queries[i] == r.distance_queries
    for f in FLOAT_FIELDS:
        v = getattr(r, f)
        got = getattr(batch, f)[i]
        if v is None:
            assert math.isnan(got), (i, f)
        else:
            assert np.float64(v).tobytes() == got.tobytes(), (i, f, v, got)
    for f in POINT_FIELDS:
        v = getattr(r, f)
        got = getattr(batch, f)[i]
        if v is None:
            assert np.isnan(got).all(), (i, f)
        else:
            assert v.tobytes() == got.tobytes(), (i, f)


def motions(rng, n, spread=0.6, center=(0, 0, 0), reach=2.0):
    """n random motions: start poses around `center`, end poses around it moved by up to
    `reach` (random rotations at both ends)."""
    T0 = np.stack([random_pose(rng, spread, center) for _ in range(n)])
    T1 = np.stack([random_pose(rng, spread, np.asarray(center) + reach * rng.uniform(-1, 1, 3)) for _ in range(n)])
    return T0, T1


def pair(rng):
    return proxima.ConvexHull(sphere_points(rng, 24, (0.5, 0.4, 0.3))), proxima.Capsule(0.2, 0.4)


def test_batch_rows_equal_single_calls_for_any_thread_count(rng):
    a, b = pair(rng)
    n = 300
    Ta0, Ta1 = motions(rng, n)
    Tb0, Tb1 = motions(rng, n, center=(1.2, 0, 0))
    one = proxima.time_of_impact_batch(a, Ta0, Ta1, b, Tb0, Tb1, margin=0.01, threads=1)
    assert len(one) == n
    for i in range(n):
        r = proxima.time_of_impact(a, Ta0[i], Ta1[i], b, Tb0[i], Tb1[i], margin=0.01)
        assert_row_equals(one, i, r)
    # Every outcome but undecided occurs (the mix the rows are checked on).
    assert {"initial_contact", "hit", "miss"} <= set(one.outcome)
    assert np.isnan(one.toi[one.outcome == "miss"]).all()
    for threads in (2, 3, None):
        other = proxima.time_of_impact_batch(a, Ta0, Ta1, b, Tb0, Tb1, margin=0.01, threads=threads)
        assert other == one
        for f in FLOAT_FIELDS + POINT_FIELDS + ["iterations", "distance_queries", "outcome", "status"]:
            assert getattr(other, f).tobytes() == getattr(one, f).tobytes(), (threads, f)


def test_batch_broadcasts_one_pose(rng):
    a, b = pair(rng)
    Tb0, Tb1 = motions(rng, 40, center=(1.0, 0, 0))
    fixed = random_pose(rng)
    left = proxima.time_of_impact_batch(a, fixed, fixed, b, Tb0, Tb1)
    rep = np.repeat(fixed[None], 40, axis=0)
    assert left == proxima.time_of_impact_batch(a, rep, rep, b, Tb0, Tb1)
    # Fortran order and strided views are read in logical order.
    assert proxima.time_of_impact_batch(a, fixed, fixed, b, np.asfortranarray(Tb0), Tb1[::1]) == left
    doubled = np.repeat(Tb1, 2, axis=0)[::2]
    assert proxima.time_of_impact_batch(a, fixed, fixed, b, Tb0, doubled) == left
    single = proxima.time_of_impact_batch(a, fixed, fixed, b, Tb0[3], Tb1[3])
    assert len(single) == 1
    assert_row_equals(single, 0, proxima.time_of_impact(a, fixed, fixed, b, Tb0[3], Tb1[3]))
    empty = proxima.time_of_impact_batch(a, np.zeros((0, 4, 4)), fixed, b, fixed, fixed)
    assert len(empty) == 0 and empty.point_a.shape == (0, 3) and empty.outcome.shape == (0,)


def test_the_gil_is_released_while_the_batch_runs(rng):
    a, b = pair(rng)
    # 2000 motions twenty times over (rows are computed independently: 40000 searches, a few
    # microseconds each).
    Ta0, Ta1, Tb0, Tb1 = (np.tile(T, (20, 1, 1)) for T in motions(rng, 2000) + motions(rng, 2000, center=(1.2, 0, 0)))
    steps = python_steps_in_the_middle(lambda: proxima.time_of_impact_batch(a, Ta0, Ta1, b, Tb0, Tb1, threads=1))
    assert steps > 100


def test_bad_input_is_a_clear_error():
    s = proxima.Sphere(0.5)
    I = np.eye(4)
    nan = np.eye(4)
    nan[0, 3] = np.nan
    with pytest.raises(proxima.GeomError, match=r"^Ta1: .*non-finite"):
        proxima.time_of_impact(s, I, nan, s, I, I)
    scaled = np.diag([2.0, 1.0, 1.0, 1.0])
    with pytest.raises(proxima.GeomError, match=r"^Tb0: .*rotation"):
        proxima.time_of_impact(s, I, I, s, scaled, I)
    bottom = np.eye(4)
    bottom[3, 0] = 1.0
    with pytest.raises(proxima.ProximaError, match=r"^Tb1: the bottom row"):
        proxima.time_of_impact(s, I, I, s, I, bottom)
    with pytest.raises(proxima.ProximaError, match=r"Ta0: expected an array of shape \(4, 4\)"):
        proxima.time_of_impact(s, np.eye(3), I, s, I, I)
    for bad, field in [
        (dict(margin=-0.1), "margin"),
        (dict(margin=math.nan), "margin"),
        (dict(end_time=-1.0), "end_time"),
        (dict(start_time=math.inf), "start_time"),
        (dict(distance_tolerance=0.0), "distance_tolerance"),
        (dict(time_tolerance=-1.0), "time_tolerance"),
        (dict(max_iterations=0), "max_iterations"),
        (dict(gap_tolerance=-1.0), "gap_tolerance"),
    ]:
        with pytest.raises(proxima.GeomError, match=field):
            proxima.time_of_impact(s, I, I, s, translation(2), translation(2), **bad)
        with pytest.raises(proxima.GeomError, match=field):
            proxima.time_of_impact_batch(s, I, I, s, translation(2), translation(2), **bad)
    with pytest.raises(proxima.ProximaError, match="max_iterations: must be an integer"):
        proxima.time_of_impact(s, I, I, s, I, I, max_iterations=-3)
    with pytest.raises(proxima.ProximaError, match="initial_depth: must be a bool"):
        proxima.time_of_impact(s, I, I, s, I, I, initial_depth="yes")
    with pytest.raises(proxima.ProximaError, match="algorithm: unknown value"):
        proxima.time_of_impact(s, I, I, s, I, I, algorithm="magic")
    with pytest.raises(TypeError, match='unexpected keyword argument "speed"'):
        proxima.time_of_impact(s, I, I, s, I, I, speed=2)


def test_bad_batch_rows_are_named(rng):
    a, b = pair(rng)
    Ta0, Ta1 = motions(rng, 10)
    Tb0, Tb1 = motions(rng, 10, center=(1, 0, 0))
    Ta1[7, 1, 3] = np.nan
    Ta1[9, :3, :3] *= 2
    with pytest.raises(proxima.GeomError, match=r"^Ta1\[7\]: "):
        proxima.time_of_impact_batch(a, Ta0, Ta1, b, Tb0, Tb1)
    Tb1[3, 3, 3] = 2.0
    with pytest.raises(proxima.ProximaError, match=r"^Tb1\[3\]: the bottom row"):
        proxima.time_of_impact_batch(a, Ta0, Ta0, b, Tb0, Tb1)
    with pytest.raises(proxima.ProximaError, match="Ta0 has 10 poses but Tb1 has 9"):
        proxima.time_of_impact_batch(a, Ta0, np.eye(4), b, np.eye(4), Tb0[:9])
    with pytest.raises(proxima.ProximaError, match=r"Tb0: expected an array of shape \(N, 4, 4\) or \(4, 4\)"):
        proxima.time_of_impact_batch(a, Ta0, Ta0, b, np.zeros((3, 3, 3)), np.eye(4))
    with pytest.raises(proxima.ProximaError, match="threads: must be >= 1"):
        proxima.time_of_impact_batch(a, Ta0, Ta0, b, Tb0, Tb0, threads=0)


def test_results_pickle_to_equal_objects(rng):
    a, b = proxima.Sphere(0.5), proxima.Box([0.05, 1.0, 1.0])
    rot = rotation_about([0, 0, 1], 1.0)
    results = [
        proxima.time_of_impact(a, translation(-3), translation(3), b, np.eye(4), rot),  # hit
        proxima.time_of_impact(a, translation(0.3), translation(3), b, np.eye(4), rot),  # initial contact
        proxima.time_of_impact(a, translation(0, 3), translation(0, 4), b, np.eye(4), rot),  # miss
        proxima.time_of_impact(a, translation(3), translation(0.2), b, np.eye(4), rot, max_iterations=1),
    ]
    assert [r.outcome for r in results] == ["hit", "initial_contact", "miss", "undecided"]
    for r in results:
        again = pickle.loads(pickle.dumps(r))
        assert again == r and repr(again) == repr(r)
        assert (again.toi, again.t_safe, again.t_hit, again.depth) == (r.toi, r.t_safe, r.t_hit, r.depth)
    assert results[0] != results[2] and results[0] != "hit"
    with pytest.raises(proxima.ProximaError, match="not a ToiResult state"):
        proxima._proxima._toi_result(("hit", [0.0, 1.0], "converged", 1, 1, 1.0))
    # Batches: read-only arrays, pickled to an equal batch.
    Ta0, Ta1 = motions(rng, 30)
    hull = pair(rng)[0]
    batch = proxima.time_of_impact_batch(hull, Ta0, Ta1, a, translation(0.9), translation(-0.9))
    with pytest.raises(ValueError):
        batch.toi[0] = 1.0
    again = pickle.loads(pickle.dumps(batch))
    assert again == batch and len(again) == 30
    assert again.outcome.dtype == batch.outcome.dtype and again.iterations.dtype == np.uint32
    assert again != proxima.time_of_impact_batch(hull, Ta0, Ta1, a, translation(0.9), translation(-0.8))


def test_a_bar_turning_about_its_hinge():
    # A bar (half extents 1, 0.1, 0.1) hinged at its end: local point (-1, 0, 0) at the world
    # origin, turning about z at π/2 per time unit. A ball of radius 0.2 at (0, 1.5, 0): at
    # angle θ its centre is 1.5 cos θ from the bar's axis (1.5 sin θ ≤ 2 along it): contact at
    # 1.5 cos θ = 0.1 + 0.2.
    bar, ball = proxima.Box([1.0, 0.1, 0.1]), proxima.Sphere(0.2)
    T0 = translation(1.0)
    hinge = proxima.RigidMotion(T0, centre=[-1, 0, 0], angular_velocity=[0, 0, math.pi / 2])
    at = translation(0, 1.5)
    still = proxima.RigidMotion(at)
    r = proxima.time_of_impact_motions(bar, hinge, ball, still)
    theta = math.acos(0.3 / 1.5)
    assert_brackets(r, theta / (math.pi / 2))
    # The pose at t = 1: turned by 90 degrees about the hinge (the bar along +y).
    T1 = hinge.pose_at(1.0)
    np.testing.assert_allclose(T1, rotation_about([0, 0, 1], math.pi / 2, [0, 1, 0]), atol=1e-15)
    np.testing.assert_array_equal(hinge.pose_at(0.0), T0)
    # The same motion from its two end poses, about the hinge: the same time, bit for bit
    # close (the twist is recovered from the poses to round-off).
    from_ends = proxima.RigidMotion.from_poses(T0, T1, centre=[-1, 0, 0])
    np.testing.assert_allclose(from_ends.angular_velocity, [0, 0, math.pi / 2], atol=1e-14)
    np.testing.assert_allclose(from_ends.linear_velocity, 0, atol=1e-15)
    assert_brackets(proxima.time_of_impact_motions(bar, from_ends, ball, still), theta / (math.pi / 2))
    # About the origin (time_of_impact's model) the bar's centre cuts the chord instead: a
    # different path, the same answer as time_of_impact on the two poses.
    chord = proxima.time_of_impact_motions(bar, proxima.RigidMotion.from_poses(T0, T1), ball, still)
    assert chord == proxima.time_of_impact(bar, T0, T1, ball, at, at)
    assert abs(chord.toi - r.toi) > 0.01
    # Pickling rebuilds the motion bit for bit; bad input is a GeomError naming the value.
    assert pickle.loads(pickle.dumps(hinge)) == hinge and hinge != from_ends
    with pytest.raises(proxima.GeomError, match="angular velocity"):
        proxima.RigidMotion(T0, angular_velocity=[math.nan, 0, 0])
    with pytest.raises(proxima.GeomError, match="^start: "):
        proxima.RigidMotion(np.diag([1.0, 2.0, 1.0, 1.0]))
    with pytest.raises(proxima.ProximaError, match=r"centre: expected an array of shape \(3,\)"):
        proxima.RigidMotion.from_poses(T0, T1, centre=[1, 2])
    with pytest.raises(proxima.GeomError, match="^t: "):
        hinge.pose_at(math.inf)
    with pytest.raises(proxima.GeomError, match="margin"):
        proxima.time_of_impact_motions(bar, hinge, ball, still, margin=-1)
