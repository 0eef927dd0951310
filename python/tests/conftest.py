"""Shared helpers of the proxima test suite: the repository's testdata/ folder, random rigid
poses, and a catalogue of shapes built the same way in proxima and (for the side-by-side
suite) in coal."""

import os
import pathlib

import numpy as np
import pytest

import proxima

REPO = pathlib.Path(__file__).resolve().parents[2]
TESTDATA = REPO / "testdata"


def random_rotation(rng):
    """A uniformly random rotation matrix (normalized Gaussian quaternion)."""
    q = rng.normal(size=4)
    return proxima.pose(None, q)[:3, :3]


def random_pose(rng, spread=1.0, center=(0.0, 0.0, 0.0)):
    """A 4x4 pose: random rotation, translation center + spread * N(0, 1)."""
    T = np.eye(4)
    T[:3, :3] = random_rotation(rng)
    T[:3, 3] = np.asarray(center) + spread * rng.normal(size=3)
    return T


def sphere_points(rng, n, radii=(1.0, 1.0, 1.0)):
    """n points on an ellipsoid surface (a convex point cloud in general position)."""
    p = rng.normal(size=(n, 3))
    p /= np.linalg.norm(p, axis=1)[:, None]
    return p * np.asarray(radii)


@pytest.fixture
def rng():
    return np.random.default_rng(20261201)


def require_coal():
    """coal, or a skip when it is not installed; CI sets PROXIMA_REQUIRE_COAL=1 so that a
    missing coal fails instead of silently skipping the side-by-side suite."""
    if os.environ.get("PROXIMA_REQUIRE_COAL") == "1":
        import coal  # noqa: F401  (an ImportError fails the run)

        return coal
    return pytest.importorskip("coal")
