"""The swing after a pull (spec 4.3): G5, G6, each destination, barriers, refusals, respond and orders."""

from __future__ import annotations

import pytest
from ap_grapple_world import (
    ALDO,
    BERK,
    LEFT_HEX,
    RIGHT_HEX,
    World,
    g1,
    of_type,
    types,
    worked_example_world,
)

from rules.interface import BadCommand, RuleError


def test_g5_swing_into_own_hex_joins_close_combat():
    w = worked_example_world()
    g1(w)
    events = w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    assert types(events) == [
        "ReactionAnswered",
        "ActionDeclared",
        "Moved",
        "CloseCombatJoined",
        "GripReleased",
    ]
    assert of_type(events, "Moved") == [
        {"combatant": "berk", "to": [0, 0], "reason": "pulled", "facing": None, "from": [1, 0]}
    ]
    joined = of_type(events, "CloseCombatJoined")[0]
    assert (joined["combatants"], joined["at"], joined["standing"]) == (["aldo", "berk"], [0, 0], True)
    assert of_type(events, "GripReleased") == [
        {"attacker": "aldo", "defender": "berk", "why": "swing complete"}
    ]
    assert of_type(events, "ActionDeclared")[0]["params"]["to"] == "own_hex"
    assert w.state["pending"] == [] and w.rules["pending_swings"] == [] and w.rules["grips"] == []
    assert w.rules["shared_hexes"] == {"0,0": ["aldo", "berk"]}
    assert w.combatant("berk")["position"] == [0, 0]
    assert w.rules["pulled"] == [
        {"target": "berk", "by": "aldo", "from": [1, 0], "to": [0, 0], "kind": "own_hex", "barrier": False}
    ]
    assert w.rules["ap_left"]["aldo"] == 2  # the swing costs no AP
    assert "stunned" in w.combatant("berk")["conditions"]  # the stun runs on
    assert w.replayed() == w.state


def test_g6_swing_right_against_a_wall():
    w = worked_example_world()
    g1(w)
    events = w.send("ap-grapple.swing_target", combatant="aldo", to="right", barrier=True, dice=[[2]])
    assert types(events) == [
        "ReactionAnswered",
        "ActionDeclared",
        "Moved",
        "DieRolled",
        "Wounded",
        "GripReleased",
    ]
    roll = of_type(events, "DieRolled")[0]
    assert (roll["purpose"], roll["notation"], roll["faces"]) == ("barrier damage", "1d3", [2])
    assert of_type(events, "Wounded") == [
        {"combatant": "berk", "amount": 2, "source": "swung against barrier"}
    ]
    assert w.combatant("berk")["position"] == RIGHT_HEX
    assert w.combatant("berk")["wounds"] == 2  # 9 hp to 7
    assert w.replayed() == w.state


@pytest.mark.parametrize(("to", "hex_"), [("left", LEFT_HEX), ("right", RIGHT_HEX), ("own_hex", [0, 0])])
def test_swing_into_each_hex(to, hex_):
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to=to)
    assert w.combatant("berk")["position"] == hex_
    assert w.rules["pulled"][0]["kind"] == to and w.rules["pulled"][0]["to"] == hex_


def test_swing_in_place_against_a_barrier_stays_put():
    w = worked_example_world()
    g1(w)
    events = w.send("ap-grapple.swing_target", combatant="aldo", to="in_place", barrier=True, dice=[[3]])
    assert "Moved" not in types(events)
    assert w.combatant("berk")["position"] == [1, 0] and w.combatant("berk")["wounds"] == 3


def test_in_place_needs_a_barrier_and_own_hex_takes_none():
    w = worked_example_world()
    g1(w)
    with pytest.raises(RuleError, match="in_place is only for a swing against a barrier"):
        w.send("ap-grapple.swing_target", combatant="aldo", to="in_place")
    with pytest.raises(RuleError, match="own hex cannot end against a barrier"):
        w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex", barrier=True, dice=[[1]])
    with pytest.raises(RuleError, match="'behind' is not a destination"):
        w.send("ap-grapple.swing_target", combatant="aldo", to="behind")


def test_an_occupied_side_hex_is_no_destination():
    w = worked_example_world()
    w.add("eve", "Eve", "b", LEFT_HEX, BERK)
    events = g1(w)
    assert "left" not in of_type(events, "PulledOffBalance")[0]["destinations"]
    assert "left" not in of_type(events, "ReactionRequested")[0]["options"]
    with pytest.raises(RuleError, match="the left hex is occupied"):
        w.send("ap-grapple.swing_target", combatant="aldo", to="left", barrier=True, dice=[[1]])


def test_any_adjacent_option_adds_the_other_open_hexes():
    w = worked_example_world(swing_destinations="any_adjacent_to_attacker")
    events = g1(w)
    destinations = of_type(events, "PulledOffBalance")[0]["destinations"]
    assert destinations == {
        "left": [1, -1],
        "right": [0, 1],
        "own_hex": [0, 0],
        "in_place": [1, 0],
        "dir_2": [0, -1],
        "dir_3": [-1, 0],
        "dir_4": [-1, 1],
    }
    w.send("ap-grapple.swing_target", combatant="aldo", to="dir_3")
    assert w.combatant("berk")["position"] == [-1, 0]


def test_swing_by_respond_with_a_barrier_param():
    w = worked_example_world()
    reaction = of_type(g1(w), "ReactionRequested")[0]["id"]
    events = w.send("respond", reaction=reaction, choice="left", barrier=True, dice=[[1]])
    assert types(events) == [
        "ReactionAnswered",
        "ActionDeclared",
        "Moved",
        "DieRolled",
        "Wounded",
        "GripReleased",
    ]
    assert w.combatant("berk")["position"] == LEFT_HEX and w.combatant("berk")["wounds"] == 1
    assert w.replayed() == w.state


def test_respond_default_swings_into_own_hex():
    w = worked_example_world()
    reaction = of_type(g1(w), "ReactionRequested")[0]["id"]
    w.send("respond", reaction=reaction, choice="default")
    assert w.combatant("berk")["position"] == [0, 0]


def test_respond_with_an_unknown_field_is_a_bad_command():
    w = worked_example_world()
    reaction = of_type(g1(w), "ReactionRequested")[0]["id"]
    with pytest.raises(BadCommand) as bad:
        w.send("respond", reaction=reaction, choice="left", wall=True)
    assert bad.value.field == "wall"
    with pytest.raises(BadCommand, match="barrier must be true or false"):
        w.send("respond", reaction=reaction, choice="left", barrier="yes")


def _world_with_standing_order(choice: str) -> World:
    w = World()
    w.add("aldo", "Aldo", "a", [0, 0], ALDO, reactions={"swing_target": choice})
    w.add("berk", "Berk", "b", [1, 0], BERK)
    w.add("cade", "Cade", "a", [4, 0], BERK)
    w.send("start_turn")
    return w


def test_standing_order_swings_inside_the_grab():
    w = _world_with_standing_order("right")
    events = g1(w)
    assert types(events)[-6:] == [
        "PulledOffBalance",
        "ReactionRequested",
        "ReactionAnswered",
        "ActionDeclared",
        "Moved",
        "GripReleased",
    ]
    assert w.combatant("berk")["position"] == RIGHT_HEX and w.state["pending"] == []


def test_a_standing_order_for_in_place_leaves_the_swing_to_the_player():
    """A standing order carries no barrier claim, so `in_place` is refused: the question stays open."""
    w = _world_with_standing_order("in_place")
    events = g1(w)
    assert types(events)[-2:] == ["PulledOffBalance", "ReactionRequested"]
    assert w.combatant("berk")["position"] == [1, 0]
    assert [p["kind"] for p in w.state["pending"]] == ["swing_target"]
    events = w.send("ap-grapple.swing_target", combatant="aldo", to="in_place", barrier=True, dice=[[1]])
    assert types(events)[0] == "ReactionAnswered" and w.state["pending"] == []
    assert w.combatant("berk")["wounds"] == 1
    assert w.replayed() == w.state


def test_swing_target_answers_in_the_senders_name():
    w = worked_example_world()
    g1(w)
    events = w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex", actor="gm")
    assert of_type(events, "ReactionAnswered")[0]["by"] == "gm"


def test_swing_target_without_a_pending_swing_is_refused():
    w = worked_example_world()
    with pytest.raises(RuleError, match="Aldo has no swing to make"):
        w.send("ap-grapple.swing_target", combatant="aldo", to="left")


def test_the_grabber_may_only_swing_while_it_is_owed():
    w = worked_example_world()
    g1(w)
    from events.dice import Dice
    from rules.ap_grapple import ruleset
    from rules.ap_grapple.commands import Brawl, Pass

    dice = Dice(stream="s", command_id="x", supplied=[])
    for cmd in (Pass(combatant="aldo"), Brawl(combatant="aldo", target="berk")):
        with pytest.raises(RuleError, match="Aldo must first swing"):
            ruleset.decide(w.state, cmd, dice)
    assert ruleset.legal_actions(w.state, "aldo") == ["ap-grapple.swing_target"]
    assert ruleset.legal_actions(w.state, "berk") == []


def test_a_swing_whose_defender_is_gone_is_cancelled_on_respond():
    w = worked_example_world()
    reaction = of_type(g1(w), "ReactionRequested")[0]["id"]
    w.send("ruling", text="Berk teleports away", overrides={"combatants": {"berk": {"position": [5, 5]}}})
    events = w.send("respond", reaction=reaction, choice="own_hex")
    assert types(events) == ["ReactionAnswered", "ReactionCancelled", "GripLost"]
    assert w.rules["pending_swings"] == [] and w.rules["grips"] == []
    assert w.replayed() == w.state
