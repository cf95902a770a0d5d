"""The HTTP contract of the engine: every endpoint's happy path and every error code of API.md."""

from __future__ import annotations

import asyncio

from tests.support.verifier import chain_ok, check_dice


async def _fight(tussle, **kw):
    enc = await tussle.create("freeform", **kw)
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0], "facing": 0})
    await enc.add({"id": "bob", "name": "Bob", "side": "blue", "position": [1, 0], "facing": 3})
    return enc


async def test_every_endpoint_happy_path(tussle):
    enc = await _fight(tussle, public=True)
    assert len(enc.created["gm_token"]) >= 22 and len(enc.created["commitment"]) == 64
    r = await tussle.request("GET", "/rulesets")
    assert r.status == 200 and {"freeform", "probe"} <= {rs["id"] for rs in r.body["rulesets"]}
    free = next(rs for rs in r.body["rulesets"] if rs["id"] == "freeform")
    assert free["geometry"]["kind"] == "hex_axial"
    r = await tussle.request("GET", "/encounters")
    assert any(e["id"] == enc.id for e in r.body["encounters"])
    seat = await enc.seat_full("Alice", ["ann"])
    assert seat["seat"] and seat["token"]
    r = await tussle.request(
        "PATCH", f"{enc.path}/seats/{seat['seat']}", {"name": "Alice B"}, token=enc.gm_token
    )
    assert r.status == 200
    r = await tussle.request("POST", f"{enc.path}/seats/{seat['seat']}/token", token=enc.gm_token)
    assert r.status == 201 and r.body["token"] != seat["token"]
    new_seat_token = r.body["token"]
    r = await tussle.request("GET", f"{enc.path}/me", token=seat["token"])
    assert r.status == 401, "a rotated seat token stops working"
    r = await tussle.request("GET", f"{enc.path}/me", token=new_seat_token)
    assert r.body["role"] == "player" and r.body["combatants"] == ["ann"]
    r = await tussle.request("POST", f"{enc.path}/read-tokens", token=enc.gm_token)
    assert r.status == 201
    read_token, token_id = r.body["token"], r.body["token_id"]
    assert (await enc.get("/state", token=read_token)).status == 200
    assert (await enc.command("note", token=read_token, text="hi")).status == 403
    r = await tussle.request("DELETE", f"{enc.path}/read-tokens/{token_id}", token=enc.gm_token)
    assert r.status == 204
    assert (await tussle.request("GET", f"{enc.path}/me", token=read_token)).status == 401
    r = await enc.command("roll", token=new_seat_token, expression="2d6+1", purpose="courage")
    assert r.status == 201 and r.body["events"][0]["data"]["keyed_by"] == "server"
    r = await enc.get("")
    assert r.body["seq"] == r.body["head"]["seq"] and r.body["ruleset"] == "freeform"
    r = await enc.get("/events?from=2&limit=2")
    assert [e["seq"] for e in r.body["events"]] == [2, 3] and r.body["next_from"] == 4
    st = await enc.state()
    assert st["combatants"]["bob"]["position"] == [1, 0] and "legal_actions" in st
    r = await tussle.request("POST", f"{enc.path}/gm-token", token=enc.gm_token)
    assert r.status == 201
    assert (await enc.get("/state")).status == 401, "the old GM token stops working"
    enc.gm_token = r.body["gm_token"]
    r = await tussle.request("DELETE", f"{enc.path}/seats/{seat['seat']}", token=enc.gm_token)
    assert r.status == 204
    assert (await tussle.request("GET", f"{enc.path}/me", token=new_seat_token)).status == 401
    assert (await tussle.request("GET", "/healthz")).status == 200
    st = await enc.state()
    assert "token" not in str(st["seats"]).lower()
    await enc.replay_matches_live()


async def test_every_common_command(tussle):
    enc = await _fight(tussle)
    await enc.ok("set_standing_orders", combatant="ann", reactions={"probe_defence": "yield"})
    await enc.ok("start_turn")
    await enc.ok("start_phase", phase="movement")
    await enc.ok("set_initiative", order=["bob", "ann"])
    await enc.ok("move", combatant="ann", to=[0, 1], facing=2)
    await enc.ok("note", text="Ann circles.")
    body = await enc.ok(
        "ask", combatant="bob", kind="parry_or_dodge", options=["parry", "dodge"], default="dodge"
    )
    rid = body["events"][-1]["data"]["id"]
    assert rid == f"{body['command_id']}/1"
    r = await enc.command("move", combatant="ann", to=[0, 2])
    assert r.status == 422 and r.body["error"]["code"] == "reaction_pending"
    assert r.body["error"]["details"]["pending"][0]["id"] == rid
    await enc.ok("respond", reaction=rid, choice="default")
    await enc.ok("ruling", text="Bob slipped", overrides={"combatants": {"bob": {"posture": "prone"}}})
    await enc.ok("set_options", options={"reaction_timeout_s": 30})
    await enc.ok("remove_combatant", combatant="bob")
    await enc.ok("rotate_seed")
    st = await enc.state()
    assert st["turn"] == 1 and st["phase"] == "movement" and st["initiative"] == ["bob", "ann"]
    assert st["combatants"]["ann"]["position"] == [0, 1] and st["combatants"]["ann"]["facing"] == 2
    assert st["combatants"]["ann"]["reactions"] == {"probe_defence": "yield"}
    assert "bob" not in st["combatants"] and st["pending"] == []
    assert st["options"]["reaction_timeout_s"] == 30
    await enc.ok("close")
    st = await enc.state()
    assert st["closed"] is True
    await enc.replay_matches_live()


async def test_errors_have_the_shape_and_codes(tussle):
    enc = await _fight(tussle)
    bad = await tussle.request(
        "POST", "/encounters", raw=b"{not json", headers={"Content-Type": "application/json"}
    )
    assert bad.status == 400 and bad.body["error"]["code"] == "bad_request"
    r = await enc.command("move", combatant="ann", to=[0, 1], bogus=1)
    assert r.status == 400 and r.body["error"]["details"]["field"] == "bogus"
    r = await enc.command("move", combatant="ann", to="north")
    assert r.status == 400 and "to" in r.body["error"]["message"]
    r = await enc.command("tft.enter_hth", combatant="ann", target="bob")
    assert r.status == 400 and "tft" in r.body["error"]["message"]
    r = await enc.command("roll", expression="3d6", entropy="not allowed!")
    assert r.status == 400 and r.body["error"]["details"]["field"] == "entropy"
    r = await enc.command("roll", expression="101d6")
    assert r.status == 400
    r = await enc.command(
        "add_combatant", combatant={"id": "c", "name": "C", "side": "x", "stats": {"st": 1.5}}
    )
    assert r.status == 400 and "body.combatant.stats.st" in r.body["error"]["message"]
    r = await enc.command("move", combatant="ann", to=[2**60, 0])
    assert r.status == 400
    r = await enc.get("/events?from=99")
    assert r.status == 400
    r = await enc.get("/state?at=0")
    assert r.status == 400
    r = await enc.get("/events?limit=10001")
    assert r.status == 400
    r = await tussle.request("GET", "/encounters/nope/state", token=enc.gm_token)
    assert r.status == 404 and r.body["error"]["code"] == "not_found"
    r = await tussle.request("GET", "/no/such/route")
    assert r.status == 404 and r.body["error"]["code"] == "not_found"
    r = await tussle.request("PUT", f"{enc.path}/commands")
    assert r.status == 405 and r.body["error"]["code"] == "method_not_allowed"
    r = await tussle.request("GET", f"{enc.path}/state")
    assert r.status == 401 and r.body["error"]["code"] == "unauthenticated"
    r = await tussle.request("GET", f"{enc.path}/state", token="x" * 40)
    assert r.status == 401
    other = await _fight(tussle)
    r = await tussle.request("GET", f"{enc.path}/state", token=other.gm_token)
    assert r.status == 401, "a token of another encounter is not valid here"
    r = await enc.command("note", text="x", expected_seq=1)
    assert r.status == 409 and r.body["error"]["code"] == "seq_conflict"
    assert r.body["error"]["details"] == {"expected": 1, "actual": 3}
    r = await enc.command("move", combatant="nobody", to=[0, 1])
    assert (
        r.status == 422
        and r.body["error"]["code"] == "rule_violation"
        and "nobody" in r.body["error"]["message"]
    )
    r = await enc.command("void", seq=1, reason="oops")
    assert r.status == 422 and "EncounterCreated" in r.body["error"]["message"]
    await enc.ok("close")
    r = await enc.command("note", text="after")
    assert r.status == 409 and r.body["error"]["code"] == "closed"
    events = await enc.events()
    assert all(e["type"] != "NotePosted" for e in events), "failed commands append nothing"


async def test_player_cannot_act_for_another_seats_combatant(tussle):
    enc = await _fight(tussle)
    alice = await enc.seat("Alice", ["ann"])
    await enc.seat("Bert", ["bob"])
    head = (await enc.state())["seq"]
    r = await enc.command("set_standing_orders", token=alice, combatant="bob", reactions={"x": "y"})
    assert r.status == 403 and r.body["error"]["code"] == "forbidden"
    r = await enc.command("add_combatant", token=alice, combatant={"id": "c", "name": "C", "side": "red"})
    assert r.status == 403
    r = await enc.command("set_standing_orders", token=alice, combatant="ann", reactions={"x": "y"})
    assert r.status == 201
    assert (await enc.state())["seq"] == head + 1


async def test_probe_reaction_resumes_with_dice_on_respond(tussle):
    enc = await tussle.create("probe", dice="manual")
    await enc.add({"id": "ann", "name": "Ann", "side": "red", "position": [0, 0]})
    await enc.add({"id": "bob", "name": "Bob", "side": "blue", "position": [1, 0]})
    bert = await enc.seat("Bert", ["bob"])
    body = await enc.ok("probe.grab", combatant="ann", target="bob")
    req = body["events"][-1]
    assert req["type"] == "ReactionRequested" and req["data"]["asked_of"] == "seat-1"
    r = await enc.command("probe.grab", combatant="ann", target="bob")
    assert r.status == 422 and r.body["error"]["code"] == "reaction_pending"
    r = await enc.command("respond", token=bert, reaction=req["data"]["id"], choice="resist")
    assert r.status == 422 and r.body["error"]["code"] == "dice_needed"
    assert r.body["error"]["details"]["needed"] == ["1d6: Bob's escape roll"]  # whose roll, what for
    assert r.body["error"]["details"]["more_may_follow"] is True
    r = await enc.command("respond", token=bert, reaction=req["data"]["id"], choice="resist", dice=[[2]])
    assert r.status == 403, "a player may not supply faces unless manual_dice_from is actor"
    r = await enc.command("respond", reaction=req["data"]["id"], choice="resist", dice=[[7]])
    assert r.status == 400 and "dice[0]" in r.body["error"]["message"]
    r = await enc.command("respond", reaction=req["data"]["id"], choice="resist", dice=[[2], [3]])
    assert r.status == 400, "an unused trailing roll is a 400"
    r = await enc.command("respond", reaction=req["data"]["id"], choice="resist", dice=[[2]])
    assert r.status == 201
    types = [e["type"] for e in r.body["events"]]
    assert types == ["ReactionAnswered", "DieRolled", "Grabbed", "CloseCombatJoined", "PinApplied"]
    roll = r.body["events"][1]["data"]
    assert (
        roll["source"] == "manual"
        and roll["faces"] == [2]
        and roll["target"] == 4
        and roll["outcome"] == "held"
    )
    await enc.ok("start_turn")
    st = await enc.state()
    assert st["groups"]["g-ann"]["combatants"] == ["ann", "bob"]
    assert st["pins"] == [{"holder": "ann", "pinned": "bob", "turn": 0, "turns_held": 1, "last_held_turn": 1}]
    assert st["combatants"]["bob"]["group"] == "g-ann" and st["rules"] == {"grabs": 1}
    await enc.replay_matches_live()


async def test_standing_orders_answer_inside_the_command(tussle):
    enc = await tussle.create("probe", dice="manual")
    await enc.add({"id": "ann", "name": "Ann", "side": "red"})
    await enc.add({"id": "bob", "name": "Bob", "side": "blue", "reactions": {"probe_defence": "resist"}})
    r = await enc.command("probe.grab", combatant="ann", target="bob", dice=[[5]])
    assert r.status == 201
    types = [e["type"] for e in r.body["events"]]
    assert types == ["ActionDeclared", "ReactionRequested", "ReactionAnswered", "DieRolled", "Grabbed"]
    assert r.body["events"][2]["data"]["by"] == "standing_order"
    assert (await enc.state())["pending"] == []


async def test_fifty_concurrent_commands_chain(tussle):
    enc = await _fight(tussle)
    results = await asyncio.gather(
        *(enc.command("roll", expression="1d20", command_id=f"c{i}") for i in range(50))
    )
    assert all(r.status == 201 for r in results)
    events = await enc.events()
    assert [e["seq"] for e in events] == list(range(1, len(events) + 1))
    assert chain_ok(events) is None


async def test_resends(tussle):
    enc = await _fight(tussle)
    first = await enc.command(
        "roll", expression="3d6", command_id="once", entropy="abcdefghijklmnopq", expected_seq=3
    )
    assert first.status == 201
    again = await enc.command(
        "roll", expression="3d6", command_id="once", entropy="abcdefghijklmnopq", expected_seq=3
    )
    assert again.status == 200 and again.body == first.body, "same body, stale expected_seq: the first events"
    other = await enc.command("roll", expression="2d6", command_id="once")
    assert other.status == 409 and other.body["error"]["code"] == "command_id_reused"
    alice = await enc.seat("Alice", ["ann"])
    by_other_actor = await enc.command(
        "roll", token=alice, expression="3d6", command_id="once", entropy="abcdefghijklmnopq", expected_seq=3
    )
    assert by_other_actor.status == 409
    await enc.ok("close")
    after_close = await enc.command("roll", expression="3d6", command_id="once", entropy="abcdefghijklmnopq")
    assert after_close.status == 200 and after_close.body == first.body, (
        "expected_seq is not part of identity"
    )
    created = await tussle.request(
        "POST", "/encounters", {"name": "X", "ruleset": "freeform", "command_id": "mk-1"}
    )
    resent = await tussle.request(
        "POST", "/encounters", {"name": "X", "ruleset": "freeform", "command_id": "mk-1"}
    )
    assert created.status == 201 and resent.status == 200 and resent.body["id"] == created.body["id"]
    changed = await tussle.request(
        "POST", "/encounters", {"name": "Y", "ruleset": "freeform", "command_id": "mk-1"}
    )
    assert changed.status == 409 and changed.body["error"]["code"] == "command_id_reused"


async def test_dice_recomputed_from_revealed_seeds_after_close(tussle):
    enc = await _fight(tussle, options={"rotate_seed_each_turn": True})
    for i in range(5):
        await enc.ok("roll", expression="4d6kh3+2", command_id=f"r{i}", entropy=f"entropy-{i:012d}")
        await enc.ok("start_turn")
    await enc.ok("roll", expression="d100")
    await enc.ok("rotate_seed")
    await enc.ok("roll", expression="3d1000")
    await enc.ok("close")
    events = await enc.events()
    assert chain_ok(events) is None
    checked, problems = check_dice(events)
    assert checked == 7 and problems == []
    assert events[-1]["type"] == "EncounterClosed" and events[-2]["data"]["commitment"] is None


async def test_manual_dice_needed_and_server_dice_refuse_faces(tussle):
    manual = await tussle.create("freeform", dice="manual")
    r = await manual.command("roll", expression="2d6+1")
    assert r.status == 422 and r.body["error"]["code"] == "dice_needed"
    assert r.body["error"]["details"]["needed"] == ["2d6: 2d6+1"]
    r = await manual.command("roll", expression="2d6+1", dice=[[3, 4]])
    assert r.status == 201 and r.body["events"][0]["data"]["total"] == 8
    r = await manual.command("rotate_seed")
    assert r.status == 422
    server = await tussle.create("freeform")
    r = await server.command("roll", expression="2d6", dice=[[3, 4]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "dice"
    mixed = await tussle.create("freeform", dice="mixed")
    r = await mixed.command("roll", expression="2d6", dice=[[3, 4]])
    assert r.status == 201 and r.body["events"][0]["data"]["source"] == "manual"
    r = await mixed.command("roll", expression="2d6")
    assert r.status == 201 and r.body["events"][0]["data"]["source"] == "server"
