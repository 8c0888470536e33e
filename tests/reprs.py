"""What a Python repr looks like in text a person reads (issue 34, item 2), and the sample runs to scan.

Used by tests/test_no_reprs.py. A repr is a list or dict printed as Python or JSON (`['green']`,
`{"A1": [...]}`, `{8: 16}`), a Python constant (`True`, `None`), a quoted token (`'engineer'`), a
float with its binary tail (`0.9999999999999999`) or a Python type (`<class ...>`, `<list[str]>`).
"""
from __future__ import annotations

import html.parser
import re

PATTERNS = {
    "list or dict": re.compile(r"[\[{]\s*['\"\d\[{]|[\]}]\s*[\]}]|\{\s*\}|\[\s*\]"),
    "Python constant": re.compile(r"\b(True|False|None)\b"),
    # a value quoted as Python quotes it: after a noun that names it, or holding code-like characters
    "quoted token": re.compile(r"(?:\b(?:got|player|reading|colour|color|value|difficulty|map|name|key|field|action|"
                               r"stop|option|plan|file)\s|[=(\[,:]\s?)'[^'\s]+'(?!\w)|(?<![\w])'[\w.-]*[=_/\d][\w=./-]*'(?!\w)"),
    "long float": re.compile(r"\d\.\d{6,}"),
    "Python type": re.compile(r"<(class|str|int|float|bool|path|list\[)"),
    "field = value": re.compile(r"\b[a-z]+_[a-z_]+ = "),
}


def reprs(text: str) -> list[str]:
    """Each line of `text` that looks like a repr, with the kind."""
    out = []
    for line in text.splitlines():
        for kind, pattern in PATTERNS.items():
            if pattern.search(line):
                out.append(f"{kind}: {line.strip()[:200]}")
                break
    return out


class _Visible(html.parser.HTMLParser):
    """The text of an HTML page a reader sees: no style, script or attributes."""

    def __init__(self):
        super().__init__()
        self.parts: list[str] = []
        self._skip = 0

    def handle_starttag(self, tag, attrs):
        if tag in ("style", "script"):
            self._skip += 1
        if tag in ("p", "li", "tr", "br", "h1", "h2", "h3", "div", "td", "th"):
            self.parts.append("\n")

    def handle_endtag(self, tag):
        if tag in ("style", "script"):
            self._skip -= 1

    def handle_data(self, data):
        if not self._skip:
            self.parts.append(data)


def visible_text(page: str) -> str:
    parser = _Visible()
    parser.feed(page)
    return "".join(parser.parts)


def markdown_text(md: str) -> str:
    """Markdown a reader sees: links and pictures keep their words, not their targets."""
    return re.sub(r"!?\[([^\]]*)\]\([^)]*\)", r"\1", md)


ILLEGAL = "tests/plans/illegal"

# Every command on the sample inputs (text output). Solvers run on the tiny boards, so the scan stays fast.
SAMPLE_RUNS: dict[str, list[str]] = {
    "easter-island tiny clearable": ["easter-island", "--instance", "instances/tiny/tiny-island.toml", "--difficulty",
                                     "easy", "--setup", "tests/data/tiny-island-setup.toml"],
    "easter-island tiny not clearable": ["easter-island", "--instance", "instances/tiny/tiny-island.toml",
                                         "--difficulty", "hard"],
    "easter-island tiny lock": ["easter-island", "--instance", "instances/tiny/tiny-island-lock.toml",
                                "--difficulty", "easy"],
    "zoo tiny": ["zoo", "--instance", "instances/tiny/tiny-zoo.toml"],
    "zoo tiny pair": ["zoo", "--instance", "instances/tiny/tiny-zoo-pair.toml"],
    "zoo routes": ["zoo", "routes", "--plan", "tests/plans/tiny-zoo-cleared.json", "--round", "2", "--instance",
                   "instances/tiny/tiny-zoo.toml"],
    "readings": ["readings"],
    "readings zoo": ["readings", "zoo"],
    "check-plan legal": ["check-plan", "instances/tiny/tiny-island.toml", "tests/plans/tiny-island-cleared.json"],
    "check-plan zoo": ["check-plan", "instances/tiny/tiny-zoo.toml", "tests/plans/tiny-zoo-cleared.json"],
    "check-plan lock": ["check-plan", "instances/tiny/tiny-island-lock.toml", "tests/plans/tiny-island-lock.json"],
    "check-plan illegal": ["check-plan", "instances/tiny/tiny-island.toml",
                           f"{ILLEGAL}/tiny-island/too-many-tiles.json"],
    "check-plan two rounds": ["check-plan", "instances/easter-island.toml",
                              "tests/plans/easter-island-easy-two-rounds.json"],
    "map validate": ["map", "validate", "instances/easter-island.toml"],
    "map show island": ["map", "show", "instances/easter-island.toml"],
    "map show zoo": ["map", "show", "instances/zoo.toml"],
    "map show finland": ["map", "show", "instances/finland.toml"],
    "network": ["network", "instances/easter-island.toml", "--connect", "ruins"],
    "network zoo": ["network", "instances/zoo.toml", "--connect", "animals"],
    "steiner": ["steiner", "tests/data/small.gr"],
    "deliveries finland": ["deliveries", "instances/finland.toml", "--state", "instances/states/finland.toml"],
    "deliveries kansas city": ["deliveries", "instances/kansas-city.toml", "--state",
                               "instances/states/kansas-city.toml"],
    "deliveries portugal": ["deliveries", "instances/portugal.toml", "--state", "instances/states/portugal.toml"],
    "deliveries synapses": ["deliveries", "instances/synapses.toml", "--state", "instances/states/synapses.toml"],
    "deliveries human body": ["deliveries", "instances/human-body.toml", "--state",
                              "instances/states/human-body.toml"],
    "build-cost kansas city": ["build-cost", "instances/kansas-city.toml", "--connect", "St. Joseph,Lawrence",
                               "--good", "purple"],
    "build-cost finland": ["build-cost", "instances/finland.toml", "--connect", "Tampere,Lahti"],
    "turn kansas city": ["turn", "instances/kansas-city.toml", "--state", "instances/states/kansas-city.toml"],
    "turn portugal first": ["turn", "instances/portugal.toml", "--state", "instances/states/portugal-first-turn.toml"],
    "desert score": ["desert", "score", "instances/desert/layouts/sheet-example.toml"],
    "desert score camel": ["desert", "score", "instances/desert/layouts/camel-network.toml"],
    "desert solve": ["desert", "solve", "--challenge", "sharp-boundary", "--tiles", "instances/desert/tiles/small.toml",
                     "--time-limit", "2"],
    # bad input: one message each
    "error reading": ["easter-island", "--reading", "nosuch=1"],
    "error readings map": ["readings", "nosuch"],
    "error colour": ["build-cost", "instances/finland.toml", "--connect", "Tampere,Lahti", "--good", "green"],
    "error plan": ["check-plan", "instances/tiny/tiny-island.toml", "tests/plans/malformed/setup-unknown-colour.json"],
    "error player": ["turn", "instances/kansas-city.toml", "--state", "instances/states/kansas-city.toml",
                     "--player", "engineer"],
}
