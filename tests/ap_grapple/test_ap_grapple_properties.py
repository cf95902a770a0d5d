"""Property: any sequence of commands, accepted or refused, keeps replay equal to live and AP in range."""

from __future__ import annotations

from ap_grapple_world import worked_example_world
from hypothesis import given, settings
from hypothesis import strategies as st

from events.dice import BadDice, DiceNeeded
from rules.interface import BadCommand, RuleError

ACTORS = ("aldo", "berk", "cade")
SWINGS = ("left", "right", "own_hex", "in_place")

step = st.one_of(
    st.tuples(
        st.just("grab"),
        st.sampled_from(ACTORS),
        st.sampled_from(ACTORS),
        st.integers(1, 20),
        st.integers(1, 100),
    ),
    st.tuples(
        st.just("brawl"),
        st.sampled_from(ACTORS),
        st.sampled_from(ACTORS),
        st.integers(1, 20),
        st.integers(0, 0),
    ),
    st.tuples(
        st.just("swing"), st.sampled_from(ACTORS), st.sampled_from(SWINGS), st.integers(1, 3), st.booleans()
    ),
    st.tuples(st.just("pass"), st.sampled_from(ACTORS), st.none(), st.none(), st.none()),
    st.tuples(st.just("start_turn"), st.none(), st.none(), st.none(), st.none()),
)


def _run(w, action):
    kind, a, b, x, y = action
    if kind == "grab":
        for dice in ([[x]], [[x], [y]]):
            try:
                return w.send("ap-grapple.make_a_grab", combatant=a, target=b, dice=dice)
            except (BadDice, DiceNeeded):
                continue
    elif kind == "brawl":
        return w.send("ap-grapple.brawl", combatant=a, target=b, dice=[[x]])
    elif kind == "swing":
        for dice in ([], [[x]]):
            try:
                return w.send("ap-grapple.swing_target", combatant=a, to=b, barrier=y, dice=dice)
            except (BadDice, DiceNeeded):
                continue
    elif kind == "pass":
        return w.send("ap-grapple.pass", combatant=a)
    else:
        return w.send("start_turn")


@settings(max_examples=60, deadline=None)
@given(st.lists(step, max_size=14))
def test_replay_equals_live_and_ap_stays_in_range(actions):
    w = worked_example_world()
    for action in actions:
        try:
            _run(w, action)
        except (RuleError, BadCommand):
            pass
        for cid, left in w.rules["ap_left"].items():
            assert 0 <= left <= w.rules["ap_per_round"][cid]
        assert len(w.rules["pending_swings"]) == len(w.state["pending"])
    assert w.replayed() == w.state
