#!/usr/bin/env python3
"""Overlapping curved pairs for the penetration-depth benchmark (issue 23, item 3).

Writes one workload per pair family (harness format, ../shared/bench/geometry/FORMAT.md)
whose every query overlaps: b is placed with the support planes along a random direction
overlapping by 2%..50% of the smaller shape's x-extent (the harness generator's overlap
band), and a placement is kept only when coal (an independent judge) finds the shapes
overlapping by more than 1e-3, so every query runs the libraries' penetration depth (coal's
EPA, our EPA / depth method).

    python3 scripts/overlap-workloads.py --out /tmp/overlap [--n 400] [--seed 7] [--tracks 40]

With --tracks T it also writes tracking workloads per family: `track_contact_<family>` (T
tracks of 50 steps of small relative motion, every step overlapping by more than 1e-3 by
coal) and `track_apart_<family>` (the same motions with the shapes apart by 0.02..0.3 at
every step), for warm steps in contact against warm steps apart.

Shapes and placement come from the harness generator (gen_workloads.py), imported from
../shared/bench/geometry (or $GEOMETRY_BENCH).
"""
import argparse
import json
import os
import sys

import numpy as np

here = os.path.dirname(os.path.abspath(__file__))
bench = os.environ.get("GEOMETRY_BENCH", os.path.join(here, "..", "..", "shared", "bench", "geometry"))
if not os.path.isdir(bench):
    bench = "/work/shared/bench/geometry"
sys.path.insert(0, bench)
import gen_workloads as g  # noqa: E402
import run_coal  # noqa: E402
import coal  # noqa: E402


def coal_signed(sa, pa, sb, pb):
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    return coal.distance(run_coal.make_geom(sa), run_coal.make_tf(pa), run_coal.make_geom(sb),
                         run_coal.make_tf(pb), req, res)


def shapes(rng):
    out = []
    for i in range(4):
        out.append({"id": f"cyl{i}", "type": "cylinder", "radius": float(rng.uniform(0.2, 1.0)),
                    "half_height": float(rng.uniform(0.2, 1.5))})
        out.append({"id": f"ell{i}", "type": "ellipsoid", "radii": [float(x) for x in rng.uniform(0.3, 1.5, 3)]})
        out.append({"id": f"cap{i}", "type": "capsule", "radius": float(rng.uniform(0.2, 0.8)),
                    "half_height": float(rng.uniform(0.2, 1.5))})
        out.append({"id": f"box{i}", "type": "box", "half_extents": [float(x) for x in rng.uniform(0.2, 1.2, 3)]})
    return out


FAMILIES = {
    "cyl_cyl": ("cyl", "cyl"),
    "cyl_ell": ("cyl", "ell"),
    "ell_ell": ("ell", "ell"),
    "cap_cyl": ("cap", "cyl"),
    "cap_ell": ("cap", "ell"),
    "box_cyl": ("box", "cyl"),
    "box_ell": ("box", "ell"),
}


def track(rng, sa, sb, contact, nsteps=50):
    """One track: both shapes rotate about fixed axes by 0.002-0.02 rad/step, the offset
    direction precesses, the support-plane gap oscillates within the overlap band (contact)
    or within 0.02..0.3 (apart); None unless coal agrees at every step."""
    import math
    from scipy.spatial import transform
    Ra0, Rb0 = g.random_rotation(rng), g.random_rotation(rng)
    wa, wb = g.unit(rng) * rng.uniform(0.002, 0.02), g.unit(rng) * rng.uniform(0.002, 0.02)
    d0, dax = g.unit(rng), g.unit(rng)
    dw = rng.uniform(0.001, 0.01)
    ta = rng.uniform(-2, 2, size=3)
    x = np.array([1.0, 0, 0])
    scale = min(g.support_local(sa, x), g.support_local(sb, x))
    lo, hi = (-0.4 * scale, -0.05 * scale) if contact else (0.02, 0.3)
    mid, amp = (lo + hi) / 2, (hi - lo) / 2
    gf, gph = rng.uniform(0.01, 0.06), rng.uniform(0, 6.3)
    poses_a, poses_b = [], []
    for k in range(nsteps):
        Ra = transform.Rotation.from_rotvec(wa * k).as_matrix() @ Ra0
        Rb = transform.Rotation.from_rotvec(wb * k).as_matrix() @ Rb0
        d = g.axis_angle(dax, dw * k) @ d0
        gap = mid + amp * math.sin(gf * k + gph)
        dist = g.support_world(sa, Ra, d) + g.support_world(sb, Rb, -d) + gap
        pa, pb = g.rnd(g.pose(Ra, ta)), g.rnd(g.pose(Rb, ta + dist * d))
        sd = coal_signed(sa, pa, sb, pb)
        if (contact and sd > -1e-3) or (not contact and sd < 0.01):
            return None
        poses_a.append(pa)
        poses_b.append(pb)
    return {"a": sa["id"], "b": sb["id"], "poses_a": poses_a, "poses_b": poses_b}


def write_tracks(rng, sh, out, ntracks):
    pools = dict(FAMILIES)
    hulls = g.polytope_shapes(rng, 64, 4)
    for fam, (ka, kb) in list(pools.items()) + [("hull_hull", ("poly", "poly"))]:
        pool = sh + hulls
        pa_ = [s for s in pool if s["id"].startswith(ka)]
        pb_ = [s for s in pool if s["id"].startswith(kb)]
        for contact in (True, False):
            used, tracks = {}, []
            while len(tracks) < ntracks:
                sa = pa_[int(rng.integers(len(pa_)))]
                sb = pb_[int(rng.integers(len(pb_)))]
                t = track(rng, sa, sb, contact)
                if t is None:
                    continue
                used[sa["id"]], used[sb["id"]] = sa, sb
                tracks.append(t)
            name = f"track_{'contact' if contact else 'apart'}_{fam}"
            w = {"name": name, "seed": 0, "description": f"{ka}-{kb} tracks, {'overlapping' if contact else 'apart'} at every step",
                 "shapes": list(used.values()), "queries": [], "tracks": tracks}
            with open(os.path.join(out, f"{name}.json"), "w") as f:
                json.dump(w, f)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--out", required=True)
    ap.add_argument("--n", type=int, default=400)
    ap.add_argument("--seed", type=int, default=7)
    ap.add_argument("--tracks", type=int, default=0)
    args = ap.parse_args()
    os.makedirs(args.out, exist_ok=True)
    rng = np.random.default_rng(args.seed)
    sh = shapes(rng)
    for fam, (ka, kb) in FAMILIES.items():
        pa_ = [s for s in sh if s["id"].startswith(ka)]
        pb_ = [s for s in sh if s["id"].startswith(kb)]
        used = {}
        queries = []
        while len(queries) < args.n:
            sa = pa_[int(rng.integers(len(pa_)))]
            sb = pb_[int(rng.integers(len(pb_)))]
            x = np.array([1.0, 0, 0])
            scale = min(g.support_local(sa, x), g.support_local(sb, x))
            gap = -scale * rng.uniform(0.02, 0.5)
            pa, pb = g.rnd(g.place_pair(rng, sa, sb, gap))
            if coal_signed(sa, pa, sb, pb) > -1e-3:
                continue
            used[sa["id"]], used[sb["id"]] = sa, sb
            queries.append({"a": sa["id"], "pose_a": pa, "b": sb["id"], "pose_b": pb})
        w = {"name": f"overlap_{fam}", "seed": args.seed,
             "description": f"overlapping {ka}-{kb} pairs (support planes overlap 2-50% of the smaller x-extent)",
             "shapes": list(used.values()), "queries": queries, "tracks": []}
        with open(os.path.join(args.out, f"overlap_{fam}.json"), "w") as f:
            json.dump(g.rnd(w), f)
    if args.tracks:
        write_tracks(rng, sh, args.out, args.tracks)
    print(f"wrote the workloads to {args.out}")


if __name__ == "__main__":
    main()
