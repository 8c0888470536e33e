"""The designer's solvability report for a batch run: report.md, report.html, report.json and PNG plots.

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
from solver.report.output import check_output_folder, dumps, exists, write_atomic, write_atomic_with
from solver.report.report_page import markdown_page
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
    import matplotlib.pyplot as plt

    fig = histograms(title, panels)
    try:
        write_atomic_with(path, lambda tmp: fig.savefig(tmp, dpi=90), suffix=".tmp.png")
    finally:
        plt.close(fig)


def plot_path(run: pathlib.Path, scenario: str, difficulty: str, reading_set: str) -> pathlib.Path:
    """The PNG of one table row: scenario, difficulty, and the reading set unless default."""
    slug = "" if reading_set in ("default", "unrecorded") else "-" + "".join(
        c if c.isalnum() or c in "-" else "_" for c in reading_set)
    return run / f"{scenario}-{difficulty}{slug}.png"


def histograms(title: str, panels: list[tuple[str, list]]):
    """One figure, a histogram per panel (whole-number values get one bar each)."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.2), squeeze=False)
    for ax, (label, values) in zip(axes[0], panels):
        # A panel is one list of values, or named lists stacked in one histogram (proved minima and best plans).
        series = values if isinstance(values, dict) else {label: values}
        every = [v for vs in series.values() for v in vs]
        if every:
            lo, hi = min(every), max(every)
            bins = [x - 0.5 for x in range(int(lo), int(hi) + 2)] if hi - lo <= 40 else 20
            names = [k for k, vs in series.items() if vs]
            ax.hist([series[k] for k in names], bins=bins, stacked=True, edgecolor="white",
                    color=["#4363d8", "#f58231", "#aaaaaa"][:len(names)], label=names)
            if len(names) > 1 or isinstance(values, dict):
                ax.legend(fontsize=7, loc="best", framealpha=0.85)
            # Whole-number ticks even when every setup has the same value (one bar): with fewer than two
            # whole numbers in view matplotlib would fall back to ticks such as 4.65, 4.80, ...
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
            if hi - lo <= 40:
                ax.set_xlim(lo - 1.5, hi + 1.5)
        else:
            ax.text(0.5, 0.5, "no data", ha="center", va="center", transform=ax.transAxes)
        ax.set_xlabel(label)
        ax.set_ylabel("setups")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _set_of(r: dict) -> str:
    """A record's reading set ('unrecorded' for records written before readings were recorded)."""
    return r.get("reading_set") or "unrecorded"


def _readings_line(recs: list[dict]) -> str:
    names = next((r.get("readings") for r in recs if r.get("readings")), None)
    return ", ".join(f"{k}={v}" for k, v in names.items()) if names else "not recorded"


def _pct(x: float | None) -> str:
    return "-" if x is None else f"{100 * x:.0f}%"


def readings_table(sc: str, diff: str, by_set: dict[str, dict], order: list[str]) -> list[str]:
    """One row per reading set: share clearable (95% CI), median minimum rounds, how many proved."""
    md = ["| reading set | setups | clearable (95% CI) | not clearable | unknown | median min rounds (proved) "
          "| median rounds of best plan |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for name in order:
        s = by_set[name]
        share = s["share_clearable"]
        ci = "-" if share is None else f"{_pct(share)} ({_pct(s['ci95'][0])}-{_pct(s['ci95'][1])})"
        proved = s["min_rounds"]
        med = f"{statistics.median(proved):g} ({len(proved)} of {s['clearable']})" if proved else (
            f"- (0 of {s['clearable']})")
        best = "-" if s["median_rounds"] is None else f"{s['median_rounds']:g}"
        md.append(f"| {'**' + name + '**' if name == 'default' else name} | {s['setups']} | {ci} | "
                  f"{s['not_clearable']} | {s['verdict_unknown']} | {med} | {best} |")
    return md


def plan_pages(run: pathlib.Path, recs: list[dict]) -> list[tuple[int, str]]:
    """(seed, relative path) of the plan pages a --keep-plans batch wrote and that are still there."""
    out = []
    for r in sorted(recs, key=lambda r: r["seed"]):
        path = r.get("plan_page")
        if isinstance(path, str) and path.startswith("plans/") and ".." not in path and (run / path).is_file():
            out.append((r["seed"], path))
    return out


def write_report(run_dir: str | pathlib.Path) -> dict:
    run = pathlib.Path(run_dir)
    results = run / "results.jsonl"
    if not exists(results, str(run)):
        raise InputError("no results.jsonl here; run `aos-solve batch ... --out` first", str(run))
    records = list(load_results(results).values())
    if not records:
        raise InputError("results.jsonl holds no finished solve yet", str(results))
    groups: dict[tuple[str, str], dict[str, list[dict]]] = {}
    for r in records:
        groups.setdefault((r["scenario"], r["difficulty"]), {}).setdefault(_set_of(r), []).append(r)
    # Every file the report will write, tried before the first plot is drawn.
    check_output_folder(run, str(run), files=["report.md", "report.html", "report.json"] + [
        plot_path(run, sc, diff, name).name for (sc, diff), by_set in groups.items() for name in by_set])
    sets_seen = sorted({_set_of(r) for r in records}, key=lambda x: (x != "default", x))
    default_recs = [r for r in records if _set_of(r) == "default"]
    report = {"run": str(run), "reading_sets": sets_seen, "groups": [], "tables": []}
    md = [f"# Solvability report: {run.name}", ""]
    if default_recs:
        md.append(f"**Default reading** (the designer's answers where the translator recorded them; "
                  f"solver/engine/readings.py): {_readings_line(default_recs)}.")
        report["default_readings"] = default_recs[0].get("readings")
    else:
        md.append("**No solve ran under the default reading**; the reading sets are named in each table.")
    md += ["", f"{len(records)} solves from `{results.name}`, under {len(sets_seen)} reading set(s): "
           + ", ".join(f"`{x}`" for x in sets_seen) + ". Shares of setups come with 95% Wilson intervals; "
           "a verdict counts only when proved (clearable by a plan the referee replayed, or not clearable by a "
           "proof). A reading set is named by what it changes from the default.", ""]
    for (sc, diff), by_set_recs in sorted(groups.items()):
        kind = SCENARIOS[sc].kind if sc in SCENARIOS else "clear"
        order = sorted(by_set_recs, key=lambda x: (x != "default", x))
        summaries = {}
        for name in order:
            recs = by_set_recs[name]
            s = summarise(sorted(recs, key=lambda r: r["seed"]), kind)
            s.update({"scenario": sc, "difficulty": diff, "reading_set": name, "readings": _readings_line(recs),
                      "sentence": sentence(diff, s, kind)})
            summaries[name] = s
        md += [f"## {sc}: {diff}", ""]
        head = summaries[order[0]]
        md += [f"**{head['sentence'][:-1]} (reading set `{order[0]}`).**", ""]
        if kind == "clear":
            md += ["Readings side by side (same seeds):", ""] + readings_table(sc, diff, summaries, order) + [""]
            report["tables"].append({"scenario": sc, "difficulty": diff, "rows": [
                {k: summaries[n][k] for k in ("reading_set", "readings", "setups", "clearable", "not_clearable",
                                               "verdict_unknown", "share_clearable", "ci95", "median_rounds")}
                | {"median_min_rounds_proved": statistics.median(summaries[n]["min_rounds"])
                   if summaries[n]["min_rounds"] else None, "min_rounds_proved": summaries[n]["min_rounds_proved"]}
                for n in order]})
        for name in order:
            s, recs = summaries[name], by_set_recs[name]
            png = plot_path(run, sc, diff, name)
            if kind == "score":
                _plot(png, f"{sc} {diff}", [("score", s["scores"]),
                                            ("stars", [r.get("stars") or 0 for r in recs])])
            else:
                _plot(png, f"{sc} {diff} ({name})", [("rounds to clear", {
                    "proved minimum": s["min_rounds"],
                    "best plan found (minimum not proved)": s["rounds_upper_bounds_unproved"]}),
                                                     ("track cost ($)", s["track_cost"]),
                                                     ("shares issued", s["shares"])])
            s["plot"] = png.name
            report["groups"].append(s)
            if len(order) > 1 or name != "default":
                md += [f"### reading set `{name}`", "", f"Readings: {s['readings']}.", "", f"{s['sentence']}", ""]
            md.append(f"- setups: {s['setups']} (proved {s['solved']}, unknown {s['unknown']}, failed {s['failed']})")
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
                    md += [f"| {h['seed']} | {h['rounds']} | {'yes' if h['proved'] else 'no'} | {h['shares']} | "
                           f"{h['cash']} |" for h in s["hardest"]]
            md += ["", f"![{sc} {diff} {name}]({png.name})", ""]
            pages = plan_pages(run, recs)
            s["plan_pages"] = {str(seed): path for seed, path in pages}
            if pages:
                md += [f"Plan pages of {len(pages)} of the {len(recs)} setups (`batch --keep-plans`): "
                       + " · ".join(f"[seed {seed}]({path})" for seed, path in pages), ""]
    write_atomic(run / "report.md", "\n".join(md) + "\n")
    write_atomic(run / "report.html", markdown_page(f"Solvability report: {run.name}", "\n".join(md) + "\n", run))
    write_atomic(run / "report.json", dumps(report))
    return report
