"""The PACE `.gr` reader: exact on good files, a clear InputError on bad ones."""
import pytest

from solver.board.errors import InputError
from solver.board.pace import format_gr, parse_gr, read_gr

GOOD = """SECTION Graph
Nodes 4
Edges 4
E 1 2 3
E 2 3 4
E 3 4 5
E 1 4 10
END

SECTION Terminals
Terminals 2
T 1
T 3
END

EOF
"""


def test_reader_keeps_nodes_edges_and_terminals():
    inst = parse_gr(GOOD, "good.gr")
    assert inst.n == 4
    assert inst.edges == [(1, 2, 3), (2, 3, 4), (3, 4, 5), (1, 4, 10)]
    assert inst.terminals == [1, 3]
    g = inst.graph()
    assert g.number_of_nodes() == 4 and g[1][4]["weight"] == 10


def test_writer_output_reads_back_identically(tmp_path):
    inst = parse_gr(GOOD)
    path = tmp_path / "x.gr"
    path.write_text(format_gr(inst.n, inst.edges, inst.terminals))
    again = read_gr(path)
    assert (again.n, again.edges, again.terminals) == (inst.n, inst.edges, inst.terminals)


def test_parallel_edges_keep_the_lightest_in_the_graph():
    text = GOOD.replace("Edges 4", "Edges 5").replace("E 1 4 10", "E 1 4 10\nE 4 1 7")
    assert parse_gr(text).graph()[1][4]["weight"] == 7


@pytest.mark.parametrize(
    "change, expected",
    [
        (lambda t: t.replace("E 1 2 3", "E 0 2 3"), "edge end 0 is not a node"),
        (lambda t: t.replace("E 1 2 3", "E 1 5 3"), "edge end 5 is not a node"),
        (lambda t: t.replace("E 1 2 3", "E 1 2 -3"), "must be non-negative"),
        (lambda t: t.replace("E 1 2 3", "E 1 2 3.5"), "must be an integer"),
        (lambda t: t.replace("T 3", "T 9"), "terminal 9 is not a node"),
        (lambda t: t.replace("Edges 4", "Edges 5"), "'Edges 5' declared but 4"),
        (lambda t: t.replace("Terminals 2", "Terminals 3"), "'Terminals 3' declared but 2"),
        (lambda t: t.split("SECTION Terminals")[0] + "EOF\n", "missing 'SECTION Terminals'"),
        (lambda t: t.replace("SECTION Graph", "SECTION Grph"), "section Graph"),
        (lambda t: t.replace("EOF", ""), "missing 'EOF'"),
        (lambda t: t.replace("T 3", "T 1"), "listed twice"),
        (lambda t: t.replace("Nodes 4\n", ""), "edge line before 'Nodes N'"),
    ],
)
def test_malformed_file_names_the_problem_and_the_line(change, expected):
    with pytest.raises(InputError) as err:
        parse_gr(change(GOOD), "bad.gr")
    assert expected in str(err.value)
    assert str(err.value).startswith("bad.gr")


def test_line_number_points_at_the_bad_line():
    with pytest.raises(InputError, match=r"^bad\.gr:5: "):
        parse_gr(GOOD.replace("E 2 3 4", "E 2 3 x"), "bad.gr")


def test_unreadable_file_is_an_input_error(tmp_path):
    with pytest.raises(InputError, match="cannot read"):
        read_gr(tmp_path / "missing.gr")


def test_absurd_node_count_is_refused_before_allocating():
    text = GOOD.replace("Nodes 4", "Nodes 300000000")
    with pytest.raises(InputError, match="node count 300000000") as err:
        parse_gr(text, "big.gr")
    assert "big.gr:2" in str(err.value)


def test_absurd_edge_count_is_refused():
    with pytest.raises(InputError, match="edge count 10000000000") as err:
        parse_gr(GOOD.replace("Edges 4", "Edges 10000000000"), "big.gr")
    assert "big.gr:3" in str(err.value)


def test_cli_refuses_300_million_nodes_with_exit_2(run_cli, tmp_path):
    path = tmp_path / "big.gr"
    path.write_text(GOOD.replace("Nodes 4", "Nodes 300000000"))
    res = run_cli("steiner", path, "--json")
    assert res.code == 2 and res.out == "" and f"{path}:2" in res.err and "Traceback" not in res.err
