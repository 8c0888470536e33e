"""Open the HTML pages in headless Chromium without network and check what a reader would see.

    python scripts/check_pages_in_browser.py [PAGE.html ...] [--screenshots DIR]

Default pages: results/plans/*.html, results/batch-*/report.html and the plan pages
batches kept (results/batch-*/plans/*.html). Each page is
loaded in an iframe of a small local wrapper page (Chromium run with
--allow-file-access-from-files, every host name unresolvable and a dead proxy, so
nothing can be fetched); the wrapper measures the page as laid out and writes
the findings into its DOM, which --dump-dom prints. Checked: the round panels
are numbered 1..N and each one's picture has a size on screen; the chart is
drawn; every image of a report is decoded; no resource was fetched. Skips
cleanly (exit 0) when no Chromium is on PATH; exit 1 when a page fails.
"""
from __future__ import annotations

import argparse
import json
import pathlib
import shutil
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parents[1]
BROWSERS = ("chromium", "chromium-browser", "google-chrome", "google-chrome-stable")

WRAPPER = """<!DOCTYPE html><html><head><meta charset='utf-8'></head><body>
<iframe id='page' src='%s' style='width:1200px;height:2000px'></iframe><pre id='result'>pending</pre>
<script>
document.getElementById('page').addEventListener('load', function () {
  var out = {};
  try {
    var doc = this.contentDocument, win = this.contentWindow;
    function drawn(el) { var r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
                         && win.getComputedStyle(el).visibility !== 'hidden'; }
    var panels = Array.prototype.slice.call(doc.querySelectorAll('.panel[data-round]'));
    out.rounds = panels.map(function (p) { return +p.getAttribute('data-round'); });
    out.panels_drawn = panels.filter(function (p) { var s = p.querySelector('svg'); return s && drawn(s); }).length;
    var chart = doc.querySelector('svg.chart');
    out.chart = !!chart && drawn(chart) && chart.querySelectorAll('polyline').length > 0;
    var imgs = Array.prototype.slice.call(doc.images);
    out.images = imgs.length;
    out.images_decoded = imgs.filter(function (i) { return i.complete && i.naturalWidth > 0 && drawn(i); }).length;
    out.links = Array.prototype.slice.call(doc.querySelectorAll('a[href]')).map(function (a) { return a.getAttribute('href'); });
    out.fetched = win.performance.getEntriesByType('resource').map(function (e) { return e.name; })
                     .filter(function (n) { return n.indexOf('data:') !== 0; });
    out.title = doc.title;
  } catch (err) { out.error = String(err); }
  document.getElementById('result').textContent = JSON.stringify(out);
});
</script></body></html>"""


def browser() -> str | None:
    return next((shutil.which(b) for b in BROWSERS if shutil.which(b)), None)


def inspect(exe: str, page: pathlib.Path, work: pathlib.Path, shots: pathlib.Path | None) -> dict:
    wrapper = work / f"wrap-{page.parent.name}-{page.stem}.html"
    wrapper.write_text(WRAPPER % page.resolve().as_uri(), encoding="utf-8")
    offline = ["--headless", "--no-sandbox", "--disable-gpu", "--allow-file-access-from-files",
               "--host-resolver-rules=MAP * ~NOTFOUND", "--proxy-server=http://127.0.0.1:9",
               f"--user-data-dir={work / 'profile'}", "--virtual-time-budget=10000"]
    done = subprocess.run([exe, *offline, "--dump-dom", wrapper.as_uri()], capture_output=True, text=True, timeout=120)
    text = done.stdout
    start = text.find("<pre id=\"result\">")
    if start < 0:
        return {"error": f"no DOM from Chromium (exit {done.returncode}): {done.stderr[-300:]}"}
    body = text[start + len("<pre id=\"result\">"):text.find("</pre>", start)]
    data = json.loads(body.replace("&quot;", '"').replace("&amp;", "&").replace("&lt;", "<").replace("&gt;", ">")) \
        if body.strip().startswith("{") else {"error": f"the wrapper reported {body!r}"}
    if shots is not None:
        shot = shots / f"{page.parent.name}-{page.stem}.png"
        subprocess.run([exe, *offline, "--window-size=1200,4000", f"--screenshot={shot}", page.resolve().as_uri()],
                       capture_output=True, timeout=120)
        data["screenshot"] = str(shot)
    return data


def verdict(page: pathlib.Path, data: dict) -> list[str]:
    """What is wrong with the page as the browser showed it (empty: nothing)."""
    if "error" in data:
        return [data["error"]]
    problems = []
    if data["fetched"]:
        problems.append(f"fetched {data['fetched']}")
    if page.parent.name == "plans" or data["rounds"]:
        if not data["rounds"] or data["rounds"] != list(range(1, len(data["rounds"]) + 1)):
            problems.append(f"round panels numbered {data['rounds']}, not 1..N")
        if data["panels_drawn"] != len(data["rounds"]):
            problems.append(f"{data['panels_drawn']} of {len(data['rounds'])} round pictures drawn")
        if not data["chart"]:
            problems.append("no chart drawn")
    if data["images_decoded"] != data["images"]:
        problems.append(f"{data['images_decoded']} of {data['images']} images shown")
    for href in data["links"]:
        if not href.startswith(("#", "http")) and not (page.parent / href).is_file():
            problems.append(f"link to a missing file {href}")
    return problems


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("pages", nargs="*", type=pathlib.Path)
    ap.add_argument("--screenshots", type=pathlib.Path, help="Also save a screenshot of each page here.")
    args = ap.parse_args()
    exe = browser()
    if exe is None:
        print("skipped: no chromium on PATH (apt-get install chromium)")
        return 0
    pages = args.pages or sorted((ROOT / "results" / "plans").glob("*.html")) + sorted(
        (ROOT / "results").glob("batch-*/report.html")) + sorted((ROOT / "results").glob("batch-*/plans/*.html"))
    if args.screenshots:
        args.screenshots.mkdir(parents=True, exist_ok=True)
    failed = 0
    with tempfile.TemporaryDirectory(prefix="aos-pages-") as tmp:
        for page in pages:
            data = inspect(exe, page, pathlib.Path(tmp), args.screenshots)
            problems = verdict(page, data)
            name = page.resolve().relative_to(ROOT) if page.resolve().is_relative_to(ROOT) else page
            if problems:
                failed += 1
                print(f"FAIL {name}: " + "; ".join(problems))
                continue
            parts = []
            if data["rounds"]:
                parts.append(f"{len(data['rounds'])} round panels, all drawn; chart drawn")
            if data["images"]:
                parts.append(f"{data['images']} plots shown")
            links = [h for h in data["links"] if not h.startswith(("#", "http"))]
            if links:
                parts.append(f"{len(links)} links to existing pages")
            print(f"ok   {name}: " + "; ".join(parts + ["nothing fetched"]))
    print(f"{len(pages) - failed} of {len(pages)} pages ok in {exe}")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
