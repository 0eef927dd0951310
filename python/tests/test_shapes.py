"""Shapes: construction, properties, validation errors naming the field, equality, hashing,
pickling (every shape to an equal shape)."""

import copy
import pickle

import numpy as np
import pytest

import proxima

from conftest import sphere_points


def all_shapes():
    rng = np.random.default_rng(7)
    return [
        proxima.Box([0.5, 1.0, 1.5]),
        proxima.Sphere(0.75),
        proxima.Capsule(0.3, 0.8),
        proxima.Cylinder(0.4, 0.6),
        proxima.Cone(0.5, 0.7),
        proxima.Ellipsoid([0.5, 0.25, 1.0]),
        proxima.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0]),
        proxima.ConvexHull(sphere_points(rng, 40)),
        proxima.ConvexHull(
            [[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]],
            faces=[[0, 2, 1], [0, 1, 3], [0, 3, 2], [1, 2, 3]],
        ),
        # A flat point set: no volume hull, kept as a vertex set.
        proxima.ConvexHull([[0, 0, 0], [1, 0, 0], [1, 1, 0], [0, 1, 0]]),
        proxima.Polyhedron(
            [[1, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]],
            [1, 1, 2, 2, 3, 3],
        ),
    ]


@pytest.mark.parametrize("shape", all_shapes(), ids=lambda s: type(s).__name__)
def test_every_shape_pickles_copies_and_hashes_to_an_equal_shape(shape):
    for again in (pickle.loads(pickle.dumps(shape)), copy.deepcopy(shape)):
        assert again == shape
        assert type(again) is type(shape)
        assert hash(again) == hash(shape)
    assert isinstance(shape, proxima.Shape)
    assert repr(shape).startswith(type(shape).__name__ + "(")


def test_repr_of_small_shapes_rebuilds_them():
    for shape in (proxima.Box([0.5, 1.0, 1.5]), proxima.Capsule(0.3, 0.8), proxima.Ellipsoid([1, 2, 3])):
        assert eval(repr(shape), vars(proxima)) == shape


def test_properties_return_what_was_given():
    assert np.array_equal(proxima.Box([0.5, 1, 1.5]).half_extents, [0.5, 1, 1.5])
    assert proxima.Sphere(2).radius == 2.0
    c = proxima.Capsule(0.3, 0.8)
    assert (c.radius, c.half_length) == (0.3, 0.8)
    y = proxima.Cylinder(0.4, 0.6)
    assert (y.radius, y.half_height) == (0.4, 0.6)
    k = proxima.Cone(0.5, 0.7)
    assert (k.radius, k.half_height) == (0.5, 0.7)
    assert np.array_equal(proxima.Ellipsoid((1, 2, 3)).radii, [1, 2, 3])
    t = proxima.Triangle([0, 0, 0], [1, 0, 0], [0, 1, 0])
    assert t.vertices.shape == (3, 3) and np.array_equal(t.vertices[1], [1, 0, 0])
    pts = np.arange(12, dtype=float).reshape(4, 3) ** 1.5
    h = proxima.ConvexHull(pts)
    assert np.array_equal(h.vertices, pts) and h.faces is None
    p = proxima.Polyhedron([[2, 0, 0], [-1, 0, 0], [0, 1, 0], [0, -1, 0], [0, 0, 1], [0, 0, -1]], [2, 1, 1, 1, 1, 1])
    assert np.array_equal(p.normals[0], [2, 0, 0]) and np.array_equal(p.offsets, [2, 1, 1, 1, 1, 1])


def test_different_shapes_are_not_equal():
    assert proxima.Box([1, 1, 1]) != proxima.Box([1, 1, 2])
    assert proxima.Cylinder(1, 1) != proxima.Cone(1, 1)
    assert proxima.Sphere(1) != "Sphere(1)"


def test_inputs_are_read_from_lists_tuples_and_integer_or_float32_arrays():
    ref = proxima.Box([1.0, 2.0, 3.0])
    for given in ([1, 2, 3], (1, 2, 3), np.array([1, 2, 3]), np.array([1, 2, 3], dtype=np.float32)):
        assert proxima.Box(given) == ref


@pytest.mark.parametrize(
    "build, message",
    [
        (lambda: proxima.Box([1, -2, 3]), "Box: half_extents"),
        (lambda: proxima.Box([1, 2]), "Box: half_extents: expected an array of shape (3,), got shape (2,)"),
        (lambda: proxima.Box([[1, 2, 3]]), "Box: half_extents: expected an array of shape (3,), got shape (1, 3)"),
        (lambda: proxima.Box([1, np.nan, 3]), "Box: half_extents"),
        (lambda: proxima.Box(["a", "b", "c"]), "Box: half_extents: expected real numbers"),
        (lambda: proxima.Box([1 + 1j, 1, 1]), "dtype complex128"),
        (lambda: proxima.Box([True, True, True]), "dtype bool"),
        (lambda: proxima.Box([[1], [2, 3]]), "Box: half_extents: cannot be read as an array"),
        (lambda: proxima.Sphere(0.0), "Sphere: radius: sphere radius must be > 0"),
        (lambda: proxima.Sphere(float("inf")), "Sphere: radius"),
        (lambda: proxima.Capsule(1.0, -1.0), "Capsule: half_length"),
        (lambda: proxima.Capsule(float("nan"), 1.0), "Capsule: radius"),
        (lambda: proxima.Cylinder(-1.0, 1.0), "Cylinder: radius"),
        (lambda: proxima.Cone(1.0, 0.0), "Cone: half_height"),
        (lambda: proxima.Ellipsoid([1, 0, 1]), "Ellipsoid: radii"),
        (lambda: proxima.Triangle([0, 0, 0], [1, 0, 0], [2, 0, 0]), "Triangle: vertices"),
        (lambda: proxima.ConvexHull(np.zeros((0, 3))), "ConvexHull: vertices"),
        (lambda: proxima.ConvexHull([[0, 0, 0], [1, 0, 0], [0, 1, np.inf]]), "ConvexHull: vertices"),
        (lambda: proxima.ConvexHull(np.ones((4, 2))), "ConvexHull: vertices: expected an array of shape (n, 3)"),
        (
            lambda: proxima.ConvexHull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], faces=[[0, 2, 1], [0, 1, 3]]),
            "ConvexHull: faces",
        ),
        (
            lambda: proxima.ConvexHull([[0, 0, 0], [1, 0, 0], [0, 1, 0], [0, 0, 1]], faces=[[0, 2, 1.5]]),
            "faces[0][2]: must be a vertex index",
        ),
        (lambda: proxima.Polyhedron([[1, 0, 0]], [1]), "Polyhedron"),
        (lambda: proxima.Polyhedron([[1, 0, 0], [-1, 0, 0]], [1]), "Polyhedron: offsets: expected an array of shape (2,)"),
        (lambda: proxima.Polyhedron([[0, 0, 0]] * 4, [1] * 4), "Polyhedron"),
    ],
)
def test_bad_shapes_raise_value_errors_naming_the_field(build, message):
    with pytest.raises(ValueError) as e:
        build()
    assert isinstance(e.value, proxima.ProximaError)
    assert message in str(e.value)


def test_library_rejections_are_geom_errors():
    with pytest.raises(proxima.GeomError):
        proxima.Sphere(-1.0)
    with pytest.raises(proxima.GeomError):
        proxima.Polyhedron([[1, 0, 0], [-1, 0, 0], [0, 1, 0]], [1, 1, 1])  # unbounded


def test_non_numbers_are_type_errors_and_the_base_class_is_abstract():
    with pytest.raises(TypeError):
        proxima.Sphere("one")
    with pytest.raises(TypeError):
        proxima.Shape()


def test_convex_hull_of_a_point_cloud_keeps_every_point_inside():
    # The hull of the cube's corners plus interior points: the distance from a sphere placed
    # beyond a corner is the same as against the cube itself.
    rng = np.random.default_rng(3)
    corners = np.array([[x, y, z] for x in (-1, 1) for y in (-1, 1) for z in (-1, 1)], dtype=float)
    cloud = np.vstack([corners, rng.uniform(-0.9, 0.9, size=(50, 3))])
    hull, cube = proxima.ConvexHull(cloud), proxima.Box([1, 1, 1])
    ball = proxima.Sphere(0.1)
    for _ in range(20):
        T = proxima.pose(rng.normal(size=3) * 3)
        d1 = proxima.distance(hull, np.eye(4), ball, T).distance
        d2 = proxima.distance(cube, np.eye(4), ball, T).distance
        # Both certified to 1e-9 x scale; scale here is below 10.
        assert abs(d1 - d2) < 1e-8
