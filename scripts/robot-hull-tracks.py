#!/usr/bin/env python3
"""Robot-link hull trajectories: pairs of convex hulls of real robot collision meshes moving
smoothly relative to each other (the tracking set-up in which DQP3 once certified wrong numbers).

Two outputs:

  --testdata DIR   the Franka Panda links only (Apache-2.0, see DIR/LICENSE.txt): DIR/meshes.json
                   (each collision mesh's distinct vertices, as read from the OBJ files) and
                   DIR/tracks.json (tracks with coal's distance at every step, the reference of
                   crates/proxima-geom/tests/robot_hulls.rs). Vendored into the repository.
  --bench FILE     a workload in the geometry harness format (shared/bench/geometry/FORMAT.md)
                   with Panda and KUKA iiwa link hulls (the iiwa meshes carry no license: this
                   file stays outside the repository), for `proxima bench-geometry` and the coal
                   runner side by side (scripts/dqp3-vs-coal.sh).

Reads the meshes from ../shared/bench/robot/robots (override with --robots) and reuses the
geometry harness's pose helpers (../shared/bench/geometry/gen_workloads.py). Needs numpy, scipy
and, for --testdata, the coal Python bindings.

    python3 scripts/robot-hull-tracks.py --testdata testdata/robots/panda
    python3 scripts/robot-hull-tracks.py --bench target/workloads/track_robot_hulls.json
"""
import argparse
import json
import math
import os
import struct
import sys

import numpy as np
from scipy.spatial import transform

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(HERE)
PANDA_LINKS = ["link0", "link1", "link2", "link3", "link4", "link5", "link6", "link7", "hand", "finger"]


def obj_vertices(path):
    pts = []
    with open(path) as f:
        for line in f:
            if line.startswith("v "):
                pts.append([float(x) for x in line.split()[1:4]])
    return pts


def stl_vertices(path):
    with open(path, "rb") as f:
        data = f.read()
    (count,) = struct.unpack_from("<I", data, 80)
    pts = []
    for k in range(count):
        vals = struct.unpack_from("<12f", data, 84 + 50 * k)
        for c in range(3):
            pts.append([float(v) for v in vals[3 + 3 * c: 6 + 3 * c]])
    return pts


def distinct(pts):
    seen, out = set(), []
    for p in pts:
        key = tuple(p)
        if key not in seen:
            seen.add(key)
            out.append(list(p))
    return out


def load_links(robots, with_iiwa):
    links = {}
    pdir = os.path.join(robots, "panda", "meshes", "collision")
    for name in PANDA_LINKS:
        links["panda_" + name] = distinct(obj_vertices(os.path.join(pdir, name + ".obj")))
    if with_iiwa:
        idir = os.path.join(robots, "iiwa", "meshes")
        for k in range(8):
            links["iiwa_link_%d" % k] = distinct(stl_vertices(os.path.join(idir, "link_%d.stl" % k)))
    return links


def tracks(gw, rng, shapes, ntracks, nsteps, gaps):
    """Like the harness's track_polytope_N: A and B rotate about fixed random axes at
    0.002-0.02 rad/step, the offset direction precesses, and the gap between the support planes
    along it oscillates as g0 + ga sin(gf k + phase), clamped at -0.01 m (link sizes are
    0.05-0.3 m); `gaps` = the ranges of (g0, ga, gf)."""
    out = []
    ids = sorted(shapes)
    for _ in range(ntracks):
        ia, ib = rng.integers(len(ids), size=2)
        sa, sb = shapes[ids[ia]], shapes[ids[ib]]
        Ra0, Rb0 = gw.random_rotation(rng), gw.random_rotation(rng)
        wa, wb = gw.unit(rng) * rng.uniform(0.002, 0.02), gw.unit(rng) * rng.uniform(0.002, 0.02)
        d0, dax = gw.unit(rng), gw.unit(rng)
        dw = rng.uniform(0.001, 0.01)
        ta = rng.uniform(-0.5, 0.5, size=3)
        g0, ga, gf = (rng.uniform(*r) for r in gaps)
        gph = rng.uniform(0, 6.3)
        pa_list, pb_list = [], []
        for k in range(nsteps):
            Ra = transform.Rotation.from_rotvec(wa * k).as_matrix() @ Ra0
            Rb = transform.Rotation.from_rotvec(wb * k).as_matrix() @ Rb0
            d = gw.axis_angle(dax, dw * k) @ d0
            gap = max(g0 + ga * math.sin(gf * k + gph), -0.01)
            dist = gw.support_world(sa, Ra, d) + gw.support_world(sb, Rb, -d) + gap
            pa_list.append(gw.rnd(gw.pose(Ra, ta)))
            pb_list.append(gw.rnd(gw.pose(Rb, ta + dist * d)))
        out.append({"a": sa["id"], "b": sb["id"], "poses_a": pa_list, "poses_b": pb_list})
    return out


def coal_distances(shapes, track):
    import coal

    def tf(p):
        return coal.Transform3s(np.asarray(p["rotation"]), np.asarray(p["translation"]))

    a, b = shapes[track["a"]], shapes[track["b"]]
    ga, gb = a["_coal"], b["_coal"]
    out = []
    for pa, pb in zip(track["poses_a"], track["poses_b"]):
        req, res = coal.DistanceRequest(), coal.DistanceResult()
        d = coal.distance(ga, tf(pa), gb, tf(pb), req, res)
        out.append(float(d))
    return out


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--robots", default=os.path.join(ROOT, "..", "shared", "bench", "robot", "robots"))
    ap.add_argument("--geometry", default=os.path.join(ROOT, "..", "shared", "bench", "geometry"))
    ap.add_argument("--testdata", help="directory for the vendored Panda test data")
    ap.add_argument("--bench", help="harness workload file to write (Panda + iiwa)")
    ap.add_argument("--seed", type=int, default=17)
    ap.add_argument("--tracks", type=int, default=60)
    ap.add_argument("--steps", type=int, default=100)
    args = ap.parse_args()
    sys.path.insert(0, args.geometry)
    import gen_workloads as gw

    rng = np.random.default_rng(args.seed)
    if args.testdata:
        links = load_links(args.robots, with_iiwa=False)
        os.makedirs(args.testdata, exist_ok=True)
        shapes = {k: gw.hull_shape(k, np.asarray(v, dtype=float)) for k, v in links.items()}
        import coal
        for s in shapes.values():
            pts, tris = coal.StdVec_Vec3s(), coal.StdVec_Triangle()
            for p in s["vertices"]:
                pts.append(np.asarray(p, dtype=float))
            for t in s["faces"]:
                tris.append(coal.Triangle(*t))
            s["_coal"] = coal.Convex(pts, tris)
        # Closer than the benchmark: about a third of the steps overlap.
        tr = tracks(gw, rng, shapes, 12, 40, [(-0.01, 0.03), (0.005, 0.03), (0.05, 0.15)])
        for t in tr:
            t["coal_distance"] = coal_distances(shapes, t)
        with open(os.path.join(args.testdata, "meshes.json"), "w") as f:
            json.dump({"source": "Franka Emika Panda collision meshes (pybullet_data franka_panda, "
                                 "Apache-2.0), distinct OBJ vertices per mesh",
                       "links": links}, f, separators=(",", ":"))
            f.write("\n")
        with open(os.path.join(args.testdata, "tracks.json"), "w") as f:
            json.dump({"source": "scripts/robot-hull-tracks.py --testdata, seed %d; coal %s distances "
                                 "between qhull hulls of the same points" % (args.seed, coal.__version__),
                       "tracks": tr}, f, separators=(",", ":"))
            f.write("\n")
        print("wrote", args.testdata, len(tr), "tracks")
    if args.bench:
        links = load_links(args.robots, with_iiwa=True)
        shapes = {k: gw.hull_shape(k, np.asarray(v, dtype=float)) for k, v in links.items()}
        tr = tracks(gw, rng, shapes, args.tracks, args.steps, [(0.0, 0.1), (0.01, 0.1), (0.01, 0.06)])
        wl = {"name": "track_robot_hulls",
              "description": "Tracking workload: %d trajectories x %d steps between convex hulls of the Panda and "
                             "iiwa collision meshes (scripts/robot-hull-tracks.py, seed %d)"
                             % (args.tracks, args.steps, args.seed),
              "seed": args.seed, "shapes": [gw.rnd(s) for s in shapes.values()], "queries": [], "tracks": tr}
        os.makedirs(os.path.dirname(os.path.abspath(args.bench)), exist_ok=True)
        with open(args.bench, "w") as f:
            json.dump(wl, f, separators=(",", ":"))
        sizes = ", ".join("%s %d" % (k, len(s["vertices"])) for k, s in shapes.items())
        print("wrote", args.bench, "hull vertices:", sizes)


if __name__ == "__main__":
    main()
