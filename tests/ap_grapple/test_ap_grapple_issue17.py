"""Issue 17 (rules fidelity, round 2), AP grappling over HTTP: movement spends AP, so "walk 2 hexes, then
grab" can be played by a player (§Intro: "Grappling requires a variable expenditure of action points (AP)";
§Make a Grab: "This move requires 3 AP to perform"; spec section 1: 1 AP per hex at a normal pace)."""

from __future__ import annotations

from ap_grapple_http import data, encounter, log_texts, types


async def _refused(enc, r, *phrases):
    assert r.status == 422 and r.body["error"]["code"] == "rule_violation", r.body
    for p in phrases:
        assert p in r.body["error"]["message"], (p, r.body["error"]["message"])


async def test_every_action_costs_ap_walk_2_hexes_then_grab(tussle):
    """Cade (5 AP) walks 2 hexes to Berk and grabs him with the 3 AP left: his own player plays it (rolling
    physical dice: manual_dice_from actor)."""
    enc = await encounter(tussle, manual_dice_from="actor")
    seat = await enc.seat("Cade's player", ["cade"])
    assert "ap-grapple.move" in (await enc.state(token=seat))["legal_actions"]["cade"]
    r = await enc.command("ap-grapple.move", token=seat, combatant="cade", path=[[3, 0], [2, 0]])
    assert r.status == 201, r.body
    assert types(r.body) == ["ActionDeclared", "Moved", "Moved", "APSpent"]
    assert data(r.body, "APSpent")[0] == {
        "combatant": "cade",
        "round": 1,
        "amount": 2,
        "remaining": 3,
        "why": "move",
    }
    state = await enc.state()
    assert state["combatants"]["cade"]["position"] == [2, 0] and state["rules"]["ap_left"]["cade"] == 3
    r = await enc.command(
        "ap-grapple.make_a_grab", token=seat, combatant="cade", target="berk", dice=[[13], [20]]
    )
    assert r.status == 201, r.body
    assert data(r.body, "APSpent")[0]["remaining"] == 0
    assert "ActionSpent" in types(r.body)
    texts = await log_texts(enc)
    assert "Round 1. Cade walks 2 hexes to [2, 0] (2 AP; 3 AP left)." in texts
    await enc.replay_matches_live()


async def test_a_walk_costs_1_ap_a_hex_through_open_hexes(tussle):
    """One AP a hex, each hex next to the last and open (a combatant holds its hex); no more hexes than AP."""
    enc = await encounter(tussle)
    before = (await enc.state())["seq"]
    r = await enc.command(
        "ap-grapple.move", combatant="cade", path=[[5, 0], [6, 0], [7, 0], [8, 0], [9, 0], [10, 0]]
    )
    await _refused(enc, r, "Cade cannot move: the path is 6 hexes (6 AP) but Cade has only 5 AP")
    r = await enc.command("ap-grapple.move", combatant="cade", path=[[3, 0], [2, 0], [1, 0]])
    await _refused(enc, r, "path[2] [1, 0] is held by Berk")
    r = await enc.command("ap-grapple.move", combatant="cade", path=[[2, 0]])
    await _refused(enc, r, "path[0] [2, 0] is not next to [4, 0]")
    r = await enc.command("ap-grapple.move", combatant="cade", path=[])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "path", r.body
    assert (await enc.state())["seq"] == before


async def test_the_plain_move_is_a_walk_once_a_round_runs(tussle):
    """The plain `move {to}` spends the hex distance in AP (player or GM) once a round runs; before round 1
    it is the GM's placement, free; a walk that spends the last AP ends the combatant's round."""
    enc = await encounter(tussle, start=False)
    body = await enc.ok("move", combatant="cade", to=[6, 0])
    assert types(body) == ["Moved"]
    await enc.ok("start_turn")
    seat = await enc.seat("Cade's player", ["cade"])
    r = await enc.command("move", token=seat, combatant="cade", to=[4, 0])
    assert r.status == 201, r.body
    assert data(r.body, "APSpent")[0]["amount"] == 2
    r = await enc.command("move", token=seat, combatant="cade", to=[0, 3])
    await _refused(enc, r, "[0, 3] is 4 hexes away (4 AP) but Cade has only 3 AP")
    r = await enc.command("move", token=seat, combatant="aldo", to=[0, 1])
    assert r.status == 403, r.body
    body = await enc.ok("move", combatant="aldo", to=[-5, 0])
    assert data(body, "APSpent")[0] == {
        "combatant": "aldo",
        "round": 1,
        "amount": 5,
        "remaining": 0,
        "why": "move",
    }
    assert types(body)[-1] == "ActionSpent"
    await enc.replay_matches_live()


async def test_the_stunned_enemy_may_spend_no_ap_walking_either(tussle):
    """§Make a Grab: "Success indicates the enemy has been stunned": a stunned Berk may not walk away."""
    enc = await encounter(tussle)
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    rid = data(body, "ReactionRequested")[0]["id"]
    await enc.ok("respond", reaction=rid, choice="right")
    r = await enc.command("ap-grapple.move", combatant="berk", path=[[1, 1]])
    await _refused(enc, r, "Berk is stunned until the end of round 2 and may spend no AP")
    r = await enc.command("move", combatant="berk", to=[1, 1])
    await _refused(enc, r, "Berk is stunned until the end of round 2 and may spend no AP")
