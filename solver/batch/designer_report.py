"""The designer's solvability report for a batch run: report.md, report.html, report.json and PNG plots.

The headline comes first: one line per difficulty under the default readings
(clearable, proved not clearable, undecided, minimum rounds). Then one sentence
per reading set saying what it changes against the default, in numbers, on the
seeds both ran; then, per difficulty, the reading sets side by side, the
minimum rounds as a distribution (open setups by their bounds), the fewest
shares with their proof status, the hardest setups linked to their plan pages,
and a plot of what has data (a reading set without data gets a sentence, never
an empty plot). The numbers and sentences are made in solver/batch/summary.py.
Desert challenges report scores and stars instead.
"""
from __future__ import annotations

import json
import pathlib

from solver.batch.runner import load_results
from solver.batch.scenarios import SCENARIOS
from solver.batch.summary import (change_sentence, headline, mode_text, num, plural, pct, proofs_line, rounds_lines,
                                  shares_lines, summarise, timing_text, title, wilson)
from solver.board.errors import InputError
from solver.report.output import check_output_folder, dumps, exists, write_atomic, write_atomic_with
from solver.report.report_page import markdown_page

__all__ = ["write_report", "histograms", "wilson", "summarise"]


def _plot(path: pathlib.Path, title_: str, panels: list[tuple[str, list]]) -> list[dict] | None:
    """Draw the panels that have data; the panels drawn (label, values plotted), or None (nothing drawn)."""
    import matplotlib.pyplot as plt

    fig = histograms(title_, panels)
    if fig is None:
        return None
    try:
        write_atomic_with(path, lambda tmp: fig.savefig(tmp, dpi=90), suffix=".tmp.png")
    finally:
        plt.close(fig)
    return [{"label": label, "values": len(_values(values))} for label, values in panels if _values(values)]


#: one colour per series of a panel, by its place (a proved value is always blue, an open one orange)
PALETTE = ["#4363d8", "#f58231", "#aaaaaa"]


def plot_path(run: pathlib.Path, scenario: str, difficulty: str, reading_set: str) -> pathlib.Path:
    """The PNG of one table row: scenario, difficulty, and the reading set unless default."""
    slug = "" if reading_set in ("default", "unrecorded") else "-" + "".join(
        c if c.isalnum() or c in "-" else "_" for c in reading_set)
    return run / f"{scenario}-{difficulty}{slug}.png"


def histograms(title: str, panels: list[tuple[str, list]]):
    """One figure, a histogram per panel with data (whole-number values get one bar each); None without data.

    A panel without a value is left out rather than drawn empty."""
    import matplotlib
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt
    from matplotlib.ticker import MaxNLocator

    panels = [(label, values) for label, values in panels if _values(values)]
    if not panels:
        return None
    fig, axes = plt.subplots(1, len(panels), figsize=(4 * len(panels), 3.2), squeeze=False)
    for ax, (label, values) in zip(axes[0], panels):
        # A panel is one list of values, or named lists stacked in one histogram (proved minima and best plans).
        series = values if isinstance(values, dict) else {label: values}
        every = _values(values)
        if every:  # always, since empty panels were left out
            lo, hi = min(every), max(every)
            bins = [x - 0.5 for x in range(int(lo), int(hi) + 2)] if hi - lo <= 40 else 20
            names = [k for k, vs in series.items() if vs]
            ax.hist([series[k] for k in names], bins=bins, stacked=True, edgecolor="white",
                    color=[PALETTE[list(series).index(k) % len(PALETTE)] for k in names], label=names)
            if len(names) > 1 or isinstance(values, dict):
                ax.legend(fontsize=7, loc="best", framealpha=0.85)
            # Whole-number ticks even when every setup has the same value (one bar): with fewer than two
            # whole numbers in view matplotlib would fall back to ticks such as 4.65, 4.80, ...
            ax.xaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
            ax.yaxis.set_major_locator(MaxNLocator(integer=True, min_n_ticks=1))
            if hi - lo <= 40:
                ax.set_xlim(lo - 1.5, hi + 1.5)
        ax.set_xlabel(label)
        ax.set_ylabel("setups")
    fig.suptitle(title)
    fig.tight_layout()
    return fig


def _values(values) -> list:
    return [v for vs in (values.values() if isinstance(values, dict) else [values]) for v in vs if v is not None]


def _set_of(r: dict) -> str:
    """A record's reading set ('unrecorded' for records written before readings were recorded)."""
    return r.get("reading_set") or "unrecorded"


def _readings_line(recs: list[dict]) -> str:
    names = next((r.get("readings") for r in recs if r.get("readings")), None)
    return ", ".join(f"{k}={v}" for k, v in names.items()) if names else "not recorded"


def _count_pct(k: int, share: float | None) -> str:
    return f"{k} ({pct(share)})"


def readings_table(by_set: dict[str, dict], order: list[str]) -> list[str]:
    """One row per reading set: clearable (95% CI), proved not clearable, undecided, minimum rounds."""
    md = ["| reading set | setups | clearable (95% CI) | proved not clearable | undecided | minimum rounds, proved "
          "| minimum rounds, open |", "| --- | --- | --- | --- | --- | --- | --- |"]
    for name in order:
        s = by_set[name]
        ci = f"{s['clearable']} ({pct(s['share_clearable'])}; {pct(s['ci95'][0])} to {pct(s['ci95'][1])})"
        proved = (f"median {num(s['median_min_rounds_proved'])} on {plural(s['min_rounds_proved'], 'setup')}"
                  if s["min_rounds"] else "none")
        opened = len(s["rounds_open"]) + len(s["rounds_no_plan"])
        md.append(f"| {'**' + name + '**' if name == 'default' else name} | {s['setups']} | {ci} | "
                  f"{_count_pct(s['not_clearable'], s['share_not_clearable'])} | "
                  f"{_count_pct(s['verdict_unknown'], s['share_unknown'])} | {proved} | "
                  f"{plural(opened, 'setup') if opened else 'none'} |")
    return md


def hardest_table(s: dict, kind: str, run: pathlib.Path) -> list[str]:
    """The hardest setups, each with a link to its plan page when the batch kept one."""
    def page(h: dict) -> str:
        path = h.get("plan_page")
        ok = isinstance(path, str) and path.startswith("plans/") and ".." not in path and (run / path).is_file()
        return f"[plan]({path})" if ok else "not kept (batch --keep-plans writes it)"
    if not s["hardest"]:
        return []
    if kind == "score":
        md = ["Lowest scores:", "", "| seed | best score | stars | plan page |", "| --- | --- | --- | --- |"]
        return md + [f"| {h['seed']} | {num(h['score'])} points | {h['stars']} | {page(h)} |" for h in s["hardest"]] + [""]
    md = ["Hardest clearable setups (most rounds, then fewest spare shares):", "",
          "| seed | rounds | shares issued | cash left | plan page |", "| --- | --- | --- | --- | --- |"]
    for h in s["hardest"]:
        rounds = (f"{h['rounds']} (proved)" if h["proved"] else
                  f"{h['rounds_lower_bound']} to {h['rounds']} (open)" if h.get("rounds_lower_bound") is not None
                  else f"{h['rounds']} (open)")
        shares = "-" if h["shares"] is None else (
            f"{h['shares']} of {h['shares_limit']} ({h['shares_limit'] - h['shares']} spare)"
            if h.get("shares_limit") is not None else str(h["shares"]))
        cash = "-" if h["cash"] is None else f"${h['cash']}"
        md.append(f"| {h['seed']} | {rounds} | {shares} | {cash} | {page(h)} |")
    return md + [""]


def plan_pages(run: pathlib.Path, recs: list[dict]) -> list[tuple[int, str]]:
    """(seed, relative path) of the plan pages a --keep-plans batch wrote and that are still there."""
    out = []
    for r in sorted(recs, key=lambda r: r["seed"]):
        path = r.get("plan_page")
        if isinstance(path, str) and path.startswith("plans/") and ".." not in path and (run / path).is_file():
            out.append((r["seed"], path))
    return out


def _panels(s: dict, kind: str, recs: list[dict]) -> list[tuple[str, object]]:
    if kind == "score":
        return [("best score (points)", s["scores"]), ("stars", s["stars"])]
    return [("rounds to clear", {"proved minimum": s["min_rounds"],
                                 "open: the best plan's rounds": s["rounds_upper_bounds_unproved"]}),
            ("shares issued", {"fewest, proved": s["min_shares_proved"],
                               "best plan (fewest not proved)": [b[1] for b in s["min_shares_bounds"]]
                               + s["plan_shares_rounds_open"]}),
            ("track cost ($)", s["track_cost"])]


def _no_plot(s: dict, kind: str) -> str:
    if kind == "score":
        return f"No plot: none of the {plural(s['setups'], 'setup')} has a score (all failed)."
    return (f"No plot: no setup was cleared under this reading set ({s['not_clearable']} proved not clearable, "
            f"{s['verdict_unknown']} undecided).")


def _details(s: dict, kind: str, reproducible: bool) -> list[str]:
    md = []
    if kind == "score":
        for stars in (1, 2, 3):
            r = s[f"reach_{stars}_stars"]
            md.append(f"- {plural(stars, 'star')} reached in {r['count']} of {s['setups']} ({pct(r['share'])}, "
                      f"95% CI {pct(r['ci95'][0])} to {pct(r['ci95'][1])})")
    else:
        md += rounds_lines(s) + shares_lines(s) + [proofs_line(s)]
        if s["not_clearable_reasons"]:
            md.append("- Why not clearable (the first obstacle of each setup, most common first): " + "; ".join(
                f"{k} ({plural(v, 'setup')})" for k, v in s["not_clearable_reasons"].items()) + ".")
    if s["failed"]:
        md.append(f"- {plural(s['failed'], 'solve')} failed (the record in results.jsonl holds the error).")
    if s["wall_cap_hit"]:
        md.append(f"- {plural(s['wall_cap_hit'], 'solve')} stopped by the wall-clock safety net, counted as "
                  "undecided.")
    md.append(f"- Time: {timing_text(s['seconds'])}" + (" (the answers do not depend on it)." if reproducible else
                                                        " (a wall-clock limit bounded these solves: see the end)."))
    return md + [""]


def _changes(groups: dict, summaries: dict, kind: str) -> list[dict]:
    """Per reading set other than the default: its sentence, from the seeds it shares with the default."""
    sets = sorted({n for by_set in groups.values() for n in by_set if n != "default"})
    out = []
    for name in sets:
        diffs = []
        for (sc, diff), by_set in sorted(groups.items()):
            if name not in by_set or "default" not in by_set:
                continue
            seeds = {r["seed"] for r in by_set[name]} & {r["seed"] for r in by_set["default"]}
            mine = [r for r in by_set[name] if r["seed"] in seeds]
            base = [r for r in by_set["default"] if r["seed"] in seeds]
            lost = len({r["seed"] for r in base if r.get("verdict") == "clearable"}
                       & {r["seed"] for r in mine if r.get("verdict") == "not clearable"})
            diffs.append((diff, summarise(mine, kind), summarise(base, kind), lost))
        if diffs:
            out.append({"reading_set": name, "sentence": change_sentence(name, diffs)})
    return out


def write_report(run_dir: str | pathlib.Path) -> dict:
    run = pathlib.Path(run_dir)
    results = run / "results.jsonl"
    if not exists(results, str(run)):
        raise InputError("no results.jsonl here; run `aos-solve batch ... --out` first", str(run))
    records = list(load_results(results).values())
    if not records:
        raise InputError("results.jsonl holds no finished solve yet", str(results))
    try:
        meta = json.loads((run / "run.json").read_text(encoding="utf-8"))
        meta = meta if isinstance(meta, dict) else {}
    except (OSError, UnicodeDecodeError, json.JSONDecodeError):
        meta = {}
    groups: dict[tuple[str, str], dict[str, list[dict]]] = {}
    for r in records:
        groups.setdefault((r["scenario"], r["difficulty"]), {}).setdefault(_set_of(r), []).append(r)
    # Every file the report will write, tried before the first plot is drawn.
    check_output_folder(run, str(run), files=["report.md", "report.html", "report.json"] + [
        plot_path(run, sc, diff, name).name for (sc, diff), by_set in groups.items() for name in by_set])
    kinds = {key: SCENARIOS[key[0]].kind if key[0] in SCENARIOS else "clear" for key in groups}
    sets_seen = sorted({_set_of(r) for r in records}, key=lambda x: (x != "default", x))
    default_recs = [r for r in records if _set_of(r) == "default"]
    summaries = {(key, name): {**summarise(sorted(recs, key=lambda r: r["seed"]), kinds[key]),
                               "scenario": key[0], "difficulty": key[1], "reading_set": name,
                               "readings": _readings_line(recs)}
                 for key, by_set in groups.items() for name, recs in by_set.items()}
    for (key, name), s in summaries.items():
        s["sentence"] = headline(key[1], s, kinds[key])
    report = {"run": str(run), "reading_sets": sets_seen, "mode": meta.get("mode"),
              "wall_cap_seconds": meta.get("wall_cap_seconds"), "headline": [], "reading_changes": [],
              "groups": [], "tables": []}
    md = [f"# Solvability report: {run.name}", ""]
    scores_only = all(k == "score" for k in kinds.values())
    if scores_only:
        md.append("The Desert challenges have no named readings of the rule sheets.")
    elif default_recs:
        md.append(f"**Default reading** (the designer's answers where the translator recorded them; "
                  f"solver/engine/readings.py): {_readings_line(default_recs)}.")
        report["default_readings"] = default_recs[0].get("readings")
    else:
        md.append("**No solve ran under the default reading**; the reading sets are named in each table.")
    # 1. The headline: one line per difficulty, under the default (else the first) reading set.
    md += ["", "## Headline", ""]
    for key in sorted(groups, key=lambda k: (k[0], _difficulty_rank(k))):
        first = sorted(groups[key], key=lambda x: (x != "default", x))[0]
        line = summaries[key, first]["sentence"]
        if first != "default":
            line = line[:-1] + f" (reading set {first})."
        report["headline"].append(line)
        md.append(f"- **{title(key[0])}, {line.split(':', 1)[0]}**:{line.split(':', 1)[1]}")
    if scores_only:
        md += ["", f"{plural(len(records), 'game')}. Scores are the referee's, of the best layout found; a layout "
               "counts as the best possible only when the layout model proved it. Shares of setups come with 95% "
               "Wilson intervals.", ""]
    else:
        md += ["", f"{plural(len(records), 'solve')} under {plural(len(sets_seen), 'reading set')} ("
               + ", ".join(f"`{x}`" for x in sets_seen) + "). A verdict counts only when proved: clearable by a "
               "plan the referee replayed, not clearable by a proof; the rest is undecided. The 95% interval of "
               "the share clearable (Wilson) counts the undecided setups both ways.", ""]
    # 2. What each reading set changes against the default.
    changes = _changes(groups, summaries, "clear") if all(k == "clear" for k in kinds.values()) else []
    report["reading_changes"] = changes
    if changes:
        md += ["## What each reading changes", "", "Against the default reading, on the seeds both ran:", ""]
        md += [f"- {c['sentence']}" for c in changes] + [""]
    # 3. Per difficulty, the details.
    for key in sorted(groups, key=lambda k: (k[0], _difficulty_rank(k))):
        sc, diff = key
        kind, by_set_recs = kinds[key], groups[key]
        order = sorted(by_set_recs, key=lambda x: (x != "default", x))
        by_set = {name: summaries[key, name] for name in order}
        md += [f"## {title(sc)}, {title(diff)}", ""]
        if kind == "clear":
            heading = "Readings side by side (same seeds):" if len(order) > 1 else "Under the default readings:" \
                if order == ["default"] else f"Under the readings {order[0]}:"
            md += [heading, ""] + readings_table(by_set, order) + [""]
            report["tables"].append({"scenario": sc, "difficulty": diff, "rows": [
                {k: by_set[n][k] for k in ("reading_set", "readings", "setups", "clearable", "not_clearable",
                                           "verdict_unknown", "share_clearable", "share_not_clearable",
                                           "share_unknown", "ci95", "median_rounds", "median_min_rounds_proved",
                                           "min_rounds_proved")} for n in order]})
        for name in order:
            s, recs = by_set[name], by_set_recs[name]
            if len(order) > 1 or name != "default":
                md += [f"### reading set `{name}`", "", f"Readings: {s['readings']}.", ""]
            # With one reading set its sentence is the headline's: said once, above (issue 42).
            md += ([s["sentence"], ""] if len(order) > 1 else []) + _details(s, kind, bool(meta.get("mode"))) \
                + hardest_table(s, kind, run)
            png = plot_path(run, sc, diff, name)
            s["plot_panels"] = _plot(png, f"{title(sc)}, {title(diff)} ({name})", _panels(s, kind, recs))
            s["plot"] = png.name if s["plot_panels"] else None
            md += [f"![{sc} {diff} {name}]({png.name})" if s["plot"] else _no_plot(s, kind), ""]
            pages = plan_pages(run, recs)
            s["plan_pages"] = {str(seed): path for seed, path in pages}
            if pages:
                md += [f"Plan pages of {len(pages)} of the {plural(len(recs), 'setup')} (`batch --keep-plans`): "
                       + " · ".join(f"[seed {seed}]({path})" for seed, path in pages), ""]
            report["groups"].append(s)
    md += ["## How these answers were made", "", mode_text(meta), ""]
    write_atomic(run / "report.md", "\n".join(md) + "\n")
    write_atomic(run / "report.html", markdown_page(f"Solvability report: {run.name}", "\n".join(md) + "\n", run))
    write_atomic(run / "report.json", dumps(report))
    return report


def _difficulty_rank(key: tuple[str, str]) -> int:
    """Difficulties in the scenario's own order (easy, normal, hard), not alphabetically."""
    sc = SCENARIOS.get(key[0])
    return sc.difficulties.index(key[1]) if sc and key[1] in sc.difficulties else len(key[1]) + 100
