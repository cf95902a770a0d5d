"""Issue 8: each refusal of the skirmish ruleset over real HTTP: 422 with a message naming every failing
condition, 400 for a field that makes no sense, 403 for a seat sending what only the GM may. A refused command
appends nothing, so each scenario still replays to the live state."""

from __future__ import annotations

import pytest
from skirmish_http import VOSS_FACING_HALE, data, draw, encounter, set_posture, strike
from skirmish_world import HALE, KURT, VOSS

from tests.support.refusals import refused, unchanged


async def test_strike_refusals_name_each_condition(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT))
    before = await enc.state()
    r = await enc.command("skirmish.strike", combatant="hale", target="voss")
    refused(
        r,
        422,
        "Sgt Hale cannot strike Pvt Voss: Sgt Hale does not hold the card drawn (§Flow: the man that has the "
        "card starts as the attacker).",
    )
    await draw(enc, "hale")
    await enc.ok(
        "ruling",
        text="Voss is dead and Hale out cold",
        overrides={"combatants": {"voss": {"conditions": ["dead"]}, "hale": {"conditions": ["unconscious"]}}},
    )
    before = await enc.state()
    r = await enc.command("skirmish.strike", combatant="hale", target="voss")
    refused(
        r,
        422,
        "Sgt Hale cannot strike Pvt Voss: Sgt Hale is unconscious (out of the fight); Pvt Voss is dead.",
    )
    assert r.body["error"]["details"]["problems"] == [
        "Sgt Hale is unconscious (out of the fight)",
        "Pvt Voss is dead",
    ]
    await unchanged(enc, before)


async def test_one_hand_to_hand_per_card(tussle):
    enc = await encounter(tussle)
    await draw(enc, "hale")
    await enc.ok("set_standing_orders", combatant="voss", reactions={"hth_defence": "parry"})
    await enc.ok("skirmish.strike", combatant="hale", target="voss", dice=[[35], [88], [70], [58], [48]])
    before = await enc.state()
    r = await enc.command("skirmish.grapple", combatant="hale", target="voss")
    refused(r, 422, "Sgt Hale has already fought hand to hand on this card (§COUNTERSTRIKE")
    await unchanged(enc, before)


async def test_nothing_else_while_the_defender_chooses(tussle):
    enc = await encounter(tussle)
    body = await strike(enc)
    rid = data(body, "ReactionRequested")[0]["id"]
    before = await enc.state()
    r = await enc.command("skirmish.draw_card", dice=[[1]])
    assert r.status == 422 and r.body["error"]["code"] == "reaction_pending", r.body
    r = await enc.command("respond", reaction=rid, choice="flee", dice=[[1], [1]])
    assert r.status == 422, r.body
    await unchanged(enc, before)


async def test_a_prisoner_and_a_captor_holding_him_may_not_start_a_hand_to_hand(tussle):
    deck = [{"card": "A", "combatants": ["hale"]}, {"card": "B", "combatants": ["voss", "kurt"]}]
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT), deck=deck)
    await draw(enc, "hale")
    await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    await draw(enc, "voss")  # team card B: Voss is skipped, Kurt acts
    before = await enc.state()
    r = await enc.command("skirmish.strike", combatant="voss", target="kurt")
    refused(
        r,
        422,
        "Pvt Voss does not hold the card",
        "Pvt Voss is Sgt Hale's prisoner",
        "Pvt Voss is held by Sgt Hale",
    )
    await enc.ok("start_turn")
    await draw(enc, "hale")
    before = await enc.state()
    for verb in ("skirmish.strike", "skirmish.grapple"):
        r = await enc.command(verb, combatant="hale", target="kurt")
        refused(
            r,
            422,
            "Sgt Hale is holding a prisoner on the ground and must stand up first (skirmish.captor_acts with stand_up)",
        )
    r = await enc.command("skirmish.grapple", combatant="hale", target="kurt")
    refused(r, 422, "Sgt Hale is on stomach (§GRAPPLING: the attacker may grapple if he is standing)")
    await unchanged(enc, before)


async def test_a_kneeling_or_fallen_man_may_not_grapple(tussle):
    enc = await encounter(tussle)
    await set_posture(enc, "hale", "prone")
    await draw(enc, "hale")
    before = await enc.state()
    r = await enc.command("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    refused(
        r,
        422,
        "Sgt Hale cannot grapple Pvt Voss: Sgt Hale is prone (§GRAPPLING: the attacker may grapple if he is standing).",
    )
    await unchanged(enc, before)


@pytest.mark.parametrize(
    ("fields", "field"),
    [
        ({"target": "hale"}, "target"),
        ({"target": "voss", "facing_wrong_way": ["kurt"]}, "facing_wrong_way"),
        ({"target": "voss", "path": "north"}, None),
        ({"target": "voss", "path": []}, "path"),
        ({"target": "voss", "path": [[1.5, 0]]}, None),
        ({"target": "voss", "unknown": 1}, None),
    ],
)
async def test_strike_fields_that_make_no_sense_are_400(tussle, fields, field):
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT))
    await draw(enc, "hale")
    before = await enc.state()
    r = await enc.command("skirmish.strike", combatant="hale", **fields)
    assert r.status == 400, r.body
    if field:
        assert r.body["error"]["details"]["field"] == field
    await unchanged(enc, before)


async def test_unknown_figures_are_refused(tussle):
    enc = await encounter(tussle)
    await draw(enc, "hale")
    r = await enc.command("skirmish.strike", combatant="hale", target="ghost")
    refused(r, 422, "there is no combatant 'ghost' in this encounter")
    r = await enc.command("skirmish.captor_acts", combatant="ghost")
    refused(r, 422, "there is no combatant 'ghost'")
    r = await enc.command("skirmish.liberate", target="ghost", how="x")
    refused(r, 422, "there is no combatant 'ghost'")


async def test_a_path_must_end_touching_the_defender(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS_FACING_HALE))
    await draw(enc, "hale")
    before = await enc.state()
    r = await enc.command("skirmish.strike", combatant="hale", target="voss", path=[[-300, 0]])
    refused(
        r,
        422,
        "the path must end touching Pvt Voss (§Flow: the attacker moves to touch the defender): its last point is "
        '3.0" from Pvt Voss (touch is 1.0" between centres: option contact_distance)',
    )
    await unchanged(enc, before)


async def test_evade_answers_that_are_refused(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS, {**KURT, "position": [300, 0]}))
    body = await strike(enc)
    rid = data(body, "ReactionRequested")[0]["id"]
    before = await enc.state()
    r = await enc.command("respond", reaction=rid, choice="evade", to=[0, 700], dice=[[1], [99]])
    refused(
        r,
        422,
        'that evade move is not allowed: Pvt Voss can evade at most one move (6.0"; §EVADE: he is moved one move '
        "away), and that point "
        'is 7.0" away.',
    )
    r = await enc.command("respond", reaction=rid, choice="evade", to=[600, 0], dice=[[1], [99]])
    refused(r, 422, "the straight line to that point passes through another figure")
    r = await enc.command("respond", reaction=rid, choice="evade", to="east", dice=[[1], [99]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "to", r.body
    r = await enc.command("respond", reaction=rid, choice="evade", to=[0, 300], facing=400, dice=[[1], [99]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "facing", r.body
    r = await enc.command("respond", reaction=rid, choice="parry", speed=3, dice=[[1], [99]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "speed", r.body
    await unchanged(enc, before)


async def test_gm_results_only_when_awaited_and_only_listed_ones(tussle):
    enc = await encounter(tussle, charts=False)
    before = await enc.state()
    for verb, fields, what in (
        ("skirmish.record_damage_result", {"result": "light"}, "damage result"),
        ("skirmish.record_fall", {"result": "light"}, "fall result"),
        ("skirmish.record_morale", {"pass": True}, "morale"),
    ):
        r = await enc.command(verb, **fields)
        refused(r, 422, f"no {what} is awaited from the GM now.")
    r = await enc.command("skirmish.record_damage_result", result="grazed")
    assert r.status == 400, r.body
    await unchanged(enc, before)
    body = await strike(enc)
    rid = data(body, "ReactionRequested")[0]["id"]
    body = await enc.ok("respond", reaction=rid, choice="parry", dice=[[35], [88], [70], [58], [48]])
    rid = data(body, "ReactionRequested")[0]["id"]
    before = await enc.state()
    r = await enc.command("respond", reaction=rid, choice="light", note="chart p. 3")
    assert r.status == 400 and "takes only a choice" in r.body["error"]["message"], r.body
    r = await enc.command("skirmish.record_fall", result="light")  # the damage result is what is owed
    assert r.status == 422 and r.body["error"]["code"] == "reaction_pending", r.body
    await unchanged(enc, before)


async def test_gm_only_commands_are_403_for_a_seat(tussle):
    enc = await encounter(tussle)
    tok = await enc.seat("Hale's player", ["hale", "voss"])
    for verb, fields in (
        ("skirmish.draw_card", {}),
        ("skirmish.record_damage_result", {"result": "light"}),
        ("skirmish.record_fall", {"result": "light"}),
        ("skirmish.record_morale", {"pass": True}),
        ("skirmish.liberate", {"target": "voss", "how": "x"}),
    ):
        r = await enc.command(verb, token=tok, **fields)
        assert r.status == 403 and r.body["error"]["code"] == "forbidden", (verb, r.body)


async def test_a_seat_acts_only_for_its_own_figures(tussle):
    enc = await encounter(tussle)
    tok = await enc.seat("Voss's player", ["voss"])
    await draw(enc, "hale")
    for verb in ("skirmish.strike", "skirmish.grapple"):
        r = await enc.command(verb, token=tok, combatant="hale", target="voss")
        assert r.status == 403, r.body
    r = await enc.command("skirmish.captor_acts", token=tok, combatant="hale")
    assert r.status == 403, r.body


async def test_captor_acts_refusals(tussle):
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT))
    r = await enc.command("skirmish.captor_acts", combatant="hale")
    refused(
        r,
        422,
        "Sgt Hale cannot act as a captor: Sgt Hale does not hold the card drawn (§GRAPPLING: the prisoner moves on "
        "the captor's cards); Sgt Hale has no prisoner.",
    )
    await draw(enc, "hale")
    await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    await enc.ok("start_turn")
    await draw(enc, "hale")
    before = await enc.state()
    r = await enc.command("skirmish.captor_acts", combatant="hale", path=[[-100, 300]])
    refused(r, 422, "Sgt Hale is on stomach and must stand up to move (stand_up: true)")
    r = await enc.command("skirmish.captor_acts", combatant="hale", stand_up=True, path=[[-100, 900]])
    refused(
        r, 422, 'Sgt Hale can move at most one move (6.0") with a prisoner in tow; that path is 9.0" long.'
    )
    r = await enc.command("skirmish.captor_acts", combatant="hale", stand_up=True, path=[])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "path", r.body
    await unchanged(enc, before)


async def test_liberate_needs_a_prisoner(tussle):
    enc = await encounter(tussle)
    r = await enc.command("skirmish.liberate", target="voss", how="a ruling")
    refused(r, 422, "Pvt Voss is not anyone's prisoner.")


async def test_the_deck_runs_out(tussle):
    enc = await encounter(tussle)
    await enc.ok("skirmish.draw_card", dice=[[2]])
    r = await enc.command("skirmish.draw_card", dice=[[1]])
    # Only one card is left: it is turned up with no roll, so a die sent for it is refused.
    assert r.status == 400 and "dice[0] was supplied" in r.body["error"]["message"], r.body
    body = await enc.ok("skirmish.draw_card")
    assert [e["type"] for e in body["events"]] == ["ActionSpent", "CardDrawn"], body  # no DieRolled
    before = await enc.state()
    r = await enc.command("skirmish.draw_card")
    refused(
        r,
        422,
        "every card has been drawn this turn (a pass through the deck is one turn): start the next turn "
        "(start_turn) to gather the deck again.",
    )
    await unchanged(enc, before)


@pytest.mark.parametrize(
    "options",
    [
        {"fall_roll": "lots"},
        {"fall_roll": "d0"},
        {"contact_distance": -1},
        {"morale_mode": "dice"},
        {"wound_update": "double"},
        {"attacker_drops_weapons": "never"},
        {"hold_counts_as_pinned": "yes"},
        {"damage_chart": [{"min": 90, "max": 10, "result": "light"}]},
        {"damage_chart": [{"result": "grazed"}]},
        {"fall_chart": [{"min": 1, "result": "light", "extra": 1}]},
        {"deck": [{"card": "A"}]},
        {"initiative": "cards"},
    ],
)
async def test_bad_options_are_400(tussle, options):
    r = await tussle.request("POST", "/encounters", {"name": "x", "ruleset": "skirmish", "options": options})
    assert r.status == 400, r.body


@pytest.mark.parametrize(
    ("stats", "items", "field"),
    [
        ({"wound_level": "grazed"}, [], "combatant.stats.wound_level"),
        ({"hth_weapon": "club"}, [], "combatant.stats.hth_weapon"),
        ({"morale": 0}, [], "combatant.stats.morale"),
        ({"morale": 101}, [], "combatant.stats.morale"),
        ({"morale": True}, [], "combatant.stats.morale"),
        ({"move_in": -1}, [], "combatant.stats.move_in"),
        ({"move_in": "6"}, [], "combatant.stats.move_in"),
        ({"street_fighter": "yes"}, [], "combatant.stats.street_fighter"),
        ({"speedy": 1}, [], "combatant.stats.speedy"),
        ({}, [{"id": "x", "kind": 3}], "combatant.items[0].kind"),
    ],
)
async def test_bad_stats_are_400(tussle, stats, items, field):
    enc = await tussle.create("skirmish", dice="manual")
    r = await enc.command(
        "add_combatant", combatant={"id": "x", "name": "X", "side": "a", "stats": stats, "items": items}
    )
    assert r.status == 400 and r.body["error"]["details"]["field"] == field, r.body
