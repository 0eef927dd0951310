#!/usr/bin/env python3
"""Runs the peer regression cases (testdata/geometry/cases/peers.json) through coal and
python-fcl and reports which of them each peer gets wrong, against the same references the Rust
test uses (crates/proxima-geom/tests/peer_cases.rs): the stated or closed-form value, the exact
distance of separated boxes (bounded least squares, scipy's BVLS) or the separating-axis depth of
overlapping ones. Cases without a reference ("consistency") are reported, not judged.

    python3 scripts/peer-cases.py            # needs numpy, scipy, coal, python-fcl
"""
import json
import math
import os
import sys

import numpy as np
from scipy.optimize import lsq_linear

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CASES = os.path.join(ROOT, "testdata", "geometry", "cases", "peers.json")


def pose(p):
    return np.array(p["rotation"], float), np.array(p["translation"], float)


def box_sat(ha, Ra, ta, hb, Rb, tb):
    d = tb - ta
    axes = []
    for i in range(3):
        axes += [Ra[:, i], Rb[:, i]]
        for j in range(3):
            c = np.cross(Ra[:, i], Rb[:, j])
            if np.linalg.norm(c) > 1e-9:
                axes.append(c / np.linalg.norm(c))
    rad = lambda h, R, n: sum(h[i] * abs(n @ R[:, i]) for i in range(3))
    return min(rad(ha, Ra, n) + rad(hb, Rb, n) - abs(n @ d) for n in axes)


def box_distance(ha, Ra, ta, hb, Rb, tb):
    # min |(Ra u + ta) - (Rb v + tb)| over |u_i| <= ha_i, |v_i| <= hb_i: bounded least squares.
    A = np.hstack([Ra, -Rb])
    lo = np.concatenate([-np.array(ha), -np.array(hb)])
    res = lsq_linear(A, tb - ta, bounds=(lo, -lo), method="bvls", tol=1e-15)
    return float(np.linalg.norm(A @ res.x - (tb - ta)))


def truth(c):
    ref = c["reference"]
    if ref in ("stated", "closed_form"):
        return c["expect"]
    if ref in ("box_exact", "box_sat"):
        Ra, ta = pose(c["pose_a"])
        Rb, tb = pose(c["pose_b"])
        ha, hb = c["a"]["half_extents"], c["b"]["half_extents"]
        depth = box_sat(ha, Ra, ta, hb, Rb, tb)
        return -depth if depth > 0 else box_distance(ha, Ra, ta, hb, Rb, tb)
    return None


def coal_shape(coal, s):
    t = s["type"]
    if t == "box":
        return coal.Box(*[2 * h for h in s["half_extents"]])
    if t == "sphere":
        return coal.Sphere(s["radius"])
    if t == "capsule":
        return coal.Capsule(s["radius"], 2 * s["half_height"])
    if t == "cylinder":
        return coal.Cylinder(s["radius"], 2 * s["half_height"])
    pts = np.array(s["points"] if t == "convex" else s["vertices"], float)
    if t == "triangle":
        pts = pts.tolist()
        return coal.TriangleP(np.array(pts[0]), np.array(pts[1]), np.array(pts[2]))
    from scipy.spatial import ConvexHull

    h = ConvexHull(pts)
    verts = coal.StdVec_Vec3s()
    for p in pts:
        verts.append(np.asarray(p, float))
    tris = coal.StdVec_Triangle()
    for f in h.simplices:
        tris.append(coal.Triangle(int(f[0]), int(f[1]), int(f[2])))
    return coal.Convex(verts, tris)


def fcl_shape(fcl, s):
    t = s["type"]
    if t == "box":
        return fcl.Box(*[2 * h for h in s["half_extents"]])
    if t == "sphere":
        return fcl.Sphere(s["radius"])
    if t == "capsule":
        return fcl.Capsule(s["radius"], 2 * s["half_height"])
    if t == "cylinder":
        return fcl.Cylinder(s["radius"], 2 * s["half_height"])
    from scipy.spatial import ConvexHull

    pts = np.array(s["points"] if t == "convex" else s["vertices"], float)
    if t == "triangle":
        pts = np.vstack([pts, pts.mean(axis=0) + 1e-12])  # FCL has no triangle primitive
    h = ConvexHull(pts)
    faces = []
    for f in h.simplices:
        faces += [3, int(f[0]), int(f[1]), int(f[2])]
    return fcl.Convex(pts, len(h.simplices), np.array(faces))


def run_coal(c):
    import coal

    a, b = coal_shape(coal, c["a"]), coal_shape(coal, c["b"])
    Ra, ta = pose(c["pose_a"])
    Rb, tb = pose(c["pose_b"])
    Ta, Tb = coal.Transform3s(Ra, ta), coal.Transform3s(Rb, tb)
    if c["op"] == "intersects":
        req, res = coal.CollisionRequest(), coal.CollisionResult()
        return bool(coal.collide(a, Ta, b, Tb, req, res))
    req, res = coal.DistanceRequest(), coal.DistanceResult()
    return float(coal.distance(a, Ta, b, Tb, req, res))


def run_fcl(c):
    import fcl

    Ra, ta = pose(c["pose_a"])
    Rb, tb = pose(c["pose_b"])
    oa = fcl.CollisionObject(fcl_shape(fcl, c["a"]), fcl.Transform(Ra, ta))
    ob = fcl.CollisionObject(fcl_shape(fcl, c["b"]), fcl.Transform(Rb, tb))
    if c["op"] == "intersects":
        return bool(fcl.collide(oa, ob, fcl.CollisionRequest(), fcl.CollisionResult()))
    req = fcl.DistanceRequest(enable_signed_distance=True)
    return float(fcl.distance(oa, ob, req, fcl.DistanceResult()))


def isolated(fn, c):
    """fn(c) in a forked child, so that a peer that aborts the process (python-fcl throws
    std::logic_error out of C++ on some of these cases) is recorded as a failure."""
    r, w = os.pipe()
    pid = os.fork()
    if pid == 0:
        os.close(r)
        try:
            out = json.dumps({"value": fn(c)})
        except Exception as e:
            out = json.dumps({"error": str(e).splitlines()[0][:60] if str(e) else type(e).__name__})
        os.write(w, out.encode())
        os._exit(0)
    os.close(w)
    data = b""
    while True:
        chunk = os.read(r, 65536)
        if not chunk:
            break
        data += chunk
    os.close(r)
    _, status = os.waitpid(pid, 0)
    if not data:
        return "FAIL: crashed (%s)" % ("signal %d" % os.WTERMSIG(status) if os.WIFSIGNALED(status) else "exit")
    msg = json.loads(data)
    return msg["value"] if "value" in msg else "FAIL: %s" % msg["error"]


def judge(c, value, ref):
    """'ok', 'FAIL: ...' or 'n/a' for one peer value."""
    if isinstance(value, str):
        return value
    if c["op"] == "intersects":
        if c["expect"] is None:
            return "n/a"
        return "ok" if value == c["expect"] else "FAIL: says %s" % ("intersecting" if value else "separated")
    if ref is None:
        return "n/a (%.12g)" % value
    tol = max(c["tol"], 1e-12)
    want = ref if c["op"] == "signed_distance" else max(ref, 0.0)
    if ref < 0 and value > 0:
        return "FAIL: overlap %.3g reported as distance %.3g" % (-ref, value)
    if abs(value - want) > tol:
        return "FAIL: %.12g vs %.12g (off %.2g)" % (value, want, abs(value - want))
    return "ok"


def main():
    cases = json.load(open(CASES))["cases"]
    failures = {"coal": [], "fcl": []}
    print("| case | reference | coal 3.0.3 | python-fcl |")
    print("|---|---|---|---|")
    for c in cases:
        ref = truth(c)
        row = []
        for peer, fn in (("coal", run_coal), ("fcl", run_fcl)):
            v = isolated(fn, c)
            verdict = judge(c, v, ref)
            if verdict.startswith("FAIL"):
                failures[peer].append(c["name"])
            row.append(verdict)
        refs = "—" if ref is None else ("%.12g" % ref if not isinstance(ref, bool) else str(ref))
        print("| %s | %s | %s | %s |" % (c["name"], refs, row[0], row[1]))
    for peer, names in failures.items():
        print("\n%s fails %d of %d: %s" % (peer, len(names), len(cases), ", ".join(names) or "none"))


if __name__ == "__main__":
    sys.exit(main())
