"""Make a Grab (spec 4.2) and the worked examples G1-G4, G7 (section 5), run as pure decide/evolve."""

from __future__ import annotations

import pytest
from ap_grapple_world import ALDO, BERK, World, g1, grab, of_type, types, worked_example_world

from events.dice import DiceNeeded
from rules.ap_grapple.grab import pull_chance
from rules.interface import BadCommand, RuleError


def test_g1_seed_example_grab_pulls_berk_off_balance():
    w = worked_example_world()
    events = g1(w)
    assert types(events) == [
        "ActionDeclared",
        "APSpent",
        "DieRolled",
        "GripTaken",
        "PullChance",
        "DieRolled",
        "ConditionChanged",
        "PulledOffBalance",
        "ReactionRequested",
    ]
    to_hit, pull = of_type(events, "DieRolled")
    assert (to_hit["faces"], to_hit["total"], to_hit["target"], to_hit["outcome"]) == ([13], 13, 10, "hit")
    assert to_hit["purpose"] == "grab to-hit (d20 + mods >= target)" and to_hit["notation"] == "1d20"
    assert of_type(events, "PullChance") == [
        {"attacker_mass": 212, "defender_weight": 180, "total": 392, "percent": 54}
    ]
    assert (pull["notation"], pull["faces"], pull["target"], pull["outcome"]) == (
        "1d100",
        [37],
        54,
        "success",
    )
    assert pull["modifiers"] == []
    assert of_type(events, "APSpent") == [
        {"combatant": "aldo", "round": 1, "amount": 3, "remaining": 2, "why": "grab"}
    ]
    assert of_type(events, "ConditionChanged") == [{"combatant": "berk", "condition": "stunned", "on": True}]
    pulled = of_type(events, "PulledOffBalance")[0]
    assert pulled["stunned_until_round"] == 2
    assert pulled["destinations"] == {"left": [1, -1], "right": [0, 1], "own_hex": [0, 0], "in_place": [1, 0]}
    request = of_type(events, "ReactionRequested")[0]
    assert request["kind"] == "swing_target" and request["combatant"] == "aldo"
    assert request["options"] == ["left", "right", "own_hex", "in_place"]
    assert request["default"] == "own_hex" and request["allows"] == ["ap-grapple.swing_target"]
    # The projection: Aldo has 2 AP and owes a swing; Berk is stunned through round 2.
    assert w.rules["ap_left"]["aldo"] == 2
    assert w.rules["pending_swings"][0]["attacker"] == "aldo"
    assert w.rules["pending_swings"][0]["reaction"] == request["id"]
    assert w.rules["grips"] == [{"attacker": "aldo", "defender": "berk", "stage": "swing_pending"}]
    assert w.rules["stunned"] == {"berk": {"combatant": "berk", "until_round": 2}}
    assert "stunned" in w.combatant("berk")["conditions"]
    assert w.state["pending"][0]["kind"] == "swing_target"
    assert w.replayed() == w.state


def test_g2_pull_on_the_boundary_succeeds():
    w = worked_example_world()
    events = grab(w, 13, 54)
    assert of_type(events, "DieRolled")[1]["outcome"] == "success"
    assert "PulledOffBalance" in types(events)


def test_g3_failed_pull_loses_the_grip():
    w = worked_example_world()
    events = grab(w, 13, 55)
    assert types(events)[-3:] == ["PullChance", "DieRolled", "GripLost"]
    assert of_type(events, "GripLost") == [
        {"attacker": "aldo", "defender": "berk", "why": "not pulled off balance"}
    ]
    assert "stunned" not in w.combatant("berk")["conditions"]
    assert w.rules["ap_left"]["aldo"] == 2 and w.rules["grips"] == [] and w.rules["pending_swings"] == []
    assert w.state["pending"] == []
    assert w.replayed() == w.state


def test_g4_miss_rolls_no_d100_and_still_costs_3_ap():
    w = worked_example_world()
    events = grab(w, 9)
    assert types(events) == ["ActionDeclared", "APSpent", "DieRolled"]
    assert of_type(events, "DieRolled")[0]["outcome"] == "miss"
    assert w.rules["ap_left"]["aldo"] == 2 and w.rules["grips"] == []


def test_g7_second_grab_names_both_reasons():
    w = worked_example_world()
    g1(w)
    # The engine gate refuses it first (a reaction is pending) ...
    with pytest.raises(RuleError) as gate:
        grab(w, 13, 37)
    assert gate.value.code == "reaction_pending"
    # ... and the ruleset's own refusal names each failed condition.
    from events.dice import Dice
    from rules.ap_grapple import ruleset
    from rules.ap_grapple.commands import MakeAGrab

    with pytest.raises(RuleError) as own:
        ruleset.decide(
            w.state, MakeAGrab(combatant="aldo", target="berk"), Dice(stream="s", command_id="x", supplied=[])
        )
    assert "a grab needs 3 AP and Aldo has 2 left" in own.value.message
    assert "Aldo must first swing the enemy pulled off balance" in own.value.message


def test_a_grab_after_the_swing_is_refused_for_want_of_ap():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    with pytest.raises(RuleError, match="a grab needs 3 AP and Aldo has 2 left"):
        grab(w, 13, 37)


@pytest.mark.parametrize(
    ("attacker_lb", "strength", "defender_lb", "mass", "total", "percent"),
    [
        (170, 14, 180, 212, 392, 54),  # the seed's example: floor(54.08)
        (180, 0, 180, 180, 360, 50),  # no strength, even weights: exactly half
        (60, 3, 360, 69, 429, 16),  # floor(16.08)
        (1000, 18, 40, 1054, 1094, 96),  # floor(96.34)
    ],
)
def test_pull_chance_rounds_down(attacker_lb, strength, defender_lb, mass, total, percent):
    chance = pull_chance(attacker_lb, strength, defender_lb)
    assert (chance.attacker_mass, chance.defender_weight, chance.total, chance.percent) == (
        mass,
        defender_lb,
        total,
        percent,
    )


def test_grab_needs_its_dice():
    w = worked_example_world()
    with pytest.raises(DiceNeeded) as needed:
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk")
    assert needed.value.needed == ["1d20: grab to-hit (d20 + mods >= target)"]
    with pytest.raises(DiceNeeded) as needed:
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13]])
    assert needed.value.needed[-1] == "1d100: pull off balance (d100 <= target)"
    assert w.rules["ap_left"]["aldo"] == 5  # nothing was appended


def test_gm_modifiers_count_in_the_to_hit():
    w = worked_example_world()
    events = w.send(
        "ap-grapple.make_a_grab",
        combatant="aldo",
        target="berk",
        dice=[[8], [90]],
        modifiers=[{"value": 2, "reason": "flank"}],
    )
    to_hit = of_type(events, "DieRolled")[0]
    assert to_hit["modifiers"] == [{"value": 2, "reason": "flank"}]
    assert (to_hit["total"], to_hit["outcome"]) == (10, "hit")


def test_gm_target_option_uses_the_commands_number():
    w = worked_example_world(to_hit="gm_target")
    events = w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[12]], to_hit_target=14)
    assert of_type(events, "DieRolled")[0]["target"] == 14
    assert of_type(events, "DieRolled")[0]["outcome"] == "miss"
    with pytest.raises(BadCommand) as missing:
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[12]])
    assert missing.value.field == "to_hit_target"


def test_to_hit_target_is_refused_without_the_gm_target_option():
    w = worked_example_world()
    with pytest.raises(BadCommand) as bad:
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[12]], to_hit_target=3)
    assert bad.value.field == "to_hit_target"


@pytest.mark.parametrize(
    ("options", "berk_ac", "dice", "outcome"),
    [
        ({}, -10, [[20]], "miss"),  # target 26: a plain 20 misses
        ({"natural_20_hits": True}, -10, [[20], [99]], "hit (natural 20)"),
        ({}, 20, [[1], [99]], "hit"),  # target -4: a plain 1 hits
        ({"natural_1_misses": True}, 20, [[1]], "miss (natural 1)"),
    ],
)
def test_natural_rolls_only_with_their_options(options, berk_ac, dice, outcome):
    w = World(**options)
    w.add("aldo", "Aldo", "a", [0, 0], ALDO)
    w.add("berk", "Berk", "b", [1, 0], {**BERK, "ac": berk_ac})
    w.send("start_turn")
    events = w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=dice)
    assert of_type(events, "DieRolled")[0]["outcome"] == outcome


def test_grab_refusals_name_each_condition():
    w = World()
    w.add("aldo", "Aldo", "a", [0, 0], {"weight_lb": 170, "thac0": 16})
    w.add("berk", "Berk", "b", [3, 0], {"ac": 6})
    w.add("dora", "Dora", "a", [0, 1], ALDO)
    with pytest.raises(RuleError, match="no round has started yet"):
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13]])
    w.send("start_turn")
    with pytest.raises(RuleError) as far:
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13]])
    message = far.value.message
    assert "Berk has no weight_lb stat" in message
    assert "Berk is not in a hex next to Aldo" in message
    assert "Aldo has no strength stat" in message
    with pytest.raises(RuleError, match="Dora is on Aldo's own side, not an enemy"):
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="dora", dice=[[13]])
    with pytest.raises(RuleError, match="cannot wrestle Aldo"):
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="aldo", dice=[[13]])
    with pytest.raises(RuleError, match="there is no combatant 'nobody'"):
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="nobody", dice=[[13]])


def test_grab_needs_thac0_and_ac():
    w = World()
    w.add("aldo", "Aldo", "a", [0, 0], {"weight_lb": 170, "strength": 14})
    w.add("berk", "Berk", "b", [1, 0], {"weight_lb": 180})
    w.send("start_turn")
    with pytest.raises(RuleError) as err:
        w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13]])
    assert "Aldo has no thac0 stat" in err.value.message and "Berk has no ac stat" in err.value.message


def test_a_grab_in_the_same_hex_is_refused():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    w.send("start_turn")
    with pytest.raises(RuleError, match="Berk is in Aldo's own hex"):
        grab(w, 13, 37)


def test_a_stunned_combatant_may_not_grab():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="right")
    with pytest.raises(RuleError, match="Berk is stunned until the end of round 2 and may spend no AP"):
        w.send("ap-grapple.make_a_grab", combatant="berk", target="aldo", dice=[[13]])
