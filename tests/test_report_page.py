"""report.html: the Markdown report's tables and plots in one page, and links to the plan pages a batch kept."""
from __future__ import annotations

import html.parser
import json
import os
import re
import signal
import subprocess
import sys
import time

from solver.batch.runner import load_results
from tests.conftest import INSTANCES, ROOT

TINY = str(INSTANCES / "tiny" / "tiny-island.toml")


def _batch(out, seeds, *extra):
    return ["batch", "easter-island", "--instance", TINY, "--difficulty", "all", "--seeds", seeds,
            "--time-limit", "20", "--out", str(out), "--workers", "1", "--quiet", *extra]


class _Links(html.parser.HTMLParser):
    """Collects hrefs and img srcs while checking the page parses."""

    def __init__(self):
        super().__init__()
        self.hrefs, self.srcs, self.tables = [], [], 0

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "a":
            self.hrefs.append(a.get("href"))
        if tag == "img":
            self.srcs.append(a.get("src"))
        if tag == "table":
            self.tables += 1


def _parse(path) -> _Links:
    p = _Links()
    p.feed(path.read_text())
    p.close()
    return p


def test_report_html_links_every_kept_plan_page_and_inlines_every_plot(run_cli, tmp_path):
    out = tmp_path / "run"
    res = run_cli(*_batch(out, "1-3", "--keep-plans"))
    assert res.code == 0, res.err
    records = load_results(out / "results.jsonl")
    assert len(records) == 6 and all(r["plan_page"] == f"plans/{r['scenario']}-{r['difficulty']}-seed-{r['seed']}.html"
                                      for r in records.values())
    res = run_cli("report", out, "--json")
    assert res.code == 0, res.err
    report = json.loads(res.out)
    page = _parse(out / "report.html")
    # Every plot of the Markdown report is inlined (the page fetches nothing), and the tables are there.
    plotted = [g for g in report["groups"] if g["plot"]]
    assert plotted and len(page.srcs) == len(plotted) == (out / "report.md").read_text().count("![")
    assert all(src.startswith("data:image/png;base64,") for src in page.srcs)
    md_lines = (out / "report.md").read_text().splitlines()
    assert page.tables == sum(1 for line in md_lines if line.startswith("| ---")) >= 2
    assert "http" not in (out / "report.html").read_text().replace("http://www.w3.org/2000/svg", "")
    # A relative link to every setup's page (the hardest setups are linked twice), each to a page that
    # exists and shows that setup's verdict.
    links = [h for h in page.hrefs if h.startswith("plans/")]
    assert set(links) == {r["plan_page"] for r in records.values()}
    hardest = [h for g in report["groups"] for h in g["hardest"]]
    assert hardest and all(f"[plan]({h['plan_page']})" in (out / "report.md").read_text() for h in hardest)
    for rec in records.values():
        target = out / rec["plan_page"]
        assert target.is_file()
        text = target.read_text()
        html.parser.HTMLParser().feed(text)
        assert f"{rec['verdict']}" in text


def test_report_html_has_no_plan_links_without_keep_plans(run_cli, tmp_path):
    out = tmp_path / "run"
    assert run_cli(*_batch(out, "1")).code == 0
    assert run_cli("report", out).code == 0
    assert not (out / "plans").exists()
    assert not [h for h in _parse(out / "report.html").hrefs if h.startswith("plans/")]


def test_keep_plans_resumes_and_a_killed_run_keeps_whole_pages(tmp_path):
    out = tmp_path / "run"
    cmd = [sys.executable, "-m", "solver", *_batch(out, "1-12", "--keep-plans")]
    proc = subprocess.Popen(cmd, cwd=ROOT, start_new_session=True, stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, env={**os.environ, "PYTHONPATH": str(ROOT)})
    results = out / "results.jsonl"
    deadline = time.monotonic() + 120
    while time.monotonic() < deadline and not (results.exists() and len(results.read_text().splitlines()) >= 3):
        time.sleep(0.02)
    os.killpg(proc.pid, signal.SIGKILL)
    proc.wait()
    partial = load_results(results)
    assert 3 <= len(partial) < 24, "the kill should land mid-run"
    for rec in partial.values():  # a recorded setup's page was written whole before its record
        assert (out / rec["plan_page"]).read_text().rstrip().endswith("</html>")
    subprocess.run(cmd, cwd=ROOT, check=True, timeout=300, env={**os.environ, "PYTHONPATH": str(ROOT)})
    keys = [json.loads(line)["key"] for line in results.read_text().splitlines()]
    assert len(keys) == len(set(keys)) == 24
    pages = {p.name for p in (out / "plans").glob("*.html")}
    assert pages == {r["plan_page"].split("/", 1)[1] for r in load_results(results).values()}


def test_keep_plans_refuses_a_remote_scheduler(run_cli, tmp_path):
    res = run_cli("batch", "easter-island", "--seeds", "1", "--out", tmp_path / "x", "--keep-plans",
                  "--scheduler", "tcp://localhost:8786")
    assert res.code == 2 and "--keep-plans" in res.err
    assert not (tmp_path / "x").exists()


def test_keep_plans_refuses_a_file_where_the_plans_folder_goes(run_cli, tmp_path):
    out = tmp_path / "run"
    out.mkdir()
    (out / "plans").write_text("not a folder")
    res = run_cli(*_batch(out, "1", "--keep-plans"))
    assert res.code == 2 and "plans" in res.err
    assert not (out / "results.jsonl").exists()


def test_plan_page_names_carry_the_reading_set():
    from solver.batch.scenarios import page_name
    assert page_name("easter-island", "hard", 7, "default") == "easter-island-hard-seed-7.html"
    assert page_name("zoo", "standard", 1, "exit-pairs=strict") == "zoo-standard-seed-1-exit-pairs_strict.html"
    assert re.fullmatch(r"[\w.-]+", page_name("easter-island", "easy", 1, "bag=full+strict-action=on"))


def test_browser_check_skips_cleanly_without_chromium(tmp_path):
    done = subprocess.run([sys.executable, str(ROOT / "scripts" / "check_pages_in_browser.py")], cwd=ROOT,
                          capture_output=True, text=True, timeout=60, env={"PATH": str(tmp_path)})
    assert done.returncode == 0 and done.stdout.startswith("skipped: no chromium on PATH"), done.stderr


def test_report_plot_axes_show_whole_numbers_even_for_a_single_bar():
    import matplotlib.pyplot as plt
    from solver.batch.designer_report import histograms
    fig = histograms("t", [("rounds to clear", {"proved minimum": [10] * 7, "best plan found": []}),
                           ("shares issued", [6, 7, 7, 9])])
    fig.canvas.draw()
    try:
        for ax in fig.axes:
            for labels in (ax.get_xticklabels(), ax.get_yticklabels()):
                texts = [t.get_text().replace("\u2212", "-") for t in labels if t.get_text()]
                assert texts and all(re.fullmatch(r"-?\d+", t) for t in texts), texts
    finally:
        plt.close(fig)
