"""Issue 8 over real HTTP with manual dice: the worked-example checks not yet driven through the API (E1a, E1b),
every modifier of the parry, counterstrike, evade and damage tables, the ties, the defender-options table, the
grapple's branches, a prisoner who moves on his captor's card, and the GM's Record* commands. Each scenario ends
with replay equal to live."""

from __future__ import annotations

import pytest
from skirmish_http import (
    VOSS_FACING_HALE,
    data,
    draw,
    encounter,
    mods,
    rolls,
    set_posture,
    strike,
    strike_and_answer,
    types,
)
from skirmish_world import HALE, KURT, VOSS

# ---- spec 5, E1 checks -------------------------------------------------------------------------------------


async def test_e1a_the_facing_modifier_is_left_out_of_the_counterstrike(tussle):
    enc = await encounter(tussle)
    body = await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [48]])
    assert mods(rolls(body, "parry (defender)")[0]) == [(-20, "facing the wrong way")]
    counter = rolls(body, "counterstrike (counterstriker)")[0]
    assert mods(counter) == [] and counter["total"] == 70  # 50 and a loss had the -20 been applied
    assert data(body, "ExchangeResolved")[1]["winner"] == "voss"
    await enc.replay_matches_live()


async def test_e1b_a_tied_parry_goes_to_the_counterstrike(tussle):
    enc = await encounter(tussle)
    body = await strike_and_answer(enc, "parry", [[50], [80], [70], [58], [48]])
    parry = data(body, "ExchangeResolved")[0]
    assert (parry["attacker_total"], parry["defender_total"], parry["winner"]) == (60, 60, "voss")
    assert data(body, "ExchangeResolved")[1]["kind"] == "counterstrike"
    await enc.replay_matches_live()


async def test_a_tied_counterstrike_is_no_win_and_the_hand_to_hand_ends(tussle):
    enc = await encounter(tussle)
    body = await strike_and_answer(enc, "parry", [[35], [88], [68], [58]])
    counter = data(body, "ExchangeResolved")[1]
    assert (counter["attacker_total"], counter["defender_total"], counter["winner"]) == (68, 68, "hale")
    assert data(body, "HandToHandEnded") == [
        {"attacker": "hale", "defender": "voss", "why": "counterstrike failed"}
    ]
    assert "DamageEvaluated" not in types(body)
    st = await enc.state()
    assert (
        st["combatants"]["hale"]["group"] == st["combatants"]["voss"]["group"] is not None
    )  # still in contact
    await enc.replay_matches_live()


async def test_a_parry_the_attacker_wins_goes_to_his_damage_evaluation(tussle):
    enc = await encounter(tussle)
    body = await strike_and_answer(enc, "parry", [[90], [50], [40]])
    assert data(body, "ExchangeResolved")[0]["winner"] == "hale"
    assert data(body, "DamageEvaluated") == [
        {"striker": "hale", "target": "voss", "total": 70, "result": "light"}
    ]
    await enc.replay_matches_live()


# ---- the parry (and counterstrike) modifiers, spec 4.4 ------------------------------------------------------


@pytest.mark.parametrize(
    ("level", "modifier"),
    [
        ("light", []),
        ("serious", [(-20, "seriously wounded")]),
        ("critical", [(-35, "critically wounded")]),
        ("mortal", [(-50, "mortally wounded")]),
    ],
)
async def test_parry_wound_modifiers_count_only_the_current_level(tussle, level, modifier):
    hale = {**HALE, "stats": {**HALE["stats"], "wound_level": level}}
    enc = await encounter(tussle, figures=(hale, VOSS_FACING_HALE))
    body = await strike_and_answer(enc, "parry", [[30], [50], [10], [90]])
    assert mods(rolls(body, "parry (attacker)")[0]) == [(10, "street fighter"), *modifier]
    assert mods(rolls(body, "parry (defender)")[0]) == []
    # The counterstrike uses the same rows (Hale is now the one struck at).
    assert mods(rolls(body, "counterstrike (original attacker)")[0]) == [(10, "street fighter"), *modifier]
    await enc.replay_matches_live()


async def test_parry_opponent_down_and_you_are_not(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE))
    await set_posture(enc, "voss", "prone")
    await draw(enc, "hale")
    # Down, Voss may only parry: it is applied at once, so the strike carries the dice.
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss", dice=[[50], [50], [30]])
    assert data(body, "ActionDeclared")[1] == {
        "combatant": "voss",
        "action": "parry",
        "targets": ["hale"],
        "params": {"forced": True},
    }
    assert mods(rolls(body, "parry (attacker)")[0]) == [
        (10, "street fighter"),
        (20, "opponent is down and you are not"),
    ]
    assert mods(rolls(body, "parry (defender)")[0]) == []
    await enc.replay_matches_live()


@pytest.mark.parametrize("posture", ["on_back", "on_stomach"])
async def test_every_lying_posture_counts_as_down(tussle, posture):
    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE))
    await set_posture(enc, "voss", posture)
    await draw(enc, "hale")
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss", dice=[[50], [50], [30]])
    assert (20, "opponent is down and you are not") in mods(rolls(body, "parry (attacker)")[0])
    await enc.replay_matches_live()


async def test_parry_opponent_kneeling_and_you_standing(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE))
    await set_posture(enc, "hale", "kneeling")
    body = await strike_and_answer(enc, "parry", [[50], [50], [10], [90]])
    assert mods(rolls(body, "parry (attacker)")[0]) == [(10, "street fighter")]
    assert mods(rolls(body, "parry (defender)")[0]) == [(10, "opponent is kneeling and you are standing")]
    assert mods(rolls(body, "counterstrike (counterstriker)")[0]) == [
        (10, "opponent is kneeling and you are standing")
    ]
    await enc.replay_matches_live()


async def test_facing_the_wrong_way_is_claimed_where_facing_is_not_recorded(tussle):
    hale = {k: v for k, v in HALE.items() if k not in ("position", "facing")}
    voss = {k: v for k, v in VOSS.items() if k not in ("position", "facing")}
    enc = await encounter(tussle, figures=(hale, voss))
    await draw(enc, "hale")
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss", facing_wrong_way=["voss"])
    rid = data(body, "ReactionRequested")[0]["id"]
    body = await enc.ok("respond", reaction=rid, choice="parry", dice=[[35], [88], [70], [58], [48]])
    assert mods(rolls(body, "parry (defender)")[0]) == [(-20, "facing the wrong way")]
    await enc.replay_matches_live()


# ---- the evade, spec 4.6 ------------------------------------------------------------------------------------


async def test_evade_only_the_defender_counts_speedy_and_wounds_do_not_count(tussle):
    hale = {**HALE, "stats": {**HALE["stats"], "speedy": True, "wound_level": "mortal"}}
    voss = {**VOSS_FACING_HALE, "stats": {**VOSS["stats"], "wound_level": "critical"}}
    enc = await encounter(tussle, figures=(hale, voss))
    body = await strike_and_answer(enc, "evade", [[44], [37]])
    assert mods(rolls(body, "evade (attacker)")[0]) == []
    assert mods(rolls(body, "evade (defender)")[0]) == [(10, "speedy")]
    assert data(body, "ExchangeResolved")[0]["winner"] == "voss"
    await enc.replay_matches_live()


async def test_evade_without_a_point_moves_one_move_straight_away_facing_the_attacker(tussle):
    enc = await encounter(tussle)
    body = await strike_and_answer(enc, "evade", [[10], [50]])
    # Hale stops 1" west of Voss; Voss retreats 6" east and turns round to face him.
    assert data(body, "Moved")[-1] == {
        "combatant": "voss",
        "to": [600, 0],
        "reason": "evade",
        "facing": None,
        "from": [0, 0],
    }
    assert data(body, "FacingChanged") == [{"combatant": "voss", "facing": 180}]
    assert data(body, "HandToHandEnded")[0]["why"] == "evaded"
    await enc.replay_matches_live()


# ---- the damage evaluation modifiers, spec 4.7 --------------------------------------------------------------


async def test_damage_wound_rows_for_both_sides(tussle):
    hale = {**HALE, "stats": {**HALE["stats"], "wound_level": "serious"}}
    voss = {**VOSS_FACING_HALE, "stats": {**VOSS["stats"], "wound_level": "critical"}}
    enc = await encounter(tussle, figures=(hale, voss))
    body = await strike_and_answer(enc, "parry", [[90], [10], [40]])
    damage = rolls(body, "damage evaluation")[0]
    assert mods(damage) == [
        (10, "street fighter"),
        (20, "armed with a sword"),
        (20, "opponent seriously wounded or worse"),
        (-20, "seriously wounded or worse"),
    ]
    assert damage["total"] == 70
    await enc.replay_matches_live()


@pytest.mark.parametrize(
    ("weapon", "row"),
    [
        ("sword", [(20, "armed with a sword")]),
        ("rifle_bayonet", [(10, "armed with a rifle and bayonet")]),
        ("other", []),
        ("none", []),
    ],
)
async def test_damage_only_the_strikers_own_weapon_row_counts(tussle, weapon, row):
    kurt = {**KURT, "position": [0, 300], "facing": 270, "stats": {**KURT["stats"], "hth_weapon": weapon}}
    enc = await encounter(tussle, figures=(kurt, VOSS_FACING_HALE))
    await set_posture(enc, "voss", "prone")
    await draw(enc, "kurt")
    body = await enc.ok("skirmish.strike", combatant="kurt", target="voss", dice=[[90], [10], [40]])
    assert mods(rolls(body, "damage evaluation")[0]) == row
    await enc.replay_matches_live()


# ---- the defender-options table, spec 4.2 -------------------------------------------------------------------


async def test_an_unconscious_defender_accepts_the_blow(tussle):
    enc = await encounter(tussle)
    await enc.ok(
        "ruling", text="Voss is out cold", overrides={"combatants": {"voss": {"conditions": ["unconscious"]}}}
    )
    body = await strike(enc, dice=[[40]])
    assert data(body, "BlowAccepted") == [{"attacker": "hale", "defender": "voss", "why": "unconscious"}]
    assert [d["purpose"] for d in data(body, "DieRolled")] == ["damage evaluation"]
    assert types(body)[-1] == "HandToHandEnded"
    await enc.replay_matches_live()


async def test_a_pinned_man_cannot_parry_may_only_evade_and_is_asked_where_to(tussle):
    """§PARRY "a pinned man cannot parry, may only evade"; §EVADE "He is moved one move away in any direction.
    He may face any direction he wishes": the only defence is still his to shape."""
    enc = await encounter(tussle)
    await enc.ok(
        "ruling", text="Voss is pinned", overrides={"combatants": {"voss": {"conditions": ["pinned"]}}}
    )
    body = await strike(enc)
    asked = data(body, "ReactionRequested")[0]
    assert asked["options"] == ["evade"] and asked["combatant"] == "voss"
    assert "pinned" in asked["question"] and "facing" in asked["question"]
    answer = await enc.ok(
        "respond", reaction=asked["id"], choice="evade", to=[0, 600], facing=270, dice=[[10], [50]]
    )
    assert data(answer, "Moved")[-1]["to"] == [0, 600]
    assert data(answer, "FacingChanged")[-1]["facing"] == 270
    await enc.replay_matches_live()


async def test_pinned_and_down_accepts_the_blow(tussle):
    enc = await encounter(tussle)
    await enc.ok(
        "ruling",
        text="Voss is pinned and prone",
        overrides={"combatants": {"voss": {"conditions": ["pinned"], "posture": "prone"}}},
    )
    body = await strike(enc, dice=[[40]])
    assert data(body, "BlowAccepted")[0]["why"] == "pinned and down"
    await enc.replay_matches_live()


async def test_out_of_reach_no_hand_to_hand_occurs(tussle):
    enc = await encounter(tussle, figures=(HALE, {**VOSS, "position": [1000, 0]}))
    body = await strike(enc)
    # 15" apart, touching at 1": 14" to go and one move is 6".
    assert data(body, "HandToHandImpossible") == [
        {"attacker": "hale", "defender": "voss", "why": "out of reach", "distance": 1400, "reach": 600}
    ]
    assert types(body) == ["HandToHandImpossible"]
    st = await enc.state()
    assert st["rules"]["exchange"] is None and "hale" not in st["rules"]["fought"]
    # The card is not used up: a path he can walk now reaches.
    await enc.ok("move", combatant="voss", to=[200, 0])
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss", path=[[100, 0]])
    assert "SkirmishDefenceAwaited" in types(body)
    await enc.replay_matches_live()


# ---- the grapple, spec 4.8 ----------------------------------------------------------------------------------


async def test_grapple_aborted_when_the_free_blow_knocks_the_grappler_out(tussle):
    chart = [{"max": 30, "result": "no_effect"}, {"min": 31, "result": "unconscious"}]
    enc = await encounter(tussle, damage_chart=chart)
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[40]])
    assert data(body, "GrappleAborted") == [
        {"attacker": "hale", "defender": "voss", "why": "the grappler is unconscious"}
    ]
    assert "PostureChanged" not in types(body) and "PrisonerTaken" not in types(body)
    st = await enc.state()
    assert "unconscious" in st["combatants"]["hale"]["conditions"] and st["rules"]["exchange"] is None
    await enc.replay_matches_live()


async def test_an_unconscious_defender_gets_no_free_blow(tussle):
    enc = await encounter(tussle)
    await enc.ok(
        "ruling", text="Voss is out cold", overrides={"combatants": {"voss": {"conditions": ["unconscious"]}}}
    )
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[10], [45]])
    assert [d["purpose"] for d in data(body, "DieRolled")] == ["one-storey fall", "morale"]
    assert data(body, "PrisonerTaken") == [{"prisoner": "voss", "captor": "hale"}]
    await enc.replay_matches_live()


async def test_e3_the_whole_grapple_sequence_of_events(tussle):
    enc = await encounter(tussle)
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    assert types(body) == [
        "ActionDeclared",
        "Moved",
        "CloseCombatJoined",
        "DieRolled",
        "DamageEvaluated",  # 1. Voss's free blow: no effect
        "PostureChanged",
        "DieRolled",
        "WoundLevelChanged",
        "Wounded",  # 2. Voss falls: fall 71 is light
        "ItemDropped",
        "ItemDropped",  #    rifle and grenade
        "DieRolled",
        "PostureChanged",
        "PinApplied",
        "ConditionChanged",  # 3. morale 45 <= 60
        "PrisonerTaken",
        "ItemDropped",  #    Hale drops his sword
        "CloseCombatJoined",
        "HandToHandEnded",
        "ActionSpent",
    ]  # 4.
    morale = rolls(body, "morale")[0]
    assert (morale["total"], morale["target"], morale["outcome"]) == (45, 60, "pass")
    assert data(body, "ItemDropped")[0]["at"] == [0, 0]
    assert data(body, "CloseCombatJoined")[-1]["standing"] is False
    assert data(body, "ActionSpent") == [{"combatant": "hale", "turn": 1, "why": "grappled"}]
    await enc.replay_matches_live()


# ---- a prisoner moves on his captor's card, until liberated (spec 4.9) --------------------------------------


async def _e3(enc) -> None:
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    assert "PrisonerTaken" in types(body)


async def test_a_prisoner_moves_on_his_captors_card_until_liberated(tussle):
    enc = await encounter(tussle)
    hale = await enc.seat("Hale's player", ["hale"])
    await _e3(enc)
    body = await draw(enc, "voss")
    assert data(body, "ActivationSkipped") == [{"combatant": "voss", "why": "prisoner"}]
    await enc.ok("start_turn")
    await draw(enc, "hale")
    # On his card the captor keeps holding (PinHeld) ...
    r = await enc.command("skirmish.captor_acts", token=hale, combatant="hale")
    assert r.status == 201, r.body
    assert data(r.body, "PinHeld") == [{"holder": "hale", "pinned": "voss", "turn": 2}]
    await enc.ok("start_turn")
    await draw(enc, "hale")
    # ... and on a later card he stands and walks off, dragging Voss along.
    r = await enc.command(
        "skirmish.captor_acts", token=hale, combatant="hale", stand_up=True, path=[[-100, 300], [-100, 500]]
    )
    assert r.status == 201, r.body
    assert types(r.body) == [
        "ActionDeclared",
        "PinReleased",
        "PostureChanged",
        "PostureChanged",
        "Moved",
        "Moved",
    ]
    assert data(r.body, "PinReleased") == [{"pinned": "voss", "holder": "hale", "why": "captor stood"}]
    hale_at = (await enc.state(at=r.body["events"][0]["seq"] - 1))["combatants"]["hale"]["position"]
    moved = data(r.body, "Moved")
    assert moved[0]["combatant"] == "hale" and moved[0]["to"] == [-100, 500]
    assert moved[1]["combatant"] == "voss" and moved[1]["reason"] == "pulled"
    assert moved[1]["to"] == [
        0 + (-100 - hale_at[0]),
        0 + (500 - hale_at[1]),
    ]  # he keeps his place beside Hale
    st = await enc.state()
    assert "prisoner" in st["combatants"]["voss"]["conditions"]
    assert st["combatants"]["voss"]["posture"] == st["combatants"]["hale"]["posture"] == "standing"
    assert st["rules"]["prisoners"] == [{"prisoner": "voss", "captor": "hale"}]
    # Voss's own card is still skipped; the GM then liberates him.
    body = await draw(enc, "voss")
    assert data(body, "ActivationSkipped")[0]["why"] == "prisoner"
    body = await enc.ok("skirmish.liberate", target="voss", how="Kurt cuts him loose")
    assert types(body) == ["RulingMade", "ConditionChanged", "PrisonerLiberated"]
    assert data(body, "PrisonerLiberated") == [
        {"prisoner": "voss", "captor": "hale", "how": "Kurt cuts him loose"}
    ]
    st = await enc.state()
    assert "prisoner" not in st["combatants"]["voss"]["conditions"] and st["rules"]["prisoners"] == []
    await enc.replay_matches_live()


async def test_a_captor_knocked_out_frees_his_prisoner(tussle):
    enc = await encounter(tussle)
    await _e3(enc)
    body = await enc.ok(
        "ruling",
        text="a shell knocks Hale out",
        overrides={"combatants": {"hale": {"conditions": ["unconscious"]}}},
    )
    assert types(body)[1:] == ["PinReleased", "ConditionChanged", "PrisonerLiberated"]
    assert data(body, "PrisonerLiberated")[0]["how"] == "captor unconscious"
    assert (await enc.state())["pins"] == []
    await enc.replay_matches_live()


# ---- the GM's results: Record* commands and respond, spec 4.7-4.8 ------------------------------------------


async def test_a_grapple_with_every_result_owed_by_the_gm(tussle):
    enc = await encounter(tussle, charts=False, morale_mode="gm")
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22]])
    assert data(body, "DamageResultAwaited") == [{"striker": "voss", "target": "hale", "total": 32}]
    # The GM answers the damage question with respond (the fall is rolled in the same command) ...
    rid = data(body, "ReactionRequested")[0]["id"]
    body = await enc.ok("respond", reaction=rid, choice="no_effect", dice=[[71]])
    assert data(body, "FallResultAwaited") == [{"combatant": "voss", "total": 71}]
    assert (await enc.state())["rules"]["exchange"]["step"] == "awaiting_gm_result"
    # ... and the fall and the morale test with the spec's commands.
    body = await enc.ok("skirmish.record_fall", result="serious")
    assert data(body, "WoundLevelChanged") == [
        {"combatant": "voss", "from": "none", "to": "serious", "source": "one-storey fall"}
    ]
    assert data(body, "MoraleAwaited") == [
        {"combatant": "hale"}
    ]  # morale_mode gm, although Hale has morale 60
    assert (await enc.state())["rules"]["exchange"]["step"] == "morale"
    body = await enc.ok("skirmish.record_morale", **{"pass": False})
    assert types(body)[:2] == ["ReactionAnswered", "PostureChanged"]
    assert data(body, "PostureChanged") == [{"combatant": "hale", "posture": "on_back"}]
    assert "PrisonerTaken" not in types(body) and types(body)[-1] == "ActionSpent"
    await enc.replay_matches_live()


async def test_record_morale_pass_takes_the_prisoner(tussle):
    enc = await encounter(tussle, morale_mode="gm")
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71]])
    assert types(body)[-2:] == ["MoraleAwaited", "ReactionRequested"]
    body = await enc.ok("skirmish.record_morale", **{"pass": True})
    assert data(body, "PrisonerTaken") == [{"prisoner": "voss", "captor": "hale"}]
    await enc.replay_matches_live()


async def test_a_figure_without_a_morale_stat_is_tested_by_the_gm(tussle):
    hale = {**HALE, "stats": {k: v for k, v in HALE["stats"].items() if k != "morale"}}
    enc = await encounter(tussle, figures=(hale, VOSS))
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71]])
    assert data(body, "MoraleAwaited") == [{"combatant": "hale"}]
    rid = data(body, "ReactionRequested")[0]["id"]
    body = await enc.ok("respond", reaction=rid, choice="pass")
    assert "PrisonerTaken" in types(body)
    await enc.replay_matches_live()


@pytest.mark.parametrize(
    ("result", "events"),
    [
        ("unconscious", ["ConditionChanged"]),
        ("dead", ["ConditionChanged"]),
        ("no_effect", []),
        ("mortal", ["WoundLevelChanged", "Wounded"]),
    ],
)
async def test_every_damage_result_the_gm_may_record(tussle, result, events):
    enc = await encounter(tussle, charts=False)
    await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [48]])
    body = await enc.ok("skirmish.record_damage_result", result=result)
    assert types(body) == ["ReactionAnswered", *events, "HandToHandEnded"]
    if result == "mortal":
        assert data(body, "Wounded") == [{"combatant": "hale", "amount": 4, "source": "voss"}]
    await enc.replay_matches_live()
