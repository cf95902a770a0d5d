"""The worked examples of spec section 5 over real HTTP with manual dice, refusals as 422, and
replay equal to live for every scenario."""

from __future__ import annotations

from ap_grapple_http import data, encounter, g1, types
from ap_grapple_world import ALDO, ALDO_HEX, BERK, BERK_HEX, LEFT_HEX, RIGHT_HEX


async def test_g1_over_http(tussle):
    enc = await encounter(tussle)
    body = await g1(enc)
    assert data(body, "PullChance")[0]["percent"] == 54
    assert data(body, "PulledOffBalance")[0]["stunned_until_round"] == 2
    st = await enc.state()
    assert st["rules"]["ap_left"]["aldo"] == 2
    assert st["rules"]["pending_swings"][0]["defender"] == "berk"
    assert "stunned" in st["combatants"]["berk"]["conditions"]
    assert st["pending"][0]["kind"] == "swing_target"
    await enc.replay_matches_live()


async def test_g2_g3_g4_over_http(tussle):
    enc = await encounter(tussle)
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [54]])
    assert data(body, "DieRolled")[1]["outcome"] == "success"
    await enc.replay_matches_live()

    enc = await encounter(tussle)
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [55]])
    assert types(body)[-1] == "GripLost"
    st = await enc.state()
    assert "stunned" not in st["combatants"]["berk"]["conditions"] and st["rules"]["ap_left"]["aldo"] == 2
    await enc.replay_matches_live()

    enc = await encounter(tussle)
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]])
    assert types(body) == ["ActionDeclared", "APSpent", "DieRolled"]
    assert (await enc.state())["rules"]["ap_left"]["aldo"] == 2
    await enc.replay_matches_live()


async def test_g5_then_b1_over_http(tussle):
    enc = await encounter(tussle)
    await g1(enc)
    body = await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    assert types(body) == ["ReactionAnswered", "ActionDeclared", "Moved", "CloseCombatJoined", "GripReleased"]
    st = await enc.state()
    assert st["combatants"]["berk"]["position"] == ALDO_HEX and st["pending"] == []
    assert st["groups"][st["combatants"]["aldo"]["group"]]["standing"] is True
    await enc.ok("start_turn")
    body = await enc.ok("ap-grapple.brawl", combatant="aldo", target="berk", path=[], dice=[[10]])
    assert types(body) == [
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
    assert data(body, "WeightRatio")[0]["row"] == "even"
    st = await enc.state()
    assert st["combatants"]["aldo"]["posture"] == "prone" and st["combatants"]["berk"]["posture"] == "prone"
    assert st["groups"][st["combatants"]["aldo"]["group"]]["standing"] is False
    await enc.replay_matches_live()


async def test_swing_target_from_a_seat_is_answered_by_that_seat(tussle):
    enc = await encounter(tussle)
    seat = await enc.seat_full("Al", ["aldo"])
    await g1(enc)
    asked = (await enc.state())["pending"][0]["asked_of"]
    body = await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex", token=seat["token"])
    answered = data(body, "ReactionAnswered")[0]
    assert answered["by"] == f"seat:{asked}" and body["events"][0]["actor"] == answered["by"]
    await enc.replay_matches_live()


async def test_g6_over_http_by_respond(tussle):
    enc = await encounter(tussle)
    body = await g1(enc)
    reaction = data(body, "ReactionRequested")[0]["id"]
    r = await enc.command("respond", reaction=reaction, choice="right", barrier=True, dice=[[2]])
    assert r.status == 201, r.body
    assert data(r.body, "Wounded") == [{"combatant": "berk", "amount": 2, "source": "swung against barrier"}]
    st = await enc.state()
    assert st["combatants"]["berk"]["position"] == RIGHT_HEX and st["combatants"]["berk"]["wounds"] == 2
    await enc.replay_matches_live()


async def test_swing_left_and_in_place_over_http(tussle):
    enc = await encounter(tussle)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="left")
    assert (await enc.state())["combatants"]["berk"]["position"] == LEFT_HEX
    await enc.replay_matches_live()

    enc = await encounter(tussle)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="in_place", barrier=True, dice=[[3]])
    st = await enc.state()
    assert st["combatants"]["berk"]["position"] == BERK_HEX and st["combatants"]["berk"]["wounds"] == 3
    await enc.replay_matches_live()


async def test_g7_and_b3_refusals_over_http(tussle):
    enc = await encounter(tussle)
    await g1(enc)
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    assert r.status == 422 and r.body["error"]["code"] == "reaction_pending", r.body
    r = await enc.command("start_turn")
    assert r.status == 422, r.body
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="in_place")
    assert r.status == 422 and "in_place is only for a swing against a barrier" in r.body["error"]["message"]
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    assert r.status == 422 and "a grab needs 3 AP and Aldo has 2 left" in r.body["error"]["message"]
    r = await enc.command("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[10]])
    assert r.status == 422
    assert "a brawl takes the whole round and Aldo has already spent 3 of 5 AP" in r.body["error"]["message"]
    r = await enc.command("ap-grapple.pass", combatant="berk")
    assert r.status == 422 and "Berk is stunned until the end of round 2" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_b2_over_http(tussle):
    enc = await encounter(tussle)
    body = await enc.ok(
        "ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0]], dice=[[9]]
    )
    roll = data(body, "DieRolled")[0]
    assert (roll["total"], roll["target"], roll["outcome"]) == (10, 11, "miss")
    st = await enc.state()
    assert st["combatants"]["cade"]["position"] == [2, 0] and st["rules"]["ap_left"]["cade"] == 0
    await enc.replay_matches_live()


async def test_bad_fields_are_400_and_missing_dice_422(tussle):
    enc = await encounter(tussle)
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk")
    assert r.status == 422 and r.body["error"]["code"] == "dice_needed"
    r = await enc.command(
        "ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]], to_hit_target=4
    )
    assert r.status == 400 and r.body["error"]["details"].get("field", "to_hit_target") == "to_hit_target"
    r = await enc.command("ap-grapple.brawl", combatant="cade", target="berk", path=[["x", 0]], dice=[[9]])
    assert r.status == 400
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="cade", dice=[[9]])
    assert r.status == 422 and "Cade is on Aldo's own side" in r.body["error"]["message"]


async def test_player_seat_and_log_over_http(tussle):
    enc = await encounter(tussle)
    token = await enc.seat("Alice", ["aldo"])
    r = await enc.command("ap-grapple.pass", token=token, combatant="berk")
    assert r.status == 403, r.body
    body = await g1(enc)
    reaction = data(body, "ReactionRequested")[0]
    assert reaction["asked_of"] != "gm"
    r = await enc.command("respond", token=token, reaction=reaction["id"], choice="own_hex")
    assert r.status == 201, r.body
    await enc.replay_matches_live()
    log = await enc.get("/log?format=json")
    assert log.status == 200, log.body
    text = str(log.body)
    assert "Aldo tries to grab Berk (3 AP; 2 AP left)." in text
    assert "Aldo swings Berk into Aldo's own hex." in text


async def test_auto_round_start_over_http(tussle):
    enc = await encounter(tussle)
    await enc.ok("ap-grapple.pass", combatant="cade")
    await enc.ok("ap-grapple.pass", combatant="berk")
    body = await enc.ok("ap-grapple.pass", combatant="aldo")
    assert types(body)[-1] == "TurnStarted"
    st = await enc.state()
    assert st["turn"] == 2 and st["rules"]["ap_left"] == {"aldo": 5, "berk": 5, "cade": 5}
    await enc.replay_matches_live()


async def test_a_round_the_rules_start_rotates_the_seed(tussle):
    """rotate_seed_each_turn follows the ruleset's own TurnStarted (4.1), not only start_turn."""
    enc = await tussle.create("ap-grapple", options={"rotate_seed_each_turn": True})
    for cid, stats, pos in (("aldo", ALDO, ALDO_HEX), ("berk", BERK, BERK_HEX)):
        await enc.add(
            {"id": cid, "name": cid.title(), "side": cid, "stats": stats, "position": pos, "facing": 0}
        )
    assert types(await enc.ok("start_turn"))[-1] == "DiceSeedRotated"
    await enc.ok("ap-grapple.pass", combatant="berk")
    body = await enc.ok("ap-grapple.pass", combatant="aldo")
    assert types(body)[-2:] == ["TurnStarted", "DiceSeedRotated"]
    await enc.replay_matches_live()


async def test_ruleset_is_listed_with_its_options_and_commands(tussle):
    r = await tussle.request("GET", "/rulesets")
    assert r.status == 200
    mine = next(x for x in r.body["rulesets"] if x["id"] == "ap-grapple")
    assert mine["geometry"]["kind"] == "hex_axial"
    text = str(mine)
    for name in (
        "strict_initiative",
        "to_hit",
        "stun_duration",
        "swing_destinations",
        "brawl_ratio_rule",
        "ap-grapple.make_a_grab",
        "ap-grapple.swing_target",
        "ap-grapple.brawl",
        "ap-grapple.pass",
    ):
        assert name in text


async def test_unknown_option_is_refused(tussle):
    r = await tussle.request(
        "POST", "/encounters", {"name": "x", "ruleset": "ap-grapple", "options": {"stun_duration": "forever"}}
    )
    assert r.status == 400


async def test_me_lists_legal_actions(tussle):
    enc = await encounter(tussle)
    token = await enc.seat("Alice", ["aldo"])
    r = await enc.get("/me", token=token)
    assert r.status == 200, r.body
    assert r.body["legal_actions"]["aldo"] == [
        "ap-grapple.make_a_grab",
        "ap-grapple.brawl",
        "ap-grapple.move",
        "ap-grapple.pass",
    ]


async def test_gm_voids_a_wrong_barrier_claim(tussle):
    enc = await encounter(tussle)
    await g1(enc)
    body = await enc.ok("ap-grapple.swing_target", combatant="aldo", to="right", barrier=True, dice=[[3]])
    wounded = next(e["seq"] for e in body["events"] if e["type"] == "Wounded")
    await enc.ok("void", seq=wounded, reason="there is no wall on that side")
    st = await enc.state()
    assert st["combatants"]["berk"]["wounds"] == 0 and st["combatants"]["berk"]["position"] == RIGHT_HEX
    await enc.ok("ruling", text="Berk is rattled but unhurt")
    await enc.replay_matches_live()
