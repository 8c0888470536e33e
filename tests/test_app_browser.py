"""The app in a real browser: headless Chromium (Debian's chromium + chromium-driver, installed by .ci/run)
driven by Selenium against a server on 127.0.0.1. Screenshots of each page go to build/app-screenshots/
(ignored by git); AOS_SCREENSHOTS=results/app writes them over the ones results/README.md shows, on purpose.

Outside CI the test skips, saying why, when no Chromium is installed; under CI=true a missing browser fails.
"""
from __future__ import annotations

import json
import os
import pathlib
import shutil
import tempfile
import time

import pytest

from tests.app_server import running_app
from tests.conftest import INSTANCES

ROOT = pathlib.Path(__file__).resolve().parent.parent
SHOTS = ROOT / os.environ.get("AOS_SCREENSHOTS", "build/app-screenshots")
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _browser_or_reason(chromium=CHROMIUM, driver=DRIVER) -> str | None:
    if chromium is None or driver is None:
        return ("no headless Chromium: install Debian's chromium and chromium-driver "
                "(sudo apt-get install chromium chromium-driver, as .ci/run does)")
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


def browser_gate(environ, chromium=CHROMIUM, driver=DRIVER) -> tuple[str | None, str | None]:
    """(None, None) to run; ("skip", why) outside CI without a browser; ("fail", why) under CI=true without one."""
    reason = _browser_or_reason(chromium, driver)
    if reason is None:
        return None, None
    return ("fail", f"CI must run the browser test: {reason}") if environ.get("CI") == "true" else ("skip", reason)


def test_without_a_browser_ci_fails_and_a_developer_skips_with_the_reason():
    assert browser_gate({"CI": "true"}, chromium=None) == (
        "fail", "CI must run the browser test: no headless Chromium: install Debian's chromium and chromium-driver "
        "(sudo apt-get install chromium chromium-driver, as .ci/run does)")
    action, why = browser_gate({}, driver=None)
    assert action == "skip" and "chromium-driver" in why


@pytest.fixture(scope="module")
def browser():
    action, why = browser_gate(os.environ)
    if action == "fail":
        pytest.fail(why)
    if action == "skip":
        pytest.skip(why)
    from selenium import webdriver
    from selenium.webdriver.chrome.service import Service
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    profile = tempfile.mkdtemp(prefix="aos-solve-chromium-")
    for flag in ("--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--disable-quic",
                 "--no-first-run", "--disable-background-networking", "--disable-component-update", "--disable-sync",
                 "--window-size=1400,1200", f"--user-data-dir={profile}"):
        options.add_argument(flag)
    driver = webdriver.Chrome(service=Service(executable_path=DRIVER), options=options)
    driver.set_page_load_timeout(30)
    try:
        yield driver
    finally:
        driver.quit()
        shutil.rmtree(profile, ignore_errors=True)


@pytest.fixture(scope="module")
def app_url():
    with running_app() as (url, app):
        yield url, app


def wait_for(what, predicate, limit: float = 60.0):
    end = time.monotonic() + limit
    while time.monotonic() < end:
        value = predicate()
        if value:
            return value
        time.sleep(0.1)
    raise AssertionError(f"waited {limit} s for {what() if callable(what) else what}")


def shot(driver, name: str, element_id: str | None = None) -> None:
    SHOTS.mkdir(parents=True, exist_ok=True)
    if element_id:
        driver.execute_script("document.getElementById(arguments[0]).scrollIntoView()", element_id)
    driver.save_screenshot(str(SHOTS / f"{name}.png"))


def text(driver, element_id: str) -> str:
    """An element's text, read again if the page replaced the element meanwhile."""
    from selenium.common.exceptions import StaleElementReferenceException
    for _ in range(20):
        try:
            return driver.find_element("id", element_id).text
        except StaleElementReferenceException:
            time.sleep(0.05)
    return driver.find_element("id", element_id).text


def click_hex(driver, hex_name: str) -> None:
    # the transparent click target on top of the hex; JavaScript clicks avoid overlapping-element refusals
    target = driver.find_element("css selector", f'#board-svg .target[data-hex="{hex_name}"]')
    driver.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)


def select(driver, element_id: str, value: str) -> None:
    from selenium.webdriver.support.ui import Select
    Select(driver.find_element("id", element_id)).select_by_value(value)


def job_state(driver) -> str:
    return driver.find_element("id", "status").get_attribute("data-state") or ""


def test_the_app_in_a_browser(browser, app_url):
    url, app = app_url
    d = browser
    d.get(url)
    wait_for("the shipped maps", lambda: d.find_elements("css selector", "#board-svg .target"))

    # -- a bad upload shows a message at the field and the server answers on
    bad = pathlib.Path(tempfile.mkdtemp()) / "broken-board.toml"
    bad.write_text("[meta]\nname = 'Broken'\n[grid\n")
    d.find_element("id", "board-file").send_keys(str(bad))
    wait_for("the upload error", lambda: text(d, "board-error"))
    assert "broken-board.toml" in text(d, "board-error") and "Traceback" not in d.page_source

    # -- the tiny island uploaded, its cubes set by clicking (with a bad click sequence on the way)
    d.find_element("id", "board-file").send_keys(str(INSTANCES / "tiny" / "tiny-island.toml"))
    wait_for("the tiny island", lambda: d.find_elements("css selector", '#board-svg .target[data-hex="E1"]'))
    select(d, "difficulty", "easy")
    wait_for("the seeded setup", lambda: "checked" in text(d, "setup-ok"))
    d.find_element("id", "clear").click()
    d.find_element("id", "colour-red").click()
    click_hex(d, "A1")
    d.find_element("id", "colour-blue").click()
    click_hex(d, "A1")
    click_hex(d, "A1")                       # a third cube on a ruin that holds two
    assert "holds 2 cube(s) in easy" in text(d, "setup-error")
    click_hex(d, "B1")                       # no cubes start on a plain hex
    assert "no cubes start here" in text(d, "setup-error")
    d.find_element("id", "colour-red").click()
    click_hex(d, "C1")
    wait_for("the server's check", lambda: "checked" in text(d, "setup-ok"))
    assert "red / blue" in text(d, "setup-table")
    shot(d, "setup")

    # -- solve (a double click starts one solve and shows no error): the verdict and every round panel
    d.execute_script("const b = document.getElementById('solve'); b.click(); b.click();")
    assert d.find_element("id", "solve").get_attribute("disabled")      # disabled from the first click
    wait_for("the answer", lambda: job_state(d) == "done")
    assert text(d, "verdict").startswith("CLEARABLE") and text(d, "solve-error") == ""
    plan = json.loads(d.execute_script("return JSON.stringify(S.plan)"))
    assert plan["setup"] == {"A1": ["red", "blue"], "C1": ["red"]}
    d.switch_to.frame(d.find_element("id", "answer-page"))
    wait_for("the round panels", lambda: d.find_elements("css selector", ".panel[data-round]"))
    panels = d.find_elements("css selector", ".panel[data-round]")
    assert [p.get_attribute("data-round") for p in panels] == [str(i) for i in range(0, len(plan["rounds"]) + 1)]
    steps = [li.text for li in d.find_elements("css selector", ".panel ol.steps li")]
    assert steps and steps[0].startswith("build A1-") and "($" in steps[0]      # what to do, in words
    assert any(step.startswith("ship ") and "->" in step for step in steps)
    assert d.find_elements("css selector", "svg.chart")
    d.switch_to.default_content()
    shot(d, "answer", "answer")

    # -- play along from round 2, saying what actually happened in round 1 (one more share issued)
    select(d, "from-round", "2")
    shares = d.find_element("css selector", '#prefix-rounds tr[data-round="1"] .p-shares')
    played = int(shares.get_attribute("value")) + 1
    shares.clear()
    shares.send_keys(str(played))
    ships = d.find_element("css selector", '#prefix-rounds tr[data-round="1"] .p-ship')
    original = ships.get_attribute("value")
    ships.send_keys("\nA1 red")                      # a shipment line missing its route
    assert "expected FROM CUBE ROUTE" in text(d, "from-error")
    ships.clear()
    ships.send_keys("A1 yellow A1-C1")               # no yellow cube there: the referee refuses it
    d.find_element("id", "from-here").click()
    wait_for("the referee's message", lambda: "not legal" in text(d, "from-error"))
    ships.clear()
    ships.send_keys(original)
    d.find_element("id", "from-here").click()
    wait_for("the answer from round 2", lambda: job_state(d) == "done" and "from round 2" in text(d, "verdict"))
    replanned = json.loads(d.execute_script("return JSON.stringify(S.plan)"))
    assert replanned["rounds"][0]["shares"] == played   # the round as played, kept in the new plan

    # -- play along by clicking: round 1 cleared, then marked on the board path by path and shipment by
    #    shipment; the referee replays it live, and the solve goes on from round 2
    select(d, "from-round", "2")
    wait_for("the rounds as played", lambda: "replayed by the referee" in text(d, "from-ok"))
    first = replanned["rounds"][0]
    d.find_element("id", "mark-clear").click()
    for path in first["build"]:
        d.find_element("id", "mark-track").click()
        for h in path.split("-"):
            click_hex(d, h)
        d.find_element("id", "mark-done").click()
    for s in first["ship"]:
        d.find_element("id", "mark-ship").click()
        for h in s["route"].split("-"):
            click_hex(d, h)
        select(d, "mark-cube", s["cube"])
        d.find_element("id", "mark-done").click()
    wait_for("the referee's replay of the clicked round", lambda: "replayed by the referee" in text(d, "from-ok"))
    marked = json.loads(d.find_element("id", "prefix").get_attribute("value"))["rounds"][0]
    assert marked["build"] == first["build"] and marked["ship"] == first["ship"]
    shot(d, "play-along", "play-along")
    d.find_element("id", "from-here").click()
    wait_for("the answer from the clicked round", lambda: job_state(d) == "done" and "from round 2" in text(d, "verdict"))

    # -- a long solve (the real Easter Island, hard) shows progress and is cancelled
    select(d, "board", "easter-island")
    wait_for("the Easter Island board", lambda: d.find_elements("css selector", '#board-svg .target[data-hex="L4"]'))
    select(d, "difficulty", "hard")
    wait_for("the seeded hard setup", lambda: "Blue 6 (L4)" in text(d, "setup-table") and "checked" in text(d, "setup-ok"))
    d.find_element("id", "solve").click()
    wait_for(lambda: f"live progress of this solve (status {text(d, 'status')!r}, {text(d, 'solve-error')!r})",
             lambda: job_state(d) == "running" and "Easter Island, hard: solving"
             in text(d, "status") and d.find_elements("css selector", "#progress li"))
    shot(d, "progress", "solve-box")
    d.find_element("id", "cancel").click()
    wait_for("the cancelled state", lambda: job_state(d) == "cancelled", 20)
    assert "stopped" in text(d, "status") and text(d, "solve-error") == ""   # what was known, not an error
    assert not d.find_element("id", "solve").get_attribute("disabled")
    jobs = app.extensions["aos_jobs"]
    for j in jobs.jobs.values():
        j.process.join(timeout=5)
    assert all(not j.process.is_alive() for j in jobs.jobs.values())
    assert d.execute_script("return fetch('/api/boards').then(r => r.status)") == 200


def open_page(driver, name: str) -> None:
    driver.find_element("id", f"nav-{name}").click()
    wait_for(f"the {name} page", lambda: driver.find_element("id", f"page-{name}").is_displayed())


def test_the_desert_advice_in_a_browser(browser, app_url):
    """One round entered from the palette: the advice is advise()'s, the record is kept for the next round."""
    from solver.desert_play.advise import advise
    from solver.desert.setup import load_setup
    from solver.desert.layout import Layout
    url, _ = app_url
    d = browser
    d.get(url)
    open_page(d, "desert")
    wait_for("the palette", lambda: d.find_elements("id", "tile-C21"))
    columns = [["C21", "D06"], ["C19", "D23", "D22"], ["C04", "C19", "C01", "D01"]]
    for k, col in enumerate(columns, start=1):
        d.find_element("id", f"desert-col-{k}").click()
        for tile in col:
            d.find_element("id", f"tile-{tile}").click()
    d.find_element("id", "token-camel").click()
    select(d, "desert-challenge", "lost-world")
    d.find_element("id", "desert-advise").click()
    wait_for("the advice", lambda: "take column" in text(d, "desert-advice-title"))
    setup = load_setup()
    expected = advise(setup, Layout(challenge="lost-world"), columns, ["camel"],
                      setup.challenges.get("lost-world", "test"))
    assert text(d, "desert-advice-title") == f"Round 1: take column {expected['column']}"
    assert f"Score so far, replayed by the referee: {expected['score_after']}" in text(d, "desert-score")
    shot(d, "desert")
    d.find_element("id", "desert-accept").click()
    assert "[[round]]" in d.find_element("id", "desert-record").get_attribute("value")
    assert text(d, "desert-round") == "Round 2 of 8"
    # a bad round: four tokens cannot be active in round 2
    d.find_element("id", "desert-col-1").click()
    d.find_element("id", "tile-C02").click()
    for token in ("camel", "star", "car", "car"):
        d.find_element("id", f"token-{token}").click()
    d.find_element("id", "desert-advise").click()
    wait_for("the token message", lambda: "active tokens in round 2" in text(d, "desert-error"))


def test_the_board_editor_in_a_browser(browser, app_url, tmp_path):
    """Open a board, paint, place, break and mend it with live messages, save a file `map validate` accepts."""
    from solver.cli import run
    url, _ = app_url
    d = browser
    d.get(url)
    open_page(d, "editor")
    d.find_element("id", "editor-file").send_keys(str(INSTANCES / "tiny" / "tiny-island.toml"))
    wait_for("the check", lambda: "valid (Tiny Island)" in text(d, "editor-status"))

    def hexagon(name):
        target = d.find_element("css selector", f'#editor-svg .edit-hex[data-hex="{name}"]')
        d.execute_script("arguments[0].dispatchEvent(new MouseEvent('click', {bubbles: true}))", target)

    d.find_element("id", "tool-mountain").click()
    hexagon("B2")
    d.find_element("id", "tool-city").click()
    hexagon("D2")                                   # no name yet
    assert "Give the city's name first" in text(d, "editor-click-error")
    d.find_element("id", "editor-feature-name").send_keys("Yellow 9")
    select(d, "editor-city-colour", "yellow")
    d.find_element("id", "editor-edition").send_keys("transcribed in the test")
    hexagon("D2")
    d.find_element("id", "tool-impassable").click()
    hexagon("A1")
    hexagon("E2")                                   # not neighbours
    assert "not neighbours" in text(d, "editor-click-error")
    hexagon("B1")
    hexagon("B2")
    d.find_element("id", "tool-erase").click()
    hexagon("A1")                                   # Red 1 is named by the difficulties: the file breaks
    wait_for("the validator's message", lambda: "Red 1" in text(d, "editor-error"))
    assert d.find_element("id", "editor-save").get_attribute("disabled")
    d.find_element("id", "tool-city").click()
    name = d.find_element("id", "editor-feature-name")
    name.clear()
    name.send_keys("Red 1")
    select(d, "editor-city-colour", "red")
    hexagon("A1")
    wait_for("a valid board again", lambda: "valid (Tiny Island)" in text(d, "editor-status"))
    assert "4 cities" in text(d, "editor-status") and "1 impassable sides" in text(d, "editor-status")
    d.find_element("id", "editor-save").click()
    saved = wait_for("the saved file", lambda: d.execute_script("return window.lastSavedBoard"))
    board = tmp_path / "edited.toml"
    board.write_text(saved)
    assert run(["map", "validate", str(board)]) == 0
    import tomllib
    doc = tomllib.loads(saved)
    placed = {c["name"]: c for c in doc["cities"]}
    assert placed["Yellow 9"]["source"] == "printed-board" and placed["Yellow 9"]["board"] == "transcribed in the test"
    assert placed["Blue 1"]["source"] == "assumed"  # untouched entries keep their source
    assert doc["grid"]["source"] == "printed-board" and doc["impassable"][0]["between"] == ["B1", "B2"]

    # -- a difficulty of its own, set by clicking, and a round limit: the saved board solves from the CLI
    d.find_element("id", "editor-difficulty-name").send_keys("expert")
    d.find_element("id", "editor-difficulty-add").click()
    d.find_element("id", "tool-cubes-add").click()
    hexagon("B1")                                   # no city there
    assert "holds no city" in text(d, "editor-click-error")
    for h in ("A1", "A1", "C1", "E1", "E1"):
        hexagon(h)
    d.find_element("id", "tool-cubes-remove").click()
    hexagon("E1")
    rounds = d.find_element("id", "editor-rounds")
    rounds.clear()
    rounds.send_keys("9\t")
    wait_for("the difficulty in the check", lambda: "expert: 4 cubes on 3 stops" in text(d, "editor-status")
             and "9 rounds" in text(d, "editor-status"))
    shot(d, "editor", "editor-setups")
    d.execute_script("window.lastSavedBoard = null")
    d.find_element("id", "editor-save").click()
    saved = wait_for("the saved file", lambda: d.execute_script("return window.lastSavedBoard"))
    doc = tomllib.loads(saved)
    assert doc["difficulty"]["expert"]["cubes"]["value"] == {"Red 1": 2, "Blue 1": 1, "Red 2": 1}
    assert doc["scenario"]["rounds"]["value"] == 9 and doc["scenario"]["rounds"]["source"] == "printed-board"
    board.write_text(saved)
    assert run(["easter-island", "--instance", str(board), "-d", "expert", "--seed", "1", "--quiet"]) == 0


def test_the_layout_keeps_board_and_solve_in_sight(browser, app_url):
    """At 1400 px and at 900 px wide the board sits beside the form (not below it) and the Solve button is in
    the window without scrolling (its box is sticky)."""
    url, _ = app_url
    d = browser
    try:
        for width, height in ((1400, 1000), (900, 800)):
            d.set_window_size(width, height)
            d.get(url)
            wait_for("the shipped maps", lambda: d.find_elements("css selector", "#board-svg .target"))
            form = d.find_element("css selector", "#page-solve .left").rect
            board = d.find_element("id", "board-svg").rect
            assert board["x"] >= form["x"] + form["width"] and board["y"] < form["y"] + 100, (width, form, board)
            inner = d.execute_script("return window.innerHeight")
            solve = d.find_element("id", "solve").rect
            assert 0 <= solve["y"] and solve["y"] + solve["height"] <= inner, (width, solve, inner)
            shot(d, f"layout-{width}")
    finally:
        d.set_window_size(1400, 1200)
