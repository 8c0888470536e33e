"""What the solo pipeline did on the way to an answer: a typed log (Answer.search) instead of a loose dict.

Reports, batch records and benchmarks read it by name; the answer JSON keeps its `search` object as it was:
`to_json()` lists the entries in the order the search first wrote them, and leaves out what it never wrote
(a field left at None was not written; one written as None is listed as null)."""
from __future__ import annotations

from dataclasses import dataclass, field, fields


@dataclass
class SearchLog:
    # -- both maps --------------------------------------------------------------------------
    beam_widths: list[int] | None = None           # the first beam's widths, in the order tried
    round_plans_tried: int | None = None           # round plans the beams explored (the work budget's measure)
    deterministic: bool | None = None              # a work budget, not the clock, bounded the search
    optimizer: list[dict] | None = None            # one entry per plan optimizer run (rounds, width, found)
    optimizer_work: int | None = None              # round plans the plan optimizer explored
    plan_source: str | None = None                 # the finder whose plan the answer kept
    idle_track_removed: list[str] | None = None    # what pruning cut from the kept plan
    referee_rejected: str | None = None            # the referee's last refusal of a proposed plan
    beam_rounds: int | None = None                 # the first beam's rounds (the benchmarks' baseline)
    beam_seconds: float | None = None
    proof_source: str | None = None                # what proved the verdict or the minimum (answer.PROOF_SOURCES)
    shares: dict | None = None                     # solver.solo.proofs.shares.fewest_shares's record
    proofs: list | None = None                     # every verdict the proof engines gave (Position.asked)
    prove_time: float | None = None                # the deep mode's budget (only in the deep mode)
    # -- Easter Island ------------------------------------------------------------------------
    beam_variants: list[dict] | None = None        # one entry per beam run (town, network cost, variant, rounds)
    black_new_city_town: str | None = None
    target_network_cost: int | None = None
    variants_seconds: float | None = None
    decoded: list[dict] | None = None              # the link search's patterns decoded into plans
    squeeze: list[dict] | None = None              # the restriction asked for one round fewer, per attempt
    restriction: dict | None = None                # the restriction over the whole round range
    rounds_seconds: float | None = None
    polish_width: int | None = None
    # -- Zoo ----------------------------------------------------------------------------------
    networks: list[dict] | None = None             # one entry per beam run on a target network
    least_locomotive_any_network: dict | None = None
    polish_widths: list[int] | None = None
    plan_network: str | None = None
    # -- the proof engines' own logs, under each engine's name (solver/solo/proofs.raise_bound) --
    engine_logs: dict[str, list] = field(default_factory=dict)

    def __post_init__(self) -> None:
        order = [f.name for f in fields(self) if f.name != "engine_logs" and getattr(self, f.name) is not None]
        object.__setattr__(self, "_order", order)

    def __setattr__(self, name: str, value) -> None:
        order = self.__dict__.get("_order")
        if order is not None and name not in order and name != "engine_logs":
            order.append(name)
        object.__setattr__(self, name, value)

    def add(self, name: str, item) -> None:
        """Append to a list entry, starting it if the search has not written it yet."""
        if getattr(self, name) is None:
            setattr(self, name, [])
        getattr(self, name).append(item)

    def engine_log(self, engine: str, log: list) -> None:
        """A proof engine's log, kept under the engine's name."""
        if engine in {f.name for f in fields(self)}:
            raise ValueError(f"an engine log may not take the name of a log entry: {engine}")
        if engine not in self._order:
            self._order.append(engine)
        self.engine_logs[engine] = log

    def to_json(self) -> dict:
        """The entries written, in the order first written (answer JSON's `search`)."""
        return {name: self.engine_logs[name] if name in self.engine_logs else getattr(self, name)
                for name in self._order}
