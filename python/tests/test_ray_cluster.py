"""proxima.ray against a Ray cluster reached by address (``ray.init(address=...)``), the way
a real cluster is used: a head node with 2 CPUs started apart from this driver
(``ray.cluster_utils.Cluster``, separate processes), the robot and chunks shipped to it, the
result bit for bit the single-process batch's."""

import os

import numpy as np
import pytest

import proxima

if os.environ.get("PROXIMA_REQUIRE_RAY"):
    import ray
else:
    ray = pytest.importorskip("ray")

import proxima.ray  # noqa: E402
from ray.cluster_utils import Cluster  # noqa: E402

from test_ray import PANDA, assert_same_bits, configurations  # noqa: E402


def test_distances_through_a_cluster_address():
    if ray.is_initialized():
        ray.shutdown()
    cluster = Cluster(initialize_head=True, head_node_args={"num_cpus": 2, "include_dashboard": False})
    try:
        ray.init(address=cluster.address, log_to_driver=False, configure_logging=False)
        robot = proxima.Robot.from_urdf(PANDA)
        Q = configurations(3000, seed=4)
        result = proxima.ray.distances(robot, Q, chunk_size=500, progress=False)
        assert_same_bits(result, robot.distances_batch(Q))
        assert np.asarray(result.in_collision).any()
    finally:
        ray.shutdown()
        cluster.shutdown()
