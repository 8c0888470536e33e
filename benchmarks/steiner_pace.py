"""Benchmark the exact Steiner solver on the PACE 2018 track-1 instances.

Runs every `.gr` file of a folder (default: the shared benchmark folder) and
writes one CSV row per instance with our answer beside two baselines from the
same run:

* networkx's 2-approximation (`networkx.algorithms.approximation.steiner_tree`,
  Mehlhorn's method): quality ratio value / known optimum;
* the plain multi-commodity flow MIP (no reductions, no heuristic, no dual
  ascent or LP phase, no valid inequalities) solved by the same SCIP, under a
  per-instance time cap: time ratio baseline seconds / our seconds, and
  whether it hit the cap (then its time is a lower bound on its real time).

Each tree we return is re-checked against the file (a tree, spans the
terminals, weight recomputed from the file's edge weights).

    python benchmarks/steiner_pace.py [--folder DIR] [--out CSV]
        [--time-limit S] [--baseline-time-limit S] [--no-baseline]
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import statistics
import sys
import time

import networkx as nx

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from models.steiner import flow_mip, solve_steiner  # noqa: E402
from solver.board.pace import read_gr  # noqa: E402

DEFAULT_FOLDER = ROOT.parent / "shared" / "data" / "pace2018-track1"
DEFAULT_OUT = ROOT / "results" / "steiner-pace2018.csv"

COLUMNS = [
    "instance", "nodes", "edges", "terminals", "known_optimum",
    "value", "status", "lower_bound", "seconds", "method", "tree_checked",
    "nx_approx_value", "nx_approx_ratio", "nx_approx_seconds",
    "plain_mip_status", "plain_mip_value", "plain_mip_lower_bound", "plain_mip_seconds",
    "plain_mip_hit_cap", "plain_mip_time_ratio",
]


def known_optima(folder: pathlib.Path) -> dict[str, int]:
    path = folder / "optimal.csv"
    if not path.exists():
        return {}
    with open(path, newline="") as fh:
        return {row["instance"]: int(row["optimal_weight"]) for row in csv.DictReader(fh)}


def check_tree(inst, edges) -> int:
    """Weight of `edges` from the file; raises if they are not a spanning tree."""
    tree = nx.Graph()
    tree.add_nodes_from(inst.terminals)
    tree.add_edges_from(edges)
    if len(inst.terminals) > 1 and not nx.is_tree(tree):
        raise AssertionError("returned edges are not a tree")
    return sum(inst.edge_weight(u, v) for u, v in edges)


def run(folder: pathlib.Path, out: pathlib.Path, time_limit: float | None,
        baseline_limit: float, baseline: bool) -> int:
    files = sorted(folder.glob("*.gr"))
    if not files:
        print(f"no .gr files in {folder}", file=sys.stderr)
        return 2
    optima = known_optima(folder)
    rows = []
    for path in files:
        inst = read_gr(path)
        graph = inst.graph()
        t0 = time.perf_counter()
        res = solve_steiner(graph, inst.terminals, time_limit=time_limit)
        seconds = time.perf_counter() - t0
        weight = check_tree(inst, res.edges) if res.value is not None else None
        checked = weight == res.value
        opt = optima.get(path.name)
        row = {
            "instance": path.name, "nodes": inst.n, "edges": len(inst.edges),
            "terminals": len(inst.terminals), "known_optimum": opt,
            "value": res.value, "status": res.status, "lower_bound": res.lower_bound,
            "seconds": f"{seconds:.3f}", "method": res.method, "tree_checked": checked,
        }
        if baseline:
            t1 = time.perf_counter()
            approx = nx.algorithms.approximation.steiner_tree(
                graph, inst.terminals, weight="weight", method="mehlhorn")
            nx_seconds = time.perf_counter() - t1
            nx_value = int(approx.size(weight="weight"))
            row["nx_approx_value"] = nx_value
            row["nx_approx_ratio"] = f"{nx_value / opt:.4f}" if opt else ""
            row["nx_approx_seconds"] = f"{nx_seconds:.3f}"
            edges = [(u, v, d["weight"]) for u, v, d in graph.edges(data=True)]
            plain = flow_mip(list(graph.nodes), edges, {v: 0 for v in graph}, list(inst.terminals),
                              time_limit=baseline_limit, strengthen=False)
            capped = plain.status != "optimal" and plain.seconds >= baseline_limit * 0.95
            row["plain_mip_status"] = plain.status
            row["plain_mip_value"] = plain.value
            row["plain_mip_lower_bound"] = plain.bound
            row["plain_mip_seconds"] = f"{plain.seconds:.3f}"
            row["plain_mip_hit_cap"] = capped
            row["plain_mip_time_ratio"] = f"{plain.seconds / max(seconds, 1e-3):.1f}"
        rows.append(row)
        print(
            f"{path.name}: {res.status} {res.value} (bound {res.lower_bound}, known {opt}) "
            f"{seconds:.2f}s {res.method}"
            + (f" | nx {row['nx_approx_value']} | plain {row['plain_mip_status']} "
               f"{row['plain_mip_seconds']}s" if baseline else ""),
            flush=True,
        )
    out.parent.mkdir(parents=True, exist_ok=True)
    with open(out, "w", newline="") as fh:
        writer = csv.DictWriter(fh, fieldnames=COLUMNS)
        writer.writeheader()
        for row in rows:
            writer.writerow({k: row.get(k, "") for k in COLUMNS})

    times = [float(r["seconds"]) for r in rows]
    optimal = sum(r["status"] == "optimal" for r in rows)
    matched = sum(r["known_optimum"] is not None and r["value"] == r["known_optimum"] for r in rows)
    with_opt = sum(r["known_optimum"] is not None for r in rows)
    summary = (
        f"{len(rows)} instances: {optimal} optimal, {matched}/{with_opt} equal to the known optimum, "
        f"all trees re-checked: {all(r['tree_checked'] for r in rows)}; "
        f"seconds median {statistics.median(times):.2f}, max {max(times):.2f}, total {sum(times):.1f}"
    )
    if baseline:
        ratios = [float(r["nx_approx_ratio"]) for r in rows if r["nx_approx_ratio"]]
        plain_ok = sum(r["plain_mip_status"] == "optimal" for r in rows)
        plain_capped = sum(bool(r["plain_mip_hit_cap"]) for r in rows)
        tr = [float(r["plain_mip_time_ratio"]) for r in rows]
        summary += (
            f" | networkx approx: value/optimum mean {statistics.mean(ratios):.3f}, max {max(ratios):.3f}"
            f" | plain flow MIP (cap {baseline_limit:g}s): {plain_ok} optimal, {plain_capped} hit the cap, "
            f"time ratio plain/ours median {statistics.median(tr):.1f}x"
        )
    print(summary)
    print(f"wrote {out}")
    return 0 if optimal == len(rows) and matched == with_opt else 1


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--folder", type=pathlib.Path, default=DEFAULT_FOLDER,
                        help="folder of .gr files (with optimal.csv for known optima)")
    parser.add_argument("--out", type=pathlib.Path, default=DEFAULT_OUT, help="CSV to write")
    parser.add_argument("--time-limit", type=float, default=600.0,
                        help="per-instance limit for our solver in seconds (default 600, so a run always ends)")
    parser.add_argument("--baseline-time-limit", type=float, default=30.0,
                        help="per-instance cap for the plain flow MIP baseline (default 30)")
    parser.add_argument("--no-baseline", action="store_true", help="skip both baselines")
    args = parser.parse_args(argv)
    return run(args.folder, args.out, args.time_limit, args.baseline_time_limit, not args.no_baseline)


if __name__ == "__main__":
    sys.exit(main())
