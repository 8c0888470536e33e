"""The named readings of the multiplayer sheets: a sheet sentence read two ways, its value kept in the map's board
file (`[map_rules]`, with its provenance), listed by `aos-solve readings MAP` and printed with every answer.

The engine's registry (solver/engine/readings.py) holds the solo maps' readings, carried by `Rules`; the
multiplayer rulesets never read `Rules`, so a multiplayer map lists exactly the readings below that apply to it.
"""
from __future__ import annotations

from dataclasses import dataclass

FIN_SHEET = "finland-and-portugal.txt"
BODY_SHEET = "human-body-and-synapses.txt"
KC_SHEET = "kansas-city-interurban.txt"
BASE = "age-of-steam-base.md"


@dataclass(frozen=True)
class MapReading:
    name: str                  # CLI name
    key: str                   # the board file's map_rules key
    maps: tuple[str, ...]      # rulesets
    sheet: str
    quote: str
    default: str
    why_default: str
    values: tuple[tuple[str, str], ...]   # (value, what the rules engine does under it); the default first
    modelled: tuple[str, ...] = ()        # values the engine implements (empty: all)

    def value_in(self, instance) -> str:
        """The value the board file gives (the default when the file does not name it)."""
        return str(instance.map_rules.get(self.key, self.default))


MAP_READINGS: tuple[MapReading, ...] = (
    MapReading(
        "zone-reading", "zone_reading", ("finland",), FIN_SHEET,
        "Track may not be built from a zone. Track built to a zone comprises a Completed Railroad Link.",
        "end-only",
        "the sheet speaks only of goods moved to and from a zone and never lets track leave one, so a zone is "
        "where track ends (docs/multiplayer.md)",
        (("end-only", "a zone is an end of track: no good passes through it, no build joins two stops through it"),
         ("city", "a zone is a city of every colour while it holds goods (a good reaching it stops; an empty zone "
                  "is passed through) and a junction in builds"))),
    MapReading(
        "bone-reading", "bone_reading", ("human-body",), BODY_SHEET,
        "Translator's note: the laying cost for BONE is also $3 in every case. It does not depend on the number "
        "of track lines, as with towns in the base game.",
        "town",
        "only a town's cost depends on its track lines, and the map has urbanization and new organs (which go on "
        "towns) yet no other towns: the bones are the board's towns",
        (("town", "a bone is a town: links end there, $3 for a bone tile on a bare bone, $3 for each new track "
                   "to a bone that holds track"),
         ("terrain", "a bone is $3 terrain passed through in one link (not modelled: give the bones as mountain "
                     "hexes and no towns)")),
        modelled=("town",)),
    MapReading(
        "bone-track-tile", "bone_track_tile", ("human-body",), BASE,
        "[Human Body] As in the base game, up to 3 track tiles may be laid (4 for the Engineer), and the laying "
        "cost of every hex is $3. [base rules] town tiles join one to four tracks at the town. Up to 3 tiles a "
        "turn.",
        "counted",
        "new track to a bone that holds track lays a new bone tile with one more track (town tiles carry the "
        "tracks at a town), so it is a tile laid like any other; counted once per bone a build",
        (("counted", "new track to a bone that already holds track counts one tile against the limit (once per "
                     "bone a build)"),
         ("free", "only a bone tile on a bare bone counts; new track to a bone with track is paid ($3) but "
                  "counts no tile"))),
    MapReading(
        "lung-disc-tile", "lung_disc_tile", ("human-body",), BODY_SHEET,
        "As in the base game, up to 3 track tiles may be laid (4 for the Engineer) [...] For the LUNGS, a link can "
        "be connected by placing 1 disc on the disc symbol located on the boundary line between the two lungs "
        "(laying cost $3).",
        "free",
        "the limit is on track tiles and the lung link is a disc, not a tile",
        (("free", "the lung disc costs $3 and counts no tile"),
         ("counted", "the lung disc counts one tile against the limit"))),
    MapReading(
        "complex-tiles", "complex_tiles", ("finland", "portugal", "human-body", "kansas-city"), BASE,
        "complex tiles carry two (crossing, or two non-crossing tracks) ... Complex tile: +$1 (non-crossing pair) "
        "or +$2 (crossing).",
        "refused",
        "not modelled on the multiplayer maps: the state loader and the build search keep one track per hex (a "
        "state with a crossing is refused), so every answer is made with simple tiles only",
        (("refused", "a hex holds one track only"),
         ("allowed", "crossings and two-track tiles (not modelled on these maps)")),
        modelled=("refused",)),
    MapReading(
        "boom-or-bust-marker", "boom_or_bust_marker", ("kansas-city",), KC_SHEET,
        "Boom or Bust! Players must always make deliveries equal to or greater than their longest delivery. "
        "[Interurban Express] allows the player to advance the delivery marker 1 less space on the Delivery Track "
        "than their longest delivery this turn. [...] He ... moves a cube 5 links ... then moves his marker on "
        "the Delivery Track to the 4 space.",
        "each-delivery",
        "the sheet's example moves the marker right after the delivery, and the Delivery Track 'indicates the "
        "longest delivery that a player has completed'",
        (("each-delivery", "the marker moves after each delivery: the second delivery of a turn is at least as "
                           "long as the marker after the first"),
         ("end-of-turn", "the marker moves once, at the end of the turn, by the turn's longest delivery (1 less "
                         "with Interurban Express): both deliveries need only the marker of the turn's start; in "
                         "game.phase shipping-second the first delivery's length is not known, so the state's "
                         "longest_delivery is read as the marker at the turn's start"))),
)


def for_map(ruleset: str) -> list[MapReading]:
    return [r for r in MAP_READINGS if ruleset in r.maps]


def check(instance, ruleset: str, fail) -> None:
    """Every reading's value in the board file is one of its values, and one the engine implements."""
    for r in for_map(ruleset):
        value = instance.map_rules.get(r.key, r.default)
        names = [v for v, _ in r.values]
        if value not in names:
            fail(f"expected one of {', '.join(names)}", f"map_rules.{r.key}")
        if r.modelled and value not in r.modelled:
            fail(f"only {', '.join(r.modelled)} is modelled for the reading {r.name}", f"map_rules.{r.key}")


def stated(instance, ruleset: str) -> list[str]:
    """The readings an answer on this map was made under, one line each."""
    out = []
    for r in for_map(ruleset):
        where = f"the board file's map_rules.{r.key}" if r.key in instance.map_rules else "default"
        out.append(f"{r.name}={r.value_in(instance)} ({where})")
    return out
