"""Issue 17, Skirmish (seed 002): what players who know the rule text tripped over, each played over real HTTP
(the real server, manual dice) and named after the seed clause it plays."""

from __future__ import annotations

from skirmish_http import data, draw, encounter, strike, types
from skirmish_world import HALE, KURT, VOSS


async def _hale_takes_voss_prisoner(enc) -> None:
    await draw(enc, "hale")
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    assert "PrisonerTaken" in types(body)


def _refusal(r) -> str:
    assert r.status == 422 and r.body["error"]["code"] == "rule_violation", r.body
    return r.body["error"]["message"]


async def test_he_is_moved_one_move_away_in_any_direction_he_may_face_any_direction_he_wishes(tussle):
    """§EVADE, for a defender whose only defence is evade (§PARRY "a pinned man cannot parry, may only evade"):
    he is asked, and the point and facing he names are where he goes and which way he faces."""
    enc = await encounter(tussle)
    await enc.ok(
        "ruling", text="Voss is pinned", overrides={"combatants": {"voss": {"conditions": ["pinned"]}}}
    )
    body = await strike(enc)
    assert "Moved" not in [e["type"] for e in body["events"] if e["data"].get("combatant") == "voss"]
    asked = data(body, "ReactionRequested")[0]
    assert (asked["combatant"], asked["options"], asked["default"]) == ("voss", ["evade"], "evade")
    # Sideways, not straight back, and facing north, not the attacker.
    answer = await enc.ok(
        "respond", reaction=asked["id"], choice="evade", to=[0, 500], facing=90, dice=[[10], [50]]
    )
    assert data(answer, "ExchangeResolved")[0]["winner"] == "voss"
    st = await enc.state()
    assert st["combatants"]["voss"]["position"] == [0, 500] and st["combatants"]["voss"]["facing"] == 90
    await enc.replay_matches_live()


async def test_a_pinned_man_cannot_parry_and_the_refusal_says_why(tussle):
    """§PARRY "Note that a pinned man cannot parry, may only evade": the refusal names the rule and the reason."""
    enc = await encounter(tussle)
    await enc.ok(
        "ruling", text="Voss is pinned", overrides={"combatants": {"voss": {"conditions": ["pinned"]}}}
    )
    rid = data(await strike(enc), "ReactionRequested")[0]["id"]
    r = await enc.command("respond", reaction=rid, choice="parry", dice=[[10], [50]])
    assert _refusal(r) == (
        "Pvt Voss cannot parry: Pvt Voss is pinned (§PARRY: a pinned man cannot parry, may only evade); "
        "Pvt Voss may evade."
    )


async def test_a_prisoner_moves_on_the_attackers_cards_till_liberated_even_when_struck(tussle):
    """§GRAPPLING "the defender is a prisoner and moves on the attacker's cards in the future till liberated":
    once his captor has stood up, a prisoner struck by another man may parry (he is no longer held) but not
    evade (an evade is a move of his own), and his captor's next move keeps him in touch."""
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT))
    await _hale_takes_voss_prisoner(enc)
    await enc.ok("start_turn")
    await draw(enc, "hale")
    stood = await enc.ok("skirmish.captor_acts", combatant="hale", stand_up=True)
    assert "PinReleased" in types(stood)
    await draw(enc, "kurt")
    body = await enc.ok("skirmish.strike", combatant="kurt", target="voss", dice=[[90], [10], [10]])
    declared = data(body, "ActionDeclared")[1]
    assert (declared["combatant"], declared["action"], declared["params"]) == (
        "voss",
        "parry",
        {"forced": True},
    )
    assert "ReactionRequested" not in types(body)
    assert not [e for e in body["events"] if e["type"] == "Moved" and e["data"]["combatant"] == "voss"]
    st = await enc.state()
    assert "prisoner" in st["combatants"]["voss"]["conditions"]
    # The GM moves Voss away from his captor (a table correction); Hale's next move draws him back into touch.
    await enc.ok("move", combatant="voss", to=[400, 0])
    await enc.ok("start_turn")
    await draw(enc, "hale")
    pulled = await enc.ok("skirmish.captor_acts", combatant="hale", path=[[-100, 300]])
    to = next(e["data"]["to"] for e in pulled["events"] if e["data"].get("reason") == "pulled")
    assert to == [0, 300]  # in touch (1") on the side he was, not 5" away
    await enc.replay_matches_live()


async def test_a_prisoners_player_is_told_the_truth_about_his_own_card(tussle):
    """§GRAPPLING "moves on the attacker's cards": when the prisoner's own card is drawn, his player's move is
    refused saying it is his card, and why he does not act on it."""
    enc = await encounter(tussle)
    voss = await enc.seat("Voss's player", ["voss"])
    await _hale_takes_voss_prisoner(enc)
    await draw(enc, "voss")
    r = await enc.command("move", token=voss, combatant="voss", to=[500, 0])
    assert _refusal(r) == (
        "Pvt Voss cannot move now: Pvt Voss's card was drawn, but Pvt Voss is Sgt Hale's prisoner and does not act "
        "on it (§GRAPPLING: a prisoner moves on his captor's cards till liberated)."
    )


async def _parry_modifiers(enc, attacker: str = "hale") -> list[tuple[int, str]]:
    rid = data(await strike(enc, attacker), "ReactionRequested")[0]["id"]
    body = await enc.ok("respond", reaction=rid, choice="parry", dice=[[90], [10], [10]])
    roll = next(d for d in data(body, "DieRolled") if d["purpose"] == "parry (defender)")
    return [(m["value"], m["reason"]) for m in roll["modifiers"]]


async def test_man_is_seriously_wounded_is_read_from_one_place(tussle):
    """§PARRY Modifiers "Man is seriously wounded -20": the wound level lives in rules.wound_levels. A ruling
    there counts; a ruling on the joining stat is refused, naming the place to rule on; a real wound shows there."""
    enc = await encounter(tussle, figures=(HALE, {**VOSS, "facing": 180}))
    r = await enc.command(
        "ruling",
        text="Voss is badly hurt",
        overrides={"combatants": {"voss": {"stats": {"wound_level": "serious"}}}},
    )
    message = _refusal(r)
    assert (
        "rules.wound_levels.voss" in message and '{"rules": {"wound_levels": {"voss": "serious"}}}' in message
    )
    await enc.ok(
        "ruling", text="Voss is badly hurt", overrides={"rules": {"wound_levels": {"voss": "serious"}}}
    )
    assert (-20, "seriously wounded") in await _parry_modifiers(enc)
    # Hale's blow (90 + 10 street fighter against 10) lands: damage [10] +10 +20 sword +20 = 60, light: worse_of
    # keeps serious. A real wound on an unwounded man shows in the same place.
    st = await enc.state()
    assert st["rules"]["wound_levels"]["voss"] == "serious"
    assert st["rules"]["wound_levels"]["hale"] == "none"
    # The figure's own stats show the same level: one value, wherever a client reads it.
    assert st["combatants"]["voss"]["stats"]["wound_level"] == "serious"
    assert st["combatants"]["hale"]["stats"]["wound_level"] == "none"


async def test_holding_the_other_man_preventing_any_movement_a_held_prisoner_accepts_the_blow(tussle):
    """§GRAPPLING "holding the other man, preventing any movement": held and down, he can neither parry nor evade,
    and the log says why he takes the blow."""
    enc = await encounter(tussle, figures=(HALE, VOSS, KURT))
    await _hale_takes_voss_prisoner(enc)
    await draw(enc, "kurt")
    body = await enc.ok("skirmish.strike", combatant="kurt", target="voss", dice=[[10]])
    assert data(body, "BlowAccepted")[0]["why"] == "held and down"
    texts = [e["text"] for e in (await enc.get("/log?format=json")).body["entries"]]
    assert any(t.startswith("Pvt Voss is held and down and must accept Cpl Kurt's blow") for t in texts), (
        texts
    )
