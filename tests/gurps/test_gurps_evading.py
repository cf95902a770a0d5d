"""Evading (spec section 4.2) and V1: evade from behind a lying foe."""

from __future__ import annotations

import pytest

from rules.gurps.commands import ChooseManeuver, Evade
from rules.gurps.tables import EVADE_APPROACH_MODIFIERS, EVADE_POSTURE_MODIFIERS
from rules.interface import RuleError
from tests.gurps.gurps_world import World, fig, of_type, one, types

# Bors at the origin, facing direction 0: his back hex is [-1, 0].
BEHIND_PATH = [[-1, 0], [0, 0], [1, 0]]


def v1_world(**options) -> World:
    w = World(**options)
    w.add(fig("ana", "a", [-2, 0], dx=12, move=6))
    w.add(fig("bors", "b", [0, 0], dx=11, posture="prone"))
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver="Move"))
    return w


def test_v1_ana_evades_a_lying_bors_from_behind():
    w = v1_world()
    evs = w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    assert types(evs)[-1] == "ReactionRequested"
    req = evs[-1]
    assert req["kind"] == "evade_stop" and req["options"] == ["stop", "let_pass"] and req["default"] == "stop"
    assert one(evs, "EvadeChallenged")["approach"] == "back"
    assert one(evs, "CloseCombatJoined")["combatants"] == ["bors", "ana"]
    assert w.c("ana")["position"] == [0, 0]
    out = w.respond("stop", dice=[[4, 5, 3], [2, 3, 4]])
    ana_roll, bors_roll = of_type(out, "DieRolled")
    assert (ana_roll["target"], ana_roll["total"], ana_roll["outcome"]) == (22, 12, "success by 10")
    assert [m["reason"] for m in ana_roll["modifiers"]] == ["foe lying down", "from behind"]
    assert (bors_roll["target"], bors_roll["outcome"]) == (11, "success by 2")
    qc = one(out, "QuickContestResolved")
    assert qc["kind"] == "evade" and qc["winner"] == "ana" and qc["margin_of_victory"] == 8
    assert [s["margin"] for s in qc["sides"]] == [10, 2]
    moved = [e for e in of_type(out, "Moved") if e["reason"] == "evade"]
    assert moved and moved[0]["to"] == [1, 0]
    assert one(out, "CloseCombatLeft")["how"] == "evade"
    assert w.c("ana")["position"] == [1, 0] and w.c("ana")["group"] is None
    assert w.rules["hexes"] == {}
    assert w.rules["fighters"]["ana"]["movement_left"] == 3
    assert w.replayed() == w.state


def test_v1a_a_17_fails_and_ana_is_stopped_in_bors_hex_facing_him():
    w = v1_world()
    w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    out = w.respond("stop", dice=[[6, 6, 5], [2, 3, 4]])
    ana_roll = of_type(out, "DieRolled")[0]
    assert ana_roll["outcome"] == "failure by 1"
    qc = one(out, "QuickContestResolved")
    assert qc["winner"] == "bors" and qc["margin_of_victory"] == 3
    assert one(out, "EvadeStopped") == {"type": "EvadeStopped", "mover": "ana", "foe": "bors", "at": [0, 0]}
    assert one(out, "FacingChanged")["facing"] == 0
    assert w.c("ana")["position"] == [0, 0] and w.c("ana")["group"] == w.c("bors")["group"] is not None
    assert w.rules["fighters"]["ana"]["movement_left"] == 0
    assert w.rules["hexes"]["0,0"]["occupants"]["ana"]["entry_edge"] == 3
    assert w.rules["hexes"]["0,0"]["occupants"]["bors"]["entry_edge"] == 0
    assert w.replayed() == w.state


def test_v1a_with_failed_evade_stop_adjacent_she_goes_back():
    w = v1_world(failed_evade_stop="adjacent")
    w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    out = w.respond("stop", dice=[[6, 6, 5], [2, 3, 4]])
    assert one(out, "CloseCombatLeft")["how"] == "stopped"
    assert w.c("ana")["position"] == [-1, 0] and w.c("ana")["group"] is None
    assert w.replayed() == w.state


def test_v1b_cato_ties_a_standing_bors_from_his_left_and_is_stopped():
    w = World()
    w.add(fig("cato", "a", [0, -2], dx=10, move=5))
    w.add(fig("bors", "b", [0, 0], dx=11))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cato", maneuver="move"))
    evs = w.run(Evade(combatant="cato", target="bors", path=[[0, -1], [0, 0], [0, 1]]))
    assert one(evs, "EvadeChallenged")["approach"] == "left"
    out = w.respond("stop", dice=[[3, 3, 3], [4, 4, 5]])
    cato = of_type(out, "DieRolled")[0]
    assert cato["target"] == 7 and cato["outcome"] == "failure by 2"
    assert [(m["value"], m["reason"]) for m in cato["modifiers"]] == [
        (-5, "foe standing"),
        (2, "from the left side"),
    ]
    qc = one(out, "QuickContestResolved")
    assert qc["winner"] is None and qc["margin_of_victory"] == 0
    assert one(out, "EvadeStopped")["mover"] == "cato"
    assert w.c("cato")["position"] == [0, 0]
    assert w.replayed() == w.state


def test_v1c_bors_lets_ana_pass_without_a_roll():
    w = v1_world()
    w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    out = w.respond("let_pass")
    assert "DieRolled" not in types(out)
    assert one(out, "EvadeAnswered")["stop"] is False
    assert w.c("ana")["position"] == [1, 0]
    assert w.replayed() == w.state


@pytest.mark.parametrize(
    "posture,expected", [("standing", -5), ("kneeling", -2), ("prone", 5), ("on_back", 5), ("on_stomach", 5)]
)
def test_each_posture_modifier(posture, expected):
    w = World()
    w.add(fig("ana", "a", [-2, 0], dx=10, move=6))
    w.add(fig("bors", "b", [0, 0], facing=3, posture=posture))  # facing Ana: she comes from the front
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver="move"))
    w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    out = w.respond("stop", dice=[[3, 3, 3], [3, 3, 3]])
    assert of_type(out, "DieRolled")[0]["target"] == 10 + expected


@pytest.mark.parametrize(
    "facing,arc,expected",
    [(3, "front", 0), (2, "front", 0), (4, "front", 0), (1, "left", 2), (5, "right", 2), (0, "back", 5)],
)
def test_each_approach_modifier(facing, arc, expected):
    # Ana comes in through Bors's edge 3 (from [-1, 0]); his facing decides the arc.
    w = World()
    w.add(fig("ana", "a", [-2, 0], dx=10, move=6))
    w.add(fig("bors", "b", [0, 0], facing=facing, posture="kneeling"))
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver="move"))
    evs = w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    assert one(evs, "EvadeChallenged")["approach"] == arc
    out = w.respond("stop", dice=[[3, 3, 3], [3, 3, 3]])
    assert of_type(out, "DieRolled")[0]["target"] == 10 - 2 + expected


def test_the_tables_are_literal():
    assert EVADE_POSTURE_MODIFIERS == {
        "standing": (-5, "foe standing"),
        "kneeling": (-2, "foe kneeling"),
        "lying": (5, "foe lying down"),
    }
    assert {k: v for k, (v, _) in EVADE_APPROACH_MODIFIERS.items()} == {
        "front": 0,
        "left": 2,
        "right": 2,
        "back": 5,
    }


def test_flight_evades_automatically_without_asking():
    w = World()
    w.add(fig("ana", "a", [-2, 0], dx=10, move=6, traits=["flight"]))
    w.add(fig("bors", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver="move"))
    evs = w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH, over=True))
    assert "ReactionRequested" not in types(evs) and "DieRolled" not in types(evs)
    assert one(evs, "Moved")["reason"] == "evade" and w.c("ana")["position"] == [1, 0]


def test_over_without_flight_or_super_jump_is_refused():
    w = v1_world()
    with pytest.raises(RuleError, match="neither Flight nor Super Jump"):
        w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH, over=True))


def test_assume_foes_stop_rolls_at_once_for_gm_foes():
    w = v1_world(assume_foes_stop=True)
    evs = w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH), dice=[[4, 5, 3], [2, 3, 4]])
    assert "ReactionRequested" not in types(evs)
    assert one(evs, "QuickContestResolved")["winner"] == "ana"
    assert w.c("ana")["position"] == [1, 0]
    assert w.replayed() == w.state


def test_standing_order_let_pass_answers_at_once():
    w = World()
    w.add(fig("ana", "a", [-2, 0], dx=12, move=6))
    w.add(fig("bors", "b", [0, 0], dx=11, posture="prone", reactions={"evade_stop": "let_pass"}))
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver="move"))
    evs = w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
    assert "ReactionAnswered" in types(evs) and w.c("ana")["position"] == [1, 0]


@pytest.mark.parametrize(
    "maneuver,path,message",
    [
        ("attack", BEHIND_PATH, "never carries a figure past"),
        ("move", [[-1, 0], [0, 0]], "ends in Bors's hex"),
        ("move", [[-1, 0], [-1, 1]], "does not go through"),
        ("move", [[-1, 0], [0, 0], [-1, 1]], "own side"),
        ("move", [[-1, 0], [1, 0]], "not connected"),
    ],
)
def test_evade_refusals(maneuver, path, message):
    w = World()
    w.add(fig("ana", "a", [-2, 0], dx=12, move=6))
    w.add(fig("bors", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver=maneuver))
    with pytest.raises(RuleError, match=message):
        w.run(Evade(combatant="ana", target="bors", path=path))


def test_evade_too_far_is_refused():
    w = World()
    w.add(fig("ana", "a", [-2, 0], dx=12, move=2))
    w.add(fig("bors", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="ana", maneuver="move"))
    with pytest.raises(RuleError, match="needs 3 movement point"):
        w.run(Evade(combatant="ana", target="bors", path=BEHIND_PATH))
