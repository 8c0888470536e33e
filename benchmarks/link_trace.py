"""Benchmark: tracing links from track, with complex tiles, against the simple-tile tracer it replaced.

    python benchmarks/link_trace.py [--repeat 2000] [--out results/link-trace.csv]

Complex tiles made `GameState._trace_links` follow (hex, track) pieces instead
of hexes. The planners call it after every tile, so its speed on simple-tile
networks matters. The baseline below is the simple-tile tracer as it was
before complex tiles (one track a hex), run side by side on the same states:
the cheapest networks joining all Easter Island ruins and all Zoo animal areas.
Both must find the same links. Best of 5 runs of `--repeat` traces each.
"""
from __future__ import annotations

import argparse
import csv
import pathlib
import sys
import time

ROOT = pathlib.Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from solver.games import load_instance  # noqa: E402
from models.network import cheapest_network  # noqa: E402
from solver.engine.state import GameState, Link, Rules  # noqa: E402


def baseline_trace(state: GameState) -> list[Link]:
    """The simple-tile tracer before complex tiles: one track a hex, links told apart by their hexes."""
    seen, out = set(), []
    stops = sorted({side for sides in state.track.values() for side in sides if state.is_stop(side)})
    for stop in stops:
        for first in stop.neighbours():
            if stop not in state.track.get(first, ()):
                continue
            path, prev, cur = [stop, first], stop, first
            while True:
                a, b = state.track[cur]
                nxt = b if a == prev else a
                if state.is_stop(nxt):
                    path.append(nxt)
                    complete = True
                    break
                if cur in state.track.get(nxt, ()):
                    path.append(nxt)
                    prev, cur = cur, nxt
                    continue
                complete = False
                break
            key = frozenset(path[1:-1] if complete else path[1:])
            if key not in seen:
                seen.add(key)
                out.append(Link(tuple(path), complete))
    return out


def best_of(fn, repeat: int) -> float:
    best = float("inf")
    for _ in range(5):
        t = time.perf_counter()
        for _ in range(repeat):
            fn()
        best = min(best, time.perf_counter() - t)
    return best / repeat


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--repeat", type=int, default=2000)
    ap.add_argument("--out", default=str(ROOT / "results" / "link-trace.csv"))
    args = ap.parse_args()
    rows = []
    for name in ("easter-island", "zoo"):
        inst = load_instance(ROOT / "instances" / f"{name}.toml")
        net = cheapest_network(inst, sorted(inst.board.cities), time_limit=30)
        state = GameState.new(inst, {}, Rules())
        for link in net.links:
            for i in range(1, len(link) - 1):
                state.track[link[i]] = (link[i - 1], link[i + 1])

        def new() -> list[Link]:
            state._links = None
            return state.links()

        same = sorted(l.path for l in new()) == sorted(l.path for l in baseline_trace(state))
        if not same:
            raise SystemExit(f"{name}: the two tracers disagree")
        t_new, t_base = best_of(new, args.repeat), best_of(lambda: baseline_trace(state), args.repeat)
        rows.append({"map": name, "tiles": len(state.track), "links": len(new()), "same_links": same,
                     "complex_us": round(t_new * 1e6, 1), "baseline_us": round(t_base * 1e6, 1),
                     "ratio_complex_over_baseline": round(t_new / t_base, 2)})
        print(rows[-1])
    out = pathlib.Path(args.out)
    tmp = out.with_suffix(".tmp")
    with tmp.open("w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)
    tmp.replace(out)
    print(f"wrote {out}")


if __name__ == "__main__":
    main()
