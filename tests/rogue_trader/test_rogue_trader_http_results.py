"""E7, E8, E9 over HTTP with manual dice: results, push-back, follow-up, hold, messy combats."""

from __future__ import annotations

from rt_support import at, cultist, encounter, marine, mods, of_type, red_charges_blue, rolls


async def _e7(tussle, ld: int = 8):
    """Turn 3: R (m1, m2) charges B (c1, c2) into the spec's positions."""
    enc = await red_charges_blue(tussle, m1={"Ld": ld}, m2={"Ld": ld})
    st = await enc.state()
    assert st["combatants"]["m1"]["position"] == at(10, 10)
    assert st["combatants"]["m2"]["position"] == at(10, 12)
    await enc.ok("start_phase", phase="close_combat")
    # I4: m1 hits c1 (4 +1 charging vs 4), wounds (3 vs 3+): c1 slain; m2 misses. I3: c2 misses. Rout 2+3.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    return enc, body["events"]


async def test_e7_round_lost_push_back_follow_up(tussle):
    enc, evs = await _e7(tussle)
    res = of_type(evs, "RtCombatRoundResolved")[0]["data"]
    assert res["results"] == {"R": "won", "B": "lost"}
    assert {"unit": "R", "vs": "B", "caused": 1, "received": 0, "result": "win"} in res["pairs"]
    rout = rolls(evs, "rout_test")[0]
    assert (rout["total"], rout["target"], rout["outcome"]) == (5, 7, "pass")
    assert of_type(evs, "ActionSpent", combatant="m1", why="opponents_slain")
    assert of_type(evs, "RtPushBackOwed", unit="B")[0]["data"]["models"] == ["c2"]
    r = await enc.command("start_phase", phase="end")
    assert r.status == 422 and "pushed back" in r.body["error"]["message"]
    body = await enc.ok("rogue-trader.push_back", unit="B")
    pb = of_type(body["events"], "PushedBack")[0]["data"]
    assert (pb["combatant"], pb["from"], pb["to"], pb["distance"]) == ("c2", at(11, 12), at(13, 12), 200)
    moved = of_type(body["events"], "Moved", combatant="c2")[0]["data"]
    assert moved["reason"] == "push_back" and moved["facing"] is None
    assert of_type(body["events"], "CloseCombatLeft", combatant="c2", how="push_back")
    st = await enc.state()
    assert st["combatants"]["c2"]["facing"] == 180
    assert st["rules"]["owed"]["follow_up"]["R"]["followers"] == {"m2": ["c2"]}
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="follow")
    fu = of_type(body["events"], "FollowedUp")[0]["data"]
    assert (fu["combatant"], fu["from"], fu["to"]) == ("m2", at(10, 12), at(12, 12))
    assert of_type(body["events"], "Moved", combatant="m2", reason="follow_up")
    assert of_type(body["events"], "CloseCombatJoined")[0]["data"]["combatants"][:2] == ["m2", "c2"]
    body = await enc.ok("start_phase", phase="end")
    coh = of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]
    assert coh["strays"] == [] and coh["main_body"] == ["m1", "m2"]
    # Round 4 (B's turn): m2's attacks carry +1 following up.
    await enc.ok("start_turn", turn=4)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[1], [1]])
    hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "m2"][0]
    assert mods(hit) == [(1, "following up")]
    c2hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "c2"][0]
    assert mods(c2hit) == []
    await enc.replay_matches_live()


async def test_e7_variant_wall_stops_push_back(tussle):
    enc, _ = await _e7(tussle)
    body = await enc.ok("rogue-trader.push_back", unit="B", per_model={"c2": {"stop_after": 120}})
    pb = of_type(body["events"], "PushedBack")[0]["data"]
    assert pb["to"] == at(12.2, 12) and pb["distance"] == 120
    st = await enc.state()
    assert st["rules"]["models"]["c2"]["pushed_back_round"] == 3
    await enc.replay_matches_live()


async def test_e8_hold_test(tussle):
    enc, _ = await _e7(tussle, ld=7)
    await enc.ok("rogue-trader.push_back", unit="B")
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="hold", dice=[[3, 4]])
    roll = rolls(body["events"], "follow_up_hold")[0]
    assert (roll["total"], roll["target"], roll["outcome"]) == (7, 7, "hold")
    assert of_type(body["events"], "RtHeldGround", unit="R")
    st = await enc.state()
    assert st["combatants"]["m2"]["position"] == at(10, 12)
    assert st["rules"]["contacts"] == []
    assert st["rules"]["owed"]["follow_up"] == {}
    await enc.replay_matches_live()


async def test_e8_failed_hold_must_follow(tussle):
    enc, _ = await _e7(tussle, ld=7)
    await enc.ok("rogue-trader.push_back", unit="B")
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="hold", dice=[[4, 4]])
    assert rolls(body["events"], "follow_up_hold")[0]["outcome"] == "must_follow"
    assert of_type(body["events"], "FollowedUp")[0]["data"]["to"] == at(12, 12)
    await enc.replay_matches_live()


async def test_e9_messy_combat(tussle):
    enc = await encounter(
        tussle,
        [
            marine("ma", 8, 10, unit="M", I=5, weapons=[{"id": "axe", "type": "C", "S": 4, "damage": 2}]),
            marine("mb", 8, 14, unit="M", I=5, W=2),
            cultist("v1", 11, 10, unit="V", W=3),
            cultist("w1", 11, 14, unit="W"),
        ],
    )
    await enc.ok("rogue-trader.charge", combatant="ma", target="v1")
    await enc.ok("rogue-trader.charge", combatant="mb", target="w1")
    await enc.ok("start_phase", phase="close_combat")
    st = await enc.state()
    assert st["rules"]["groups"] == {"ma": ["ma", "mb", "v1", "w1"]}
    # I5: ma hits v1 (damage 2), mb misses w1. I3: v1 misses ma; w1 hits mb, wounds, save fails. V rout 2+3.
    body = await enc.ok(
        "rogue-trader.resolve_round", group="ma", dice=[[6], [6], [1], [1], [6], [6], [1], [2, 3]]
    )
    res = of_type(body["events"], "RtCombatRoundResolved")[0]["data"]
    assert res["results"] == {"M": "messy_draw", "V": "lost", "W": "won"}
    pairs = {(p["unit"], p["vs"]): (p["caused"], p["received"], p["result"]) for p in res["pairs"]}
    assert pairs[("M", "V")] == (2, 0, "win") and pairs[("M", "W")] == (0, 1, "loss")
    assert not of_type(body["events"], "RtPushBackOwed", unit="M")
    body = await enc.ok("rogue-trader.push_back", unit="V")
    assert of_type(body["events"], "PushedBack", combatant="v1")
    assert not of_type(body["events"], "RtFollowUpOwed")
    st = await enc.state()
    assert st["combatants"]["mb"]["position"] == at(10, 14)
    assert st["rules"]["owed"] == {"push_back": {}, "follow_up": {}}
    await enc.replay_matches_live()


async def test_failed_rout_test_flees_and_winners_pursue(tussle):
    enc = await red_charges_blue(tussle)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [6, 6]])
    evs = body["events"]
    assert rolls(evs, "rout_test")[0]["outcome"] == "fail"
    assert of_type(evs, "ConditionChanged", combatant="c2", condition="routed", on=True)
    assert of_type(evs, "Moved", combatant="c2", reason="run_away")[0]["data"]["to"] == at(15, 12)
    assert not of_type(evs, "RtPushBackOwed")
    owed = of_type(evs, "RtFollowUpOwed", unit="R")[0]["data"]
    assert owed["followers"] == {"m2": ["c2"]}
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="follow")
    assert of_type(body["events"], "FollowedUp")[0]["data"]["to"] == at(14, 12)
    await enc.replay_matches_live()


async def test_unit_commands_need_the_units_seat(tussle):
    enc, _ = await _e7(tussle)
    red = await enc.seat("Red", ["m1", "m2"])
    blue = await enc.seat("Blue", ["c2"])
    r = await enc.command("rogue-trader.push_back", unit="B", token=red)
    assert r.status == 403
    r = await enc.command("rogue-trader.follow_up", unit="R", choice="follow", token=red)
    assert r.status == 422 and "owes no follow-up" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.push_back", unit="B", token=blue)
    assert r.status == 201, r.body
    r = await enc.command("rogue-trader.follow_up", unit="R", choice="follow", token=blue)
    assert r.status == 403
    r = await enc.command("rogue-trader.follow_up", unit="R", choice="charge", token=red)
    assert r.status == 400
    r = await enc.command("rogue-trader.follow_up", unit="R", choice="follow", token=red)
    assert r.status == 201
    await enc.replay_matches_live()
