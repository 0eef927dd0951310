#!/usr/bin/env python3
"""Writes the workload extracts under testdata/geometry/workloads/ from the benchmark harness's
public workloads (../shared/bench/geometry/workloads, seed 1), so that the tests that check them
run in a bare clone. Each extract keeps the shapes its queries use and records the selection.

    python3 scripts/extract-workloads.py [--shared ../shared]
"""
import argparse
import json
import os

# name -> (selection description, function from the query list to the kept queries)
EXTRACTS = {
    "cylinders": ("every 8th query", lambda q: q[::8]),
    "polytope_64": ("every 8th query", lambda q: q[::8]),
    "ellipsoids": ("every 7th query", lambda q: q[::7]),
    "ellipsoid_hull_512": ("query 257 only", lambda q: [q[257]]),
    "boxes": (
        "every 10th of the 1500 random queries, then every 5th of the 500 near-parallel ones",
        lambda q: q[0:1500:10] + q[1500:2000:5],
    ),
}

# name -> (selection description, function from the track list to the kept tracks)
TRACK_EXTRACTS = {
    "track_polytope_64": ("the first 2 of the 200 tracks", lambda t: t[:2]),
}


def main():
    here = os.path.dirname(os.path.abspath(__file__))
    root = os.path.dirname(here)
    ap = argparse.ArgumentParser()
    ap.add_argument("--shared", default=os.path.join(root, "..", "shared"))
    args = ap.parse_args()
    src = os.path.join(args.shared, "bench", "geometry", "workloads")
    out = os.path.join(root, "testdata", "geometry", "workloads")
    os.makedirs(out, exist_ok=True)
    jobs = [(name, how, pick, None) for name, (how, pick) in EXTRACTS.items()]
    jobs += [(name, how, None, pick) for name, (how, pick) in TRACK_EXTRACTS.items()]
    for name, how, pick, pick_tracks in jobs:
        with open(os.path.join(src, name + ".json")) as f:
            w = json.load(f)
        queries = pick(w["queries"]) if pick else []
        tracks = pick_tracks(w["tracks"]) if pick_tracks else []
        used = {q["a"] for q in queries + tracks} | {q["b"] for q in queries + tracks}
        extract = {
            "name": w["name"],
            "description": w.get("description", ""),
            "seed": w.get("seed"),
            "extract": {"source": "shared/bench/geometry/workloads/%s.json" % name, "selection": how},
            "shapes": [s for s in w["shapes"] if s["id"] in used],
            "queries": queries,
            "tracks": tracks,
        }
        with open(os.path.join(out, name + ".json"), "w") as f:
            json.dump(extract, f, separators=(",", ":"))
            f.write("\n")
        print(name, len(queries), "queries,", len(tracks), "tracks")


if __name__ == "__main__":
    main()
