#!/usr/bin/env python3
"""Time the web page's levels as a player waits for them: each level plays games against itself
through a running `fanorona serve` (POST /api/engine, one request at a time), and every turn's
wall-clock time (the request, as the page makes it) is recorded.

    fanorona serve --port 8080 &
    scripts/level_times.py --url http://127.0.0.1:8080 --turns 60 [--json]

Prints, per level, the median, 90th percentile and mean time of a turn in milliseconds (and the
load average before and after: the times are only as calm as the machine). The median is what
`web/src/levels.rs` keeps as `turn_ms` and the page shows with each level.
"""

import argparse
import json
import os
import statistics
import sys
import time
import urllib.request


def post(url, body):
    req = urllib.request.Request(url, data=json.dumps(body).encode(), method="POST",
                                 headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=120) as r:
        return json.load(r)


def time_level(base, level, turns, seed):
    """Times `turns` turns of `level` playing itself, new games as games end."""
    times, moves = [], []
    while len(times) < turns:
        t0 = time.perf_counter()
        r = post(base + "/api/engine", {"moves": moves, "level": level, "seed": seed + len(times)})
        times.append((time.perf_counter() - t0) * 1000)
        moves.append(r["turn"]["notation"])
        if r["after"]["outcome"] is not None:
            moves = []
    return times


def main():
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--url", default="http://127.0.0.1:8080")
    ap.add_argument("--turns", type=int, default=60, help="turns timed per level")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--json", action="store_true", help="one JSON object")
    args = ap.parse_args()
    base = args.url.rstrip("/")
    with urllib.request.urlopen(base + "/api/info", timeout=30) as r:
        info = json.load(r)
    load_before = os.getloadavg()
    rows = []
    for level in info["levels"]:
        t = time_level(base, level["name"], args.turns, args.seed)
        q = statistics.quantiles(t, n=10)
        rows.append({"level": level["name"], "spec": level["spec"], "turns": len(t),
                     "median_ms": round(statistics.median(t), 1), "p90_ms": round(q[-1], 1),
                     "mean_ms": round(statistics.fmean(t), 1)})
        if not args.json:
            r = rows[-1]
            print(f"{r['level']:<9} median {r['median_ms']:>8.1f} ms  p90 {r['p90_ms']:>8.1f} ms  "
                  f"mean {r['mean_ms']:>8.1f} ms  ({r['turns']} turns; {r['spec']})", flush=True)
    out = {"levels": rows, "loadavg_before": load_before, "loadavg_after": os.getloadavg(),
           "cpus": os.cpu_count()}
    if args.json:
        json.dump(out, sys.stdout, indent=2)
        print()
    else:
        print(f"load average before {load_before[0]:.2f}, after {out['loadavg_after'][0]:.2f} "
              f"({out['cpus']} CPUs)")


if __name__ == "__main__":
    main()
