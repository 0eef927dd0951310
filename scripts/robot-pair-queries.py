#!/usr/bin/env python3
"""Cold distance on real robot-link hulls as geometry-harness workloads (issue 23 item 6), for
`scripts/geometry-vs-coal.py`: every monitored link pair at the robot bench's configurations,
and the robot hull tracks' steps as independent queries.

    ~/.cache/robot-bench-venv/bin/python scripts/robot-pair-queries.py --out DIR \\
        [--robot-workload ../shared/bench/robot/workloads/panda_self_1000.json] [--configs 200] \\
        [--tracks target/dqp3-vs-coal/track_robot_hulls.json]
    scripts/geometry-vs-coal.py --coal PATH/bench_coal --workloads DIR \\
        robot_pairs robot_pairs_near robot_pairs_mid robot_pairs_far track_steps

Writes to DIR:

  robot_pairs.json       the first N configurations' separated pair queries: both link hulls
                         (coal's qhull hull of the collision mesh, as the anchor
                         run_pinocchio.py builds it), placed by Pinocchio's geometry
                         placements; overlapping pairs are left out (their depth is another
                         benchmark)
  robot_pairs_near.json  ... of them, coal distance < 0.05 m (the regime of the hull tracks,
                         whose gaps are 0-0.1 m)
  robot_pairs_mid.json   0.05-0.2 m
  robot_pairs_far.json   >= 0.2 m
  track_steps.json       with --tracks: every step of a `track_robot_hulls` workload
                         (scripts/robot-hull-tracks.py --bench) as an independent query, so
                         that every runner's `queries` section is cold (coal's track_cold keeps
                         one ComputeDistance per track)

Needs the robot bench's venv (pinocchio, coal, numpy) and ../shared/bench/robot.
"""

import argparse
import json
import os
import sys

import numpy as np

HERE = os.path.dirname(os.path.abspath(__file__))
ROBOT_BENCH = os.path.join(HERE, "..", "..", "shared", "bench", "robot")


def hull_shape(name, cv):
    """A `convex` shape from coal's hull (the anchor's qhull hull): its points, and its facets
    (coal keeps their planes n·x + o = 0) as the points on each plane, ordered around the facet
    and fanned into triangles counter-clockwise seen from outside (FORMAT.md)."""
    pts = np.array([np.asarray(cv.point(i)) for i in range(cv.num_points)])
    tol = 1e-9 * np.abs(pts).max()
    facets = set()
    for k in range(cv.num_normals_and_offsets):
        n, o = np.asarray(cv.normal(k)), cv.offset(k)
        facets.add((tuple(np.flatnonzero(np.abs(pts @ n + o) <= tol)), tuple(n)))
    faces, seen = [], set()
    for idx, n in sorted(facets):
        if idx in seen or len(idx) < 3:
            continue
        seen.add(idx)
        n = np.asarray(n)
        c = pts[list(idx)].mean(axis=0)
        u = pts[idx[0]] - c
        u /= np.linalg.norm(u)
        v = np.cross(n, u)
        ring = sorted(idx, key=lambda i: np.arctan2((pts[i] - c) @ v, (pts[i] - c) @ u))
        faces += [[int(ring[0]), int(ring[m]), int(ring[m + 1])] for m in range(1, len(ring) - 1)]
    used = sorted({i for f in faces for i in f})
    if len(used) != len(pts) or len(faces) != 2 * len(pts) - 4:
        raise SystemExit("%s: facets do not close the hull (%d of %d points, %d triangles)"
                         % (name, len(used), len(pts), len(faces)))
    return {"id": name, "type": "convex", "vertices": pts.tolist(), "faces": faces}


def pose(m):
    return {"translation": m.translation.tolist(), "rotation": m.rotation.tolist()}


def write(out, name, description, shapes, queries):
    with open(os.path.join(out, name + ".json"), "w") as f:
        json.dump({"name": name, "description": description, "seed": 0, "shapes": shapes, "queries": queries,
                   "tracks": []}, f, separators=(",", ":"))
    print("wrote", name, len(queries), "queries")


def robot_pairs(args):
    sys.path.insert(0, args.robot_bench)
    import coal
    import pinocchio as pin
    import run_pinocchio as rp

    path = os.path.abspath(args.robot_workload)
    workload = json.load(open(path))
    model, gmodel, descs, _ = rp.build(workload, os.path.dirname(path), "hull")
    rp.setup_pairs(model, gmodel, workload, descs)
    to_q = rp.q_mapper(model, workload)
    data, gdata = model.createData(), pin.GeometryData(gmodel)
    shapes = [hull_shape(g.name, g.geometry) for g in gmodel.geometryObjects]
    bins = {"": [], "_near": [], "_mid": [], "_far": []}
    for row in workload["configurations"][: args.configs]:
        pin.forwardKinematics(model, data, to_q(row))
        pin.updateGeometryPlacements(model, data, gmodel, gdata)
        for cp in gmodel.collisionPairs:
            i, j = cp.first, cp.second
            ma, mb = gdata.oMg[i], gdata.oMg[j]
            req, res = coal.DistanceRequest(), coal.DistanceResult()
            d = coal.distance(gmodel.geometryObjects[i].geometry, coal.Transform3s(ma.rotation, ma.translation),
                              gmodel.geometryObjects[j].geometry, coal.Transform3s(mb.rotation, mb.translation),
                              req, res)
            if d <= 0:
                continue
            q = {"a": shapes[i]["id"], "b": shapes[j]["id"], "pose_a": pose(ma), "pose_b": pose(mb)}
            bins[""].append(q)
            bins["_near" if d < 0.05 else "_mid" if d < 0.2 else "_far"].append(q)
    for suffix, queries in bins.items():
        write(args.out, "robot_pairs" + suffix,
              "separated link-hull pairs of %s, first %d configurations%s (scripts/robot-pair-queries.py)"
              % (workload["name"], args.configs, suffix.replace("_", ", ")), shapes, queries)


def track_steps(args):
    w = json.load(open(args.tracks))
    queries = [{"a": t["a"], "b": t["b"], "pose_a": pa, "pose_b": pb}
               for t in w["tracks"] for pa, pb in zip(t["poses_a"], t["poses_b"])]
    write(args.out, "track_steps", "every step of %s as an independent query" % w["name"], w["shapes"], queries)


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", required=True)
    ap.add_argument("--robot-bench", default=ROBOT_BENCH)
    ap.add_argument("--robot-workload", default=os.path.join(ROBOT_BENCH, "workloads", "panda_self_1000.json"))
    ap.add_argument("--configs", type=int, default=200)
    ap.add_argument("--tracks", help="a track_robot_hulls workload (scripts/robot-hull-tracks.py --bench)")
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    robot_pairs(args)
    if args.tracks:
        track_steps(args)


if __name__ == "__main__":
    main()
