"""Brawl (spec 4.4): the weight-ratio table, B1-B3, the charge path and its refusals."""

from __future__ import annotations

import pytest
from ap_grapple_world import ALDO, BERK, World, g1, of_type, types, worked_example_world

from rules.ap_grapple.tables import WEIGHT_RATIO_TABLE, ratio_row, ratio_text
from rules.interface import BadCommand, RuleError


@pytest.mark.parametrize(
    ("attacker_lb", "defender_lb", "row", "modifier"),
    [
        # Spec section 5, "Brawl modifiers, using the toward even rule".
        (360, 180, "twice as much", 3),
        (60, 180, "one third", -9),
        (170, 180, "even", 0),
        (250, 180, "one third greater", 1),
        (100, 180, "two thirds", -2),
        (40, 200, "one quarter", -12),
        (900, 180, "four times as much", 9),
    ],
)
def test_spec_ratio_examples(attacker_lb, defender_lb, row, modifier):
    found = ratio_row(attacker_lb, defender_lb)
    assert (found.row, found.modifier) == (row, modifier)


@pytest.mark.parametrize("row", WEIGHT_RATIO_TABLE, ids=lambda r: r.row)
def test_every_row_boundary_is_exact_under_both_rules(row):
    defender = 360 * row.den
    attacker = 360 * row.num
    for rule in ("toward_even", "lower_row"):
        assert ratio_row(attacker, defender, rule) == row


def test_between_rows_toward_even_versus_lower_row():
    # 0.556 lies between one half and two thirds: toward even takes two thirds, lower row one half.
    assert ratio_row(100, 180, "toward_even").row == "two thirds"
    assert ratio_row(100, 180, "lower_row").row == "one half"
    # Just under even: -1 only once three quarters is fully reached from above.
    assert ratio_row(359, 360, "toward_even").row == "even"
    assert ratio_row(359, 360, "lower_row").row == "three quarters"
    # Below the table both give the first row; above it the last row.
    assert ratio_row(1, 360, "lower_row").row == "one quarter"
    assert ratio_row(1, 360, "toward_even").row == "one quarter"
    assert ratio_row(5000, 360, "toward_even").row == "four times as much"


def test_ratio_text_is_reduced():
    assert ratio_text(170, 180) == "17/18" and ratio_text(360, 180) == "2/1"


def _brawl_world(attacker_lb: int, defender_lb: int, **options) -> World:
    w = World(**options)
    w.add("aldo", "Aldo", "a", [0, 0], {**ALDO, "weight_lb": attacker_lb})
    w.add("berk", "Berk", "b", [1, 0], {**BERK, "weight_lb": defender_lb})
    w.add("cade", "Cade", "a", [5, 5], BERK)
    w.send("start_turn")
    return w


@pytest.mark.parametrize("row", WEIGHT_RATIO_TABLE, ids=lambda r: r.row)
def test_a_brawl_at_each_row_boundary_applies_the_modifier(row):
    w = _brawl_world(360 * row.num, 360 * row.den)
    # Target 10 (THAC0 16 - AC 6): the face that exactly reaches it with this row's modifier.
    face = min(20, max(1, 10 - row.modifier))
    events = w.send("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[face]])
    ratio = of_type(events, "WeightRatio")[0]
    assert (ratio["row"], ratio["modifier"]) == (row.row, row.modifier)
    roll = of_type(events, "DieRolled")[0]
    assert roll["modifiers"][0] == {"value": row.modifier, "reason": f"weight ratio {row.row}"}
    assert roll["total"] == face + row.modifier
    assert roll["outcome"] == ("hit" if face + row.modifier >= 10 else "miss")


def test_b1_brawl_in_own_hex_after_g5():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    w.send("start_turn")
    assert w.rules["ap_left"]["aldo"] == 5 and w.state["turn"] == 2
    events = w.send("ap-grapple.brawl", combatant="aldo", target="berk", path=[], dice=[[10]])
    assert types(events) == [
        "ActionDeclared",
        "APSpent",
        "ActionSpent",
        "WeightRatio",
        "DieRolled",
        "BrawlTakedown",
        "PostureChanged",
        "PostureChanged",
        "CloseCombatJoined",
    ]
    assert of_type(events, "APSpent")[0]["amount"] == 5 and of_type(events, "APSpent")[0]["remaining"] == 0
    assert of_type(events, "ActionSpent")[0]["why"] == "brawl uses the full round"
    assert of_type(events, "WeightRatio") == [
        {"attacker_lb": 170, "defender_lb": 180, "ratio": "17/18", "row": "even", "modifier": 0}
    ]
    roll = of_type(events, "DieRolled")[0]
    assert (roll["purpose"], roll["total"], roll["target"], roll["outcome"]) == (
        "brawl to-hit (d20 + mods >= target)",
        10,
        10,
        "hit",
    )
    joined = of_type(events, "CloseCombatJoined")[0]
    assert (joined["at"], joined["standing"]) == ([0, 0], False)
    assert w.combatant("aldo")["posture"] == "prone" and w.combatant("berk")["posture"] == "prone"
    assert w.state["groups"][joined["group"]]["standing"] is False
    assert w.replayed() == w.state


def test_b2_cade_charges_two_hexes_and_misses():
    w = worked_example_world()
    events = w.send("ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0]], dice=[[9]])
    assert types(events) == [
        "ActionDeclared",
        "Moved",
        "Moved",
        "APSpent",
        "ActionSpent",
        "WeightRatio",
        "DieRolled",
    ]
    assert [m["reason"] for m in of_type(events, "Moved")] == ["charge", "charge"]
    assert of_type(events, "WeightRatio")[0]["row"] == "one third greater"
    roll = of_type(events, "DieRolled")[0]
    assert (roll["total"], roll["target"], roll["outcome"]) == (10, 11, "miss")
    assert w.combatant("cade")["position"] == [2, 0] and w.rules["ap_left"]["cade"] == 0
    assert w.replayed() == w.state


def test_a_charge_that_hits_follows_up_into_the_defenders_hex():
    w = worked_example_world()
    events = w.send("ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0]], dice=[[15]])
    assert types(events)[-5:] == [
        "BrawlTakedown",
        "Moved",
        "PostureChanged",
        "PostureChanged",
        "CloseCombatJoined",
    ]
    assert of_type(events, "Moved")[-1]["reason"] == "follow_up"
    assert w.combatant("cade")["position"] == [1, 0]
    assert w.rules["shared_hexes"] == {"1,0": ["cade", "berk"]}


def test_b3_brawl_after_a_grab_in_the_same_round_is_refused():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="right")
    with pytest.raises(RuleError, match="a brawl takes the whole round and Aldo has already spent 3 of 5 AP"):
        w.send("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[10]])


def test_a_stunned_pulled_defender_can_be_brawled_next_round():
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="left")
    w.send("start_turn")
    assert "stunned" in w.combatant("berk")["conditions"]
    events = w.send("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[12]])
    assert "BrawlTakedown" in types(events)


def test_brawl_path_refusals():
    w = worked_example_world()
    w.add("dora", "Dora", "b", [3, 0], BERK)
    cases = [
        ([[3, 0], [2, 0]], "path[0] [3, 0] is held by Dora"),
        ([[4, -1], [2, 0]], "path[1] [2, 0] is not next to [4, -1]"),
        ([[3, 1]], "the path ends at [3, 1], not next to Berk"),
        ([], "Berk is not next to Cade"),
        (
            [[4, 1], [3, 1], [2, 1], [1, 1], [0, 2], [0, 3]],
            "the path is 6 hexes (6 AP) but Cade has only 5 AP",
        ),
    ]
    for path, message in cases:
        with pytest.raises(RuleError) as err:
            w.send("ap-grapple.brawl", combatant="cade", target="berk", path=path, dice=[[10]])
        assert message in err.value.message, (path, err.value.message)
    with pytest.raises(BadCommand) as bad:
        w.send("ap-grapple.brawl", combatant="cade", target="berk", path=[[1, 2, 3]], dice=[[10]])
    assert bad.value.field == "path[0]"


def test_brawl_refuses_an_ally_and_a_weightless_target():
    w = worked_example_world()
    w.add("ghost", "Ghost", "b", [0, -1], {"ac": 2})
    with pytest.raises(RuleError, match="Cade is on Aldo's own side"):
        w.send("ap-grapple.brawl", combatant="aldo", target="cade", dice=[[10]])
    with pytest.raises(RuleError, match="Ghost has no weight_lb stat"):
        w.send("ap-grapple.brawl", combatant="aldo", target="ghost", dice=[[10]])


def test_lower_row_option_reaches_the_brawl():
    w = _brawl_world(100, 180, brawl_ratio_rule="lower_row")
    events = w.send("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[10]])
    assert of_type(events, "WeightRatio")[0]["modifier"] == -4


def test_a_prone_combatant_is_neither_offered_nor_allowed_a_charge():
    """A charge is walked hex by hex, and a down combatant may not walk (NOTES.md, version 3)."""
    w = worked_example_world()
    g1(w)
    w.send("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    w.send("start_turn")
    w.send("ap-grapple.brawl", combatant="aldo", target="berk", path=[], dice=[[10]])
    w.send("start_turn")
    assert w.combatant("berk")["posture"] == "prone" and w.rules["ap_left"]["berk"] > 0
    with pytest.raises(RuleError) as refused:
        w.send(
            "ap-grapple.brawl", combatant="berk", target="cade", path=[[1, 0], [2, 0], [3, 0]], dice=[[20]]
        )
    assert "Berk is prone and cannot charge" in refused.value.message
    offered = w.ruleset.offers(w.state, "berk")
    assert not [o for o in offered if o["type"] == "ap-grapple.brawl" and o["fields"].get("target") == "cade"]
    # Standing, Cade may still charge the prone Berk.
    charges = [o for o in w.ruleset.offers(w.state, "cade") if o["type"] == "ap-grapple.brawl"]
    assert charges and all(opt["value"] for o in charges for opt in o["choices"][0]["options"])


def test_whose_turn_names_a_questions_default_in_words():
    """'Whose turn' read "until it is answered (default: own_hex)": the answer's API name."""
    w = worked_example_world()
    g1(w)
    (asked,) = [a for a in w.ruleset.acting_now(w.state) if a.get("reaction")]
    assert asked["until"]["text"].endswith("(default: own hex)"), asked["until"]


def test_the_gms_next_turn_says_who_has_yet_to_act():
    """A GM at the page tapped "Start turn 3" while round 2 ran (ap-grapple had started it itself) and
    skipped it: the step now says whom it leaves without a turn."""
    w = worked_example_world()
    (step,) = [o for o in w.ruleset.offers(w.state, "gm") if o["type"] == "start_turn"]
    assert step["title"] == "Start turn 2 now (Aldo, Berk and Cade have yet to act this turn)", step["title"]
