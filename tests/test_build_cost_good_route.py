"""Rule protected: `build-cost --good` prices a route between the two stops named, also on Kansas City,
whose every network joins Kansas City as well ("every player's track is contiguous back to Kansas City").
"""
from __future__ import annotations

import json

from tests.conftest import INSTANCES

KC = INSTANCES / "kansas-city.toml"


def test_two_named_stops_with_a_good_are_priced_on_kansas_city(run_cli):
    r = run_cli("build-cost", KC, "--connect", "St. Joseph,Lawrence", "--good", "purple", "--json")
    assert r.code == 0, r.err
    data = json.loads(r.out)
    assert data["connect"] == ["St. Joseph (E1)", "Lawrence (A4)"]
    assert data["cost"] is not None
    # the purple city Olathe would take the good: the network never reaches it
    assert "B6" not in data["tiles"] and all("B6" not in link.split("-") for link in data["links"])
    # without the good the same stops cost no more (dropping a stop is a restriction)
    plain = json.loads(run_cli("build-cost", KC, "--connect", "St. Joseph,Lawrence", "--json").out)
    assert plain["cost"] <= data["cost"]
    # a proven minimum only when the network allowed to pass Olathe costs the same
    if data["status"] == "optimal":
        assert data["lower_bound"] == data["cost"] == plain["cost"]


def test_a_good_the_joined_kansas_city_would_take_is_refused_with_one_message(run_cli):
    r = run_cli("build-cost", KC, "--connect", "St. Joseph,Lawrence", "--good", "red")
    assert r.code == 2
    assert "Kansas City KS" in r.err and "Traceback" not in r.err


def test_good_still_needs_exactly_two_stops(run_cli):
    r = run_cli("build-cost", KC, "--connect", "St. Joseph,Lawrence,Olathe", "--good", "yellow")
    assert r.code == 2 and "exactly two stops" in r.err
