"""E4, E5, E6 over HTTP with manual dice: weapons and hands, devil arcs and damage, initiative ties."""

from __future__ import annotations

from rt_support import LASPISTOL, at, cultist, e6_second_round, encounter, marine, mods, of_type, rolls


def trooper(cid: str, x: float, y: float, facing: int) -> dict:
    return cultist(cid, x, y, side="blue", unit="T", facing=facing, save=6)


async def _devil_fight(tussle):
    devil = {
        "id": "dv",
        "name": "Devil",
        "side": "red",
        "position": at(0, 0),
        "facing": 90,
        "stats": {"creature": "catachan_devil", "size": "medium"},
        "reactions": {"charged": "hold"},
    }
    enc = await encounter(
        tussle,
        [devil, trooper("t1", 0, 3, 270), trooper("t2", 0, -3, 90)],
        options={"turn_order": ["blue", "red"]},
    )
    await enc.ok("rogue-trader.charge", combatant="t1", target="dv")
    await enc.ok("rogue-trader.charge", combatant="t2", target="dv")
    st = await enc.state()
    assert st["combatants"]["t1"]["position"] == at(0, 1.5)
    assert st["combatants"]["t2"]["position"] == at(0, -1.5)
    await enc.ok("start_phase", phase="close_combat")
    return enc


async def test_e5_devil_arcs_refusals(tussle):
    enc = await _devil_fight(tussle)
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[{"attack": "bite", "target": "t2"}],
    )
    assert (
        r.status == 422 and "rear arc" in r.body["error"]["message"] and "bite" in r.body["error"]["message"]
    )
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[{"attack": "tail", "target": "t1"}],
    )
    assert (
        r.status == 422 and "front arc" in r.body["error"]["message"] and "tail" in r.body["error"]["message"]
    )
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[{"attack": "stomp", "target": "t1"}],
    )
    assert r.status == 422 and "every attack must be allocated" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.resolve_round", group="dv")
    assert r.status == 422 and "allocate" in r.body["error"]["message"]


async def test_e5_devil_tail_kills_before_trooper_strikes(tussle):
    enc = await _devil_fight(tussle)
    await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[
            {"attack": "tail", "target": "t2"},
            {"attack": "stomp", "target": "t2"},
            {"attack": "stomp", "target": "t2"},
            {"attack": "stomp", "target": "t1"},
            {"attack": "stomp", "target": "t1"},
            {"attack": "bite", "target": "t1"},
            {"attack": "tentacle", "target": "t1"},
        ],
    )
    # tail: hit 5, wound 4 vs 2+, save 2 vs 6+ fails, damage 1d6 = 3; t2's stomps find it slain;
    # four misses on t1; t1 (I3) misses; T rout test 2+3.
    body = await enc.ok(
        "rogue-trader.resolve_round", group="dv", dice=[[5], [4], [2], [3], [1], [1], [1], [1], [1], [2, 3]]
    )
    evs = body["events"]
    steps = of_type(evs, "RtStrikeStepStarted")
    assert [s["data"]["initiative"] for s in steps] == [8, 3]
    assert steps[1]["data"]["strikers"] == ["t1"]
    assert rolls(evs, "to_hit")[0]["target"] == 5
    assert rolls(evs, "to_wound")[0]["target"] == 2
    assert rolls(evs, "damage")[0]["notation"] == "1d6"
    assert of_type(evs, "Wounded", combatant="t2")[0]["data"]["amount"] == 3
    assert of_type(evs, "ConditionChanged", combatant="t2", condition="dead")
    assert of_type(evs, "CombatantRemoved", combatant="t2")
    assert len(of_type(evs, "RtAttackResolved", target="t2", outcome="target_already_slain")) == 2
    res = of_type(evs, "RtCombatRoundResolved")[0]["data"]
    assert {"unit": "dv", "vs": "T", "caused": 3, "received": 0, "result": "win"} in res["pairs"]
    assert not of_type(evs, "RtAttackResolved", attacker="t2")
    await enc.replay_matches_live()


async def test_e6_charger_strikes_first_on_tie(tussle):
    enc = await encounter(tussle, [marine("m4", 0, 0), cultist("e1", 3, 0, WS=4, I=4, T=4)])
    await enc.ok("rogue-trader.charge", combatant="m4", target="e1")
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="e1", dice=[[4], [6]])
    step = of_type(body["events"], "RtStrikeStepStarted")[0]["data"]
    assert step["basis"] == "charger_first" and step["waves"] == [["m4"], ["e1"]]
    hit = rolls(body["events"], "to_hit")[0]
    assert (hit["target"], hit["total"], hit["outcome"], mods(hit)) == (5, 5, "hit", [(1, "charging")])
    assert rolls(body["events"], "to_wound")[0]["target"] == 4
    assert not of_type(body["events"], "RtAttackResolved", attacker="e1")
    await enc.replay_matches_live()


async def test_e6_simultaneous_slain_still_strikes(tussle):
    enc = await e6_second_round(tussle)
    # Strikers in id order: e1 hits (5 vs 5) but does not wound (1 vs 5+); m4 hits and wounds (6 vs 4+).
    body = await enc.ok("rogue-trader.resolve_round", group="e1", dice=[[5], [1], [5], [6]])
    evs = body["events"]
    step = of_type(evs, "RtStrikeStepStarted")[0]["data"]
    assert step["basis"] == "simultaneous"
    assert of_type(evs, "RtAttackResolved", attacker="e1", outcome="no_wound")
    assert of_type(evs, "ConditionChanged", combatant="e1", condition="dead")
    assert of_type(evs, "RtAttackResolved", attacker="m4", outcome="wounded")
    await enc.replay_matches_live()


async def test_e6_roll_off(tussle):
    enc = await e6_second_round(tussle, {"initiative_ties": "roll_off"})
    body = await enc.ok("rogue-trader.resolve_round", group="e1", dice=[[5], [2], [1], [1]])
    ro = rolls(body["events"], "initiative_roll_off")
    # Sides roll in ascending id: blue (e1's side) 5, red (m4's side) 2.
    assert [(r["faces"], r["outcome"]) for r in ro] == [([5], "side blue"), ([2], "side red")]
    step = of_type(body["events"], "RtStrikeStepStarted")[0]["data"]
    assert step["basis"] == "roll_off" and step["waves"] == [["e1"], ["m4"]]
    assert [r["combatant"] for r in rolls(body["events"], "to_hit")] == ["e1", "m4"]
    await enc.replay_matches_live()


async def test_e4_two_pistols_wrong_hand(tussle):
    left = {**LASPISTOL, "id": "laspistol_l", "held_in": "L"}
    k1 = marine("k1", 0, 0, WS=5, A=1, weapons=[dict(LASPISTOL, held_in="R"), left])
    enc = await encounter(tussle, [k1, cultist("c3", 3, 0)])
    await enc.ok("rogue-trader.charge", combatant="k1", target="c3")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c3", dice=[[5], [1], [5], [1]])
    hits = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "k1"]
    assert [(h["target"], h["total"], h["outcome"]) for h in hits] == [(4, 4, "hit"), (4, 3, "miss")]
    assert mods(hits[0]) == [(-1, "more than one weapon")]
    assert mods(hits[1]) == [(-1, "more than one weapon"), (-1, "wrong hand")]
    await enc.replay_matches_live()


async def test_allocation_refusals(tussle):
    k1 = marine(
        "k1",
        0,
        0,
        weapons=[
            {"id": "lasgun", "type": "", "S": 3, "hands": 2},
            {"id": "sword", "type": "C", "S": 4, "held_in": "R"},
            {"id": "axe", "type": "C", "S": 4, "held_in": "R"},
        ],
    )
    enc = await encounter(tussle, [k1, cultist("c3", 3, 0), cultist("c9", 9, 9)])
    await enc.ok("rogue-trader.charge", combatant="k1", target="c3")
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "lasgun", "target": "c3"}],
    )
    assert r.status == 422 and "not a close combat" in r.body["error"]["message"]
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "sword", "target": "c9"}],
    )
    assert r.status == 422 and "not in base contact" in r.body["error"]["message"]
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "sword", "target": "c3"}, {"weapon": "axe", "target": "c3"}],
    )
    assert r.status == 422 and "same hand" in r.body["error"]["message"]
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=2,
        allocations=[{"weapon": "sword", "target": "c3"}],
    )
    assert r.status == 422 and "round 1" in r.body["error"]["message"]
    await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "axe", "target": "c3"}],
    )
    await enc.replay_matches_live()


async def test_e5_without_overkill_counts_remaining_wounds(tussle):
    devil = {
        "id": "dv",
        "name": "Devil",
        "side": "red",
        "position": at(0, 0),
        "facing": 90,
        "stats": {"creature": "catachan_devil", "size": "medium"},
        "reactions": {"charged": "hold"},
    }
    enc = await encounter(
        tussle,
        [devil, trooper("t2", 0, -3, 90)],
        options={"turn_order": ["blue", "red"], "count_overkill": False},
    )
    await enc.ok("rogue-trader.charge", combatant="t2", target="dv")
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[
            {"attack": "tail", "target": "t2"},
            *({"attack": "stomp", "target": "t2"} for _ in range(4)),
            {"attack": "tentacle", "target": "t2"},
        ],
    )
    # Tail: hit, wound, save fails, 1d6 = 3 damage on a 1-wound trooper: only 1 counts.
    body = await enc.ok("rogue-trader.resolve_round", group="dv", dice=[[5], [4], [2], [3]])
    res = of_type(body["events"], "RtCombatRoundResolved")[0]["data"]
    assert [p["caused"] for p in res["pairs"] if p["unit"] == "dv"] == [1]
    assert (
        of_type(body["events"], "RtAttackResolved", attacker="dv", outcome="wounded")[0]["data"]["wounds"]
        == 3
    )
    assert (
        of_type(body["events"], "RtAttackResolved", attacker="dv", outcome="wounded")[0]["data"]["counted"]
        == 1
    )
    await enc.replay_matches_live()


async def test_forcing_default_allocations_is_the_gms(tussle):
    enc = await _devil_fight(tussle)
    blue = await enc.seat("Blue", ["t1", "t2"])
    r = await enc.command("rogue-trader.resolve_round", group="dv", force_defaults=True, token=blue)
    assert r.status == 403 and "only the GM may force default allocations" in r.body["error"]["message"], (
        r.body
    )
    r = await enc.command("rogue-trader.resolve_round", group="dv", token=blue)
    assert r.status == 422 and "or the GM may resolve with force_defaults" in r.body["error"]["message"], (
        r.body
    )
    # The GM's force: the devil's attacks take their default targets (each arc's enemy); nine to-hit 1s miss.
    body = await enc.ok("rogue-trader.resolve_round", group="dv", force_defaults=True, dice=[[1]] * 9)
    allocated = of_type(body["events"], "RtAttacksAllocated", combatant="dv")[0]["data"]["allocations"]
    assert len(allocated) == 7 and {a["target"] for a in allocated} <= {"t1", "t2"}
    assert [r["outcome"] for r in rolls(body["events"], "to_hit")] == ["miss"] * 9
    await enc.replay_matches_live()


async def test_set_situation_is_the_gms(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 3, 0)])
    seat = await enc.seat("Both", ["m1", "c1"])
    r = await enc.command("rogue-trader.set_situation", combatant="c1", behind_obstacle=True, token=seat)
    assert r.status == 403 and "only the GM" in r.body["error"]["message"], r.body
    await enc.ok("rogue-trader.set_situation", combatant="c1", behind_obstacle=True)
