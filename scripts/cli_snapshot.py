"""Save the outputs of a fixed set of commands, to compare before and after a refactoring.

    python scripts/cli_snapshot.py OUT_DIR [NAME ...]   # then: diff -r BEFORE AFTER

Timing fields are dropped from JSON outputs and time figures masked in text, so
two runs of unchanged behaviour give identical files. Solvers run with fixed
limits; a solve cut short by a wall-clock limit can still differ between runs.
"""
from __future__ import annotations

import json
import pathlib
import re
import subprocess
import sys
import tempfile

ROOT = pathlib.Path(__file__).resolve().parent.parent
PACE = ROOT.parent / "shared" / "data" / "pace2018-track1"
NO_PURPLE = "red=20,blue=20,yellow=20,black=16"
TIMING = re.compile(r"(second|time|elapsed|duration|wall|speed|per_s)", re.I)


def commands(tmp: pathlib.Path) -> dict[str, list[str]]:
    cmds = {
        "easter-island-easy-1": ["easter-island", "--difficulty", "easy", "--seed", "1", "--bag", NO_PURPLE,
                                 "--time-limit", "60", "--json"],
        "zoo-1": ["zoo", "--seed", "1", "--json"],
        "map-show-easter-island": ["map", "show", "instances/easter-island.toml"],
        "map-show-zoo": ["map", "show", "instances/zoo.toml"],
        "check-plan-tiny-island": ["check-plan", "instances/tiny/tiny-island.toml", "tests/plans/tiny-island-cleared.json",
                                   "--json"],
        "check-plan-tiny-zoo": ["check-plan", "instances/tiny/tiny-zoo.toml", "tests/plans/tiny-zoo-cleared.json", "--json"],
        "network-ruins": ["network", "instances/easter-island.toml", "--connect", "ruins", "--json"],
        "desert-score": ["desert", "score", "instances/desert/layouts/sheet-example.toml", "--json"],
        "deliveries-finland": ["deliveries", "instances/finland.toml", "--state", "instances/states/finland.toml", "--json"],
        "deliveries-kansas-city": ["deliveries", "instances/kansas-city.toml", "--state", "instances/states/kansas-city.toml", "--json"],
        "build-cost-kansas-city": ["build-cost", "instances/kansas-city.toml", "--state", "instances/states/kansas-city.toml", "--connect", "Independence,Harrisonville", "--json"],
        "batch-easter-island": ["batch", "easter-island", "--seeds", "1-3", "--out", str(tmp / "batch"), "--workers",
                                "1", "--quiet", "--bag", NO_PURPLE],
        "report": ["report", str(tmp / "batch")],
    }
    # tiny boards: every solo path (seeded, from a file, --rounds, a reading, --from a prefix, SVG, batch
    # with plan pages) in about a minute; issue 43's Scenario/Settings/service refactor was checked on them
    tiny = "instances/tiny/"
    prefix = tmp / "prefix-island.json"
    zoo_prefix = tmp / "prefix-zoo.json"
    for plan, out in (("tests/plans/tiny-island-cleared.json", prefix), ("tests/plans/tiny-zoo-cleared.json", zoo_prefix)):
        data = json.loads((ROOT / plan).read_text())
        out.write_text(json.dumps({**data, "rounds": data["rounds"][:1]}))  # the first round: a position to play on
    cmds.update({
        "tiny-island-json": ["easter-island", "--instance", tiny + "tiny-island.toml", "-d", "easy", "--seed", "3",
                             "--json"],
        "tiny-island-text": ["easter-island", "--instance", tiny + "tiny-island.toml", "-d", "easy", "--seed", "3",
                             "-v"],
        "tiny-island-setup": ["easter-island", "--instance", tiny + "tiny-island.toml", "-d", "easy", "--setup",
                              "tests/data/tiny-island-setup.toml", "--rounds", "4", "--json"],
        "tiny-island-cash": ["easter-island", "--instance", tiny + "tiny-island-cash.toml", "-d", "easy", "--seed",
                             "2", "--reading", "strict-action=on", "--json"],
        "tiny-island-from": ["easter-island", "--instance", tiny + "tiny-island.toml", "--from", str(prefix),
                             "--json"],
        "tiny-zoo-json": ["zoo", "--instance", tiny + "tiny-zoo.toml", "--seed", "4", "--json"],
        "tiny-zoo-text": ["zoo", "--instance", tiny + "tiny-zoo.toml", "--seed", "4", "-v"],
        "tiny-zoo-from": ["zoo", "--instance", tiny + "tiny-zoo.toml", "--from", str(zoo_prefix), "--json"],
        "tiny-batch-zoo": ["batch", "zoo", "--instance", tiny + "tiny-zoo.toml", "--seeds", "1-2", "--out",
                           str(tmp / "batch-zoo"), "--workers", "1", "--quiet", "--keep-plans"],
    })
    for name in ("instance001.gr", "instance007.gr", "instance009.gr"):
        cmds[f"steiner-{name}"] = ["steiner", str(PACE / name), "--json"]
    return cmds


def scrub(value):
    if isinstance(value, dict):
        return {k: scrub(v) for k, v in value.items() if not TIMING.search(k)}
    if isinstance(value, list):
        return [scrub(v) for v in value]
    return value


def normalise(text: str, tmp: pathlib.Path) -> str:
    text = text.replace(str(tmp), "TMP")
    try:
        return json.dumps(scrub(json.loads(text)), indent=1, sort_keys=True)
    except ValueError:
        return re.sub(r"\d+(\.\d+)?\s?(s|ms)\b", "T", text)


def main(out: pathlib.Path, only: list[str]) -> None:
    out.mkdir(parents=True, exist_ok=True)
    with tempfile.TemporaryDirectory() as t:
        tmp = pathlib.Path(t)
        for name, args in commands(tmp).items():
            if only and name not in only:
                continue
            proc = subprocess.run([sys.executable, "-m", "solver", *args], cwd=ROOT, capture_output=True, text=True)
            body = f"exit {proc.returncode}\n--- stdout\n{normalise(proc.stdout, tmp)}\n--- stderr\n{normalise(proc.stderr, tmp)}\n"
            (out / f"{name}.txt").write_text(body)
            if name == "report":
                for f in sorted((tmp / "batch").glob("report.*")):
                    if f.suffix in (".md", ".json"):
                        (out / f"report-{f.name}").write_text(normalise(f.read_text(), tmp))
            if name == "tiny-batch-zoo":  # its records and plan pages (timings masked)
                for f in sorted((tmp / "batch-zoo").rglob("*")):
                    if f.suffix in (".jsonl", ".html"):
                        text = "\n".join(normalise(line, tmp) for line in f.read_text().splitlines())
                        (out / f"{name}-{f.name}").write_text(text)
            print(name, proc.returncode, flush=True)


if __name__ == "__main__":
    if len(sys.argv) < 2:
        sys.exit("usage: python scripts/cli_snapshot.py OUT_DIR [NAME ...]")
    main(pathlib.Path(sys.argv[1]), sys.argv[2:])
