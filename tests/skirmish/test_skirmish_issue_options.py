"""Issue 8: every option of the skirmish spec works through the API (one HTTP scenario each, manual dice, replay
equal to live). The defaults are exercised by the worked examples; these tests set each one to its other value."""

from __future__ import annotations

from skirmish_http import VOSS_FACING_HALE, data, draw, encounter, strike_and_answer, types
from skirmish_world import HALE, KURT, VOSS


async def test_deck_a_team_card_activates_every_figure_listed(tussle):
    deck = [{"card": "Allies", "combatants": ["hale", "kurt"]}, {"card": "Axis", "combatants": ["voss"]}]
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT), deck=deck)
    st = await enc.state()
    assert st["rules"]["deck"] == deck and st["rules"]["undrawn"] == ["Allies", "Axis"]
    body = await enc.ok("skirmish.draw_card", dice=[[1]])
    assert data(body, "CardDrawn") == [
        {"card": "Allies", "combatant": "hale", "combatants": ["hale", "kurt"], "undrawn_left": 1}
    ]
    drawn = data(body, "DieRolled")[0]
    assert (drawn["notation"], drawn["purpose"], drawn["source"]) == ("1d2", "card draw", "manual")
    # Both figures of the card fight on it.
    body = await enc.ok("skirmish.strike", combatant="kurt", target="voss")
    rid = data(body, "ReactionRequested")[0]["id"]
    await enc.ok("respond", reaction=rid, choice="parry", dice=[[90], [10], [10]])
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss")
    assert "SkirmishDefenceAwaited" in types(body)
    rid = data(body, "ReactionRequested")[0]["id"]
    await enc.ok("respond", reaction=rid, choice="evade", dice=[[90], [10], [10]])
    # The next draw ends both activations, and the turn's last card is Axis.
    body = await enc.ok("skirmish.draw_card")  # the last card: turned up with no 1d1 roll
    assert types(body) == ["ActionSpent", "ActionSpent", "CardDrawn"]
    assert data(body, "CardDrawn")[0]["card"] == "Axis"
    r = await enc.command("skirmish.draw_card")
    assert r.status == 422 and "every card has been drawn this turn" in r.body["error"]["message"]
    await enc.ok("start_turn")
    assert (await enc.state())["rules"]["undrawn"] == ["Allies", "Axis"]
    await enc.replay_matches_live()


async def test_damage_chart_none_asks_the_gm_and_a_chart_answers_itself(tussle):
    enc = await encounter(tussle, charts=False)
    body = await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [48]])
    assert data(body, "DamageEvaluated")[0]["result"] is None
    assert data(body, "ReactionRequested")[0]["kind"] == "damage_result"
    # A chart with a gap asks the GM for a total it does not cover.
    gap = [{"max": 50, "result": "no_effect"}, {"min": 60, "result": "light"}]
    enc = await encounter(tussle, charts=False, damage_chart=gap)
    body = await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [45]])
    assert data(body, "DamageResultAwaited") == [{"striker": "voss", "target": "hale", "total": 55}]
    await enc.replay_matches_live()


async def test_fall_roll_takes_any_dice_and_fall_chart_reads_the_total(tussle):
    enc = await encounter(
        tussle,
        fall_roll="2d6",
        fall_chart=[{"max": 9, "result": "no_effect"}, {"min": 10, "result": "serious"}],
    )
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [5, 6], [45]])
    fall = next(d for d in data(body, "DieRolled") if d["purpose"] == "one-storey fall")
    assert (fall["notation"], fall["faces"], fall["total"], fall["outcome"]) == ("2d6", [5, 6], 11, "serious")
    assert data(body, "WoundLevelChanged")[0] == {
        "combatant": "voss",
        "from": "none",
        "to": "serious",
        "source": "one-storey fall",
    }
    await enc.replay_matches_live()


async def test_fall_chart_none_asks_the_gm(tussle):
    enc = await encounter(tussle, fall_chart=None)
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71]])
    assert data(body, "FallResultAwaited") == [{"combatant": "voss", "total": 71}]
    body = await enc.ok("skirmish.record_fall", result="no_effect", dice=[[45]])
    assert "PrisonerTaken" in types(body)
    await enc.replay_matches_live()


async def test_morale_mode_gm_asks_even_with_a_morale_stat(tussle):
    enc = await encounter(tussle, morale_mode="gm")
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71]])
    assert data(body, "MoraleAwaited") == [{"combatant": "hale"}]
    assert not [d for d in data(body, "DieRolled") if d["purpose"] == "morale"]
    await enc.ok("skirmish.record_morale", **{"pass": True})
    await enc.replay_matches_live()


async def test_wound_update_step_up_moves_one_level_per_wounding_result(tussle):
    hale = {**HALE, "stats": {**HALE["stats"], "wound_level": "serious"}}
    enc = await encounter(tussle, figures=(hale, VOSS), wound_update="step_up")
    body = await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [48]])  # a light result
    assert data(body, "WoundLevelChanged") == [
        {"combatant": "hale", "from": "serious", "to": "critical", "source": "voss"}
    ]
    # worse_of (the default) keeps serious for a light result.
    enc = await encounter(tussle, figures=(hale, VOSS))
    body = await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [48]])
    assert "WoundLevelChanged" not in types(body)
    await enc.replay_matches_live()


async def test_attacker_drops_weapons_only_on_a_failed_test(tussle):
    enc = await encounter(tussle, attacker_drops_weapons="on_morale_fail")
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    assert [d["combatant"] for d in data(body, "ItemDropped")] == ["voss", "voss"]
    st = await enc.state()
    assert st["combatants"]["hale"]["items"][0].get("state") != "dropped"
    await enc.replay_matches_live()

    enc = await encounter(tussle, attacker_drops_weapons="on_morale_fail")
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [75]])
    assert {"combatant": "hale", "item": "sword", "at": [-100, 0]} in data(body, "ItemDropped")
    await enc.replay_matches_live()


async def test_hold_counts_as_pinned_false_lets_a_held_prisoner_parry(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT), hold_counts_as_pinned=False)
    await draw(enc, "hale")
    await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    await draw(enc, "kurt")
    body = await enc.ok("skirmish.strike", combatant="kurt", target="voss", dice=[[50], [50], [10]])
    assert data(body, "ActionDeclared")[1] == {
        "combatant": "voss",
        "action": "parry",
        "targets": ["kurt"],
        "params": {"forced": True},
    }
    await enc.replay_matches_live()


async def test_contact_distance_sets_how_close_touching_is(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE), contact_distance=300)
    await draw(enc, "hale")
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss")
    assert data(body, "Moved")[0]["to"] == [-300, 0]  # he stops 3" away: that is touching here
    await enc.replay_matches_live()

    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE))
    await draw(enc, "hale")
    r = await enc.command("skirmish.strike", combatant="hale", target="voss", path=[[-250, 0]])
    assert r.status == 422 and "the path must end touching Pvt Voss" in r.body["error"]["message"]
    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE), contact_distance=300)
    await draw(enc, "hale")
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss", path=[[-250, 0]])
    assert data(body, "Moved")[0]["to"] == [-250, 0]
    await enc.replay_matches_live()


async def test_options_can_be_changed_mid_encounter(tussle):
    enc = await encounter(tussle)
    deck = [{"card": "All", "combatants": ["hale", "voss"]}]
    await enc.ok("set_options", options={"deck": deck, "morale_mode": "gm"})
    st = await enc.state()
    assert st["rules"]["deck"] == deck and st["rules"]["undrawn"] == ["All"]
    await enc.replay_matches_live()
