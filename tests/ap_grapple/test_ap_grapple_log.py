"""Log sentences (spec section 7), combatant validation, and evolve's purity and totality."""

from __future__ import annotations

import copy

import pytest
from ap_grapple_world import ALDO, BERK, World, g1, worked_example_world

from events.envelope import Event
from rules.ap_grapple import ruleset
from rules.interface import BadCommand


def _sentences(w: World, start_seq: int) -> list[str | None]:
    """describe() of each event after `start_seq`, each against the state before it."""
    from rules.state import replay

    out = []
    for e in w.log:
        if e.seq > start_seq:
            before = replay(w.log, lambda _e: ruleset, at=e.seq - 1)
            out.append(ruleset.describe(before, e))
    return out


def test_grab_and_swing_sentences():
    w = worked_example_world()
    start = w.state["seq"]
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="right", barrier=True, dice=[[2]])
    text = _sentences(w, start)
    assert "Round 1. Aldo tries to grab Berk (3 AP; 2 AP left)." in text
    assert "Aldo rolls to hit Berk: d20 [13] (no modifiers) vs THAC0 16 − AC 6 = 10: hit." in text
    assert "Aldo has a grip on Berk." in text
    assert "Pull chance: 170 + 3x14 = 212 vs 212 + 180 = 392, so 54% (exactly 212/392, rounded down)." in text
    assert "d100 [37] <= 54: Berk is pulled off balance." in text
    assert "Berk is stunned." in text
    assert any(s and s.startswith("Berk is stunned until the end of round 2") for s in text)
    assert "Aldo swings Berk right, against the wall." in text
    assert "Against the barrier: d3 [2] (manual roll)." in text
    assert "Berk takes 2 (7 hp left)." in text
    assert "Aldo releases the grip on Berk (swing complete)." in text


def test_failed_pull_and_own_hex_sentences():
    w = worked_example_world()
    start = w.state["seq"]
    w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [55]])
    text = _sentences(w, start)
    assert "d100 [55] > 54: Berk is not pulled off balance, and the grip is lost." in text
    assert "Aldo loses the grip on Berk (not pulled off balance)." in text
    w2 = worked_example_world()
    g1(w2)
    start = w2.state["seq"]
    w2.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    text = _sentences(w2, start)
    assert "Aldo swings Berk into Aldo's own hex." in text
    assert "Aldo and Berk are now in close combat in the hex [0, 0]." in text


def test_brawl_sentences():
    w = worked_example_world()
    start = w.state["seq"]
    w.send("ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0]], dice=[[9]])
    text = _sentences(w, start)
    assert "Round 1. Cade charges 2 hexes and brawls Berk using all 5 AP." in text
    assert "Weight 250 vs 180 (25/18) counts as one third greater (+1)." in text
    assert (
        "Cade rolls to hit Berk: d20 [9] + 1 (weight ratio one third greater) = 10 vs THAC0 17 − AC 6 = 11: miss."
        in text
    )
    assert "Cade has no AP left this round." in text
    w2 = worked_example_world()
    start = w2.state["seq"]
    w2.send("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[10]])
    text = _sentences(w2, start)
    assert "Weight 170 vs 180 (17/18) counts as even (0)." in text
    assert "Aldo takes Berk to the ground: both go prone." in text
    assert "Aldo follows into [1, 0]." in text
    assert "Aldo and Berk are on the ground together in the hex [1, 0]." in text


def test_other_events_get_the_generic_sentence():
    w = worked_example_world()
    assert ruleset.describe(w.state, w.log[1]) is None  # CombatantJoined
    bad = Event("s", 99, "GripTaken", {"nonsense": 1}, "gm", "c", "", "", "")
    with pytest.raises(
        KeyError
    ):  # a handled event it cannot read is a bug, loud (tests/test_fold_totality.py)
        ruleset.describe(w.state, bad)


def test_exceptional_strength_and_stat_checks():
    completed = ruleset.validate_combatant({}, {"id": "x", "stats": {"strength": "18/50", "weight_lb": 200}})
    assert completed["stats"] == {"strength": 18, "weight_lb": 200, "ap_per_round": 5}
    for stats, field in [
        ({"weight_lb": 0}, "combatant.stats.weight_lb"),
        ({"weight_lb": 170.5}, "combatant.stats.weight_lb"),
        ({"strength": "strong"}, "combatant.stats.strength"),
        ({"ap_per_round": -1}, "combatant.stats.ap_per_round"),
    ]:
        with pytest.raises(BadCommand) as bad:
            ruleset.validate_combatant({}, {"id": "x", "stats": stats})
        assert bad.value.field == field
    with pytest.raises(BadCommand):
        ruleset.validate_combatant({}, {"id": "x", "stats": {}, "facing": 7})


def test_evolve_is_pure():
    w = worked_example_world()
    g1(w)
    rules = w.rules
    frozen = copy.deepcopy(rules)
    for e in w.log:
        ruleset.evolve(rules, e)
    assert rules == frozen


def test_removed_combatant_leaves_no_trace():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    w.send("remove_combatant", combatant="berk")
    assert "berk" not in w.rules["ap_left"] and "berk" not in w.rules["stunned"]
    assert w.rules["shared_hexes"] == {}
    assert w.replayed() == w.state


def test_ruling_can_change_an_ap_budget():
    w = World()
    w.add("aldo", "Aldo", "a", [0, 0], ALDO)
    w.add("berk", "Berk", "b", [1, 0], BERK)
    w.send(
        "ruling",
        text="Aldo is encumbered",
        overrides={"combatants": {"aldo": {"stats": {"ap_per_round": 3}}}},
    )
    w.send("start_turn")
    assert w.rules["ap_left"]["aldo"] == 3
