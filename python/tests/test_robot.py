"""proxima.Robot on the vendored Panda (testdata/robots/panda): configuration order and pair
rule of the robot benchmark's FORMAT.md, single and batch queries, thread invariance, SRDF and
package:// resolution, bad descriptions and configurations, pickling that carries the meshes."""

import pickle
import shutil

import numpy as np
import pytest

import proxima

from conftest import TESTDATA

PANDA = TESTDATA / "robots" / "panda" / "panda.urdf"
# Joint limits of the Panda URDF (7 arm joints, then the finger joint), for sampling.
LIMITS = np.array(
    [
        [-2.8973, 2.8973],
        [-1.7628, 1.7628],
        [-2.8973, 2.8973],
        [-3.0718, -0.0698],
        [-2.8973, 2.8973],
        [-0.0175, 3.7525],
        [-2.8973, 2.8973],
        [0.0, 0.04],
    ]
)
# A configuration with a known closest pair (the scene crate's documented example).
Q0 = [0.0, -0.5, 0.0, -2.0, 0.0, 1.6, 0.8, 0.02]


@pytest.fixture(scope="module")
def panda():
    return proxima.Robot.from_urdf(PANDA)


def configurations(n, seed=5):
    rng = np.random.default_rng(seed)
    return LIMITS[:, 0] + rng.random((n, 8)) * (LIMITS[:, 1] - LIMITS[:, 0])


def test_description_follows_the_benchmark_format(panda):
    # FORMAT.md: 8 values (7 arm joints + panda_finger_joint1; the mimic finger excluded),
    # 42 pairs by the all-but-adjacent rule over the 11 links with geometry.
    assert panda.dof == 8
    assert panda.joint_names == [f"panda_joint{i}" for i in range(1, 8)] + ["panda_finger_joint1"]
    assert len(panda.pairs) == 42
    assert ("panda_link0", "panda_link2") in panda.pairs
    assert ("panda_link0", "panda_link1") not in panda.pairs  # parent-child
    assert ("panda_link7", "panda_hand") not in panda.pairs  # same rigid group through link8
    assert all(a in panda.link_names and b in panda.link_names for a, b in panda.pairs)


def test_one_configuration(panda):
    d = panda.distances(Q0)
    assert d.pair == ("panda_link5", "panda_link7") and not d.in_collision
    assert d.lower <= d.min_distance <= d.upper and d.upper - d.lower < 1e-8
    assert 0.0 < d.min_distance < 0.05
    pa, pb = d.points
    assert np.linalg.norm(pb - pa) == pytest.approx(d.min_distance, abs=1e-9)
    every = panda.distances(Q0, all_pairs=True)
    assert every.distances.shape == (42,)
    k = int(np.argmin(every.distances))
    assert panda.pairs[k] == d.pair and every.distances[k] == pytest.approx(d.min_distance, abs=1e-9)
    assert panda.distances(Q0).distances is None
    assert pickle.loads(pickle.dumps(d)) == d and pickle.loads(pickle.dumps(every)) == every


def test_batch_matches_single_calls_and_ignores_the_thread_count(panda):
    Q = configurations(300)
    one = panda.distances_batch(Q, threads=1)
    assert len(one) == 300 and one.min_distance.dtype == np.float64 and one.in_collision.dtype == bool
    for threads in (2, None):
        assert panda.distances_batch(Q, threads=threads) == one
    for i in range(0, 300, 7):
        d = panda.distances(Q[i])
        # Single calls are warm-started from the previous one; both are certified (1e-9 x scale).
        assert one.min_distance[i] == pytest.approx(d.min_distance, abs=1e-8)
        assert one.in_collision[i] == d.in_collision
        if d.min_distance > 1e-6:
            assert (panda.link_names[one.pair_a[i]], panda.link_names[one.pair_b[i]]) == d.pair
        assert one.lower[i] <= one.min_distance[i] <= one.upper[i]
    assert one.in_collision.any() and not one.in_collision.all()
    assert (one.in_collision == (one.min_distance <= 0)).all()
    again = pickle.loads(pickle.dumps(one))
    assert again == one and again.pair_a.dtype == np.int64


def test_bad_configurations(panda):
    with pytest.raises(proxima.ProximaError, match=r"q: expected an array of shape \(8,\)"):
        panda.distances(Q0[:7])
    far = list(Q0)
    far[0] = 3.5
    with pytest.raises(proxima.RobotError, match="panda_joint1"):
        panda.distances(far)
    assert panda.distances(far, clamp=True).min_distance > 0
    bad = configurations(5)
    bad[3, 1] = np.nan
    bad[4, 0] = 9.0
    with pytest.raises(proxima.ProximaError, match=r"^Q\[3\]: .*panda_joint2.*NaN"):
        panda.distances_batch(bad)
    bad[3, 1] = 0.0
    with pytest.raises(proxima.RobotError, match=r"^Q\[4\]: .*panda_joint1"):
        panda.distances_batch(bad)
    with pytest.raises(proxima.ProximaError, match=r"Q: expected an array of shape \(n, 8\)"):
        panda.distances_batch(np.zeros((4, 7)))
    with pytest.raises(proxima.ProximaError, match="threads"):
        panda.distances_batch(configurations(2), threads=0)


def test_bad_descriptions_raise_value_errors(tmp_path):
    with pytest.raises(proxima.RobotError) as e:
        proxima.Robot.from_urdf(tmp_path / "missing.urdf")
    assert isinstance(e.value, ValueError) and "missing.urdf" in str(e.value)
    broken = tmp_path / "broken.urdf"
    broken.write_text('<robot name="x">\n  <link name="a">\n</robot>\n')
    with pytest.raises(proxima.RobotError, match="broken.urdf"):
        proxima.Robot.from_urdf(broken)
    orphan = tmp_path / "orphan.urdf"
    orphan.write_text(
        '<robot name="x"><link name="a"/><joint name="j" type="revolute"><parent link="a"/>'
        '<child link="b"/><limit lower="0" upper="1"/></joint></robot>'
    )
    with pytest.raises(proxima.RobotError, match="does not exist"):
        proxima.Robot.from_urdf(orphan)
    nomesh = tmp_path / "nomesh.urdf"
    nomesh.write_text(
        '<robot name="x"><link name="a"><collision><geometry><mesh filename="none.obj"/>'
        "</geometry></collision></link></robot>"
    )
    with pytest.raises(proxima.RobotError, match="none.obj"):
        proxima.Robot.from_urdf(nomesh)
    srdf = tmp_path / "bad.srdf"
    srdf.write_text('<robot name="panda"><disable_collisions link1="nope" link2="panda_link0"/></robot>')
    with pytest.raises(ValueError, match="nope"):
        proxima.Robot.from_urdf(PANDA, srdf=srdf)


def test_srdf_removes_pairs_and_package_dirs_resolve(tmp_path, panda):
    srdf = tmp_path / "panda.srdf"
    srdf.write_text(
        '<robot name="panda"><disable_collisions link1="panda_link5" link2="panda_link7" reason="Never"/></robot>'
    )
    fewer = proxima.Robot.from_urdf(PANDA, srdf=srdf)
    assert len(fewer.pairs) == 41 and ("panda_link5", "panda_link7") not in fewer.pairs
    assert fewer.distances(Q0).pair != ("panda_link5", "panda_link7")
    # The same robot with package:// mesh URIs, resolved through package_dirs.
    packaged = tmp_path / "packaged.urdf"
    packaged.write_text(PANDA.read_text().replace('filename="meshes/', 'filename="package://panda/meshes/'))
    robot = proxima.Robot.from_urdf(packaged, package_dirs=[TESTDATA / "robots"])
    Q = configurations(40, seed=3)
    assert robot.distances_batch(Q) == panda.distances_batch(Q)
    with pytest.raises(proxima.RobotError, match="package://panda"):
        proxima.Robot.from_urdf(packaged)


def test_pickle_carries_the_meshes(tmp_path):
    """A robot loaded from a copy of the Panda unpickles after that copy is gone: the pickle
    holds the URDF and the mesh bytes, not paths."""
    copy = tmp_path / "panda"
    shutil.copytree(PANDA.parent, copy)
    robot = proxima.Robot.from_urdf(copy / "panda.urdf")
    data = pickle.dumps(robot)
    shutil.rmtree(copy)
    again = pickle.loads(data)
    assert again == robot
    Q = configurations(50, seed=9)
    assert again.distances_batch(Q) == robot.distances_batch(Q)
    assert again.pairs == robot.pairs and again.joint_names == robot.joint_names
