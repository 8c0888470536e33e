"""The designer's solvability report for a batch run: report.md, report.json and PNG plots.

Per scenario and difficulty: the share of setups clearable with a 95% Wilson
interval, histograms of minimum rounds, track cost and shares, the hardest
setups with their seeds, proved versus unknown answers, and one sentence a
designer can quote. Desert challenges report scores and stars instead.
"""
from __future__ import annotations

import json
import math
import pathlib
import statistics
from collections import Counter

from solver.batch.runner import load_results
from solver.board.errors import InputError
from solver.report.output import check_writable_folder, dumps, write_atomic
from solver.batch.scenarios import SCENARIOS


def wilson(successes: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    """95% Wilson score interval for a proportion (good at 0% and 100%, unlike the normal one)."""
    if n == 0:
        return 0.0, 1.0
    p = successes / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def summarise(records: list[dict], kind: str) -> dict:
    n = len(records)
    status = Counter(r.get("status", "failed") for r in records)
    out: dict = {"setups": n, "solved": status["solved"], "unknown": status["unknown"], "failed": status["failed"]}
    if kind == "score":
        scores = [r["score"] for r in records if isinstance(r.get("score"), (int, float))]
        out["scores"] = scores
        out["median_score"] = statistics.median(scores) if scores else None
        for stars in (1, 2, 3):
            k = sum(1 for r in records if (r.get("stars") or 0) >= stars)
            lo, hi = wilson(k, n)
            out[f"reach_{stars}_stars"] = {"count": k, "share": k / n if n else 0.0, "ci95": [lo, hi]}
        out["hardest"] = [{"seed": r["seed"], "score": r.get("score"), "stars": r.get("stars")}
                          for r in sorted(records, key=lambda r: (r.get("score") or 0, r["seed"]))[:10]]
        return out
    clear = [r for r in records if r.get("verdict") == "clearable"]
    not_clear = [r for r in records if r.get("verdict") == "not clearable"]
    answered = len(clear) + len(not_clear)
    lo, hi = wilson(len(clear), answered)
    out.update({
        "clearable": len(clear), "not_clearable": len(not_clear), "verdict_unknown": n - answered,
        "share_clearable": len(clear) / answered if answered else None, "ci95": [lo, hi],
        "min_rounds_proved": sum(1 for r in clear if r.get("min_rounds") is not None),
        "min_rounds": [r["min_rounds"] for r in clear if r.get("min_rounds") is not None],
        "rounds_upper_bounds_unproved": [r["rounds_upper_bound"] for r in clear if r.get("min_rounds") is None],
        "track_cost": [r["track_cost"] for r in clear if r.get("track_cost") is not None],
        "shares": [r["shares"] for r in clear if r.get("shares") is not None],
        # fewest shares at the minimum round count: proved values, and (lower, upper) where not proved
        "min_shares_proved": [r["shares_upper_bound"] for r in clear if r.get("shares_proved")],
        "min_shares_bounds": [[r.get("shares_lower_bound"), r.get("shares_upper_bound")] for r in clear
                              if r.get("min_rounds") is not None and not r.get("shares_proved")
                              and r.get("shares_upper_bound") is not None],
        "proof_sources": dict(Counter(r.get("proof_source") or "none" for r in records)),
    })
    rounds_all = [r.get("min_rounds") or r.get("rounds_upper_bound") for r in clear]
    out["median_rounds"] = statistics.median(rounds_all) if rounds_all else None
    reasons = Counter(reason.split(":")[1].strip() if ":" in reason else reason
                      for r in not_clear for reason in (r.get("impossible") or [])[:1])
    out["not_clearable_reasons"] = dict(reasons.most_common(5))
    out["hardest"] = [{"seed": r["seed"], "rounds": r.get("min_rounds") or r.get("rounds_upper_bound"),
                       "proved": r.get("min_rounds") is not None, "shares": r.get("shares"),
                       "cash": r.get("cash")}
                      for r in sorted(clear, key=lambda r: (-(r.get("min_rounds") or r.get("rounds_upper_bound") or 0),
                                                            -(r.get("shares") or 0), r["seed"]))[:10]]
    return out


def sentence(difficulty: str, s: dict, kind: str) -> str:
    name = difficulty.replace("-", " ").capitalize()
    if kind == "score":
        r3 = s["reach_3_stars"]
        return (f"{name}: 3 stars reached (a layout the scorer accepts) in {100 * r3['share']:.0f}% of setups "
                f"(95% CI {100 * r3['ci95'][0]:.0f}-{100 * r3['ci95'][1]:.0f}%), median best score {s['median_score']}; "
                f"the others are not proved out of reach unless the solver finished ({s['solved']} did).")
    if s["share_clearable"] is None:
        return (f"{name}: no setup was answered with proof ({s['unknown']} unknown, "
                f"{s['failed']} failed).")
    text = (f"{name} is clearable in {100 * s['share_clearable']:.0f}% of setups "
            f"(95% CI {100 * s['ci95'][0]:.0f}-{100 * s['ci95'][1]:.0f}%)")
    if s["median_rounds"] is not None:
        text += f", needing {s['median_rounds']:g} rounds at the median"
        if s["rounds_upper_bounds_unproved"]:
            text += " (the best plan found where the minimum is not proved)"
    if s["verdict_unknown"]:
        text += f"; {s['verdict_unknown']} setup(s) left unknown are not counted"
    return text + "."


def _plot(path: pathlib.Path, title: str, panels: list[tuple[str, list]]) -> None:
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.2), squeeze=False)
    for ax, (label, values) in zip(axes[0], panels):
        if values:
            lo, hi = min(values), max(values)
            bins = [x - 0.5 for x in range(int(lo), int(hi) + 2)] if hi - lo <= 40 else 20
            ax.hist(values, bins=bins, color="#4363d8", edgecolor="white")
            ax.xaxis.set_major_locator(MaxNLocator(integer=True))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True))
        else:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        ax.set_xlabel(label)
        ax.set_ylabel("setups")
    fig.suptitle(title)
    fig.tight_layout()
    tmp = path.with_name("." + path.name + ".tmp.png")
    fig.savefig(tmp, dpi=90)
    plt.close(fig)
    tmp.replace(path)


def write_report(run_dir: str | pathlib.Path) -> dict:
    run = pathlib.Path(run_dir)
    results = run / "results.jsonl"
    if not results.exists():
        raise InputError("no results.jsonl here; run `aos-solve batch ... --out` first", str(run))
    check_writable_folder(run, str(run))
    records = list(load_results(results).values())
    if not records:
        raise InputError("results.jsonl holds no finished solve yet", str(results))
    groups: dict[tuple[str, str], list[dict]] = {}
    for r in records:
        groups.setdefault((r["scenario"], r["difficulty"]), []).append(r)
    report = {"run": str(run), "groups": []}
    md = [f"# Solvability report: {run.name}", "",
          f"{len(records)} solves from `{results.name}`. Shares of setups come with 95% Wilson intervals; "
          "a verdict counts only when proved (clearable by a plan the referee replayed, or not clearable by a proof).",
          ""]
    for (sc, diff), recs in sorted(groups.items()):
        kind = SCENARIOS[sc].kind if sc in SCENARIOS else "clear"
        s = summarise(sorted(recs, key=lambda r: r["seed"]), kind)
        s.update({"scenario": sc, "difficulty": diff, "sentence": sentence(diff, s, kind)})
        png = run / f"{sc}-{diff}.png"
        if kind == "score":
            _plot(png, f"{sc} {diff}", [("score", s["scores"]),
                                        ("stars", [r.get("stars") or 0 for r in recs])])
        else:
            _plot(png, f"{sc} {diff}", [("minimum rounds (proved)", s["min_rounds"]),
                                        ("track cost ($)", s["track_cost"]), ("shares issued", s["shares"])])
        s["plot"] = png.name
        report["groups"].append(s)
        md += [f"## {sc}: {diff}", "", f"**{s['sentence']}**", "",
               f"- setups: {s['setups']} (proved {s['solved']}, unknown {s['unknown']}, failed {s['failed']})"]
        if kind == "score":
            for stars in (1, 2, 3):
                r = s[f"reach_{stars}_stars"]
                md.append(f"- {stars} star(s) reached: {r['count']} ({100 * r['share']:.0f}%, "
                          f"95% CI {100 * r['ci95'][0]:.0f}-{100 * r['ci95'][1]:.0f}%)")
            md += ["", "| seed | score | stars |", "| --- | --- | --- |"]
            md += [f"| {h['seed']} | {h['score']} | {h['stars']} |" for h in s["hardest"]]
        else:
            md.append(f"- clearable: {s['clearable']}, not clearable: {s['not_clearable']}, "
                      f"verdict unknown: {s['verdict_unknown']}")
            md.append(f"- minimum rounds proved for {s['min_rounds_proved']} of the clearable setups")
            md.append(f"- minimum rounds: {dict(sorted(Counter(s['min_rounds']).items()))}; fewest shares at that "
                      f"round count, proved: {dict(sorted(Counter(s.get('min_shares_proved', [])).items()))}, "
                      f"between bounds: {s.get('min_shares_bounds', [])}; proof sources: {s.get('proof_sources')}")
            if s["not_clearable_reasons"]:
                md.append("- most common reasons for not clearable: " + "; ".join(
                    f"{k} ({v})" for k, v in s["not_clearable_reasons"].items()))
            if s["hardest"]:
                md += ["", "Hardest clearable setups:", "", "| seed | rounds | proved | shares | cash |",
                       "| --- | --- | --- | --- | --- |"]
                md += [f"| {h['seed']} | {h['rounds']} | {'yes' if h['proved'] else 'no'} | {h['shares']} | {h['cash']} |"
                       for h in s["hardest"]]
        md += ["", f"![{sc} {diff}]({png.name})", ""]
    write_atomic(run / "report.md", "\n".join(md) + "\n")
    write_atomic(run / "report.json", dumps(report))
    return report
