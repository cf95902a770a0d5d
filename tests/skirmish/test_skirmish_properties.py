"""Properties over many dice: the opposed rolls follow the tie rules, every drawn die is in one DieRolled, and
replay equals live whatever the faces."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from skirmish_world import TEST_CHARTS, hale_and_voss, of_type, rolls

from events.dice import DiceNeeded

d100 = st.integers(min_value=1, max_value=100)


def _run(w, type_, faces, **fields):
    """Feed faces one roll at a time until the command no longer needs more (as a table would)."""
    for n in range(1, len(faces) + 1):
        try:
            return w.send(type_, dice=[[f] for f in faces[:n]], **fields)
        except DiceNeeded:
            continue
    raise AssertionError("ran out of faces")


@settings(max_examples=60, deadline=None)
@given(choice=st.sampled_from(["parry", "evade"]), faces=st.lists(d100, min_size=5, max_size=5))
def test_strike_outcomes_follow_the_totals(choice, faces):
    w = hale_and_voss(**TEST_CHARTS)
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    evs = _run(w, "respond", faces, reaction=w.pending("hth_defence")["id"], choice=choice)
    drawn = [i for r in rolls(evs) for i in r["draws"]]
    assert drawn == list(range(len(drawn)))  # every die in exactly one DieRolled, in order
    for res in of_type(evs, "ExchangeResolved"):
        a, d = res["attacker_total"], res["defender_total"]
        if res["kind"] == "counterstrike":
            assert (res["winner"] == res["attacker"]) == (a > d)  # a strict win only
        else:
            assert (res["winner"] == res["attacker"]) == (a > d)  # ties go to the defender
    assert of_type(evs, "HandToHandEnded")
    assert w.rules["exchange"] is None
    assert w.replayed() == w.state


@settings(max_examples=40, deadline=None)
@given(faces=st.lists(d100, min_size=3, max_size=3))
def test_grapple_always_ends_with_both_down(faces):
    w = hale_and_voss(**TEST_CHARTS)
    w.draw_card_of("hale")
    evs = _run(w, "skirmish.grapple", faces, combatant="hale", target="voss")
    aborted = of_type(evs, "GrappleAborted")
    if not aborted:
        assert w.combatant("voss")["posture"] == "on_back"
        assert w.combatant("hale")["posture"] in ("on_stomach", "on_back")
        assert (w.combatant("hale")["posture"] == "on_stomach") == bool(w.rules["prisoners"])
    assert w.replayed() == w.state
