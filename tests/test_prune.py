

def test_the_rounds_already_played_are_never_pruned():
    """`--from`: the prefix is the game as played; pruning may change only the rounds after it."""
    from solver.engine.plan import load_plan, replay
    from solver.solo.prune import prune_idle_track
    from tests.conftest import INSTANCES, ROOT
    from tests.helpers import instance
    inst = instance("tiny/tiny-island.toml")
    plan = load_plan(str(ROOT / "tests" / "plans" / "tiny-island-cleared.json"), inst)
    plan.rounds[0].shares += 1  # a share more than needed, issued in the played round
    check = replay(inst, plan)
    assert check.error is None and check.state.cleared_round is not None
    kept = prune_idle_track(inst, plan, check, fixed=1)
    assert kept.plan.rounds[0] == plan.rounds[0]
    assert prune_idle_track(inst, plan, check).plan.rounds[0].shares == plan.rounds[0].shares - 1
