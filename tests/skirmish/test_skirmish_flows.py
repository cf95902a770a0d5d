"""The rest of the flow chart: cards and turns, the defender-options table, GM-owed results in a grapple,
captors and liberation, and the options that change a DECISION."""

from __future__ import annotations

import pytest
from skirmish_world import (
    DAMAGE_CHART,
    HALE,
    KURT,
    TEST_CHARTS,
    VOSS,
    World,
    hale_and_voss,
    of_type,
    rolls,
    types,
)

from rules.interface import RuleError
from rules.skirmish import ruleset


def test_cards_in_join_order_one_turn_per_pass():
    w = hale_and_voss()
    assert w.rules["deck"] == [
        {"card": "hale", "combatants": ["hale"]},
        {"card": "voss", "combatants": ["voss"]},
    ]
    evs = w.draw(2)
    roll = rolls(evs)[0]
    assert (roll["purpose"], roll["notation"], roll["faces"], roll["source"]) == (
        "card draw",
        "1d2",
        [2],
        "manual",
    )
    assert of_type(evs, "CardDrawn") == [
        {"card": "voss", "combatant": "voss", "combatants": ["voss"], "undrawn_left": 1}
    ]
    assert w.rules["holders"] == ["voss"] and w.rules["undrawn"] == ["hale"]
    evs = w.draw(1)
    assert of_type(evs, "ActionSpent") == [{"combatant": "voss", "turn": 0, "why": "activation ended"}]
    assert w.rules["holders"] == ["hale"] and w.rules["undrawn"] == []
    w.send("start_turn")
    assert w.rules["undrawn"] == ["hale", "voss"] and w.rules["holders"] == [] and w.rules["card"] is None
    assert w.replayed() == w.state


def test_team_card_activates_every_figure_listed():
    w = World(
        deck=[{"card": "Germans", "combatants": ["voss"]}, {"card": "Squad", "combatants": ["hale", "kurt"]}]
    )
    for fig in (HALE, VOSS, KURT):
        w.add(fig)
    evs = w.draw(2)
    assert of_type(evs, "CardDrawn")[0]["combatants"] == ["hale", "kurt"]
    assert w.rules["holders"] == ["hale", "kurt"]
    w.send("skirmish.strike", combatant="kurt", target="voss", facing_wrong_way=[])
    assert w.rules["exchange"]["attacker"] == "kurt"


def test_unconscious_figure_is_skipped_and_accepts_blows():
    w = hale_and_voss(**TEST_CHARTS)
    w.send("ruling", text="out", overrides={"combatants": {"voss": {"conditions": ["unconscious"]}}})
    evs = w.draw_card_of("voss")
    assert of_type(evs, "ActivationSkipped") == [{"combatant": "voss", "why": "unconscious"}]
    w.draw_card_of("hale")
    evs = w.send("skirmish.strike", combatant="hale", target="voss", dice=[[90]])
    assert of_type(evs, "BlowAccepted")[0]["why"] == "unconscious"
    assert (
        of_type(evs, "DamageEvaluated")[0]["total"] == 120 and w.rules["wound_levels"]["voss"] == "critical"
    )


def test_a_down_defender_may_only_parry_and_it_is_applied_at_once():
    w = hale_and_voss(**TEST_CHARTS)
    w.send("ruling", text="prone", overrides={"combatants": {"voss": {"posture": "prone"}}})
    w.draw_card_of("hale")
    evs = w.send("skirmish.strike", combatant="hale", target="voss", dice=[[50], [50], [10]])
    assert of_type(evs, "ActionDeclared")[1] == {
        "combatant": "voss",
        "action": "parry",
        "targets": ["hale"],
        "params": {"forced": True},
    }
    r = rolls(evs)
    # Hale: +10 street fighter, +20 Voss is down and Hale is not; Voss: -20 facing the wrong way.
    assert [m["reason"] for m in r[0]["modifiers"]] == ["street fighter", "opponent is down and you are not"]
    assert r[0]["total"] == 80 and r[1]["total"] == 30
    assert of_type(evs, "ExchangeResolved")[0]["winner"] == "hale"


def test_a_pinned_standing_defender_may_only_evade():
    w = hale_and_voss(**TEST_CHARTS)
    w.send("ruling", text="pinned", overrides={"combatants": {"voss": {"conditions": ["pinned"]}}})
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    asked = w.pending("hth_defence")
    assert asked["options"] == ["evade"] and asked["default"] == "evade"
    evs = w.send("respond", reaction=asked["id"], choice="evade", to=[0, 500], facing=90, dice=[[10], [50]])
    assert of_type(evs, "Moved")[-1]["reason"] == "evade" and of_type(evs, "Moved")[-1]["to"] == [0, 500]
    assert of_type(evs, "FacingChanged")[-1]["facing"] == 90


def test_kneeling_and_wound_modifiers_in_the_parry():
    w = World(**TEST_CHARTS)
    w.add(HALE, stats={**HALE["stats"], "wound_level": "mortal"})
    w.add(VOSS, posture="kneeling", facing=180, stats={**VOSS["stats"], "wound_level": "critical"})
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    evs = w.send("respond", reaction=w.pending("hth_defence")["id"], choice="parry", dice=[[90], [10], [50]])
    r = rolls(evs)
    assert [(m["value"], m["reason"]) for m in r[0]["modifiers"]] == [
        (10, "street fighter"),
        (10, "opponent is kneeling and you are standing"),
        (-50, "mortally wounded"),
    ]
    assert [(m["value"], m["reason"]) for m in r[1]["modifiers"]] == [(-35, "critically wounded")]


def test_damage_modifiers_for_wounds():
    w = World(**TEST_CHARTS)
    w.add(HALE, stats={**HALE["stats"], "wound_level": "serious"})
    w.add(VOSS, stats={**VOSS["stats"], "wound_level": "critical"})
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    evs = w.send("respond", reaction=w.pending("hth_defence")["id"], choice="evade", dice=[[90], [10], [50]])
    dmg = rolls(evs)[2]
    assert [(m["value"], m["reason"]) for m in dmg["modifiers"]] == [
        (10, "street fighter"),
        (20, "armed with a sword"),
        (20, "opponent seriously wounded or worse"),
        (-20, "seriously wounded or worse"),
    ]
    assert dmg["total"] == 80


def test_grapple_with_every_result_owed_by_the_gm():
    w = hale_and_voss(morale_mode="gm")
    w.draw_card_of("hale")
    evs = w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22]])
    assert types(evs)[-3:] == ["DamageEvaluated", "DamageResultAwaited", "ReactionRequested"]
    req = w.pending("damage_result")
    assert req["resume"]["after"] == "defender_blow" and req["allows"] == ["skirmish.record_damage_result"]
    evs = w.send("respond", reaction=req["id"], choice="no_effect", dice=[[71]])
    assert types(evs) == [
        "ReactionAnswered",
        "PostureChanged",
        "DieRolled",
        "FallResultAwaited",
        "ReactionRequested",
    ]
    assert of_type(evs, "FallResultAwaited") == [{"combatant": "voss", "total": 71}]
    assert w.rules["exchange"]["step"] == "awaiting_gm_result"
    evs = w.send("skirmish.record_fall", result="light")
    assert types(evs) == [
        "ReactionAnswered",
        "WoundLevelChanged",
        "Wounded",
        "ItemDropped",
        "ItemDropped",
        "MoraleAwaited",
        "ReactionRequested",
    ]
    assert w.rules["exchange"]["step"] == "morale"
    evs = w.send("skirmish.record_morale", **{"pass": True})
    assert "PrisonerTaken" in types(evs) and types(evs)[-1] == "ActionSpent"
    assert w.rules["exchange"] is None and w.rules["prisoners"] == [{"prisoner": "voss", "captor": "hale"}]
    assert w.replayed() == w.state


def test_morale_falls_back_on_the_gm_without_a_morale_stat():
    w = World(**TEST_CHARTS)
    w.add(HALE, stats={k: v for k, v in HALE["stats"].items() if k != "morale"})
    w.add(VOSS)
    w.draw_card_of("hale")
    evs = w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [10]])
    assert types(evs)[-2:] == ["MoraleAwaited", "ReactionRequested"]
    evs = w.send("respond", reaction=w.pending("morale")["id"], choice="fail")
    assert {"combatant": "hale", "posture": "on_back"} in of_type(evs, "PostureChanged")


def test_grapple_aborted_when_the_free_blow_fells_the_grappler():
    w = hale_and_voss()
    w.draw_card_of("hale")
    w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[99]])
    evs = w.send("skirmish.record_damage_result", result="unconscious")
    assert types(evs) == ["ReactionAnswered", "ConditionChanged", "GrappleAborted"]
    assert w.rules["exchange"] is None and w.combatant("voss")["posture"] == "standing"


def test_an_unconscious_defender_gets_no_free_blow():
    w = hale_and_voss(**TEST_CHARTS)
    w.send("ruling", text="out", overrides={"combatants": {"voss": {"conditions": ["unconscious"]}}})
    w.draw_card_of("hale")
    evs = w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[10], [10]])
    assert [r["purpose"] for r in rolls(evs)] == ["one-storey fall", "morale"]


def test_attacker_keeps_weapons_on_a_passed_test_when_the_option_says_so():
    w = hale_and_voss(attacker_drops_weapons="on_morale_fail", **TEST_CHARTS)
    evs = w.e3_grapple()
    assert [d["combatant"] for d in of_type(evs, "ItemDropped")] == ["voss", "voss"]


def test_step_up_wound_update():
    w = hale_and_voss(wound_update="step_up", damage_chart=DAMAGE_CHART)
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    evs = w.send("respond", reaction=w.pending("hth_defence")["id"], choice="evade", dice=[[90], [10], [90]])
    assert of_type(evs, "DamageEvaluated")[0]["result"] == "critical"
    assert of_type(evs, "WoundLevelChanged")[0]["to"] == "light"  # one level per wounding result


def test_held_prisoner_may_parry_when_a_hold_is_not_a_pin():
    w = hale_and_voss(hold_counts_as_pinned=False, **TEST_CHARTS)
    w.add(KURT)
    w.draw_card_of("hale")
    w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [10], [45]])
    w.draw_card_of("kurt")
    evs = w.send("skirmish.strike", combatant="kurt", target="voss", dice=[[10], [90], [10], [90]])
    assert of_type(evs, "ActionDeclared")[1]["action"] == "parry"


def _prisoner_taken(**options):
    w = hale_and_voss(**{**TEST_CHARTS, **options})
    w.draw_card_of("hale")
    w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [10], [45]])
    w.send("start_turn")
    w.draw_card_of("hale")
    return w


def test_captor_keeps_holding():
    w = _prisoner_taken()
    evs = w.send("skirmish.captor_acts", combatant="hale")
    assert types(evs) == ["ActionDeclared", "PinHeld"]
    assert w.state["pins"][0]["turns_held"] == 1


def test_captor_stands_and_pulls_his_prisoner():
    w = _prisoner_taken()
    evs = w.send("skirmish.captor_acts", combatant="hale", stand_up=True, path=[[-100, 400]])
    assert types(evs) == [
        "ActionDeclared",
        "PinReleased",
        "PostureChanged",
        "PostureChanged",
        "Moved",
        "Moved",
    ]
    assert of_type(evs, "PinReleased") == [{"pinned": "voss", "holder": "hale", "why": "captor stood"}]
    assert of_type(evs, "Moved") == [
        {"combatant": "hale", "to": [-100, 400], "reason": "move", "facing": None, "from": [-100, 0]},
        {"combatant": "voss", "to": [0, 400], "reason": "pulled", "facing": None, "from": [0, 0]},
    ]
    assert w.state["pins"] == [] and "prisoner" in w.combatant("voss")["conditions"]
    assert w.rules["prisoners"] == [{"prisoner": "voss", "captor": "hale"}]
    assert w.replayed() == w.state


def test_gm_liberates_a_prisoner():
    w = _prisoner_taken()
    evs = w.send("skirmish.liberate", target="voss", how="his mates drag Hale off")
    assert types(evs) == ["RulingMade", "PinReleased", "ConditionChanged", "PrisonerLiberated"]
    assert of_type(evs, "PinReleased")[0]["why"] == "his mates drag Hale off"
    assert w.rules["prisoners"] == [] and "prisoner" not in w.combatant("voss")["conditions"]


def test_prisoner_freed_when_the_captor_is_knocked_out():
    w = _prisoner_taken()
    w.add({"id": "fritz", "name": "Fritz", "side": "b", "position": [-200, 0], "facing": 0, "stats": {}})
    w.send("start_turn")
    w.draw_card_of("fritz")
    # Hale is down (on his stomach) so he cannot evade, and not pinned, so he parries at once.
    evs = w.send("skirmish.strike", combatant="fritz", target="hale", dice=[[99], [1], [99]])
    assert of_type(evs, "DamageEvaluated")[0]["total"] == 99
    assert w.rules["prisoners"] == [{"prisoner": "voss", "captor": "hale"}]  # serious, not out


def test_prisoner_freed_automatically_when_the_captor_falls():
    w = hale_and_voss(fall_chart=TEST_CHARTS["fall_chart"])
    w.draw_card_of("hale")
    w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22]])
    w.send("skirmish.record_damage_result", result="no_effect", dice=[[10], [45]])
    w.add({"id": "fritz", "name": "Fritz", "side": "b", "position": [-200, 0], "facing": 0, "stats": {}})
    w.send("start_turn")
    w.draw_card_of("fritz")
    w.send("skirmish.strike", combatant="fritz", target="hale", dice=[[99], [1], [99]])
    evs = w.send("skirmish.record_damage_result", result="unconscious")
    assert types(evs) == [
        "ReactionAnswered",
        "ConditionChanged",
        "PinReleased",
        "ConditionChanged",
        "PrisonerLiberated",
        "HandToHandEnded",
    ]
    assert of_type(evs, "PrisonerLiberated") == [
        {"prisoner": "voss", "captor": "hale", "how": "captor unconscious"}
    ]
    assert of_type(evs, "PinReleased") == [{"pinned": "voss", "holder": "hale", "why": "captor unconscious"}]


def test_ruling_that_routs_the_captor_frees_the_prisoner():
    w = _prisoner_taken()
    evs = w.send("ruling", text="Hale routs", overrides={"combatants": {"hale": {"conditions": ["routed"]}}})
    assert types(evs) == ["RulingMade", "PinReleased", "ConditionChanged", "PrisonerLiberated"]
    assert of_type(evs, "PinReleased")[0]["why"] == "captor routed"
    assert w.replayed() == w.state


def test_removing_the_captor_frees_the_prisoner():
    w = _prisoner_taken()
    evs = w.send("remove_combatant", combatant="hale")
    assert types(evs) == ["ConditionChanged", "PrisonerLiberated", "CombatantRemoved"]
    assert w.rules["prisoners"] == [] and w.rules["deck"] == [{"card": "voss", "combatants": ["voss"]}]


def test_without_positions_the_claims_stand():
    w = World(**TEST_CHARTS)
    w.add(HALE, position=None, facing=None)
    w.add(VOSS, position=None, facing=None)
    w.draw_card_of("hale")
    evs = w.send("skirmish.strike", combatant="hale", target="voss", facing_wrong_way=["voss"])
    assert types(evs) == [
        "ActionDeclared",
        "CloseCombatJoined",
        "SkirmishDefenceAwaited",
        "ReactionRequested",
    ]
    evs = w.send(
        "respond",
        reaction=w.pending("hth_defence")["id"],
        choice="parry",
        dice=[[35], [88], [70], [58], [48]],
    )
    assert [m["reason"] for m in rolls(evs)[1]["modifiers"]] == ["facing the wrong way"]
    assert of_type(evs, "DamageEvaluated")[0]["total"] == 58


def test_standing_order_answers_inside_the_strike():
    w = World(**TEST_CHARTS)
    w.add(HALE)
    w.add(VOSS, reactions={"hth_defence": "evade"})
    w.draw_card_of("hale")
    evs = w.send("skirmish.strike", combatant="hale", target="voss", dice=[[44], [37]])
    assert "ReactionAnswered" in types(evs) and types(evs)[-1] == "HandToHandEnded"
    assert of_type(evs, "Moved")[-1]["to"] == [600, 0]
    assert w.replayed() == w.state


def test_a_captor_acts_once_a_card_and_not_on_the_grapples_card():
    """Version 5: "Act as captor" was offered, and accepted, again at once after it was used."""
    w = hale_and_voss(**TEST_CHARTS)
    w.draw_card_of("hale")
    w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [10], [45]])
    assert "skirmish.captor_acts" not in ruleset.legal_actions(w.state, "hale")
    w.send("start_turn")
    w.draw_card_of("hale")
    w.send("skirmish.captor_acts", combatant="hale")
    assert "skirmish.captor_acts" not in ruleset.legal_actions(w.state, "hale")
    assert not [o for o in ruleset.offers(w.state, "hale") if o["type"] == "skirmish.captor_acts"]
    with pytest.raises(RuleError, match="already fought or acted as captor on this card"):
        w.send("skirmish.captor_acts", combatant="hale")
