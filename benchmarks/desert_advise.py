"""Benchmark of `desert advise` at the table (issue 40): whole games played by following the advice round by
round, against the greedy and rollout policies of `desert game`, on the same seeds.

For each challenge and seed the seed's market is drawn; the advice is asked each round with that round's
columns and active tokens and the record so far (what a player at the table knows: the tiles placed, not the
columns discarded), and its record is fed back as the next round's game so far.  The policies play the same
market.  Every final layout is judged by the referee.  Deterministic: the lookahead's futures are seeded and
no time budget cuts them (``--futures`` fixes the work); the CPU seconds of each round of advice are recorded.
All three play on an unboxed table (no 6x6 box: the game's play area has no edge).

    python benchmarks/desert_advise.py --seeds 6 --futures 4     # -> results/desert-advise.csv, .md

Numbers are about the stand-in tile catalogues and the assumed core values of instances/desert/ruleset.toml.
"""
from __future__ import annotations

import argparse
import csv
import io
import os
import pathlib
import statistics
import sys
import time
import tomllib

from solver.desert_play import lookahead
from solver.desert_play.advise import advise
from solver.desert.referee import evaluate
from solver.desert.setup import load_setup
from solver.desert_play.policies import play_policy
from solver.desert.layout import Layout, parse_layout
from solver.desert.market import draw_market
from solver.report.output import write_atomic

ROOT = pathlib.Path(__file__).resolve().parent.parent
CHALLENGES = ["sharp-boundary", "lost-world", "desert-of-death"]
FIELDS = ["challenge", "seed", "advise_score", "advise_stars", "advise_met", "advise_cpu_max_round",
          "advise_cpu_total", "rollout_score", "rollout_stars", "rollout_met", "rollout_cpu",
          "greedy_score", "greedy_stars", "greedy_met", "greedy_cpu"]


def follow_advice(setup, market, ch, futures: int, budget: float | None = None, work: int | None = None,
                  log: list | None = None) -> tuple[dict, list[float]]:
    """Play the market by asking `advise` every round (the lookahead policy) and keeping its record
    (``log``, if given, gets each round's lookahead summary: futures played, work, CPU s)."""
    record = Layout(challenge=ch.id)
    cpu, taken = [], []
    for offer in market.rounds:
        t = time.process_time()
        data = advise(setup, record, [list(c) for c in offer.columns], list(offer.tokens), ch,
                      policy="lookahead", futures=futures, time_budget=budget, seed=0, work_budget=work)
        cpu.append(time.process_time() - t)
        if log is not None:
            log.append(data["lookahead"])
        taken.append(data["column"])
        record = parse_layout(tomllib.loads(data["record"]), "advice record")
    record.seed, record.challenge = market.seed, ch.id
    for rp, k in zip(record.rounds, taken):   # name the columns taken: the referee checks them against the market
        rp.column = k
    ev = evaluate(setup, record, ch, market)
    assert ev["legal"], ev["violation"]
    return ev, cpu


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--seeds", type=int, default=6, help="seeds per challenge, 1..N (default 6)")
    ap.add_argument("--futures", type=int, default=4, help="imagined futures per column of the lookahead (default 4)")
    ap.add_argument("--time", type=float, default=None, help="CPU-second budget per round of advice, as `desert "
                    "advise --time` (default: none, so --futures alone fixes the work and the run is deterministic)")
    ap.add_argument("--work", type=int, default=None, help="the deterministic work budget per round of advice, as "
                    "`desert advise --work` (default: none)")
    ap.add_argument("--challenges", default=",".join(CHALLENGES), help="comma-separated challenge ids")
    ap.add_argument("--out", default=str(ROOT / "results" / "desert-advise.csv"))
    args = ap.parse_args(argv)
    setup = load_setup()
    rows = []
    t_all = time.perf_counter()
    for cid in args.challenges.split(","):
        ch = setup.challenges.get(cid)
        for seed in range(1, args.seeds + 1):
            market = draw_market(seed, setup.tileset, setup.ruleset)
            row = {"challenge": cid, "seed": seed}
            ev, cpu = follow_advice(setup, market, ch, args.futures, args.time, args.work)
            row.update(advise_score=ev["score"], advise_stars=ev["stars"], advise_met=ev["mission_met"],
                       advise_cpu_max_round=round(max(cpu), 2), advise_cpu_total=round(sum(cpu), 2))
            for kind in ("rollout", "greedy"):
                t = time.process_time()
                lay = play_policy(setup, market, ch, kind, box=None)
                c = time.process_time() - t
                e = evaluate(setup, lay, ch, market)
                assert e["legal"], e["violation"]
                row.update({f"{kind}_score": e["score"], f"{kind}_stars": e["stars"], f"{kind}_met": e["mission_met"],
                            f"{kind}_cpu": round(c, 2)})
            rows.append(row)
            print(row, file=sys.stderr, flush=True)
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=FIELDS)
    w.writeheader()
    w.writerows(rows)
    out = pathlib.Path(args.out)
    write_atomic(out, buf.getvalue())
    write_atomic(out.with_suffix(".md"), summary(rows, args, time.perf_counter() - t_all))
    return 0


def summary(rows: list[dict], args, wall: float) -> str:
    cmd = f"python benchmarks/desert_advise.py --seeds {args.seeds} --futures {args.futures}" + (
        f" --time {args.time:g}" if args.time else "") + (f" --work {args.work}" if args.work else "") + (
        f" --challenges {args.challenges}" if args.challenges != ",".join(CHALLENGES) else "") + (f" --out {args.out}" if args.out != str(
            ROOT / "results" / "desert-advise.csv") else "")
    load = os.getloadavg()[0] if hasattr(os, "getloadavg") else float("nan")
    lines = ["# `desert advise` followed round by round vs the policies (issue 40)", "",
             f"Command: `{cmd}` (seeds 1..{args.seeds} per challenge; wall {wall:.0f} s, load average {load:.1f} at "
             "the end; stand-in catalogues, assumed core values).", "",
             "Mean final score (referee) and mean stars; advise = the lookahead policy with "
             f"at most {args.futures} imagined futures per column, "
             + (f"a new one started only within {args.time:g} CPU s a round (not deterministic: the budget decides "
                "how many), " if args.time else "no time cut (deterministic), ")
             + (f"a next one only while the work fits in {args.work} units, " if args.work else "")
             + "each future valued by its "
             + ("final score with pawn points x2" if lookahead.PAWN_WEIGHT_X2 else "final score")
             + "; all on an unboxed table.", "",
             "| challenge | seeds | advise | rollout | greedy | advise / rollout | stars advise / rollout / greedy "
             "| advise CPU s per round: max (mean) |", "|---|---|---|---|---|---|---|---|"]
    for cid in dict.fromkeys(r["challenge"] for r in rows):
        rs = [r for r in rows if r["challenge"] == cid]
        m = {k: statistics.mean(r[f"{k}_score"] for r in rs) for k in ("advise", "rollout", "greedy")}
        st = {k: statistics.mean(r[f"{k}_stars"] for r in rs) for k in ("advise", "rollout", "greedy")}
        cmax = max(r["advise_cpu_max_round"] for r in rs)
        cmean = statistics.mean(r["advise_cpu_total"] for r in rs) / 8
        lines.append(f"| {cid} | {len(rs)} | {m['advise']:.2f} | {m['rollout']:.2f} | {m['greedy']:.2f} | "
                     f"{m['advise'] / m['rollout']:.3f} | {st['advise']:.2f} / {st['rollout']:.2f} / "
                     f"{st['greedy']:.2f} | {cmax:.2f} ({cmean:.2f}) |")
    lines += ["", f"Per seed: {pathlib.Path(args.out).name} (CPU seconds beside each policy)."]
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    sys.exit(main())
