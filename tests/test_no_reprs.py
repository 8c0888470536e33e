"""Rule protected: no Python repr anywhere a person reads (issue 34, item 2): every command's text output
on the sample inputs (tests/reprs.py, SAMPLE_RUNS), error messages included, and every report and plan
page in results/ (Markdown and the visible text of HTML).
"""
from __future__ import annotations

import pathlib

import pytest

from tests.conftest import ROOT
from tests.reprs import SAMPLE_RUNS, markdown_text, reprs, visible_text

@pytest.mark.parametrize("name", list(SAMPLE_RUNS))
def test_text_output_has_no_reprs(run_cli, monkeypatch, name):
    monkeypatch.chdir(ROOT)
    r = run_cli(*SAMPLE_RUNS[name])
    assert "Traceback" not in r.err
    assert r.out.strip() or r.err.strip()
    found = reprs(r.out + "\n" + r.err)
    assert not found, "\n".join(found)


def test_batch_and_report_text_have_no_reprs(run_cli, monkeypatch, tmp_path):
    monkeypatch.chdir(ROOT)
    out = tmp_path / "batch"
    texts = []
    for args in (["batch", "easter-island", "--instance", "instances/tiny/tiny-island.toml", "--difficulty", "easy",
                  "--seeds", "1-2", "--out", out, "--workers", "1", "--time-limit", "10", "-q"], ["report", out]):
        r = run_cli(*args)
        assert r.code == 0, r.err
        texts.append(r.out + "\n" + r.err)
    texts.append(markdown_text((out / "report.md").read_text(encoding="utf-8")))
    texts.append(visible_text((out / "report.html").read_text(encoding="utf-8")))
    found = reprs("\n".join(texts))
    assert not found, "\n".join(found[:20])


def _result_files() -> list[str]:
    return [path.relative_to(ROOT).as_posix() for path in sorted((ROOT / "results").rglob("*"))
            if path.suffix in (".md", ".html") and path.name != "README.md"]


@pytest.mark.parametrize("rel", _result_files())
def test_reports_in_results_have_no_reprs(rel):
    text = (ROOT / rel).read_text(encoding="utf-8")
    text = visible_text(text) if rel.endswith(".html") else markdown_text(text)
    found = reprs(text)
    assert not found, "\n".join(found[:20])


@pytest.mark.parametrize("text,kind", [
    ("cubes left: {\"A1\": [\"red\"]}", "list or dict"), ("minimum rounds: {8: 16}", "list or dict"),
    ("unknown cube colour(s) ['green']", "list or dict"), ("taken_tiles_optional = True", "Python constant"),
    ("got 'engineer'", "quoted token"), ("share 0.9999999999999999", "long float"), ("--help <bool>", "Python type"),
])
def test_the_scanner_sees_each_kind_of_repr(text, kind):
    assert reprs(text) and reprs(text)[0].startswith(kind)


def test_the_scanner_leaves_plain_english_alone():
    assert reprs("Lee's Summit (H6): 2 links, $12; the player's track (see [grid]); 3 of 5 links") == []
