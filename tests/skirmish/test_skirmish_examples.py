"""Spec section 5, worked examples E1-E3 and their variants, through the engine's pure command pipeline."""

from __future__ import annotations

import pytest
from skirmish_world import TEST_CHARTS, hale_and_voss, mods, of_type, rolls, types

from rules.interface import RuleError


def strike_e1(**options):
    w = hale_and_voss(**options)
    w.draw_card_of("hale")
    evs = w.send("skirmish.strike", combatant="hale", target="voss")
    return w, evs


def test_e1_strike_asks_voss_parry_or_evade():
    w, evs = strike_e1(**TEST_CHARTS)
    assert types(evs) == [
        "ActionDeclared",
        "Moved",
        "CloseCombatJoined",
        "SkirmishDefenceAwaited",
        "ReactionRequested",
    ]
    moved = of_type(evs, "Moved")[0]
    assert moved["to"] == [-100, 0] and moved["facing"] == 0
    req = of_type(evs, "ReactionRequested")[0]
    assert (
        req["kind"] == "hth_defence" and req["combatant"] == "voss" and req["options"] == ["parry", "evade"]
    )
    assert req["default"] == "parry"
    assert w.rules["exchange"] == {
        "attacker": "hale",
        "defender": "voss",
        "kind": "strike",
        "step": "awaiting_defence",
        "options": ["parry", "evade"],
    }


def test_e1_parry_then_counterstrike_wounds_hale():
    w, evs = strike_e1(**TEST_CHARTS)
    rid = w.pending("hth_defence")["id"]
    evs = w.send("respond", reaction=rid, choice="parry", dice=[[35], [88], [70], [58], [48]])
    r = rolls(evs)
    assert [x["purpose"] for x in r] == [
        "parry (attacker)",
        "parry (defender)",
        "counterstrike (counterstriker)",
        "counterstrike (original attacker)",
        "damage evaluation",
    ]
    assert (r[0]["combatant"], r[0]["total"], mods(r[0])) == ("hale", 45, [(10, "street fighter")])
    assert (r[1]["combatant"], r[1]["total"], mods(r[1])) == ("voss", 68, [(-20, "facing the wrong way")])
    # E1a: the facing modifier is not used in the counterstrike (else Voss would have 50 and lose).
    assert (r[2]["combatant"], r[2]["total"], mods(r[2])) == ("voss", 70, [])
    assert (r[3]["combatant"], r[3]["total"], mods(r[3])) == ("hale", 68, [(10, "street fighter")])
    assert (r[4]["combatant"], r[4]["total"], mods(r[4])) == (
        "voss",
        58,
        [(10, "armed with a rifle and bayonet")],
    )
    resolved = of_type(evs, "ExchangeResolved")
    assert [(x["kind"], x["winner"]) for x in resolved] == [("parry", "voss"), ("counterstrike", "voss")]
    assert of_type(evs, "DamageEvaluated") == [
        {"striker": "voss", "target": "hale", "total": 58, "result": "light"}
    ]
    assert of_type(evs, "WoundLevelChanged") == [
        {"combatant": "hale", "from": "none", "to": "light", "source": "voss"}
    ]
    assert of_type(evs, "Wounded") == [{"combatant": "hale", "amount": 1, "source": "voss"}]
    assert types(evs)[-1] == "HandToHandEnded"
    assert w.rules["wound_levels"]["hale"] == "light" and w.rules["exchange"] is None
    assert w.combatant("hale")["stats"]["wound_level"] == "light"  # the stat clients read shows the wound too
    assert w.combatant("hale")["group"] == w.combatant("voss")["group"] is not None  # still in contact
    assert w.replayed() == w.state


def test_e1b_tied_parry_goes_to_counterstrike():
    w, _ = strike_e1(**TEST_CHARTS)
    rid = w.pending("hth_defence")["id"]
    # Hale 50 + 10 = 60; Voss 80 - 20 = 60: the tie favours the defender. Counterstrike 40 vs 60: it fails.
    evs = w.send("respond", reaction=rid, choice="parry", dice=[[50], [80], [40], [50]])
    resolved = of_type(evs, "ExchangeResolved")
    assert resolved[0]["attacker_total"] == resolved[0]["defender_total"] == 60
    assert resolved[0]["winner"] == "voss"
    assert resolved[1]["winner"] == "hale"
    assert of_type(evs, "HandToHandEnded") == [
        {"attacker": "hale", "defender": "voss", "why": "counterstrike failed"}
    ]
    assert "DamageEvaluated" not in types(evs)


def test_counterstrike_tie_is_no_win():
    w, _ = strike_e1(**TEST_CHARTS)
    rid = w.pending("hth_defence")["id"]
    evs = w.send("respond", reaction=rid, choice="parry", dice=[[10], [90], [68], [58]])  # 68 vs 68
    assert of_type(evs, "ExchangeResolved")[1]["winner"] == "hale"
    assert types(evs)[-1] == "HandToHandEnded"


def test_e1c_without_a_chart_the_gm_records_the_result():
    w, _ = strike_e1()
    rid = w.pending("hth_defence")["id"]
    evs = w.send("respond", reaction=rid, choice="parry", dice=[[35], [88], [70], [58], [48]])
    assert of_type(evs, "DamageEvaluated") == [
        {"striker": "voss", "target": "hale", "total": 58, "result": None}
    ]
    assert of_type(evs, "DamageResultAwaited") == [{"striker": "voss", "target": "hale", "total": 58}]
    req = of_type(evs, "ReactionRequested")[0]
    assert req["kind"] == "damage_result" and req["asked_of"] == "gm" and req["combatant"] is None
    assert w.rules["exchange"]["step"] == "awaiting_gm_result"
    evs = w.send("respond", reaction=req["id"], choice="light")
    assert types(evs) == ["ReactionAnswered", "WoundLevelChanged", "Wounded", "HandToHandEnded"]
    assert w.rules["wound_levels"]["hale"] == "light"
    assert w.replayed() == w.state


def test_e1c_record_damage_result_command_answers_too():
    w, _ = strike_e1()
    rid = w.pending("hth_defence")["id"]
    w.send("respond", reaction=rid, choice="parry", dice=[[35], [88], [70], [58], [48]])
    evs = w.send("skirmish.record_damage_result", result="serious")
    assert types(evs) == ["ReactionAnswered", "WoundLevelChanged", "Wounded", "HandToHandEnded"]
    assert of_type(evs, "Wounded")[0]["amount"] == 2
    assert w.state["pending"] == []


def strike_then_evade(dice, **params):
    w, _ = strike_e1(**TEST_CHARTS)
    rid = w.pending("hth_defence")["id"]
    return w, w.send("respond", reaction=rid, choice="evade", dice=dice, **params)


def test_e2_evade_voss_slips_away_to_the_named_point():
    w, evs = strike_then_evade([[44], [37]], to=[500, 0], facing=90)
    r = rolls(evs)
    assert [(x["combatant"], x["total"], mods(x)) for x in r] == [
        ("hale", 44, []),
        ("voss", 47, [(10, "speedy")]),
    ]
    assert of_type(evs, "ExchangeResolved")[0]["winner"] == "voss"
    assert of_type(evs, "Moved") == [
        {"combatant": "voss", "to": [500, 0], "reason": "evade", "facing": None, "from": [0, 0]}
    ]
    assert of_type(evs, "FacingChanged") == [{"combatant": "voss", "facing": 90}]
    left = of_type(evs, "CloseCombatLeft")[0]
    assert left["combatant"] == "voss" and left["how"] == "evade"
    assert types(evs)[-1] == "HandToHandEnded"
    assert w.combatant("voss")["group"] is None and w.combatant("voss")["position"] == [500, 0]
    assert w.replayed() == w.state


def test_e2_evade_without_a_point_moves_straight_away_facing_the_attacker():
    w, evs = strike_then_evade([[44], [37]])
    moved = of_type(evs, "Moved")[0]
    assert moved["to"] == [600, 0]  # one move (6") straight away from Hale at [-100, 0]
    assert of_type(evs, "FacingChanged") == [{"combatant": "voss", "facing": 180}]


def test_e2a_hale_wins_the_evade_and_strikes():
    w, evs = strike_then_evade([[44], [30], [62]])
    r = rolls(evs)
    assert r[1]["total"] == 40
    assert of_type(evs, "ExchangeResolved")[0]["winner"] == "hale"
    assert (r[2]["total"], mods(r[2])) == (92, [(10, "street fighter"), (20, "armed with a sword")])
    assert of_type(evs, "DamageEvaluated")[0]["result"] == "serious"
    assert w.rules["wound_levels"]["voss"] == "serious"
    assert "Moved" not in types(evs)


def test_e2b_a_tied_evade_goes_to_voss():
    w, evs = strike_then_evade([[44], [34]])
    res = of_type(evs, "ExchangeResolved")[0]
    assert res["attacker_total"] == res["defender_total"] == 44 and res["winner"] == "voss"


def grapple_e3(dice, **options):
    w = hale_and_voss(**{**TEST_CHARTS, **options})
    w.draw_card_of("hale")
    return w, w.send("skirmish.grapple", combatant="hale", target="voss", dice=dice)


def test_e3_grapple_to_prisoner():
    w, evs = grapple_e3([[22], [71], [45]])
    r = rolls(evs)
    assert (r[0]["purpose"], r[0]["combatant"], r[0]["total"]) == ("damage evaluation", "voss", 32)
    assert of_type(evs, "DamageEvaluated")[0] == {
        "striker": "voss",
        "target": "hale",
        "total": 32,
        "result": "no_effect",
    }
    assert (r[1]["purpose"], r[1]["notation"], r[1]["total"], r[1]["outcome"]) == (
        "one-storey fall",
        "1d100",
        71,
        "light",
    )
    assert (r[2]["purpose"], r[2]["total"], r[2]["target"], r[2]["outcome"]) == ("morale", 45, 60, "pass")
    assert types(evs)[:3] == ["ActionDeclared", "Moved", "CloseCombatJoined"]
    assert types(evs)[3:] == [
        "DieRolled",
        "DamageEvaluated",
        "PostureChanged",
        "DieRolled",
        "WoundLevelChanged",
        "Wounded",
        "ItemDropped",
        "ItemDropped",
        "DieRolled",
        "PostureChanged",
        "PinApplied",
        "ConditionChanged",
        "PrisonerTaken",
        "ItemDropped",
        "CloseCombatJoined",
        "HandToHandEnded",
        "ActionSpent",
    ]
    assert of_type(evs, "PostureChanged") == [
        {"combatant": "voss", "posture": "on_back"},
        {"combatant": "hale", "posture": "on_stomach"},
    ]
    assert of_type(evs, "ItemDropped") == [
        {"combatant": "voss", "item": "rifle", "at": [0, 0]},
        {"combatant": "voss", "item": "grenade", "at": [0, 0]},
        {"combatant": "hale", "item": "sword", "at": [-100, 0]},
    ]
    assert of_type(evs, "PinApplied") == [{"holder": "hale", "pinned": "voss", "turn": 0}]
    assert of_type(evs, "ConditionChanged") == [{"combatant": "voss", "condition": "prisoner", "on": True}]
    assert of_type(evs, "PrisonerTaken") == [{"prisoner": "voss", "captor": "hale"}]
    assert of_type(evs, "CloseCombatJoined")[-1]["standing"] is False
    assert w.rules["prisoners"] == [{"prisoner": "voss", "captor": "hale"}]
    assert w.rules["wound_levels"]["voss"] == "light"
    assert w.state["pins"][0]["holder"] == "hale"
    assert w.replayed() == w.state


def test_e3_step4_voss_card_is_skipped():
    w, _ = grapple_e3([[22], [71], [45]])
    evs = w.draw_card_of("voss")
    assert types(evs)[-2:] == ["CardDrawn", "ActivationSkipped"]
    assert of_type(evs, "ActivationSkipped") == [{"combatant": "voss", "why": "prisoner"}]
    assert of_type(evs, "ActionSpent") == []  # Hale's action was already spent by the grapple
    assert w.rules["holders"] == []
    with pytest.raises(RuleError, match="does not hold the card"):
        w.send("skirmish.strike", combatant="voss", target="hale")


def test_e3_step5_a_blow_on_the_held_prisoner_is_accepted():
    w, _ = grapple_e3([[22], [71], [45]])
    w.add(
        {
            "id": "kurt",
            "name": "Cpl Kurt",
            "side": "a",
            "position": [0, 100],
            "facing": 270,
            "stats": {"hth_weapon": "other"},
        }
    )
    w.send("start_turn")
    w.draw_card_of("kurt")
    evs = w.send("skirmish.strike", combatant="kurt", target="voss", dice=[[40]])
    assert of_type(evs, "BlowAccepted") == [{"attacker": "kurt", "defender": "voss", "why": "held and down"}]
    assert "ReactionRequested" not in types(evs)
    assert rolls(evs)[0]["purpose"] == "damage evaluation"
    assert types(evs)[-1] == "HandToHandEnded"


def test_e3a_failed_morale_no_hold_no_prisoner_but_hale_drops_his_sword():
    w, evs = grapple_e3([[22], [71], [75]])
    assert rolls(evs)[2]["outcome"] == "fail"
    assert {"combatant": "hale", "posture": "on_back"} in of_type(evs, "PostureChanged")
    assert "PinApplied" not in types(evs) and "PrisonerTaken" not in types(evs)
    assert {"combatant": "hale", "item": "sword", "at": [-100, 0]} in of_type(evs, "ItemDropped")
    assert w.rules["prisoners"] == [] and w.state["pins"] == []


def test_e3b_a_kneeling_hale_may_not_grapple():
    w = hale_and_voss(**TEST_CHARTS)
    w.send("ruling", text="Hale kneels", overrides={"combatants": {"hale": {"posture": "kneeling"}}})
    w.draw_card_of("hale")
    with pytest.raises(RuleError, match="Sgt Hale is kneeling"):
        w.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
