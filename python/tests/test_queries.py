"""distance / signed_distance / intersects against independent truth (closed forms written
here in numpy), invariances, certificates, settings, pose validation, pickling of results."""

import pickle

import numpy as np
import pytest

import proxima

from conftest import random_pose, random_rotation, sphere_points

EYE = np.eye(4)


def translation(x, y=0.0, z=0.0):
    return proxima.pose([x, y, z])


# --- truth by hand -----------------------------------------------------------------------


def test_sphere_sphere_matches_the_formula(rng):
    a, b = proxima.Sphere(0.5), proxima.Sphere(0.25)
    for _ in range(200):
        Ta, Tb = random_pose(rng), random_pose(rng)
        truth = np.linalg.norm(Ta[:3, 3] - Tb[:3, 3]) - 0.75
        r = proxima.distance(a, Ta, b, Tb)
        assert r.signed_distance == pytest.approx(truth, abs=1e-12)
        assert r.signed_lower <= truth + 1e-12 and truth - 1e-12 <= r.signed_upper
        if truth > 0:
            assert r.status == "separated" and r.distance == pytest.approx(truth, abs=1e-12)
            assert r.lower <= truth + 1e-12 <= r.upper + 2e-12
        else:
            assert r.status == "intersecting" and r.distance == 0.0
            assert r.depth == pytest.approx(-truth, abs=1e-12)
        assert proxima.intersects(a, Ta, b, Tb) == (truth <= 0)
        assert proxima.signed_distance(a, Ta, b, Tb) == pytest.approx(truth, abs=1e-12)


def box_point_distance(h, T, p):
    """Distance from world point p to the box of half extents h at pose T (clamp in the box
    frame)."""
    local = T[:3, :3].T @ (p - T[:3, 3])
    return np.linalg.norm(local - np.clip(local, -h, h))


def test_box_sphere_matches_clamping_and_witnesses_lie_on_the_shapes(rng):
    h = np.array([0.5, 1.0, 0.25])
    box, ball = proxima.Box(h), proxima.Sphere(0.3)
    for _ in range(200):
        Tb, Ts = random_pose(rng), random_pose(rng, spread=2.0)
        c = Ts[:3, 3]
        truth = box_point_distance(h, Tb, c) - 0.3
        r = proxima.distance(box, Tb, ball, Ts)
        if truth > 1e-9:
            # Certified: gap_tolerance 1e-9 x scale, scale below 10 here.
            assert r.distance == pytest.approx(truth, abs=1e-8)
            assert r.lower - 1e-12 <= truth <= r.upper + 1e-8
            pa, pb, n = r.point_a, r.point_b, r.normal
            assert box_point_distance(h, Tb, pa) < 1e-9  # on (or in) the box
            assert abs(np.linalg.norm(pb - c) - 0.3) < 1e-9  # on the sphere
            assert np.linalg.norm(pb - pa) == pytest.approx(r.distance, abs=1e-12)
            assert np.allclose(n, (pb - pa) / r.distance, atol=1e-9)


def test_aligned_boxes_distance_and_penetration_depth():
    a, b = proxima.Box([1, 1, 1]), proxima.Box([0.5, 0.5, 0.5])
    r = proxima.distance(a, EYE, b, translation(3.0, 0.25))
    assert r.status == "separated" and r.distance == pytest.approx(1.5, abs=1e-12)
    assert r.algorithm == "lcp" and r.gap <= 1e-9
    # Overlap by 0.2 along x (the smallest axis overlap): depth 0.2.
    r = proxima.distance(a, EYE, b, translation(1.3, 0.0, 0.0))
    assert r.status == "intersecting"
    assert r.signed_distance == pytest.approx(-0.2, abs=1e-9)
    assert r.signed_lower <= -0.2 + 1e-9 and -0.2 - 1e-9 <= r.signed_upper
    assert proxima.signed_distance(a, EYE, b, translation(1.3)) == pytest.approx(-0.2, abs=1e-9)
    # Face contact: touching.
    r = proxima.distance(a, EYE, b, translation(1.5))
    assert r.status in ("touching", "intersecting") and r.distance == 0.0
    assert proxima.intersects(a, EYE, b, translation(1.5))


def test_capsule_and_cylinder_axes_are_z():
    cap = proxima.Capsule(0.5, 1.0)  # tip at z = 1.5
    r = proxima.distance(cap, EYE, proxima.Sphere(0.5), translation(0, 0, 3.0))
    assert r.distance == pytest.approx(1.0, abs=1e-12)
    cyl = proxima.Cylinder(0.5, 1.0)  # top face at z = 1
    r = proxima.distance(cyl, EYE, proxima.Sphere(0.5), translation(0, 0, 3.0))
    assert r.distance == pytest.approx(1.5, abs=1e-9)
    cone = proxima.Cone(0.5, 1.0)  # apex at z = +1
    r = proxima.distance(cone, EYE, proxima.Sphere(0.5), translation(0, 0, 3.0))
    assert r.distance == pytest.approx(1.5, abs=1e-8)
    r = proxima.distance(cone, EYE, proxima.Sphere(0.5), translation(0, 0, -3.0))
    assert r.distance == pytest.approx(1.5, abs=1e-8)  # base disk at z = -1


def test_polyhedron_equals_the_box_it_describes(rng):
    h = np.array([1.0, 2.0, 3.0])
    poly = proxima.Polyhedron(np.vstack([np.eye(3), -np.eye(3)]), np.concatenate([h, h]))
    box = proxima.Box(h)
    other = proxima.Ellipsoid([0.3, 0.2, 0.4])
    for _ in range(30):
        Ta, Tb = random_pose(rng), random_pose(rng, spread=4.0)
        d1 = proxima.distance(poly, Ta, other, Tb).signed_distance
        d2 = proxima.distance(box, Ta, other, Tb).signed_distance
        assert d1 == pytest.approx(d2, abs=1e-7)


# --- invariances and certificates ------------------------------------------------------------


def catalogue(rng):
    return [
        proxima.Box([0.5, 0.3, 0.2]),
        proxima.Sphere(0.4),
        proxima.Capsule(0.2, 0.5),
        proxima.Cylinder(0.3, 0.4),
        proxima.Cone(0.4, 0.5),
        proxima.Ellipsoid([0.5, 0.3, 0.2]),
        proxima.Triangle([0, 0, 0], [0.8, 0, 0], [0, 0.6, 0.1]),
        proxima.ConvexHull(sphere_points(rng, 30, (0.4, 0.5, 0.3))),
    ]


def test_every_pair_symmetric_bracketed_and_invariant_under_rigid_motions(rng):
    shapes = catalogue(rng)
    for a in shapes:
        for b in shapes:
            for _ in range(3):
                Ta, Tb = random_pose(rng, 0.6), random_pose(rng, 0.6)
                r = proxima.distance(a, Ta, b, Tb)
                s = proxima.distance(b, Tb, a, Ta)
                assert r.distance == s.distance and r.status == s.status
                assert r.signed_distance == s.signed_distance
                if r.point_a is not None:
                    assert np.array_equal(r.point_a, s.point_b) and np.array_equal(r.point_b, s.point_a)
                # Bounds are f64 values; round-off of order 1e-16 x scale is not accounted for
                # (proxima_geom::query docs), hence the 1e-15 slack (scale ~ 1 here).
                assert 0.0 <= r.lower <= r.distance + 1e-15 and r.distance <= r.upper + 1e-15
                assert r.signed_lower - 1e-15 <= r.signed_distance <= r.signed_upper + 1e-15
                # Same scene moved as a whole: the same distance to the certificate's accuracy.
                G = random_pose(rng, 2.0)
                m = proxima.distance(a, G @ Ta, b, G @ Tb)
                assert m.signed_distance == pytest.approx(r.signed_distance, abs=1e-6)
                assert proxima.intersects(a, Ta, b, Tb) == (r.status != "separated")


def test_results_pickle_to_equal_results(rng):
    a, b = proxima.Box([0.5, 0.5, 0.5]), proxima.Ellipsoid([0.3, 0.4, 0.5])
    results = [
        proxima.distance(a, EYE, b, translation(2.0)),  # separated
        proxima.distance(a, EYE, b, translation(0.6)),  # intersecting, EPA depth
        proxima.distance(proxima.Sphere(1), EYE, proxima.Sphere(1), translation(2.0)),  # touching
        proxima.distance(a, EYE, b, translation(0.6), penetration_depth=False),  # NaN signed
    ]
    assert [r.status for r in results] == ["separated", "intersecting", "touching", "intersecting"]
    for r in results:
        again = pickle.loads(pickle.dumps(r))
        assert again == r
        assert (again.path, again.algorithm, again.status) == (r.path, r.algorithm, r.status)
    assert results[0] != results[1]


# --- settings ---------------------------------------------------------------------------------


def test_settings_choose_the_algorithm_and_agree():
    a, b = proxima.Box([1, 1, 1]), proxima.Box([0.5, 2, 0.25])
    Tb = proxima.pose([2.9, 0.3, 0.1], [np.cos(0.2), 0, 0, np.sin(0.2)])
    auto = proxima.distance(a, EYE, b, Tb)
    gjk = proxima.distance(a, EYE, b, Tb, algorithm="gjk")
    exact = proxima.distance(a, EYE, b, Tb, algorithm="lcp", arithmetic="exact")
    assert (auto.algorithm, gjk.algorithm, exact.algorithm) == ("lcp", "gjk", "lcp")
    assert exact.path == "exact"
    assert gjk.distance == pytest.approx(auto.distance, abs=1e-8)
    assert exact.distance == pytest.approx(auto.distance, abs=1e-12)
    assert gjk.path.startswith("gjk/")


def test_penetration_depth_false_leaves_the_depth_unmeasured():
    a, b = proxima.Ellipsoid([0.5, 0.5, 0.5]), proxima.ConvexHull(sphere_points(np.random.default_rng(1), 20))
    r = proxima.distance(a, EYE, b, translation(0.5), penetration_depth=False)
    assert r.status == "intersecting" and np.isnan(r.signed_distance)
    assert r.signed_lower == -np.inf and r.signed_upper == 0.0
    assert proxima.distance(a, EYE, b, translation(0.5)).signed_distance < 0


@pytest.mark.parametrize(
    "settings, error, message",
    [
        ({"algorithm": "magic"}, proxima.ProximaError, 'algorithm: unknown value "magic"'),
        ({"algorithm": 3}, proxima.ProximaError, "algorithm: must be a string"),
        ({"arithmetic": "quad"}, proxima.ProximaError, "arithmetic: unknown value"),
        ({"gap_tolerance": -1.0}, proxima.GeomError, "gap_tolerance"),
        ({"touching_tolerance": float("nan")}, proxima.GeomError, "touching_tolerance"),
        ({"gjk_max_iterations": 0}, proxima.GeomError, "gjk.max_iterations"),
        ({"gjk_max_iterations": -3}, proxima.ProximaError, "gjk_max_iterations"),
        ({"epa_max_iterations": 0}, proxima.GeomError, "gjk.epa_max_iterations"),
        ({"gjk_tolerance": 0.0}, proxima.GeomError, "gjk.tolerance"),
        ({"penetration_depth": "yes"}, proxima.ProximaError, "penetration_depth: must be a bool"),
        ({"tolerance": 1e-3}, TypeError, "unexpected keyword argument"),
    ],
)
def test_bad_settings_raise_naming_the_setting(settings, error, message):
    a = proxima.Sphere(1)
    with pytest.raises(error) as e:
        proxima.distance(a, EYE, a, translation(3), **settings)
    assert message in str(e.value)


def test_forcing_an_algorithm_a_pair_lacks_is_an_error():
    with pytest.raises(proxima.GeomError, match="closed_form"):
        proxima.distance(proxima.Box([1, 1, 1]), EYE, proxima.Box([1, 1, 1]), translation(3), algorithm="closed_form")


# --- poses ------------------------------------------------------------------------------------


def quaternion_matrix(w, x, y, z):
    n = np.sqrt(w * w + x * x + y * y + z * z)
    w, x, y, z = w / n, x / n, y / n, z / n
    return np.array(
        [
            [1 - 2 * (y * y + z * z), 2 * (x * y - w * z), 2 * (x * z + w * y)],
            [2 * (x * y + w * z), 1 - 2 * (x * x + z * z), 2 * (y * z - w * x)],
            [2 * (x * z - w * y), 2 * (y * z + w * x), 1 - 2 * (x * x + y * y)],
        ]
    )


def test_pose_builds_the_homogeneous_matrix(rng):
    assert np.array_equal(proxima.pose(), np.eye(4))
    for _ in range(50):
        t, q = rng.normal(size=3), rng.normal(size=4) * 3
        T = proxima.pose(t, q)
        assert T.shape == (4, 4) and T.dtype == np.float64
        assert np.allclose(T[:3, :3], quaternion_matrix(*q), atol=1e-12)
        assert np.array_equal(T[:3, 3], t) and np.array_equal(T[3], [0, 0, 0, 1])
    # 90 degrees about z maps x to y.
    T = proxima.pose([1, 2, 3], [np.sqrt(0.5), 0, 0, np.sqrt(0.5)])
    assert np.allclose(T[:3, :3] @ [1, 0, 0], [0, 1, 0], atol=1e-15)


@pytest.mark.parametrize(
    "args, message",
    [
        (([0, 0], None), "translation: expected an array of shape (3,)"),
        (([0, 0, np.nan], None), "translation: must be finite"),
        ((None, [0, 0, 0, 0]), "quaternion_wxyz: must be finite and non-zero"),
        ((None, [1, 0, 0]), "quaternion_wxyz: expected an array of shape (4,)"),
        ((None, [1, np.inf, 0, 0]), "quaternion_wxyz: must be finite"),
    ],
)
def test_bad_pose_arguments(args, message):
    with pytest.raises(proxima.ProximaError, match=message.replace("(", r"\(").replace(")", r"\)")):
        proxima.pose(*args)


def scaled(s):
    T = np.eye(4)
    T[:3, :3] *= s
    return T


@pytest.mark.parametrize(
    "Ta, error, message",
    [
        (np.eye(3), proxima.ProximaError, "Ta: expected an array of shape (4, 4), got shape (3, 3)"),
        (np.eye(4)[None], proxima.ProximaError, "Ta: expected an array of shape (4, 4), got shape (1, 4, 4)"),
        (np.eye(4).astype(complex), proxima.ProximaError, "Ta: expected real numbers"),
        (np.eye(4).astype(str), proxima.ProximaError, "Ta: expected real numbers"),
        (np.eye(4).astype(bool), proxima.ProximaError, "dtype bool"),
        ("identity", proxima.ProximaError, "Ta: expected"),
        (None, proxima.ProximaError, "Ta:"),
        (np.diag([1.0, 1.0, 1.0, 2.0]), proxima.ProximaError, "bottom row"),
        (scaled(1.01), proxima.GeomError, "Ta: "),
        (np.diag([1.0, 1.0, -1.0, 1.0]), proxima.GeomError, "Ta: "),  # a reflection
        (np.where(np.arange(16).reshape(4, 4) == 0, np.nan, np.eye(4)), proxima.GeomError, "Ta: "),
        (np.where(np.arange(16).reshape(4, 4) == 3, np.inf, np.eye(4)), proxima.GeomError, "Ta: "),
    ],
)
def test_bad_poses_raise_value_errors(Ta, error, message):
    a = proxima.Sphere(1)
    for f in (proxima.distance, proxima.intersects, proxima.signed_distance):
        with pytest.raises(error) as e:
            f(a, Ta, a, EYE)
        assert isinstance(e.value, ValueError)
        assert message in str(e.value)


def test_poses_from_lists_integers_float32_and_strided_views_are_read(rng):
    a, b = proxima.Box([0.5, 0.5, 0.5]), proxima.Sphere(0.5)
    Tb = translation(2.0)
    ref = proxima.distance(a, EYE, b, Tb).distance
    big = np.zeros((8, 8))
    big[::2, ::2] = np.eye(4)
    for Ta in (np.eye(4).tolist(), np.eye(4, dtype=int), np.eye(4, dtype=np.float32), big[::2, ::2], np.asfortranarray(np.eye(4))):
        assert proxima.distance(a, Ta, b, Tb).distance == ref
    R = random_rotation(rng)
    T = np.eye(4)
    T[:3, :3] = R
    T[:3, 3] = [0.1, -0.2, 0.3]
    for layout in (T.T.copy().T, np.asfortranarray(T), T.tolist()):
        assert proxima.distance(a, layout, b, Tb).distance == proxima.distance(a, T, b, Tb).distance


def test_wrong_argument_types_are_type_errors():
    with pytest.raises(TypeError):
        proxima.distance("box", EYE, proxima.Sphere(1), EYE)
    with pytest.raises(TypeError):
        proxima.distance(proxima.Sphere(1), EYE, proxima.Sphere(1))


def test_pose_layouts_read_in_place_agree(rng):
    # The per-call fast path reads a float64 (4, 4) array through its strides: negative
    # strides, an unaligned buffer and a byte-swapped dtype (the general path) read the same
    # matrix as a plain C-order copy.
    a, b = proxima.Box([0.3, 0.2, 0.1]), proxima.Capsule(0.1, 0.4)
    T = random_pose(rng)
    Tb = translation(1.5)
    want = proxima.distance(a, T, b, Tb)
    flipped = np.ascontiguousarray(T[::-1, ::-1])[::-1, ::-1]
    raw = np.zeros(16 * 8 + 1, dtype=np.uint8)
    unaligned = np.frombuffer(raw.data, dtype=np.float64, count=16, offset=1).reshape(4, 4)
    assert not unaligned.flags.aligned
    unaligned.flags.writeable = True
    unaligned[...] = T
    for layout in (flipped, unaligned, T.astype(">f8")):
        assert proxima.distance(a, layout, b, Tb) == want


def test_pair_arguments_by_position_or_name():
    a, b = proxima.Box([0.3, 0.2, 0.1]), proxima.Sphere(0.2)
    Tb = translation(1.0)
    for f in (proxima.distance, proxima.signed_distance, proxima.intersects):
        want = f(a, EYE, b, Tb)
        assert f(a=a, Ta=EYE, b=b, Tb=Tb) == want
        assert f(a, EYE, b=b, Tb=Tb) == want
        assert f(a, EYE, b, Tb=Tb, gap_tolerance=1e-9) == f(a, EYE, b, Tb, gap_tolerance=1e-9)
        # Keyword names built at run time (not interned) are matched by value.
        by_value = {"".join(["T", "b"]): Tb, "".join(["gap_", "tolerance"]): 1e-9}
        assert f(a, EYE, b, **by_value) == want
        with pytest.raises(proxima.GeomError, match="gap_tolerance"):
            f(a, EYE, b, Tb, **{"".join(["gap_", "tolerance"]): -1.0})
        with pytest.raises(TypeError, match="multiple values for argument 'Ta'"):
            f(a, EYE, b, Tb, Ta=EYE)
        with pytest.raises(TypeError, match="takes 4 positional arguments but 5 were given"):
            f(a, EYE, b, Tb, EYE)
        with pytest.raises(TypeError, match="missing required argument 'Tb'"):
            f(a, EYE, b)
        with pytest.raises(TypeError, match="missing required argument 'a'"):
            f(Ta=EYE, b=b, Tb=Tb)
        with pytest.raises(TypeError, match="argument 'b': expected a proxima shape, got ndarray"):
            f(a, EYE, EYE, Tb)
        with pytest.raises(TypeError, match='unexpected keyword argument "tb"'):
            f(a, EYE, b, Tb, tb=Tb)
