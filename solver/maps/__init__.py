"""One module per map; each changes only what its rule sheet changes."""
from __future__ import annotations

from functools import cache

from solver.maps.base import Ruleset


@cache
def ruleset_for(name: str) -> Ruleset:
    from solver.maps.easter_island import EasterIsland
    from solver.maps.finland import Finland
    from solver.maps.human_body import HumanBody
    from solver.maps.kansas_city import KansasCity
    from solver.maps.portugal import Portugal
    from solver.maps.synapses import Synapses
    from solver.maps.zoo import Zoo

    known = {"base": Ruleset, "easter-island": EasterIsland, "zoo": Zoo, "finland": Finland, "portugal": Portugal,
             "synapses": Synapses, "human-body": HumanBody, "kansas-city": KansasCity}
    if name not in known:
        from solver.errors import InputError
        raise InputError(f"unknown ruleset {name!r} (known: {', '.join(known)})", "scenario.ruleset")
    return known[name]()
