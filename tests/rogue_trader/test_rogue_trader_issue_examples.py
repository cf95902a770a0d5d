"""Issue 6 audit: the worked examples of spec §6 that had only pure tests (E1, E2, E3), and E6's
"a model slain in its own step still strikes", through the HTTP API with manual dice.

Every command is checked for exactly the dice it draws (the server refuses unused manual dice), and each
scenario's replayed state equals the live one.
"""

from __future__ import annotations

from typing import Any

from rt_support import at, cultist, e6_second_round, encounter, marine, mods, of_type, rolls

POWER_SWORD = {"id": "power_sword", "name": "power sword", "type": "C", "S": 5}


async def duel(
    tussle: Any,
    attacker: dict[str, Any],
    defender: dict[str, Any],
    *,
    charge_round: bool = True,
    options: dict[str, Any] | None = None,
    situation: dict[str, dict[str, Any]] | None = None,
) -> Any:
    """`attacker` (red) charges `defender` (blue) in turn 1; the round is fought in turn 1 (the charger's
    +1 applies) or, with `charge_round=False`, in turn 2 (no charge bonus)."""
    enc = await encounter(tussle, [attacker, defender], options=options)
    for cid, fields in (situation or {}).items():
        await enc.ok("rogue-trader.set_situation", combatant=cid, **fields)
    await enc.ok("rogue-trader.charge", combatant=attacker["id"], target=defender["id"])
    if not charge_round:
        await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    return enc


def first_hit(events: list[dict[str, Any]], who: str) -> dict[str, Any]:
    return [r for r in rolls(events, "to_hit") if r["combatant"] == who][0]


# ---- E1: WS 4 vs WS 3, charging ----------------------------------------------------------------------


async def test_e1_no_modifiers_face_3_misses(tussle):
    enc = await duel(tussle, marine("m1", 0, 0), cultist("c1", 3, 0), charge_round=False)
    # m1 (I4): 3 vs 4 miss; c1 (I3, WS3 v 4 -> 5): 1 miss. A draw: no rout test.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[3], [1]])
    hit = first_hit(body["events"], "m1")
    assert (hit["faces"], hit["total"], hit["target"], hit["outcome"], mods(hit)) == ([3], 3, 4, "miss", [])
    assert first_hit(body["events"], "c1")["target"] == 5
    assert of_type(body["events"], "RtCombatRoundResolved")[0]["data"]["results"] == {
        "c1": "draw",
        "m1": "draw",
    }
    await enc.replay_matches_live()


async def test_e1_charging_face_3_hits(tussle):
    enc = await duel(tussle, marine("m1", 0, 0), cultist("c1", 3, 0))
    # 3 +1 charging = 4 vs 4 hit; to wound S4 v T3 3+: 1 fails; c1 misses.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[3], [1], [1]])
    hit = first_hit(body["events"], "m1")
    assert (hit["total"], hit["target"], hit["outcome"], mods(hit)) == (4, 4, "hit", [(1, "charging")])
    wound = rolls(body["events"], "to_wound")[0]
    assert (wound["target"], wound["outcome"]) == (3, "no_wound")
    await enc.replay_matches_live()


async def test_e1_charging_natural_one_misses(tussle):
    enc = await duel(tussle, marine("m1", 0, 0), cultist("c1", 3, 0))
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    hit = first_hit(body["events"], "m1")
    assert (hit["total"], hit["target"], hit["outcome"]) == (2, 4, "miss")
    assert of_type(body["events"], "RtAttackResolved", attacker="m1", outcome="miss")
    await enc.replay_matches_live()


# ---- E2: minimum 2 and the 7+ procedure ----------------------------------------------------------------


async def _e2a(tussle):
    return await duel(
        tussle,
        marine("m1", 0, 0, WS=9),
        cultist("c1", 3, 0, WS=1),
        charge_round=False,
        situation={"m1": {"frenzied": True}},
    )


async def test_e2a_minimum_two_face_one_misses(tussle):
    enc = await _e2a(tussle)
    # WS 9 v 1 -> 2, +2 frenzied: the need stays 2, a natural 1 misses. c1 (WS1 v 9 -> 9): first die 1, miss.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    hit = first_hit(body["events"], "m1")
    assert (hit["target"], hit["total"], hit["outcome"], mods(hit)) == (2, 3, "miss", [(2, "frenzied")])
    await enc.replay_matches_live()


async def test_e2a_minimum_two_face_two_hits(tussle):
    enc = await _e2a(tussle)
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[2], [1], [1]])
    assert first_hit(body["events"], "m1")["outcome"] == "hit"
    await enc.replay_matches_live()


async def _e2b(tussle, charge_round: bool = False):
    return await duel(tussle, marine("m1", 0, 0, WS=1), cultist("c1", 3, 0, WS=5), charge_round=charge_round)


async def test_e2b_seven_plus_six_then_four_hits(tussle):
    enc = await _e2b(tussle)
    # Table 7: 6 then 4 (second target 4) hits; wound 1 fails; c1 (WS5 v 1 -> 3) misses on a 1.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[6], [4], [1], [1]])
    first = first_hit(body["events"], "m1")
    second = rolls(body["events"], "to_hit_second")[0]
    assert (first["target"], first["outcome"]) == (7, "six_rolled")
    assert (second["faces"], second["target"], second["outcome"]) == ([4], 4, "hit")
    assert of_type(body["events"], "RtAttackResolved", attacker="m1")[0]["data"]["outcome"] == "no_wound"
    await enc.replay_matches_live()


async def test_e2b_seven_plus_six_then_three_misses(tussle):
    enc = await _e2b(tussle)
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[6], [3], [1]])
    assert rolls(body["events"], "to_hit_second")[0]["outcome"] == "miss"
    assert of_type(body["events"], "RtAttackResolved", attacker="m1")[0]["data"]["outcome"] == "miss"
    await enc.replay_matches_live()


async def test_e2b_seven_plus_five_draws_no_second_die(tussle):
    enc = await _e2b(tussle)
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[5], [1]])
    assert first_hit(body["events"], "m1")["outcome"] == "miss"
    assert rolls(body["events"], "to_hit_second") == []
    await enc.replay_matches_live()


async def test_e2c_charging_brings_seven_to_six(tussle):
    enc = await _e2b(tussle, charge_round=True)
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[6], [1], [1]])
    hit = first_hit(body["events"], "m1")
    assert (hit["target"], hit["total"], hit["outcome"], mods(hit)) == (7, 7, "hit", [(1, "charging")])
    assert rolls(body["events"], "to_hit_second") == []
    await enc.replay_matches_live()


async def test_e2d_improvised_needs_seven(tussle):
    enc = await duel(tussle, marine("m1", 0, 0, WS=3, weapons=[]), cultist("c1", 3, 0), charge_round=False)
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[6], [4], [1], [1]])
    first = first_hit(body["events"], "m1")
    assert (first["target"], first["total"], first["outcome"], mods(first)) == (
        5,
        4,
        "six_rolled",
        [(-2, "improvised")],
    )
    assert rolls(body["events"], "to_hit_second")[0]["outcome"] == "hit"
    alloc = of_type(body["events"], "RtAttacksAllocated", combatant="m1")[0]["data"]["allocations"]
    assert alloc == [{"attack": "improvised", "weapon": None, "hand": None, "target": "c1"}]
    await enc.replay_matches_live()


async def test_e2e_impossible_draws_no_die(tussle):
    enc = await duel(
        tussle, marine("m1", 0, 0, WS=2, weapons=[]), cultist("c1", 3, 0, WS=10), charge_round=False
    )
    # m1 needs 9 + 2 = 11: no die. c1 (WS10 v 2 -> 2) misses on a natural 1.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1]])
    assert [r["combatant"] for r in rolls(body["events"], "to_hit")] == ["c1"]
    assert of_type(body["events"], "RtAttackResolved", attacker="m1")[0]["data"]["outcome"] == "impossible"
    await enc.replay_matches_live()


# ---- E3: weapon S vs creature S ------------------------------------------------------------------------


async def test_e3_power_sword_s5_wounds_t3_on_2(tussle):
    enc = await duel(tussle, marine("m2", 0, 0, weapons=[dict(POWER_SWORD)]), cultist("c2", 3, 0))
    # Hit (4 +1), wound S5 v T3 2+ on a 2, no save: c2 slain before it strikes; its unit is gone (no test).
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[4], [2]])
    evs = body["events"]
    wound = rolls(evs, "to_wound")[0]
    assert (wound["target"], wound["outcome"]) == (2, "wound")
    assert rolls(evs, "save") == []
    assert of_type(evs, "Wounded", combatant="c2")[0]["data"]["amount"] == 1
    assert of_type(evs, "ConditionChanged", combatant="c2", condition="dead", on=True)
    assert not of_type(evs, "RtAttackResolved", attacker="c2")
    assert rolls(evs, "rout_test") == []
    await enc.replay_matches_live()


async def test_e3_stronger_creature_uses_its_own_s(tussle):
    # S6 wielding the S5 sword against T6: S6 v T6 needs 4 (S5 would need 5).
    enc = await duel(tussle, marine("ogre", 0, 0, S=6, weapons=[dict(POWER_SWORD)]), cultist("c2", 3, 0, T=6))
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[4], [1], [1]])
    assert rolls(body["events"], "to_wound")[0]["target"] == 4
    await enc.replay_matches_live()


async def test_e3_weaker_model_uses_the_swords_s(tussle):
    # S3 wielding the S5 sword against T6: S5 v T6 needs 5 (S3 would need 6).
    enc = await duel(tussle, marine("m2", 0, 0, S=3, weapons=[dict(POWER_SWORD)]), cultist("c2", 3, 0, T=6))
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[4], [1], [1]])
    assert rolls(body["events"], "to_wound")[0]["target"] == 5
    await enc.replay_matches_live()


# ---- E6: simultaneous strikes stand ----------------------------------------------------------------------


async def test_e6_simultaneous_model_slain_in_its_step_still_strikes(tussle):
    # The lower id (a4) strikes first in the step and slays x1; x1 still strikes (A33).
    enc = await encounter(tussle, [marine("a4", 0, 0), cultist("x1", 3, 0, WS=4, I=4, T=4)])
    await enc.ok("rogue-trader.charge", combatant="a4", target="x1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="a4", dice=[[5], [6], [5], [1]])
    evs = body["events"]
    step = of_type(evs, "RtStrikeStepStarted")[0]["data"]
    assert step["basis"] == "simultaneous" and step["waves"] == [["a4", "x1"]]
    types = [(e["type"], e["data"].get("attacker") or e["data"].get("combatant")) for e in evs]
    assert types.index(("ConditionChanged", "x1")) < types.index(("RtAttackResolved", "x1"))
    assert types.index(("RtAttackResolved", "x1")) < types.index(("CombatantRemoved", "x1"))
    assert of_type(evs, "RtAttackResolved", attacker="x1")[0]["data"]["outcome"] == "no_wound"
    st = await enc.state()
    assert "x1" not in st["combatants"] and st["rules"]["contacts"] == []
    await enc.replay_matches_live()


async def test_e6_charger_first_positions(tussle):
    """E6 first bullet: the charge itself puts m4 in contact at e1's base edge."""
    enc = await encounter(tussle, [marine("m4", 0, 0), cultist("e1", 3, 0, WS=4, I=4, T=4)])
    await enc.ok("rogue-trader.charge", combatant="m4", target="e1")
    st = await enc.state()
    assert st["combatants"]["m4"]["position"] == at(2, 0)
    assert st["rules"]["models"]["m4"]["charged_turn"] == 1


async def test_e6_roll_off_equal_dice_roll_again(tussle):
    """A4: sides roll one D6 each in ascending side id; equal rolls roll again."""
    enc = await e6_second_round(tussle, options={"initiative_ties": "roll_off"})
    # blue 3, red 3: again; blue 2, red 5: m4 strikes first (miss), then e1 (miss).
    body = await enc.ok("rogue-trader.resolve_round", group="e1", dice=[[3], [3], [2], [5], [1], [1]])
    ro = rolls(body["events"], "initiative_roll_off")
    assert [(r["faces"], r["outcome"]) for r in ro] == [
        ([3], "side blue"),
        ([3], "side red"),
        ([2], "side blue (re-roll)"),
        ([5], "side red (re-roll)"),
    ]
    step = of_type(body["events"], "RtStrikeStepStarted")[0]["data"]
    assert step["basis"] == "roll_off" and step["waves"] == [["m4"], ["e1"]]
    assert [r["combatant"] for r in rolls(body["events"], "to_hit")] == ["m4", "e1"]
    await enc.replay_matches_live()


async def test_e6_roll_off_winner_slays_before_the_loser_strikes(tussle):
    enc = await e6_second_round(tussle, options={"initiative_ties": "roll_off"})
    # red wins 6-1; m4 hits (5) and wounds (4): e1 is slain in the first wave and never strikes.
    body = await enc.ok("rogue-trader.resolve_round", group="e1", dice=[[1], [6], [5], [4]])
    assert not of_type(body["events"], "RtAttackResolved", attacker="e1")
    assert of_type(body["events"], "CombatantRemoved", combatant="e1")
    await enc.replay_matches_live()
