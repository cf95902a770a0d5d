"""Players move their own figures with the plain `move`, but only on their card (seed: "The man that has the card
... moves"; §GRAPPLING: a prisoner "moves on the attacker's cards"). Over real HTTP with manual dice."""

from __future__ import annotations

from skirmish_http import encounter, types
from skirmish_world import KURT


def _error(r) -> str:
    return r.body["error"]["message"]


async def test_a_player_moves_his_own_figure_on_his_card(tussle):
    enc = await encounter(tussle)
    hale = await enc.seat("Hale's player", ["hale"])
    await enc.ok("skirmish.draw_card", dice=[[1]])  # Hale's card
    r = await enc.command("move", token=hale, combatant="hale", to=[-800, 200], facing=90)
    assert r.status == 201, r.body
    assert types(r.body) == ["Moved"]
    st = await enc.state()
    assert st["combatants"]["hale"]["position"] == [-800, 200] and st["combatants"]["hale"]["facing"] == 90
    me = (await enc.get("/me", token=hale)).body
    assert "move" in me["legal_actions"]["hale"]
    await enc.replay_matches_live()


async def test_a_player_may_not_move_before_any_card_is_drawn(tussle):
    enc = await encounter(tussle)
    hale = await enc.seat("Hale's player", ["hale"])
    r = await enc.command("move", token=hale, combatant="hale", to=[-800, 0])
    assert r.status == 422 and r.body["error"]["code"] == "rule_violation", r.body
    assert _error(r) == (
        "Sgt Hale cannot move now: no card has been drawn yet (the GM draws with skirmish.draw_card)."
    )
    me = (await enc.get("/me", token=hale)).body
    assert "move" not in me["legal_actions"]["hale"]


async def test_a_player_may_not_move_a_figure_whose_card_is_not_held(tussle):
    enc = await encounter(tussle)
    voss = await enc.seat("Voss's player", ["voss"])
    await enc.ok("skirmish.draw_card", dice=[[1]])  # Hale's card, not Voss's
    r = await enc.command("move", token=voss, combatant="voss", to=[300, 0])
    assert r.status == 422, r.body
    assert _error(r) == (
        "Pvt Voss cannot move now: the card drawn now is Sgt Hale's card, not Pvt Voss's (a figure moves on its "
        "own card: §Flow, the man that has the card)."
    )
    # Nor someone else's figure, even on that figure's card.
    r = await enc.command("move", token=voss, combatant="hale", to=[-800, 0])
    assert r.status == 403, r.body
    # His own card comes up (the last one: no roll): now he may.
    await enc.ok("skirmish.draw_card")
    r = await enc.command("move", token=voss, combatant="voss", to=[300, 0])
    assert r.status == 201, r.body
    await enc.replay_matches_live()


async def test_the_gm_moves_any_figure_at_any_time(tussle):
    enc = await encounter(tussle)
    body = await enc.ok("move", combatant="voss", to=[100, 100])
    assert types(body) == ["Moved"]
    await enc.ok("skirmish.draw_card", dice=[[1]])
    await enc.ok("move", combatant="voss", to=[200, 100])
    assert (await enc.state())["combatants"]["voss"]["position"] == [200, 100]
    await enc.replay_matches_live()


async def test_a_team_card_lets_each_figure_on_it_move(tussle):
    deck = [{"card": "Allies", "combatants": ["hale", "kurt"]}, {"card": "Axis", "combatants": ["voss"]}]
    enc = await encounter(tussle, deck=deck)
    await enc.add(KURT)
    tok = await enc.seat("Allied player", ["hale", "kurt"])
    await enc.ok("skirmish.draw_card", dice=[[1]])
    for cid, to in (("hale", [-700, 0]), ("kurt", [0, 600])):
        r = await enc.command("move", token=tok, combatant=cid, to=to)
        assert r.status == 201, r.body
    await enc.replay_matches_live()


async def test_after_his_hand_to_hand_he_waits_for_his_next_card(tussle):
    enc = await encounter(tussle)
    hale = await enc.seat("Hale's player", ["hale"])
    await enc.ok("skirmish.draw_card", dice=[[1]])
    await enc.ok("set_standing_orders", combatant="voss", reactions={"hth_defence": "evade"})
    await enc.ok(
        "skirmish.strike", combatant="hale", target="voss", dice=[[44], [30], [20]]
    )  # Hale wins the evade
    r = await enc.command("move", token=hale, combatant="hale", to=[-800, 0])
    assert r.status == 422, r.body
    assert _error(r) == (
        "Sgt Hale cannot move now: Sgt Hale has fought hand to hand on this card (§COUNTERSTRIKE: two sweaty, "
        "slippery men wait for the next card)."
    )
    await enc.replay_matches_live()


async def _hale_holds_voss(enc) -> None:
    await enc.ok("skirmish.draw_card", dice=[[1]])
    body = await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])
    assert "PrisonerTaken" in types(body)


async def test_a_prisoner_moves_only_with_his_captor(tussle):
    enc = await encounter(tussle)
    voss = await enc.seat("Voss's player", ["voss"])
    hale = await enc.seat("Hale's player", ["hale"])
    await _hale_holds_voss(enc)
    body = await enc.ok("skirmish.draw_card")  # Voss's card, the last: skipped, he is a prisoner
    assert "ActivationSkipped" in types(body)
    r = await enc.command("move", token=voss, combatant="voss", to=[500, 0])
    assert r.status == 422, r.body
    assert "Pvt Voss is Sgt Hale's prisoner and does not act on it" in _error(r)
    # The captor's next card: a plain move would leave the prisoner behind, so it is refused, naming captor_acts.
    await enc.ok("start_turn")
    await enc.ok("skirmish.draw_card", dice=[[1]])
    r = await enc.command("move", token=hale, combatant="hale", to=[-900, 0])
    assert r.status == 422, r.body
    assert "Sgt Hale is holding Pvt Voss: a captor moves with skirmish.captor_acts" in _error(r)
    r = await enc.command("move", token=voss, combatant="voss", to=[500, 0])
    assert r.status == 422 and "prisoner" in _error(r)
    await enc.replay_matches_live()


async def test_moving_out_of_touch_leaves_the_close_combat(tussle):
    enc = await encounter(tussle)
    hale = await enc.seat("Hale's player", ["hale"])
    voss = await enc.seat("Voss's player", ["voss"])
    await enc.ok("skirmish.draw_card", dice=[[1]])
    await enc.ok("set_standing_orders", combatant="voss", reactions={"hth_defence": "parry"})
    # Hale strikes, Voss parries and his counterstrike fails: both stay in contact.
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss", dice=[[10], [50], [10], [50]])
    assert types(body)[-1] == "HandToHandEnded"
    st = await enc.state()
    group = st["combatants"]["voss"]["group"]
    assert group and st["combatants"]["hale"]["group"] == group
    await enc.ok("skirmish.draw_card")  # Voss's card, the last one
    # A step that keeps him in touch (centres 1" apart at most) keeps the group.
    r = await enc.command("move", token=voss, combatant="voss", to=[-50, 50])
    assert r.status == 201 and types(r.body) == ["Moved"], r.body
    r = await enc.command("move", token=voss, combatant="voss", to=[400, 0])
    assert r.status == 201, r.body
    assert types(r.body) == ["Moved", "CloseCombatLeft"]
    assert r.body["events"][1]["data"] == {"group": group, "combatant": "voss", "how": "moved away"}
    st = await enc.state()
    assert st["combatants"]["voss"]["group"] is None
    assert hale
    log = await enc.get("/log?format=json")
    assert log.status == 200
    assert "Pvt Voss leaves the close combat (moved away)." in [e["text"] for e in log.body["entries"]]
    await enc.replay_matches_live()
