"""Plain words where a player reads: no solver jargon in answers, pages, progress or help (issue 42's list).

The technical names stay reachable: under --verbose, in --json, and on hover (title attributes, which this
scan leaves out of the pages' text).
"""
from __future__ import annotations

import json
import re
import time

import pytest

from tests.conftest import INSTANCES, ROOT

# The jargon a new player met (issue 42), as patterns.
JARGON = {
    "beam search": r"\bbeam\b",
    "a search width": r"\bwidth \d",
    "a variant number": r"\bvariant \d",
    "a pinpoint index": r"pinpoint \d",
    "proof: STATUS": r"\bproof: ",
    "a bad plural": r"\b1 (stars|points|rounds|shares|links)\b|\(s\)",
    "a raw field name": r"rounds[ _]lower[ _]bound|rounds[ _]upper[ _]bound|min[ _]rounds|proof[ _]source\b",
    "an engine field": r"\bRules\.\w+",
    "the rounds range": r"\d+\.\.\d+",
}
TINY = INSTANCES / "tiny" / "tiny-island.toml"
SETUP = ROOT / "tests" / "data" / "tiny-island-setup.toml"


def jargon_in(text: str) -> list[str]:
    return [f"{name}: {m.group(0)!r} in ...{text[max(0, m.start() - 60):m.end() + 40]!r}..."
            for name, pattern in JARGON.items() for m in re.finditer(pattern, text)]


def visible(page: str) -> str:
    """The text a reader sees: tags, their attributes (hover titles included) and styles left out."""
    page = re.sub(r"<style>.*?</style>|<script.*?</script>", " ", page, flags=re.S)
    return re.sub(r"<[^>]+>", " ", page)


@pytest.mark.parametrize("args", [
    ["easter-island", "--instance", TINY, "-d", "easy", "--setup", SETUP],
    ["zoo", "--instance", INSTANCES / "tiny" / "tiny-zoo.toml", "--seed", "4"],
    ["readings"],
    ["--help"],
    ["easter-island", "--help"],
    ["desert", "advise", "--columns", "C21,D06", "--columns", "C19,D23,D22", "--columns", "C04,C19,C01,D01",
     "--tokens", "camel", "--challenge", "lost-world"],
], ids=["easter-island", "zoo", "readings", "help", "easter-island-help", "desert-advise"])
def test_answers_and_help_hold_no_jargon(run_cli, args):
    result = run_cli(*args)
    assert result.code == 0, result.err
    assert jargon_in(result.out) == []


def test_verbose_keeps_the_technical_names(run_cli):
    """What the plain text leaves out is one switch away."""
    assert "Rules.strict_action" in run_cli("readings", "--verbose").out


def test_plan_page_and_app_pages_hold_no_jargon(run_cli, tmp_path):
    page = tmp_path / "plan.html"
    assert run_cli("easter-island", "--instance", TINY, "-d", "easy", "--setup", SETUP, "--html", page).code == 0
    assert jargon_in(visible(page.read_text())) == []
    static = ROOT / "solver" / "app" / "static"
    assert jargon_in(visible((static / "index.html").read_text())) == []


def test_app_progress_is_in_words_with_the_method_on_hover():
    """The phases a running solve shows are plain; the method's technical name travels beside them."""
    from solver.app.server import close_app, create_app
    app = create_app()
    client = app.test_client()
    try:
        start = client.post("/api/solve", json={"tab": "t-words", "board": "easter-island", "difficulty": "hard",
                                                "seed": 21, "time_limit": 4})
        assert start.status_code == 202
        end = time.monotonic() + 90
        job = start.get_json()
        while job["state"] == "running" and time.monotonic() < end:
            time.sleep(0.3)
            job = client.get(f"/api/jobs/{job['id']}").get_json()
        assert job["progress"], job
        shown = json.dumps([{k: v for k, v in p.items() if k != "method"} for p in job["progress"]])
        assert jargon_in(shown) == [], shown
        assert any(p.get("method") for p in job["progress"])
    finally:
        close_app(app)
