"""Issue 6 audit: round results, push-backs, follow-ups, holding, coherency after combat, breaking off
with free blows, and what the state shows, through the HTTP API with manual dice."""

from __future__ import annotations

import math

from rt_support import at, cultist, encounter, marine, mods, of_type, red_charges_blue, rolls


async def _e7(tussle, **red_stats):
    """Turn 3: R (m1, m2) charges B (c1, c2); round 3: c1 slain, B loses, rout test 2+3 passes."""
    enc = await red_charges_blue(tussle, m1=red_stats, m2=red_stats)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    return enc, body["events"]


async def test_full_sequence_push_back_follow_up_next_round_with_the_bonus(tussle):
    """The issue's sequence, with the state at each step (contacts, who charged, who pushed back whom)."""
    enc, evs = await _e7(tussle)
    st = await enc.state()
    assert st["rules"]["models"]["m1"]["charged_turn"] == st["rules"]["models"]["m2"]["charged_turn"] == 3
    assert st["rules"]["contacts"] == [["c2", "m2"]]
    assert st["rules"]["last_round"]["results"] == {"B": "lost", "R": "won"}
    assert st["rules"]["owed"]["push_back"] == {"B": {"round": 3, "models": ["c2"]}}
    # m1's opponent was slain: it stays where it is this turn (even a GM move is refused).
    r = await enc.command("move", combatant="m1", to=at(9, 10))
    assert r.status == 422 and "must remain stationary" in r.body["error"]["message"]
    await enc.ok("rogue-trader.push_back", unit="B")
    st = await enc.state()
    assert st["rules"]["models"]["c2"]["pushed_back_round"] == 3
    assert st["rules"]["models"]["c2"]["pushed_back_by"] == ["m2"]
    assert st["rules"]["units"]["B"]["pushed_back_round"] == 3
    assert st["rules"]["contacts"] == []
    r = await enc.command("start_phase", phase="end")
    assert r.status == 422 and "must still follow up or try to hold" in r.body["error"]["message"]
    await enc.ok("rogue-trader.follow_up", unit="R", choice="follow")
    st = await enc.state()
    assert st["rules"]["models"]["m2"]["followed_up_round"] == 3
    assert st["rules"]["contacts"] == [["c2", "m2"]]
    body = await enc.ok("start_phase", phase="end")
    st = await enc.state()
    assert st["rules"]["units"]["R"]["coherency"] == {
        "turn": 3,
        "main_body": ["m1", "m2"],
        "strays": [],
        "ruling_owed": False,
    }
    # Round 4: m2 +1 following up; it wins again (hit 5, wound 6), c2 slain: its unit is gone.
    await enc.ok("start_turn", turn=4)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[4], [6]])
    hit = rolls(body["events"], "to_hit")[0]
    assert (hit["combatant"], hit["total"], hit["outcome"], mods(hit)) == (
        "m2",
        5,
        "hit",
        [(1, "following up")],
    )
    assert of_type(body["events"], "CombatantRemoved", combatant="c2")
    st = await enc.state()
    assert "c2" not in st["combatants"]
    await enc.replay_matches_live()


async def test_push_back_terrain_divisor_and_refusals(tussle):
    enc, _ = await _e7(tussle)
    r = await enc.command("rogue-trader.push_back", unit="R")
    assert r.status == 422 and "owes no push-back" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.push_back", unit="B", per_model={"c1": {"stop_after": 100}})
    assert r.status == 400
    r = await enc.command("rogue-trader.push_back", unit="B", per_model={"c2": {"uphill": 1}})
    assert r.status == 400
    r = await enc.command("rogue-trader.push_back", unit="B", per_model={"c2": {"terrain_divisor": 0}})
    assert r.status == 400
    body = await enc.ok("rogue-trader.push_back", unit="B", per_model={"c2": {"terrain_divisor": 2}})
    pb = of_type(body["events"], "PushedBack")[0]["data"]
    assert (pb["to"], pb["distance"]) == (at(12, 12), 100)
    st = await enc.state()
    assert st["combatants"]["c2"]["facing"] == 180
    await enc.replay_matches_live()


async def test_prepared_position_holds_without_a_test(tussle):
    """A13: defenders of a prepared position (or a linear obstacle) may decline the follow-up untested."""
    enc = await red_charges_blue(tussle)
    await enc.ok("rogue-trader.set_situation", combatant="m2", prepared_position=True)
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    body = await enc.ok("rogue-trader.push_back", unit="B")
    assert of_type(body["events"], "RtFollowUpOwed", unit="R")[0]["data"]["may_hold_without_test"] is True
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="hold")
    assert rolls(body["events"], "follow_up_hold") == []
    assert of_type(body["events"], "RtHeldGround", unit="R")[0]["data"]["tested"] is False
    st = await enc.state()
    assert st["rules"]["models"]["m2"]["stationary_turn"] == 3 and st["combatants"]["m2"]["position"] == at(
        10, 12
    )
    await enc.replay_matches_live()


async def _two_pushed_back(tussle):
    """m1 (R) fights c1 (W2) and c2 (c2 at m1's side); B loses and both are pushed back."""
    m1 = {**marine("m1", 0, 0, unit="R"), "reactions": {"charged": "hold"}}
    enc = await encounter(
        tussle, [m1, cultist("c1", 3, 0, unit="B", W=2), cultist("c2", 2, 4, unit="B", facing=270)]
    )
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("rogue-trader.charge", combatant="c2", target="m1")
    await enc.ok("start_phase", phase="close_combat")
    # I4: m1's one attack goes to its only front enemy c1: hit, wound (1 of 2); I3: c1, c2 miss; B rout 2+3.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[6], [6], [1], [1], [2, 3]])
    assert of_type(body["events"], "RtPushBackOwed", unit="B")[0]["data"]["models"] == ["c1", "c2"]
    body = await enc.ok("rogue-trader.push_back", unit="B")
    moved = {e["data"]["combatant"]: e["data"]["to"] for e in of_type(body["events"], "PushedBack")}
    assert moved == {"c1": at(5, 0), "c2": at(2, 3)}
    owed = of_type(body["events"], "RtFollowUpOwed", unit="R")[0]["data"]
    assert owed["followers"] == {"m1": ["c1", "c2"]}
    return enc


async def test_follow_up_picks_among_several_pushed_back_enemies(tussle):
    enc = await _two_pushed_back(tussle)
    r = await enc.command("rogue-trader.follow_up", unit="R", choice="follow", targets={"m9": "c2"})
    assert r.status == 400
    r = await enc.command("rogue-trader.follow_up", unit="R", choice="follow", targets={"m1": "m1"})
    assert r.status == 422
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="follow", targets={"m1": "c2"})
    fu = of_type(body["events"], "FollowedUp")[0]["data"]
    assert (fu["combatant"], fu["to"]) == ("m1", at(2, 2))
    st = await enc.state()
    assert st["rules"]["contacts"] == [["c2", "m1"]]
    await enc.replay_matches_live()


async def test_follow_up_default_is_the_nearest_then_lowest_id(tussle):
    enc = await _two_pushed_back(tussle)
    body = await enc.ok("rogue-trader.follow_up", unit="R", choice="follow")
    assert of_type(body["events"], "FollowedUp")[0]["data"]["to"] == at(4, 0)  # c1 and c2 both 3" away: c1
    await enc.replay_matches_live()


# ---- coherency (4.13) ----------------------------------------------------------------------------------


async def test_leader_is_the_focus_of_the_unit(tussle):
    """Rule 4: the leader strays, so the rest of the unit is split, not him."""
    enc = await encounter(
        tussle,
        [
            marine("m1", 20, 0, unit="R", leader=True),
            marine("m2", 0, 0, unit="R"),
            marine("m3", 1.5, 0, unit="R"),
            cultist("c1", 40, 40),
        ],
    )
    body = await enc.ok("start_phase", phase="shooting")
    coh = of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]
    assert coh["main_body"] == ["m1"]
    assert coh["strays"] == [{"model": "m2", "status": "split"}, {"model": "m3", "status": "split"}]
    split = of_type(body["events"], "RtUnitSplit")[0]["data"]
    assert split["models"] == ["m2", "m3"] and split["new_unit"] == "R.split1.1"
    st = await enc.state()
    assert st["rules"]["units"]["R"]["members"] == ["m1"]
    assert st["rules"]["units"]["R.split1.1"]["members"] == ["m2", "m3"]
    assert st["rules"]["models"]["m2"]["unit"] == "R.split1.1"
    await enc.replay_matches_live()


async def test_leaderless_tie_is_the_gms_ruling(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0, unit="R"), marine("m2", 20, 0, unit="R"), cultist("c1", 40, 40)]
    )
    body = await enc.ok("start_phase", phase="shooting")
    coh = of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]
    assert coh["ruling_owed"] is True
    assert not of_type(body["events"], "RtUnitSplit")
    st = await enc.state()
    assert st["rules"]["units"]["R"]["coherency"]["ruling_owed"] is True
    await enc.replay_matches_live()


async def test_coherency_check_after_close_combat(tussle):
    """A push-back carries c2 beyond 2" of c3 but it can close up: a stray that must move toward its unit."""
    enc = await red_charges_blue(tussle, cultist("c3", 9, 14.5, unit="B"))
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    await enc.ok("rogue-trader.push_back", unit="B")
    await enc.ok("rogue-trader.follow_up", unit="R", choice="follow")
    body = await enc.ok("start_phase", phase="end")
    coh = of_type(body["events"], "RtCoherencyChecked", unit="B")[0]["data"]
    # c2 at (13, 12), c3 at (9, 14.5): gap 3.72"; a leaderless tie of one and one -> the GM rules.
    assert coh["ruling_owed"] is True and len(coh["strays"]) == 1
    await enc.replay_matches_live()


# ---- breaking off (4.12) -------------------------------------------------------------------------------


async def _engaged_twice(tussle, options=None, **c5_stats):
    """Turn 4 (red): m5 and m6 charge c5 (unit B2, with c8 out of the fight); turn 5 is blue's."""
    enc = await encounter(
        tussle,
        [
            marine("m5", 18, 10, unit="A2", A=2),
            marine("m6", 21, 13, unit="A3", A=3),
            cultist("c5", 21, 10, unit="B2", **c5_stats),
            cultist("c8", 21, 8.5, unit="B2"),
        ],
        options={"turn_order": ["blue", "red"], **(options or {})},
        turn=4,
    )
    await enc.ok("rogue-trader.charge", combatant="m5", target="c5")
    await enc.ok("rogue-trader.charge", combatant="m6", target="c5")
    r = await enc.command("rogue-trader.break_off", unit="B2")
    assert r.status == 422 and "own movement phase" in r.body["error"]["message"]
    await enc.ok("start_turn", turn=5)
    await enc.ok("start_phase", phase="movement")
    return enc


async def test_break_off_each_opponent_strikes_one_free_blow(tussle):
    enc = await _engaged_twice(tussle)
    # Rout 2+4 passes; m5 (A2) one blow: 3 vs 3 hit, 2 vs 3+ no wound; m6 (A3) one blow: 1, a miss.
    body = await enc.ok("rogue-trader.break_off", unit="B2", dice=[[2, 4], [3], [2], [1]])
    evs = body["events"]
    blows = rolls(evs, "free_blow_to_hit")
    assert [(b["combatant"], b["target"], b["modifiers"]) for b in blows] == [("m5", 3, []), ("m6", 3, [])]
    assert len(of_type(evs, "RtAttackResolved")) == 2
    mv = of_type(evs, "Moved", combatant="c5")[0]["data"]
    away = 800 / math.sqrt(2)
    assert mv["reason"] == "disengage" and mv["to"] == [round(2100 + away), round(1000 - away)]
    assert not of_type(evs, "Moved", combatant="c8")
    assert of_type(evs, "ActionSpent", combatant="c8", why="broke_off")
    assert {e["data"]["combatant"] for e in of_type(evs, "ActionSpent", why="opponent_broke_off")} == {
        "m5",
        "m6",
    }
    st = await enc.state()
    assert st["rules"]["contacts"] == [] and st["rules"]["models"]["m6"]["stationary_turn"] == 5
    r = await enc.command("rogue-trader.charge", combatant="c8", target="m6")
    assert r.status == 422 and "broke off" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_break_off_free_blow_slays_the_breaker(tussle):
    enc = await _engaged_twice(tussle)
    # m5's blow hits (3) and wounds (3 vs 3+): c5 is slain; m6 has no one left to strike; c5 never moves.
    body = await enc.ok("rogue-trader.break_off", unit="B2", dice=[[2, 4], [3], [3]])
    evs = body["events"]
    assert of_type(evs, "ConditionChanged", combatant="c5", condition="dead")
    assert of_type(evs, "CombatantRemoved", combatant="c5")
    assert [b["combatant"] for b in rolls(evs, "free_blow_to_hit")] == ["m5"]
    assert not of_type(evs, "Moved", combatant="c5")
    await enc.replay_matches_live()


async def test_break_off_shorter_retreat_and_terrain(tussle):
    enc = await _engaged_twice(tussle)
    r = await enc.command("rogue-trader.break_off", unit="B2", distance=-1)
    assert r.status == 400
    body = await enc.ok("rogue-trader.break_off", unit="B2", distance=300, dice=[[2, 4], [1], [1]])
    mv = of_type(body["events"], "Moved", combatant="c5")[0]["data"]
    assert abs(math.dist(mv["from"], mv["to"]) - 300) < 1
    await enc.replay_matches_live()
    enc = await _engaged_twice(tussle)
    body = await enc.ok("rogue-trader.break_off", unit="B2", terrain_divisor=2, dice=[[2, 4], [1], [1]])
    mv = of_type(body["events"], "Moved", combatant="c5")[0]["data"]
    assert abs(math.dist(mv["from"], mv["to"]) - 400) < 1
    await enc.replay_matches_live()


async def test_failed_break_off_routs_the_whole_unit(tussle):
    enc = await _engaged_twice(tussle)
    body = await enc.ok("rogue-trader.break_off", unit="B2", dice=[[6, 6], [1], [1]])
    evs = body["events"]
    assert rolls(evs, "rout_test")[0]["outcome"] == "fail"
    routed = {e["data"]["combatant"] for e in of_type(evs, "ConditionChanged", condition="routed", on=True)}
    assert routed == {"c5", "c8"}
    assert of_type(evs, "Moved", combatant="c5")[0]["data"]["reason"] == "run_away"
    assert of_type(evs, "CloseCombatLeft", combatant="c5", how="rout")
    st = await enc.state()
    assert "routed" in st["combatants"]["c8"]["conditions"]
    await enc.replay_matches_live()


async def test_break_off_refusals(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 5, 0), cultist("c2", 20, 20, unit="C")])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    r = await enc.command("rogue-trader.break_off", unit="m1")
    assert r.status == 422 and "did not begin the turn in it" in r.body["error"]["message"]
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    r = await enc.command("rogue-trader.break_off", unit="C")
    assert r.status == 422 and "is not in close combat" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.break_off", unit="nope")
    assert r.status == 422 and "no unit" in r.body["error"]["message"]
    blue = await enc.seat("Blue", ["c1"])
    r = await enc.command("move", combatant="c1", to=at(9, 0), token=blue)
    assert r.status == 422 and "breaking off" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_state_shows_wounds_and_contacts(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0, W=3, save=None), cultist("c1", 5, 0, reactions={})])
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    await enc.ok("respond", reaction=rid, choice="stand_and_fire", dice=[[6], [6]])
    st = await enc.state()
    assert st["combatants"]["m1"]["wounds"] == 1
    assert st["rules"]["contacts"] == [["c1", "m1"]]
    await enc.replay_matches_live()


async def test_break_off_needs_the_seat_of_the_whole_unit(tussle):
    enc = await _engaged_twice(tussle, {"manual_dice_from": "actor"})
    half = await enc.seat("Half", ["c5"])
    whole = await enc.seat("Whole", ["c5", "c8"])
    r = await enc.command("rogue-trader.break_off", unit="B2", token=half)
    assert r.status == 403 and "control" in r.body["error"]["message"], r.body
    r = await enc.command("rogue-trader.break_off", unit="B2", token=whole, dice=[[2, 4], [1], [1]])
    assert r.status == 201, r.body
    await enc.replay_matches_live()
