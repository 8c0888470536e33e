"""The app in a real browser: headless Chromium (Debian's chromium + chromium-driver, installed by .ci/run)
driven by Selenium against a server on 127.0.0.1. Screenshots of each page go to results/app/.

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
SHOTS = ROOT / "results" / "app"
CHROMIUM = shutil.which("chromium") or shutil.which("chromium-browser")
DRIVER = shutil.which("chromedriver")


def _browser_or_reason() -> str | None:
    if CHROMIUM is None or DRIVER is None:
        return "no headless Chromium: install Debian's chromium and chromium-driver (.ci/run does)"
    try:
        import selenium  # noqa: F401
    except ImportError:
        return "selenium is not installed (pip install -e '.[test]')"
    return None


@pytest.fixture(scope="module")
def browser():
    reason = _browser_or_reason()
    if reason is not None:
        if os.environ.get("CI") == "true":
            pytest.fail(f"CI must run the browser test: {reason}")
        pytest.skip(reason)
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
    raise AssertionError(f"waited {limit} s for {what}")


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

    # -- solve: the verdict and every round panel
    d.find_element("id", "solve").click()
    wait_for("the answer", lambda: job_state(d) == "done")
    assert text(d, "verdict").startswith("CLEARABLE")
    plan = json.loads(d.execute_script("return JSON.stringify(S.plan)"))
    assert plan["setup"] == {"A1": ["red", "blue"], "C1": ["red"]}
    d.switch_to.frame(d.find_element("id", "answer-page"))
    wait_for("the round panels", lambda: d.find_elements("css selector", ".panel[data-round]"))
    panels = d.find_elements("css selector", ".panel[data-round]")
    assert [p.get_attribute("data-round") for p in panels] == [str(i) for i in range(1, len(plan["rounds"]) + 1)]
    assert d.find_elements("css selector", "svg.chart")
    d.switch_to.default_content()
    shot(d, "answer", "answer")

    # -- play along from round 2: the referee replays round 1, the solvers go on
    select(d, "from-round", "2")
    d.find_element("id", "from-here").click()
    wait_for("the answer from round 2", lambda: job_state(d) == "done" and "from round 2" in text(d, "verdict"))
    d.find_element("id", "prefix").clear()
    d.find_element("id", "prefix").send_keys("{not json")
    d.find_element("id", "from-here").click()
    wait_for("the prefix message", lambda: "not valid JSON" in text(d, "from-error"))
    shot(d, "play-along", "play-along")

    # -- a long solve (the real Easter Island, hard) shows progress and is cancelled
    select(d, "board", "easter-island")
    wait_for("the Easter Island board", lambda: d.find_elements("css selector", '#board-svg .target[data-hex="L4"]'))
    select(d, "difficulty", "hard")
    wait_for("the seeded setup", lambda: "checked" in text(d, "setup-ok"))
    d.find_element("id", "solve").click()
    wait_for("live progress", lambda: d.find_elements("css selector", "#progress li"))
    shot(d, "progress", "solve-box")
    d.find_element("id", "cancel").click()
    wait_for("the cancelled state", lambda: job_state(d) == "cancelled", 15)
    jobs = app.extensions["aos_jobs"]
    assert all(not j.process.is_alive() for j in jobs.jobs.values())
    assert d.execute_script("return fetch('/api/boards').then(r => r.status)") == 200
