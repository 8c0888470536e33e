"""The seeded solo market (Desert sheet's column mix, token swap) and the catalogues."""
from collections import Counter

import pytest

from solver.desert.setup import load_setup
from solver.desert.market import draw_market


@pytest.fixture(scope="module")
def setup():
    return load_setup()


def test_catalogues_match_the_published_counts_and_say_they_are_stand_ins(setup):
    ts = setup.tileset
    assert len(ts.bag("core")) == 106
    assert len(ts.bag("desert")) == 44
    assert all(setup.tileset.stand_in.values())
    for path in setup.tileset.stand_in:
        assert "STAND-IN" in open(path).read().splitlines()[0]


def test_solo_columns_follow_the_sheet_mix(setup):
    mk = draw_market(11, setup.tileset, setup.ruleset)
    assert len(mk.rounds) == 8
    for offer in mk.rounds:
        assert [len(c) for c in offer.columns] == [2, 3, 4]
        for col in offer.columns:
            kinds = [setup.tileset.get(t).kind for t in col]
            # the 3-tile column is the one with 2 Expansion tiles
            assert kinds == {2: ["core", "desert"], 3: ["core", "desert", "desert"], 4: ["core"] * 3 + ["desert"]}[len(col)]


def test_market_tiles_come_from_the_bags_without_replacement(setup):
    mk = draw_market(5, setup.tileset, setup.ruleset)
    drawn = Counter(t for o in mk.rounds for c in o.columns for t in c)
    for tid, n in drawn.items():
        assert n <= setup.tileset.get(tid).count


def test_market_is_determined_by_the_seed(setup):
    a = draw_market(3, setup.tileset, setup.ruleset).to_json()
    assert a == draw_market(3, setup.tileset, setup.ruleset).to_json()
    assert a != draw_market(4, setup.tileset, setup.ruleset).to_json()


def test_train_tokens_are_swapped_for_camel_tokens(setup):
    stack = Counter(setup.ruleset.token_stack())
    assert stack["train"] == 0 and stack["camel"] == 3
    seen = Counter()
    for seed in range(30):
        mk = draw_market(seed, setup.tileset, setup.ruleset)
        sizes = [len(o.tokens) for o in mk.rounds]
        assert sizes == [1, 2] + [3] * 6  # one more revealed each round, 3 active at most
        for o in mk.rounds:
            seen.update(o.tokens)
    assert "train" not in seen and seen["camel"] > 0
