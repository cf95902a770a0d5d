"""Rounds and action points (spec 1, 3, 4.1): budgets, passing, AP running out, stuns ending,
the server's own round start, strict initiative."""

from __future__ import annotations

import pytest
from ap_grapple_world import ALDO, BERK, World, g1, grab, of_type, types, worked_example_world

from events.common import TurnStarted
from events.dice import Dice
from rules.ap_grapple import ruleset
from rules.common.commands import StartTurn
from rules.interface import RuleError


def test_turn_started_gives_every_combatant_its_budget():
    w = World()
    w.add("aldo", "Aldo", "a", [0, 0], {**ALDO, "ap_per_round": 7})
    w.add("berk", "Berk", "b", [1, 0], BERK)  # no ap_per_round: the default 5
    assert w.combatant("berk")["stats"]["ap_per_round"] == 5
    w.send("start_turn")
    assert w.rules["round"] == 1 and w.rules["ap_left"] == {"aldo": 7, "berk": 5}


def test_pass_gives_up_the_rest_of_the_round():
    w = worked_example_world()
    grab(w, 9)
    events = w.send("ap-grapple.pass", combatant="aldo")
    assert types(events) == ["APSpent", "ActionSpent"]
    assert of_type(events, "APSpent")[0] == {
        "combatant": "aldo",
        "round": 1,
        "amount": 2,
        "remaining": 0,
        "why": "passed",
    }
    assert of_type(events, "ActionSpent")[0]["why"] == "passed"
    with pytest.raises(RuleError, match="Aldo has no AP left to give up"):
        w.send("ap-grapple.pass", combatant="aldo")


def test_ap_running_out_ends_the_grabbing():
    w = World()
    w.add("aldo", "Aldo", "a", [0, 0], {**ALDO, "ap_per_round": 6})
    w.add("berk", "Berk", "b", [1, 0], BERK)
    w.add("cade", "Cade", "a", [4, 0], BERK)
    w.send("start_turn")
    grab(w, 9)
    events = grab(w, 9)
    assert types(events) == ["ActionDeclared", "APSpent", "ActionSpent", "DieRolled"]
    assert of_type(events, "ActionSpent")[0] == {"combatant": "aldo", "turn": 1, "why": "all AP spent"}
    with pytest.raises(RuleError, match="a grab needs 3 AP and Aldo has 0 left"):
        grab(w, 9)
    w.send("start_turn")
    assert w.rules["ap_left"]["aldo"] == 6


def test_the_server_starts_the_next_round_when_everyone_is_done():
    w = worked_example_world(with_cade=False)
    grab(w, 9)
    w.send("ap-grapple.pass", combatant="berk")
    events = w.send("ap-grapple.pass", combatant="aldo")
    assert types(events) == ["APSpent", "ActionSpent", "TurnStarted"]
    assert w.state["turn"] == 2 and w.rules["ap_left"] == {"aldo": 5, "berk": 5}
    assert w.replayed() == w.state


def test_a_stunned_combatant_counts_as_passed_and_the_stun_ends_with_its_round():
    w = worked_example_world(with_cade=False)
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    events = w.send("ap-grapple.pass", combatant="aldo")  # Berk is stunned: round 2 starts at once
    assert types(events) == ["APSpent", "ActionSpent", "TurnStarted"]
    assert "stunned" in w.combatant("berk")["conditions"]
    events = w.send("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[3]])  # round 2, a miss
    assert types(events)[-2:] == ["TurnStarted", "ConditionChanged"]
    assert of_type(events, "TurnStarted") == [{"turn": 3}]
    assert of_type(events, "ConditionChanged") == [{"combatant": "berk", "condition": "stunned", "on": False}]
    assert "stunned" not in w.combatant("berk")["conditions"] and w.rules["stunned"] == {}
    assert w.replayed() == w.state


def test_auto_start_round_option_off_keeps_rounds_manual():
    w = worked_example_world(with_cade=False, auto_start_round=False)
    w.send("ap-grapple.pass", combatant="berk")
    events = w.send("ap-grapple.pass", combatant="aldo")
    assert "TurnStarted" not in types(events) and w.state["turn"] == 1


def test_stun_through_next_round_ends_at_the_start_of_the_round_after():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="right")
    assert types(w.send("start_turn")) == ["TurnStarted"]
    with pytest.raises(RuleError, match="Berk is stunned until the end of round 2"):
        w.send("ap-grapple.pass", combatant="berk")
    assert ruleset.legal_actions(w.state, "berk") == []
    events = w.send("start_turn")
    assert types(events) == ["TurnStarted", "ConditionChanged"]
    assert "ap-grapple.pass" in ruleset.legal_actions(w.state, "berk")


def test_stun_for_the_rest_of_the_round_only():
    w = worked_example_world(stun_duration="rest_of_round")
    events = g1(w)
    assert of_type(events, "PulledOffBalance")[0]["stunned_until_round"] == 1
    w.send("ap-grapple.swing_target", combatant="aldo", to="right")
    assert types(w.send("start_turn")) == ["TurnStarted", "ConditionChanged"]


def test_start_turn_is_refused_while_a_swing_is_pending():
    w = worked_example_world()
    g1(w)
    with pytest.raises(RuleError) as gate:
        w.send("start_turn")
    assert gate.value.code == "reaction_pending"
    with pytest.raises(RuleError, match="a round cannot start while a swing is pending"):
        ruleset.on_common(
            w.state, StartTurn(), [TurnStarted(2)], Dice(stream="s", command_id="x", supplied=[])
        )


def test_strict_initiative_lets_only_the_first_with_ap_act():
    w = worked_example_world(strict_initiative=True)
    with pytest.raises(RuleError, match="the GM has not set an initiative order"):
        w.send("ap-grapple.pass", combatant="aldo")
    w.send("set_initiative", order=["berk", "aldo", "cade"])
    with pytest.raises(RuleError, match="strict initiative: it is Berk's turn to act, not Aldo's"):
        grab(w, 13, 37)
    w.send("ap-grapple.pass", combatant="berk")
    grab(w, 9)  # now Aldo is first with AP left
    with pytest.raises(RuleError, match="it is Aldo's turn to act, not Cade's"):
        w.send("ap-grapple.pass", combatant="cade")


def test_a_player_may_only_act_for_their_own_combatant():
    from rules.interface import Forbidden

    w = worked_example_world()
    w.send(
        "add_combatant", combatant={"id": "x", "name": "X", "side": "c", "position": [9, 9], "stats": BERK}
    )
    from events.common import SeatCreated
    from rules.pipeline import to_new_event

    w._append([to_new_event(SeatCreated("s1", "Alice", ["aldo"]))], "gm", "seat")
    with pytest.raises(Forbidden):
        w.send("ap-grapple.pass", combatant="berk", actor="seat:s1")
    assert types(w.send("ap-grapple.pass", combatant="aldo", actor="seat:s1")) == ["APSpent", "ActionSpent"]


def test_legal_actions_follow_ap_and_reach():
    w = worked_example_world()
    assert ruleset.legal_actions(w.state, "aldo") == [
        "ap-grapple.make_a_grab",
        "ap-grapple.brawl",
        "ap-grapple.move",
        "ap-grapple.pass",
    ]
    assert ruleset.legal_actions(w.state, "cade") == [
        "ap-grapple.brawl",
        "ap-grapple.move",
        "ap-grapple.pass",
    ]
    grab(w, 9)
    assert ruleset.legal_actions(w.state, "aldo") == ["ap-grapple.move", "ap-grapple.pass"]
    assert ruleset.legal_actions(w.state, "nobody") == []
