"""Objects travel through multiprocessing (pickled to a spawned worker and back): shapes,
poses and settings go out, results come back equal to the same queries run here."""

import multiprocessing

import numpy as np

import proxima


def work(job):
    a, Ta, b, Tb, tracker = job
    return proxima.distance(a, Ta, b, Tb), proxima.distance_batch(a, Ta, b, np.stack([Tb, Tb])), tracker.distance(Ta, Tb)


def test_objects_round_trip_through_a_process_pool():
    rng = np.random.default_rng(4)
    a = proxima.ConvexHull(rng.normal(size=(20, 3)))
    b = proxima.Ellipsoid([0.3, 0.2, 0.4])
    jobs = [(a, np.eye(4), b, proxima.pose([2.0 + k, 0.5, 0.0]), proxima.Tracker(a, b, algorithm="gjk")) for k in range(4)]
    with multiprocessing.get_context("spawn").Pool(2) as pool:
        remote = pool.map(work, jobs)
    for job, (r, batch, tracked) in zip(jobs, remote):
        local = work(job)
        assert r == local[0] and batch == local[1]
        assert tracked.distance == local[2].distance and tracked.algorithm == "gjk"
