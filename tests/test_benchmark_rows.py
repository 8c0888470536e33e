"""benchmarks/easter_island.py prints a row in its default mode (issue 44: KeyError 'baseline_proof')."""
from __future__ import annotations

import importlib.util

from tests.conftest import ROOT


def load_benchmark():
    spec = importlib.util.spec_from_file_location("bench_easter_island", ROOT / "benchmarks" / "easter_island.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_a_default_mode_row_without_baseline_columns_prints_them_empty():
    bench = load_benchmark()
    row = {f: "x" for f in bench.FIELDS if not f.startswith("baseline_")}
    cells = bench.row_line(row).split(",")
    assert len(cells) == len(bench.FIELDS)
    assert [c for f, c in zip(bench.FIELDS, cells) if f.startswith("baseline_")] == [""] * sum(f.startswith("baseline_") for f in bench.FIELDS)
