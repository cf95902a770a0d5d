"""The spec's worked examples through the HTTP API with manual dice, refusals as 422s, the log
sentences, and replay equal to live for every scenario."""

from __future__ import annotations

from typing import Any

from tests.gurps.gurps_world import BROADSWORD, HAND, KNIFE, fig
from tests.support.bodies import data, types


def of_type(body: dict[str, Any], t: str) -> list[dict[str, Any]]:
    return data(body, t)


async def replay_equals_live(enc) -> None:
    live = await enc.state()
    assert await enc.state(at=live["seq"]) == live


async def log_text(enc) -> str:
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    return str(r.body)


async def v1(tussle, **options):
    enc = await tussle.create("gurps", dice="manual", options=options or None)
    await enc.add(fig("ana", "a", [-2, 0], dx=12, move=6))
    await enc.add(fig("bors", "b", [0, 0], dx=11, posture="prone"))
    await enc.ok("start_turn", turn=1)
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="Move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    assert types(b)[-1] == "ReactionRequested"
    return enc, b["events"][-1]["data"]


async def test_v1_http_ana_evades_by_8(tussle):
    enc, req = await v1(tussle)
    assert req["kind"] == "evade_stop"
    b = await enc.ok("respond", reaction=req["id"], choice="stop", dice=[[4, 5, 3], [2, 3, 4]])
    assert types(b) == [
        "ReactionAnswered",
        "EvadeAnswered",
        "DieRolled",
        "DieRolled",
        "QuickContestResolved",
        "Moved",
        "CloseCombatLeft",
        "GurpsMovementUsed",
    ]
    ana, bors = of_type(b, "DieRolled")
    assert (ana["total"], ana["target"], ana["outcome"], ana["source"]) == (12, 22, "success by 10", "manual")
    assert (bors["total"], bors["target"], bors["outcome"]) == (9, 11, "success by 2")
    assert (ana["margin"], bors["margin"]) == (10, 2)  # DieRolled.margin: the number behind the outcome
    qc = of_type(b, "QuickContestResolved")[0]
    assert (qc["winner"], qc["margin_of_victory"]) == ("ana", 8)
    assert of_type(b, "Moved")[0]["reason"] == "evade"
    st = await enc.state()
    assert st["combatants"]["ana"]["position"] == [1, 0]
    text = await log_text(enc)
    assert (
        "Ana rolls 3d6 for the evade: [4, 5, 3] = 12 vs DX 12 + 5 (foe lying down) + 5 (from behind) = 22"
        in text
    )
    assert "Ana wins by 8" in text
    await replay_equals_live(enc)


async def test_v1a_http_ana_is_stopped(tussle):
    enc, req = await v1(tussle)
    b = await enc.ok("respond", reaction=req["id"], choice="stop", dice=[[6, 6, 5], [2, 3, 4]])
    assert of_type(b, "DieRolled")[0]["outcome"] == "failure by 1"
    assert [r["margin"] for r in of_type(b, "DieRolled")] == [-1, 2]
    assert of_type(b, "QuickContestResolved")[0]["margin_of_victory"] == 3
    assert of_type(b, "EvadeStopped")[0] == {"mover": "ana", "foe": "bors", "at": [0, 0]}
    st = await enc.state()
    assert st["combatants"]["ana"]["position"] == [0, 0]
    assert st["rules"]["hexes"]["0,0"]["occupants"]["ana"]["entry_edge"] == 3
    await replay_equals_live(enc)


async def test_v1a_http_adjacent_option(tussle):
    enc, req = await v1(tussle, failed_evade_stop="adjacent")
    await enc.ok("respond", reaction=req["id"], choice="stop", dice=[[6, 6, 5], [2, 3, 4]])
    st = await enc.state()
    assert st["combatants"]["ana"]["position"] == [-1, 0] and st["combatants"]["ana"]["group"] is None
    await replay_equals_live(enc)


async def test_v1b_http_tie_stops_cato(tussle):
    enc = await tussle.create("gurps", dice="manual")
    await enc.add(fig("cato", "a", [0, -2], dx=10))
    await enc.add(fig("bors", "b", [0, 0], dx=11))
    await enc.ok("start_turn", turn=1)
    await enc.ok("gurps.choose_maneuver", combatant="cato", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="cato", target="bors", path=[[0, -1], [0, 0], [0, 1]])
    rid = b["events"][-1]["data"]["id"]
    b = await enc.ok("respond", reaction=rid, choice="stop", dice=[[3, 3, 3], [4, 4, 5]])
    assert of_type(b, "DieRolled")[0]["target"] == 7
    assert of_type(b, "QuickContestResolved")[0]["winner"] is None
    assert "EvadeStopped" in types(b)
    await replay_equals_live(enc)


async def test_v1c_http_let_pass(tussle):
    enc, req = await v1(tussle)
    b = await enc.ok("respond", reaction=req["id"], choice="let_pass")
    assert "DieRolled" not in types(b)
    await replay_equals_live(enc)


async def test_evade_stop_is_asked_of_the_foes_controller(tussle):
    enc = await tussle.create("gurps", dice="manual")
    await enc.add(fig("ana", "a", [-2, 0], dx=12, move=6))
    await enc.add(fig("bors", "b", [0, 0], dx=11, posture="prone"))
    seat = await enc.seat("Bob", ["bors"])
    await enc.ok("start_turn", turn=1)
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    req = b["events"][-1]["data"]
    assert req["asked_of"] != "gm"
    r = await enc.command("respond", reaction=req["id"], choice="let_pass", token=seat)
    assert r.status == 201, r.body
    await replay_equals_live(enc)


async def hex_fight(tussle, turn: int, dorn_posture: str, ash_st: int = 10):
    """Bram, Cole and Ash walk into Dorn's hex; Bram grapples him (all through the API)."""
    enc = await tussle.create("gurps", dice="manual")
    await enc.add(fig("dorn", "b", [0, 0], st=13, dx=11, posture=dorn_posture, weapons=[HAND]))
    await enc.add(fig("bram", "a", [-1, 0], st=12, dx=10, weapons=[HAND]))
    await enc.add(fig("cole", "a", [0, -1], st=11, dx=10, weapons=[HAND]))
    await enc.add(fig("ash", "a", [1, 0], st=ash_st, dx=10, weapons=[HAND]))
    await enc.ok("start_turn", turn=turn - 1)
    for who in ("bram", "cole", "ash"):
        await enc.ok("gurps.choose_maneuver", combatant=who, maneuver="move")
        await enc.ok("gurps.move", combatant=who, path=[[0, 0]])
    await enc.ok("start_turn", turn=turn)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    await enc.ok("gurps.grapple", combatant="bram", target="dorn", dice=[[3, 3, 3]])
    st = await enc.state()
    rid = st["pending"][0]["id"]
    await enc.ok("respond", reaction=rid, choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("start_turn", turn=turn + 1)
    return enc


async def test_v2_http_takedown_with_a_helper(tussle):
    enc = await hex_fight(tussle, 2, "standing")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    r = await enc.command("gurps.takedown", combatant="bram", target="dorn", helpers=["cole", "ash"])
    assert r.status == 422 and "too many helpers" in r.body["error"]["message"]
    b = await enc.ok(
        "gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=[[3, 4, 2], [5, 4, 3]]
    )
    team, dorn = of_type(b, "DieRolled")
    assert (team["target"], team["outcome"], dorn["target"], dorn["outcome"]) == (
        14,
        "success by 5",
        13,
        "success by 1",
    )
    assert of_type(b, "QuickContestResolved")[0]["margin_of_victory"] == 4
    assert of_type(b, "PostureChanged")[0] == {"combatant": "dorn", "posture": "prone"}
    assert of_type(b, "AssistCommitted")[0]["helper"] == "cole"
    text = await log_text(enc)
    assert "Cole helps Bram's takedown on Dorn" in text
    await replay_equals_live(enc)


async def test_v2a_http_dorn_wins(tussle):
    enc = await hex_fight(tussle, 2, "standing")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok(
        "gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=[[6, 5, 5], [3, 3, 4]]
    )
    assert of_type(b, "QuickContestResolved")[0]["winner"] == "dorn"
    assert of_type(b, "PostureChanged")[0]["combatant"] == "bram"
    req = b["events"][-1]["data"]
    assert req["kind"] == "fall_hex"
    await enc.ok("respond", reaction=req["id"], choice="default")
    st = await enc.state()
    assert st["combatants"]["bram"]["posture"] == "prone" and st["rules"]["grapples"] == []
    await replay_equals_live(enc)


async def test_v3_http_pin_with_two_helpers(tussle):
    enc = await hex_fight(tussle, 3, "prone")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok(
        "gurps.pin", combatant="bram", target="dorn", helpers=["cole", "ash"], dice=[[6, 6, 1], [4, 4, 4]]
    )
    assert of_type(b, "DieRolled")[0]["target"] == 16
    assert of_type(b, "PinApplied")[0] == {"holder": "bram", "pinned": "dorn", "turn": 4}
    st = await enc.state()
    assert st["pins"][0]["pinned"] == "dorn"
    b = await enc.ok("start_turn", turn=5)
    assert "PinHeld" in types(b)
    await replay_equals_live(enc)


async def test_v3b_http_pin_on_a_standing_dorn(tussle):
    enc = await hex_fight(tussle, 3, "standing")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    r = await enc.command(
        "gurps.pin", combatant="bram", target="dorn", helpers=["cole"], dice=[[3, 3, 3], [3, 3, 3]]
    )
    assert r.status == 422 and "not lying down" in r.body["error"]["message"]


async def v4(tussle):
    enc = await tussle.create("gurps", dice="manual")
    await enc.add(
        fig(
            "cai",
            "a",
            [-1, 0],
            dx=12,
            skills={"Knife": 13},
            weapons=[KNIFE, HAND],
            shield={"name": "shield", "db": 2},
        )
    )
    await enc.add(
        fig(
            "dun",
            "b",
            [0, 0],
            facing=3,
            dx=11,
            weapons=[dict(KNIFE), HAND, BROADSWORD],
            shield={"name": "buckler", "db": 1},
            items=[{"id": "knife", "name": "knife", "state": "carried"}],
        )
    )
    await enc.ok("start_turn", turn=1)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok("gurps.move", combatant="cai", path=[[0, 0]])
    assert "CloseCombatJoined" in types(b)
    return enc


async def test_v4_http_shield_turn1_and_turn2(tussle):
    enc = await v4(tussle)
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 4, 5]]
    )
    hit = of_type(b, "DieRolled")[0]
    assert (hit["target"], hit["total"], hit["outcome"]) == (13, 12, "success by 1")
    rid = b["events"][-1]["data"]["id"]
    # Dun's knife is carried, his broadsword (reach 1) and buckler fill both hands: he may only dodge.
    ask = b["events"][-1]["data"]
    assert ask["options"] == ["dodge"] and "reach 1 lacks C" in ask["question"], ask
    assert "no empty hand: the broadsword and the buckler fill his 2 hands" in ask["question"]
    b = await enc.ok("respond", reaction=rid, choice="dodge", dice=[[1, 1, 2]])
    assert of_type(b, "DieRolled")[0]["target"] == 8 + 1
    b = await enc.ok("gurps.ready_item", combatant="dun", item="knife", dice=[[3, 4, 4]])
    assert of_type(b, "DieRolled")[0]["target"] == 11 and "ItemReadied" in types(b)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[4, 4, 4]]
    )
    miss = of_type(b, "DieRolled")[0]
    assert (miss["target"], miss["outcome"]) == (11, "failure by 1")
    text = await log_text(enc)
    assert "not the entering attack" in text
    await replay_equals_live(enc)


async def test_v4_http_drop_shield_then_attack_at_13(tussle):
    enc = await v4(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="wait")  # Dun's first close-combat turn
    await enc.ok("start_turn", turn=2)
    b = await enc.ok("gurps.drop_shield", combatant="cai", dice=[[2, 3, 4]])
    assert of_type(b, "DieRolled")[0]["target"] == 10
    assert of_type(b, "ItemDropped")[0] == {"combatant": "cai", "item": "shield", "at": [0, 0]}
    b = await enc.ok("gurps.ready_item", combatant="dun", item="knife", dice=[[3, 3, 3]])
    assert of_type(b, "DieRolled")[0]["target"] == 10  # Dun, turn 2: 11 - 1
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[4, 4, 4]]
    )
    assert of_type(b, "DieRolled")[0]["target"] == 13
    await replay_equals_live(enc)


async def test_http_refusals(tussle):
    enc = await v4(tussle)
    cases = [
        ("gurps.move", {"combatant": "dun", "path": [[1, 0]]}, "not Dun's own turn"),
        (
            "gurps.close_combat_attack",
            {"combatant": "cai", "target": "dun", "weapon": "spear"},
            "no weapon named",
        ),
        ("gurps.drop_shield", {"combatant": "cai"}, "takes a Ready maneuver"),
        ("gurps.takedown", {"combatant": "cai", "target": "dun"}, "nobody taking part grapples Dun"),
        ("gurps.pin", {"combatant": "cai", "target": "dun"}, "not lying down"),
        ("gurps.break_free", {"combatant": "cai", "target": "dun"}, "neither grapples nor pins"),
        ("gurps.declare_close_combat", {"combatant": "cai", "target": "dun"}, "adjacent_close_combat"),
        (
            "gurps.evade",
            {"combatant": "cai", "target": "dun", "path": [[1, 0]]},
            "never carries a figure past",
        ),
        ("gurps.choose_maneuver", {"combatant": "cai", "maneuver": "move"}, "already chosen"),
        (
            "gurps.close_combat_attack",
            {"combatant": "cai", "target": "nobody", "weapon": "knife"},
            "no combatant",
        ),
    ]
    for type_, fields, message in cases:
        r = await enc.command(type_, **fields)
        assert r.status == 422, (type_, r.body)
        assert message in r.body["error"]["message"], (type_, r.body)


async def test_http_legal_actions_and_record_injury(tussle):
    enc = await v4(tussle)
    seat = await enc.seat("Cal", ["cai"])
    r = await enc.command("gurps.record_injury", target="cai", amount=3, token=seat)
    assert r.status == 403, r.body
    b = await enc.ok("gurps.record_injury", target="dun", amount=3, source="Cai's knife")
    assert of_type(b, "Wounded")[0] == {"combatant": "dun", "amount": 3, "source": "Cai's knife"}
    me = await enc.get("/me", token=seat)
    assert me.status == 200
    await replay_equals_live(enc)
