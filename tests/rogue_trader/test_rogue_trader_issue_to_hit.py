"""Issue 6 audit: every row of the WS table (every cell, both ways) and each to-hit modifier with its reason,
through the HTTP API with manual dice; disadvantaged opponents at WS 1."""

from __future__ import annotations

from typing import Any

import pytest
from rt_support import LASPISTOL, at, cultist, encounter, marine, mods, of_type, rolls

from rules.rogue_trader.tables import TO_HIT

# §Throw to Hit, transcribed again from the seed for this test (row: attacker WS, column: defender WS).
SEED_WS_TABLE = [
    [5, 5, 6, 6, 7, 7, 8, 8, 9, 9],
    [4, 5, 5, 6, 6, 7, 7, 8, 8, 9],
    [4, 4, 5, 5, 6, 6, 7, 7, 8, 8],
    [3, 4, 4, 5, 5, 6, 6, 7, 7, 8],
    [3, 3, 4, 4, 5, 5, 6, 6, 7, 7],
    [2, 3, 3, 4, 4, 5, 5, 6, 6, 7],
    [2, 2, 3, 3, 4, 4, 5, 5, 6, 6],
    [2, 2, 2, 3, 3, 4, 4, 5, 5, 6],
    [2, 2, 2, 2, 3, 3, 4, 4, 5, 5],
    [2, 2, 2, 2, 2, 3, 3, 4, 4, 5],
]


def test_the_literal_table_is_the_seeds():
    assert [list(row) for row in TO_HIT] == SEED_WS_TABLE


@pytest.mark.parametrize("row", range(1, 11))
async def test_ws_table_row_through_the_api(tussle, row):
    """Attacker WS `row` against defenders of WS 1-10; each defender strikes back (the column's cells)."""
    models = []
    for col in range(1, 11):
        y = col * 10
        models.append(marine(f"a{col:02d}", 0, y, WS=row))
        models.append(cultist(f"d{col:02d}", 3, y, WS=col))
    enc = await encounter(tussle, models)
    for col in range(1, 11):
        await enc.ok("rogue-trader.charge", combatant=f"a{col:02d}", target=f"d{col:02d}")
    await enc.ok("start_turn", turn=2)  # no charge bonus in the round
    await enc.ok("start_phase", phase="close_combat")
    for col in range(1, 11):
        body = await enc.ok("rogue-trader.resolve_round", group=f"a{col:02d}", dice=[[1], [1]])
        hits = {r["combatant"]: r for r in rolls(body["events"], "to_hit")}
        a, d = hits[f"a{col:02d}"], hits[f"d{col:02d}"]
        assert (a["target"], a["modifiers"], a["outcome"]) == (SEED_WS_TABLE[row - 1][col - 1], [], "miss")
        assert d["target"] == SEED_WS_TABLE[col - 1][row - 1]
    await enc.replay_matches_live()


async def test_ws_above_ten_and_below_one_are_clamped(tussle):
    """A32: WS 12 counts as 10 and WS 0 as 1 on the table."""
    enc = await encounter(tussle, [marine("a1", 0, 0, WS=12), cultist("d1", 3, 0, WS=0)])
    await enc.ok("rogue-trader.charge", combatant="a1", target="d1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="a1", dice=[[1], [1]])
    hits = {r["combatant"]: r["target"] for r in rolls(body["events"], "to_hit")}
    assert hits == {"a1": 2, "d1": 9}
    await enc.replay_matches_live()


# ---- each modifier alone ---------------------------------------------------------------------------------


CASES: dict[
    str, tuple[dict[str, Any], dict[str, Any], dict[str, dict[str, Any]], bool, list[tuple[int, str]]]
] = {
    # name: (attacker stats, defender stats, situation, round fought in the charge turn, expected modifiers)
    "frenzied": ({}, {}, {"m1": {"frenzied": True}}, False, [(2, "frenzied")]),
    "charging": ({}, {}, {}, True, [(1, "charging")]),
    "uphill": ({}, {}, {"m1": {"uphill_over": ["c1"]}}, False, [(1, "uphill")]),
    "defended obstacle": ({}, {}, {"c1": {"behind_obstacle": True}}, False, [(-1, "defended obstacle")]),
    "improvised": ({"weapons": []}, {}, {}, False, [(-2, "improvised")]),
    "wrong hand (left-handed, right-hand weapon)": (
        {"handedness": "left"},
        {},
        {},
        False,
        [(-1, "wrong hand")],
    ),
    "no modifier": ({}, {}, {}, False, []),
}


@pytest.mark.parametrize("case", sorted(CASES))
async def test_each_to_hit_modifier_with_its_reason(tussle, case):
    a_stats, d_stats, situation, charge_round, expected = CASES[case]
    enc = await encounter(tussle, [marine("m1", 0, 0, **a_stats), cultist("c1", 3, 0, **d_stats)])
    for cid, fields in situation.items():
        await enc.ok("rogue-trader.set_situation", combatant=cid, **fields)
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    if not charge_round:
        await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "m1"][0]
    assert mods(hit) == expected
    assert hit["total"] == 1 + sum(v for v, _ in expected) and hit["outcome"] == "miss"
    await enc.replay_matches_live()


async def test_all_modifiers_are_cumulative(tussle):
    """+2 frenzied +1 charging +1 uphill -1 obstacle -1 more than one weapon -1 wrong hand = +1."""
    left = {**LASPISTOL, "id": "laspistol_l", "held_in": "L"}
    enc = await encounter(tussle, [marine("m1", 0, 0, weapons=[dict(LASPISTOL), left]), cultist("c1", 3, 0)])
    await enc.ok("rogue-trader.set_situation", combatant="m1", frenzied=True, uphill_over=["c1"])
    await enc.ok("rogue-trader.set_situation", combatant="c1", behind_obstacle=True)
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    # Right pistol: 3 + 2 = 5 vs 4 hits, wound 1 fails; left pistol: 3 + 1 = 4 vs 4 hits, wound 1; c1 misses.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[3], [1], [3], [1], [1]])
    right, left_hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "m1"]
    assert mods(right) == [
        (2, "frenzied"),
        (1, "charging"),
        (1, "uphill"),
        (-1, "defended obstacle"),
        (-1, "more than one weapon"),
    ]
    assert mods(left_hit) == mods(right) + [(-1, "wrong hand")]
    assert (right["total"], left_hit["total"]) == (5, 4)
    await enc.replay_matches_live()


async def test_obstacle_counts_only_against_the_named_attackers(tussle):
    """`obstacle_against`: the wall lies between c1 and m1, not between c1 and m2."""
    enc = await encounter(tussle, [marine("m1", 0, 0), marine("m2", 3, 3), cultist("c1", 3, 0)])
    await enc.ok("rogue-trader.set_situation", combatant="c1", behind_obstacle=True, obstacle_against=["m1"])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("rogue-trader.charge", combatant="m2", target="c1")
    st = await enc.state()
    assert st["combatants"]["m2"]["position"] == at(3, 1)
    assert st["rules"]["models"]["c1"]["obstacle_against"] == ["m1"]
    await enc.ok("start_phase", phase="close_combat")
    # c1's only front enemy is m1 (m2 is at its side): its attack goes there by default.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1], [1]])
    hits = {r["combatant"]: mods(r) for r in rolls(body["events"], "to_hit")}
    assert hits == {"m1": [(1, "charging"), (-1, "defended obstacle")], "m2": [(1, "charging")], "c1": []}
    await enc.replay_matches_live()


async def test_ambidextrous_never_takes_the_wrong_hand_penalty(tussle):
    left = {**LASPISTOL, "id": "laspistol_l", "held_in": "L"}
    enc = await encounter(
        tussle, [marine("k1", 0, 0, handedness="ambi", weapons=[dict(LASPISTOL), left]), cultist("c1", 3, 0)]
    )
    await enc.ok("rogue-trader.charge", combatant="k1", target="c1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1], [1]])
    k1 = [mods(r) for r in rolls(body["events"], "to_hit") if r["combatant"] == "k1"]
    assert k1 == [[(-1, "more than one weapon")], [(-1, "more than one weapon")]]
    await enc.replay_matches_live()


async def test_creature_special_attacks_are_never_improvised(tussle):
    """A devil has no weapons, yet its stomps and bites carry no -2 (spec 4.6 improvised row)."""
    devil = {
        "id": "dv",
        "name": "Devil",
        "side": "red",
        "position": at(0, 0),
        "facing": 0,
        "stats": {"creature": "catachan_devil", "size": "medium"},
    }
    enc = await encounter(tussle, [devil, cultist("c1", 5, 0)])
    await enc.ok("rogue-trader.charge", combatant="dv", target="c1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    # c1 in front: 4 stomps, the tentacle and the bite reach it (the tail does not): six 1s; c1 misses.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1]] * 7)
    devil_hits = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "dv"]
    assert len(devil_hits) == 6 and all(r["modifiers"] == [] for r in devil_hits)
    kinds = [
        a["attack"]
        for a in of_type(body["events"], "RtAttacksAllocated", combatant="dv")[0]["data"]["allocations"]
    ]
    assert sorted(kinds) == ["bite", "stomp", "stomp", "stomp", "stomp", "tentacle"]
    await enc.replay_matches_live()


@pytest.mark.parametrize("condition", ["asleep", "unconscious", "routed"])
async def test_disadvantaged_opponent_counts_as_ws1_and_does_not_strike(tussle, condition):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 3, 0, WS=6)])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_turn", turn=2)
    await enc.ok(
        "ruling", text=f"c1 is {condition}", overrides={"combatants": {"c1": {"conditions": [condition]}}}
    )
    await enc.ok("start_phase", phase="close_combat")
    st = await enc.state()
    assert "rogue-trader.allocate_attacks" not in st["legal_actions"]["c1"]
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1]])
    hits = rolls(body["events"], "to_hit")
    assert [(r["combatant"], r["target"]) for r in hits] == [("m1", 3)]  # WS4 v WS 1 (not 6)
    await enc.replay_matches_live()
