"""The app's start and page times (issue 31: start under 2 s, a page under 200 ms when no solve runs).

Start: from launching `python -m solver serve --quiet` until its first page has answered (the address line is
printed once it listens), --starts times, each a fresh process; baseline: `python -m solver --help`, the plain
command line's start. Pages: every page and API read of the app with no solve running, --requests sequential
GETs each to 127.0.0.1 only (a bounded loop: no load goes anywhere else). Writes results/app-benchmark.csv.

    python benchmarks/app.py                 # 5 starts, 50 requests per page
"""
from __future__ import annotations

import argparse
import csv
import os
import resource
import pathlib
import signal
import statistics
import subprocess
import sys
import time
import urllib.request

ROOT = pathlib.Path(__file__).resolve().parent.parent
START_LIMIT = 2.0
PAGE_LIMIT = 0.200
PAGES = ["/", "/static/app.js", "/static/app.css", "/api/boards", "/api/boards/easter-island", "/api/boards/zoo",
         "/api/desert/catalogue"]


def env() -> dict:
    return {**os.environ, "PYTHONPATH": str(ROOT)}


def time_start() -> tuple[float, float]:
    """(wall seconds until the first page answered, CPU seconds of the whole server process: start, that page,
    Ctrl-C). The CPU time hardly depends on what else the machine runs; the wall time does."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    proc = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--quiet"], cwd=ROOT, env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        line = proc.stdout.readline()
        url = line.split()[2]
        assert url.startswith("http://127.0.0.1:"), line
        with urllib.request.urlopen(url, timeout=10) as page:
            page.read()
        wall = time.perf_counter() - t0
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_help() -> tuple[float, float]:
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    t0 = time.perf_counter()
    subprocess.run([sys.executable, "-m", "solver", "--help"], cwd=ROOT, env=env(), stdout=subprocess.DEVNULL,
                   check=True)
    wall = time.perf_counter() - t0
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    return wall, (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)


def time_pages(requests: int) -> dict[str, list[float]]:
    proc = subprocess.Popen([sys.executable, "-m", "solver", "serve", "--quiet"], cwd=ROOT, env=env(),
                            stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True)
    try:
        url = proc.stdout.readline().split()[2].rstrip("/")
        times: dict[str, list[float]] = {}
        for page in PAGES:
            with urllib.request.urlopen(url + page, timeout=30) as answer:   # the first read fills caches
                answer.read()
            times[page] = []
            for _ in range(requests):
                t0 = time.perf_counter()
                with urllib.request.urlopen(url + page, timeout=30) as answer:
                    answer.read()
                times[page].append(time.perf_counter() - t0)
        return times
    finally:
        proc.send_signal(signal.SIGINT)
        proc.wait(timeout=20)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--starts", type=int, default=5, help="fresh starts timed (default 5)")
    ap.add_argument("--requests", type=int, default=50, help="GETs per page, at most 1000 (default 50)")
    ap.add_argument("--out", default=str(ROOT / "results" / "app-benchmark.csv"))
    args = ap.parse_args()
    requests = max(1, min(args.requests, 1000))
    load = os.getloadavg()[0]
    starts = [time_start() for _ in range(max(1, args.starts))]
    helps = [time_help() for _ in range(max(1, args.starts))]
    pages = time_pages(requests)
    walls, cpus = [w for w, _ in starts], [c for _, c in starts]
    rows = [{"what": "start: serve until its first page answers (wall)", "runs": len(starts),
             "median_s": statistics.median(walls), "max_s": max(walls), "limit_s": START_LIMIT,
             "baseline": "python -m solver --help (wall)", "baseline_median_s": statistics.median(w for w, _ in helps)},
            {"what": "start: CPU time of the server process (start, first page, Ctrl-C)", "runs": len(starts),
             "median_s": statistics.median(cpus), "max_s": max(cpus), "limit_s": START_LIMIT,
             "baseline": "python -m solver --help (CPU)", "baseline_median_s": statistics.median(c for _, c in helps)}]
    for page, ts in pages.items():
        ts = sorted(ts)
        rows.append({"what": f"GET {page}", "runs": len(ts), "median_s": statistics.median(ts),
                     "p95_s": ts[int(0.95 * (len(ts) - 1))], "max_s": ts[-1], "limit_s": PAGE_LIMIT})
    fields = ["what", "runs", "median_s", "p95_s", "max_s", "limit_s", "ratio_max_to_limit", "baseline",
              "baseline_median_s", "load_average_1min"]
    out = pathlib.Path(args.out)
    out.parent.mkdir(parents=True, exist_ok=True)
    ok = True
    with out.open("w", newline="", encoding="utf-8") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for row in rows:
            row["ratio_max_to_limit"] = row["max_s"] / row["limit_s"]
            row["load_average_1min"] = load
            ok &= row["max_s"] < row["limit_s"]
            w.writerow({k: (f"{v:.4f}" if isinstance(v, float) else v) for k, v in row.items()})
            print(f"{row['what']}: median {row['median_s'] * 1000:.1f} ms, max {row['max_s'] * 1000:.1f} ms "
                  f"(limit {row['limit_s'] * 1000:.0f} ms)"
                  + (f"; baseline {row['baseline']} {row['baseline_median_s'] * 1000:.0f} ms" if "baseline" in row
                     else ""))
    print(f"wrote {out}; load average {load:.2f} on {os.cpu_count()} cores; "
          f"{'every time within its limit' if ok else 'SOME TIME OVER ITS LIMIT'}")
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
