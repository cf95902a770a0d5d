"""Entering and leaving a foe's hex (spec sections 4.1, 4.3) and the turn structure."""

from __future__ import annotations

import pytest

from events.common import ActionSpent
from rules.common import commands as common
from rules.gurps.commands import ChooseManeuver, Evade, Grapple, GurpsMove
from rules.hexes import neighbour
from rules.interface import RuleError
from tests.gurps.gurps_world import HAND, World, fig, of_type, one, types


def entered(maneuver: str = "move") -> World:
    """Cai walks into Dun's hex at the origin from [-1, 0] (entry edge 3) on turn 1."""
    w = World()
    w.add(fig("cai", "a", [-2, 0], dx=12, move=5, weapons=[HAND]))
    w.add(fig("dun", "b", [0, 0], facing=3, dx=11, weapons=[HAND]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver=maneuver))
    w.run(GurpsMove(combatant="cai", path=[[-1, 0], [0, 0]]))
    return w


def test_entering_takes_the_near_half_and_stops_facing_the_foe():
    w = World()
    w.add(fig("cai", "a", [-2, 0], move=5))
    w.add(fig("dun", "b", [0, 0], facing=3))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    evs = w.run(GurpsMove(combatant="cai", path=[[-1, 0], [0, 0], [1, 0]][:2], facing=2))
    assert types(evs) == [
        "Moved",
        "Moved",
        "CloseCombatJoined",
        "HalfHexTaken",
        "HalfHexTaken",
        "FacingChanged",
        "GurpsMovementUsed",
    ]
    halves = of_type(evs, "HalfHexTaken")
    assert (halves[0]["combatant"], halves[0]["entry_edge"]) == ("dun", 0)
    assert (halves[1]["combatant"], halves[1]["entry_edge"], halves[1]["moved_in"]) == ("cai", 3, True)
    assert one(evs, "FacingChanged")["facing"] == 0
    mu = one(evs, "GurpsMovementUsed")
    assert mu["left"] == 0 and mu["stopped"] is True
    joined = one(evs, "CloseCombatJoined")
    assert joined["at"] == [0, 0] and joined["standing"] is True
    assert w.state["groups"][joined["group"]]["combatants"] == ["dun", "cai"]
    assert w.rules["fighters"]["cai"]["entered_this_maneuver"] is True
    assert w.replayed() == w.state


def test_a_step_into_the_foe_hex_stops_there_too():
    w2 = World()
    w2.add(fig("cai", "a", [-1, 0]))
    w2.add(fig("dun", "b", [0, 0]))
    w2.turn(1)
    w2.run(ChooseManeuver(combatant="cai", maneuver="attack"))
    w2.run(GurpsMove(combatant="cai", path=[[0, 0]]))
    assert w2.c("cai")["position"] == [0, 0] and w2.c("cai")["facing"] == 0


def test_cannot_move_through_a_foe_without_evading():
    w = World()
    w.add(fig("cai", "a", [-1, 0]))
    w.add(fig("dun", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    with pytest.raises(RuleError, match="without evading"):
        w.run(GurpsMove(combatant="cai", path=[[0, 0], [1, 0]]))


def test_the_mover_loses_the_rest_of_his_movement():
    w = entered()
    with pytest.raises(RuleError, match="has 0 left"):
        w.run(GurpsMove(combatant="cai", path=[[-1, 0]]))


def next_turn_in_the_hex(maneuver: str = "move") -> World:
    w = entered()
    w.turn(2)
    w.run(ChooseManeuver(combatant="cai", maneuver=maneuver))
    return w


@pytest.mark.parametrize("direction", [2, 3, 4])
def test_leaving_through_each_hex_on_his_side(direction):
    w = next_turn_in_the_hex()
    to = list(neighbour([0, 0], direction))
    evs = w.run(GurpsMove(combatant="cai", path=[to]))
    moved = one(evs, "Moved")
    assert moved["reason"] == "disengage" and moved["to"] == to
    assert one(evs, "CloseCombatLeft")["how"] == "move"
    assert w.c("cai")["group"] is None and w.rules["hexes"] == {}
    assert w.rules["fighters"]["cai"]["cc_turns_completed"] == 0
    assert w.replayed() == w.state


@pytest.mark.parametrize("direction", [5, 0, 1])
def test_leaving_through_the_foe_side_needs_an_evade(direction):
    w = next_turn_in_the_hex()
    with pytest.raises(RuleError, match="must evade"):
        w.run(GurpsMove(combatant="cai", path=[list(neighbour([0, 0], direction))]))


def test_leaving_forward_by_evading_uses_his_own_entry_edge():
    w = next_turn_in_the_hex()
    evs = w.run(Evade(combatant="cai", target="dun", path=[[1, 0], [2, 0]]))
    assert one(evs, "EvadeChallenged")["approach"] == "front"  # Dun faces edge 3, Cai's side
    out = w.respond("stop", dice=[[3, 3, 3], [6, 6, 6]])
    assert one(out, "QuickContestResolved")["winner"] == "cai"
    assert w.c("cai")["position"] == [2, 0]
    assert w.replayed() == w.state


def test_a_step_out_is_a_step_and_only_to_his_side():
    w = next_turn_in_the_hex("attack")
    # Under Attack an evade is refused ("at most a step"): the refusal says evading takes movement (issue 29 item 5).
    with pytest.raises(RuleError, match="is an evade .gurps.evade., which takes a maneuver with movement"):
        w.run(GurpsMove(combatant="cai", path=[[1, 0]]))
    evs = w.run(GurpsMove(combatant="cai", path=[[-1, 0]]))
    assert one(evs, "CloseCombatLeft")["how"] == "step"


def test_no_leaving_while_grappled():
    w = entered("move")
    w.run(ChooseManeuver(combatant="dun", maneuver="attack"))
    w.run(Grapple(combatant="dun", target="cai"), dice=[[3, 3, 3]])
    w.respond("dodge", dice=[[6, 6, 6]])
    assert w.rules["grapples"] == [{"grappler": "dun", "grappled": "cai"}]
    w.turn(2)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    with pytest.raises(RuleError, match="break free first"):
        w.run(GurpsMove(combatant="cai", path=[[-1, 0]]))
    with pytest.raises(RuleError, match="while being grappled"):
        w.run(Evade(combatant="cai", target="dun", path=[[1, 0], [2, 0]]))


def test_who_did_not_begin_the_turn_in_the_hex_cannot_leave_it():
    w = World()
    w.add(fig("cai", "a", [-1, 0], move=5))
    w.add(fig("dun", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    w.run(GurpsMove(combatant="cai", path=[[0, 0]]))
    # Only the GM's ruling could give him movement back; the rule still holds.
    assert w.rules["fighters"]["cai"]["began_in_hex"] is None


def test_turn_structure_action_spent_and_shield_timing():
    w = entered()
    evs = w.run(ChooseManeuver(combatant="dun", maneuver="wait"))
    assert evs[0] == {"type": "ActionSpent", "combatant": "cai", "turn": 1, "why": "turn over"}
    assert w.rules["fighters"]["cai"]["cc_turns_completed"] == 1
    evs = w.turn(2)
    assert types(evs) == ["ActionSpent", "TurnStarted"]
    assert w.rules["fighters"]["dun"]["cc_turns_completed"] == 1


def test_choose_maneuver_refusals():
    w = World()
    w.add(fig("cai", "a", [-1, 0]))
    with pytest.raises(RuleError, match="no turn has started"):
        w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    w.turn(1)
    with pytest.raises(RuleError, match="is not a maneuver"):
        w.run(ChooseManeuver(combatant="cai", maneuver="dance"))
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    with pytest.raises(RuleError, match="already chosen"):
        w.run(ChooseManeuver(combatant="cai", maneuver="attack"))


def test_commands_need_his_own_turn():
    w = World()
    w.add(fig("cai", "a", [-1, 0]))
    w.turn(1)
    with pytest.raises(RuleError, match="not Cai's own turn"):
        w.run(GurpsMove(combatant="cai", path=[[0, 0]]))


def test_already_acted_this_second():
    w = World()
    w.add(fig("cai", "a", [-1, 0]))
    w.add(fig("dun", "b", [3, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    w.run(ChooseManeuver(combatant="dun", maneuver="move"))
    with pytest.raises(RuleError, match="already had a turn"):
        w.run(ChooseManeuver(combatant="cai", maneuver="move"))


def test_gm_position_correction_takes_him_out_of_close_combat():
    w = entered()
    evs = w.run(common.Move(combatant="cai", to=[-3, 0]))
    assert one(evs, "CloseCombatLeft")["how"] == "moved"
    assert w.rules["hexes"] == {}
    assert w.replayed() == w.state


def test_plain_move_and_movement_budget():
    w = World()
    w.add(fig("cai", "a", [0, 0], move=3))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    evs = w.run(GurpsMove(combatant="cai", path=[[1, 0], [2, 0]], extra_cost=1, facing=1))
    assert one(evs, "GurpsMovementUsed")["left"] == 0 and w.c("cai")["facing"] == 1
    with pytest.raises(RuleError, match="needs 1 movement point"):
        w.run(GurpsMove(combatant="cai", path=[[3, 0]]))
    assert ActionSpent  # the import documents the event the turn ends with
