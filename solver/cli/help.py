"""Help that shows how: placeholders a person reads, one example per command, the text kept as written.

Every command's `--help` ends with an example (EXAMPLES; tests/test_help.py runs each one, from a
folder where `instances/` and `tests/` are the repository's). Options and arguments get placeholders
that say what to type (FILE, NAME=VALUE, SECONDS) instead of Typer's Python types (`<path>`,
`<list[str]>`), and help texts are printed as written: Rich markup would eat `[bottom, top]`.
"""
from __future__ import annotations

import inspect
import re

import typer
import typer.core

# One example per command, by its full name; each runs in a few seconds on the shipped files.
EXAMPLES: dict[str, str] = {
    "easter-island": "aos-solve easter-island --difficulty easy --seed 1",
    "readings": "aos-solve readings zoo",
    "zoo": "aos-solve zoo --instance instances/tiny/tiny-zoo.toml --setup tests/data/tiny-zoo-food.toml",
    "zoo routes": "aos-solve zoo routes --plan tests/plans/tiny-zoo-cleared.json --round 2 "
                  "--instance instances/tiny/tiny-zoo.toml",
    "map validate": "aos-solve map validate instances/zoo.toml",
    "map show": "aos-solve map show instances/tiny/tiny-island.toml",
    "map render": "aos-solve map render instances/tiny/tiny-island.toml --plan tests/plans/tiny-island-cleared.json "
                  "--out tiny.svg",
    "check-plan": "aos-solve check-plan instances/tiny/tiny-island.toml tests/plans/tiny-island-cleared.json",
    "network": "aos-solve network instances/easter-island.toml --connect ruins",
    "steiner": "aos-solve steiner tests/data/small.gr",
    "desert score": "aos-solve desert score instances/desert/layouts/sheet-example.toml",
    "desert solve": "aos-solve desert solve --challenge sharp-boundary --tiles instances/desert/tiles/small.toml "
                    "--time-limit 2",
    "desert game": "aos-solve desert game --challenge sharp-boundary --seed 1 --time-limit 2 --online greedy",
    "desert ceiling": "aos-solve desert ceiling tests/data/desert-lost-world-4-rounds.toml",
    "desert advise": "aos-solve desert advise --columns C21,D06 --columns C19,D23,D22 --columns C04,C19,C01,D01 "
                     "--tokens camel --challenge lost-world",
    "serve": "aos-solve serve --open",
    "batch": "aos-solve batch easter-island --instance instances/tiny/tiny-island.toml --difficulty easy "
             "--seeds 1-3 --out demo-batch",
    "report": "aos-solve report demo-batch",
    "deliveries": "aos-solve deliveries instances/finland.toml --state instances/states/finland.toml",
    "build-cost": "aos-solve build-cost instances/kansas-city.toml --connect \"St. Joseph,Lawrence\" --good purple",
    "turn": "aos-solve turn instances/kansas-city.toml --state instances/states/kansas-city.toml",
}

# What an example needs first, said under it.
EXAMPLE_NOTES: dict[str, str] = {"report": "(demo-batch: the folder the example of `aos-solve batch --help` writes)",
                                 "serve": "(it runs until Ctrl-C)"}

# Placeholders by option name; others by type (`placeholder`).
PLACEHOLDERS: dict[str, str] = {
    "reading": "NAME=VALUE", "readings": "SET,SET,...", "bag": "COLOUR=COUNT,...", "seeds": "RANGE",
    "difficulty": "LEVEL", "challenge": "NAME", "connect": "STOPS", "good": "COLOUR", "player": "NAME",
    "scheduler": "ADDRESS", "at": "start|ship", "online": "rollout|greedy", "out": "FILE", "run": "FOLDER",
    "map_name": "MAP", "scenario": "SCENARIO", "catalogue": "FILE", "state_file": "FILE", "round_": "N",
}
SECONDS = ("time_limit", "cp_time", "plan_cp_time", "shares_cp_time")


def placeholder(name: str, annotation) -> str | None:
    """The placeholder of an option: by its name, else by its type (annotations may be strings)."""
    if name in PLACEHOLDERS:
        return PLACEHOLDERS[name]
    if name in SECONDS:
        return "SECONDS"
    text = annotation if isinstance(annotation, str) else getattr(annotation, "__name__", str(annotation))
    for word, kinds in (("FILE", ("Path",)), ("N", ("int",)), ("NUMBER", ("float",)), ("TEXT", ("str",))):
        if any(re.search(rf"\b{kind}\b", text) for kind in kinds):
            return word
    return None


def _polish_callback(callback) -> None:
    for name, param in inspect.signature(callback).parameters.items():
        info = param.default
        if not isinstance(info, (typer.models.OptionInfo, typer.models.ArgumentInfo)) or info.metavar:
            continue
        if re.search(r"\bbool\b", param.annotation if isinstance(param.annotation, str) else str(param.annotation)):
            continue  # a flag takes no value
        if isinstance(info, typer.models.ArgumentInfo):
            word = PLACEHOLDERS.get(name, name.upper())  # an argument is named by what it is: INSTANCE, PLAN
        else:
            word = placeholder(name, param.annotation)
        if name == "out" and isinstance(info, typer.models.OptionInfo) and "batch" in callback.__module__:
            word = "FOLDER"
        if word:
            info.metavar = word


def epilog(name: str) -> str:
    note = f"\n  {EXAMPLE_NOTES[name]}" if name in EXAMPLE_NOTES else ""
    return f"\b\nExample:\n  {EXAMPLES[name]}{note}"  # \b: click keeps the lines as they are


def polish(app: typer.Typer, prefix: str = "") -> None:
    """Placeholders and the example on every command of `app` (and of its groups), plain-text help."""
    app.rich_markup_mode = None
    if not prefix:
        app.info.epilog = ("\b\nExamples:\n  " + EXAMPLES["easter-island"] + "\n  aos-solve serve\n\n"
                           "aos-solve COMMAND --help: what the command does, its options and an example.")
    for command in app.registered_commands:
        name = (prefix + " " + (command.name or command.callback.__name__)).strip()
        _polish_callback(command.callback)
        if command.short_help is None:
            command.short_help = short_help(command.help or inspect.getdoc(command.callback) or "")
        if name in EXAMPLES:
            command.epilog = epilog(name)
    for group in app.registered_groups:
        sub = group.typer_instance
        name = (prefix + " " + (group.name or sub.info.name)).strip()
        if _unset(group.short_help) and _unset(sub.info.short_help):
            texts = [t for t in (group.help, sub.info.help) if not _unset(t)]
            group.short_help = sub.info.short_help = short_help(texts[0] if texts else "")
        if sub.registered_callback is not None:
            _polish_callback(sub.registered_callback.callback)
            if name in EXAMPLES:
                sub.info.epilog = epilog(name)
        polish(sub, name)


def _unset(value) -> bool:
    """Typer marks options a group was not given with DefaultPlaceholder."""
    from typer.models import DefaultPlaceholder
    return value is None or isinstance(value, DefaultPlaceholder)


def short_help(text: str, limit: int = 72) -> str:
    """The line a command gets in the list of commands: its first sentence, cut at a comma or a word within
    `limit` characters, never with Click's "..." in the middle of a thought."""
    first = re.split(r"(?<=[.?])\s", " ".join(text.split()), maxsplit=1)[0].rstrip(".:")
    if len(first) <= limit:
        return first

    def whole(part: str) -> bool:  # no parenthesis or backquote left open
        return part.count("(") == part.count(")") and part.count("`") % 2 == 0

    cut = first[:limit]
    for mark in (", ", "; ", ": ", " ("):
        ends = [m.start() for m in re.finditer(re.escape(mark), cut) if whole(cut[:m.start()])]
        if ends:
            return cut[: ends[-1]]
    ends = [m.start() for m in re.finditer(" ", cut) if whole(cut[:m.start()])]
    return cut[: ends[-1]] if ends else first


def _argument_type(self, ctx):  # noqa: ARG001 - Typer's signature
    """An argument's placeholder is its name (e.g. FILE); Typer would add `<path>` after it."""
    return None


def _argument_usage(self) -> str:
    """`check-plan INSTANCE PLAN`, not Typer's `{instance} {plan}`."""
    name = self.metavar or self.name.upper()
    name = name if self.required else f"[{name}]"
    return name + ("..." if self.nargs != 1 else "")


def _argument_name(self) -> str:
    return self.metavar or self.name.upper()


typer.core.TyperArgument.display_type_rich = _argument_type
typer.core.TyperArgument._usage_display_name = _argument_usage
typer.core.TyperArgument._rich_display_name = _argument_name
