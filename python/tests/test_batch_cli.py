"""``proxima batch`` (the CLI) and ``Robot.distances_batch`` compute the same rows: the
CLI's .npz, read by numpy, holds bit for bit the arrays of the Python batch (one engine
behind both). Needs the built binary (target/release or target/debug); skipped without it."""

import subprocess

import numpy as np
import pytest

import proxima
from conftest import REPO
from test_robot import LIMITS, PANDA


def binary():
    for profile in ("release", "debug"):
        path = REPO / "target" / profile / "proxima"
        if path.exists():
            return path
    pytest.skip("no proxima binary built (cargo build -p proxima-cli)")


def test_cli_npz_equals_the_python_batch(tmp_path):
    rng = np.random.default_rng(8)
    Q = LIMITS[:, 0] + rng.random((300, 8)) * (LIMITS[:, 1] - LIMITS[:, 0])
    np.save(tmp_path / "q.npy", Q)
    out = tmp_path / "d.npz"
    subprocess.run(
        [binary(), "batch", "--urdf", PANDA, "--configs", tmp_path / "q.npy", "--out", out, "--margin", "0.03"],
        check=True, capture_output=True,
    )
    z = np.load(out)
    robot = proxima.Robot.from_urdf(PANDA)
    b = robot.distances_batch(Q, margin=0.03)
    for name in ("min_distance", "lower", "upper", "in_collision"):
        assert z[name].tobytes() == np.asarray(getattr(b, name)).tobytes(), name
    names = [tuple(p) for p in z["pair_names"]]
    assert names == robot.pairs
    links = robot.link_names
    for i, k in enumerate(z["pair"]):
        expected = (-1, -1) if k < 0 else tuple(links.index(x) for x in names[k])
        assert (b.pair_a[i], b.pair_b[i]) == expected
    assert (z["pair"] >= 0).sum() == np.isfinite(z["min_distance"]).sum() > 0
