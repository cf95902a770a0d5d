"""Every refusal of the skirmish ruleset: a RuleError (422) or BadCommand (400) in plain words, nothing appended."""

from __future__ import annotations

import pytest
from skirmish_world import KURT, TEST_CHARTS, World, hale_and_voss, of_type, types

from rules.interface import BadCommand, Forbidden, RuleError


def test_no_card_left_to_draw():
    w = hale_and_voss()
    w.draw(1)
    w.draw(1)
    with pytest.raises(RuleError, match="every card has been drawn this turn"):
        w.draw(1)


def test_strike_without_the_card():
    w = hale_and_voss()
    with pytest.raises(
        RuleError, match="Sgt Hale cannot strike Pvt Voss: Sgt Hale does not hold the card drawn"
    ):
        w.send("skirmish.strike", combatant="hale", target="voss")
    w.draw_card_of("voss")
    with pytest.raises(RuleError, match="does not hold the card"):
        w.send("skirmish.strike", combatant="hale", target="voss")


def test_only_one_hand_to_hand_per_card():
    w = hale_and_voss(**TEST_CHARTS)
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    rid = w.pending("hth_defence")["id"]
    w.send("respond", reaction=rid, choice="evade", dice=[[44], [37]])
    with pytest.raises(RuleError, match="already fought hand to hand on this card"):
        w.send("skirmish.strike", combatant="hale", target="voss")


def test_nothing_else_while_the_defender_chooses():
    w = hale_and_voss()
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    with pytest.raises(RuleError) as err:
        w.send("skirmish.draw_card", dice=[[1]])
    assert err.value.code == "reaction_pending"


def test_each_failing_condition_is_named():
    w = hale_and_voss()
    w.send(
        "ruling",
        text="Hale is knocked out",
        overrides={"combatants": {"hale": {"conditions": ["unconscious"], "posture": "kneeling"}}},
    )
    with pytest.raises(RuleError) as err:
        w.send("skirmish.grapple", combatant="hale", target="voss")
    msg = err.value.message
    assert "Sgt Hale does not hold the card" in msg and "Sgt Hale is unconscious" in msg
    assert "Sgt Hale is kneeling (§GRAPPLING: the attacker may grapple if he is standing)" in msg


def test_a_prisoner_or_a_captor_holding_him_may_not_strike():
    w = hale_and_voss(**TEST_CHARTS)
    w.add(KURT)
    w.e3_grapple()
    w.send("start_turn")
    w.draw_card_of("hale")
    with pytest.raises(
        RuleError, match="Sgt Hale is holding a prisoner on the ground and must stand up first"
    ):
        w.send("skirmish.strike", combatant="hale", target="kurt")
    w.send("ruling", text="test", overrides={"rules": {"holders": ["voss"]}})
    with pytest.raises(RuleError) as err:
        w.send("skirmish.strike", combatant="voss", target="kurt")
    assert (
        "Pvt Voss is Sgt Hale's prisoner" in err.value.message
        and "Pvt Voss is held by Sgt Hale" in err.value.message
    )


def test_no_blows_on_the_dead_or_on_oneself_or_on_nobody():
    w = hale_and_voss()
    w.draw_card_of("hale")
    w.send("ruling", text="Voss died", overrides={"combatants": {"voss": {"conditions": ["dead"]}}})
    with pytest.raises(RuleError, match="Pvt Voss is dead"):
        w.send("skirmish.strike", combatant="hale", target="voss")
    with pytest.raises(BadCommand, match="cannot fight itself"):
        w.send("skirmish.strike", combatant="hale", target="hale")
    with pytest.raises(RuleError, match="there is no combatant 'ghost'"):
        w.send("skirmish.strike", combatant="hale", target="ghost")


def test_a_path_must_be_points_and_end_touching_the_defender():
    w = hale_and_voss()
    w.draw_card_of("hale")
    with pytest.raises(BadCommand, match="path must be a list of"):
        w.send("skirmish.strike", combatant="hale", target="voss", path=[])
    with pytest.raises(RuleError, match="the path must end touching Pvt Voss"):
        w.send("skirmish.strike", combatant="hale", target="voss", path=[[-300, 0]])


def test_out_of_reach_is_recorded_not_refused():
    w = World()
    w.add(
        {
            "id": "hale",
            "name": "Sgt Hale",
            "side": "a",
            "position": [-1000, 0],
            "facing": 0,
            "stats": {"move_in": 6},
        }
    )
    w.add({"id": "voss", "name": "Pvt Voss", "side": "b", "position": [0, 0], "facing": 0, "stats": {}})
    w.draw_card_of("hale")
    evs = w.send("skirmish.strike", combatant="hale", target="voss")
    assert types(evs) == ["HandToHandImpossible"]
    assert of_type(evs, "HandToHandImpossible")[0] == {
        "attacker": "hale",
        "defender": "voss",
        "why": "out of reach",
        "distance": 900,
        "reach": 600,
    }
    assert w.rules["exchange"] is None
    evs = w.send("skirmish.strike", combatant="hale", target="voss", path=[[-400, 300], [-100, 0]])
    assert types(evs) == ["HandToHandImpossible"]  # 600 + 424 = 1024 > 600


def _evading():
    w = hale_and_voss()
    w.add(KURT, position=[300, 0])
    w.draw_card_of("hale")
    w.send("skirmish.strike", combatant="hale", target="voss")
    return w, w.pending("hth_defence")["id"]


def test_evade_point_too_far_or_through_a_figure():
    w, rid = _evading()
    with pytest.raises(RuleError, match="at most one move"):
        w.send("respond", reaction=rid, choice="evade", to=[0, 700], dice=[[1], [99]])
    with pytest.raises(RuleError, match="passes through another figure"):
        w.send("respond", reaction=rid, choice="evade", to=[500, 0], dice=[[1], [99]])


def test_bad_defence_answers():
    w, rid = _evading()
    with pytest.raises(BadCommand, match="takes only to and facing"):
        w.send("respond", reaction=rid, choice="evade", speed=3, dice=[[1], [99]])
    with pytest.raises(BadCommand, match="facing must be"):
        w.send("respond", reaction=rid, choice="evade", to=[0, 300], facing=400, dice=[[1], [99]])
    with pytest.raises(BadCommand, match="to must be a point"):
        w.send("respond", reaction=rid, choice="evade", to="north", dice=[[1], [99]])
    with pytest.raises(RuleError, match="is not an answer"):
        w.send("respond", reaction=rid, choice="flee")


def test_gm_results_only_when_awaited():
    w = hale_and_voss()
    with pytest.raises(RuleError, match="no damage result is awaited"):
        w.send("skirmish.record_damage_result", result="light")
    with pytest.raises(RuleError, match="no fall result is awaited"):
        w.send("skirmish.record_fall", result="light")
    with pytest.raises(RuleError, match="no morale is awaited"):
        w.send("skirmish.record_morale", **{"pass": True})
    with pytest.raises(BadCommand):
        w.send("skirmish.record_damage_result", result="decapitated")


def test_gm_only_commands_are_forbidden_to_a_player_seat():
    w = hale_and_voss()
    w.send("ruling", text="seat", overrides={})
    w.state = {
        **w.state,
        "seats": {"alice": {"seat": "alice", "name": "Alice", "combatants": ["hale"], "revoked": False}},
    }
    with pytest.raises(Forbidden):
        w.send("skirmish.draw_card", actor="seat:alice", dice=[[1]])
    with pytest.raises(Forbidden):
        w.send("skirmish.liberate", actor="seat:alice", target="voss", how="x")
    w.draw_card_of("voss")
    with pytest.raises(Forbidden):
        w.send("skirmish.strike", actor="seat:alice", combatant="voss", target="hale")


def test_captor_acts_refusals():
    w = hale_and_voss(**TEST_CHARTS)
    w.draw_card_of("voss")
    with pytest.raises(RuleError) as err:
        w.send("skirmish.captor_acts", combatant="hale")
    assert "does not hold the card" in err.value.message and "has no prisoner" in err.value.message
    w.send("start_turn")
    w.e3_grapple()
    w.send("start_turn")
    w.draw_card_of("hale")
    with pytest.raises(RuleError, match="must stand up to move"):
        w.send("skirmish.captor_acts", combatant="hale", path=[[-100, 500]])


def test_liberate_needs_a_prisoner():
    w = hale_and_voss()
    with pytest.raises(RuleError, match="Pvt Voss is not anyone's prisoner"):
        w.send("skirmish.liberate", target="voss", how="rescued")


def test_bad_options_and_stats():
    with pytest.raises(BadCommand, match="fall_roll"):
        World(fall_roll="a storey")
    with pytest.raises(BadCommand, match="morale_mode"):
        World(morale_mode="vibes")
    with pytest.raises(BadCommand, match="unknown field"):
        World(grapple_bonus=3)
    w = World()
    with pytest.raises(BadCommand, match="stats.wound_level"):
        w.add({"id": "x", "name": "X", "side": "a", "stats": {"wound_level": "grazed"}})
    with pytest.raises(BadCommand, match="stats.morale"):
        w.add({"id": "x", "name": "X", "side": "a", "stats": {"morale": 140}})
    with pytest.raises(BadCommand, match="stats.hth_weapon"):
        w.add({"id": "x", "name": "X", "side": "a", "stats": {"hth_weapon": "halberd"}})
    with pytest.raises(BadCommand, match="stats.speedy"):
        w.add({"id": "x", "name": "X", "side": "a", "stats": {"speedy": "very"}})
