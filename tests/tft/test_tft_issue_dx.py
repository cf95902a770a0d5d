"""Issue 5: DX in HTH as a table of modifiers, each carried with its reason on every DieRolled (spec section 5):
-4 on the entry turn, -6 spell, -1 per hit a shield stops, dirk -2, poniard -4, +2 strongest (ST with the Judo
bonuses), Judo +2/+4 and the unarmed bonus; no +4 "rear hex" bonus. Shields stop nothing in HTH."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tft.helpers import fig, next_turn, of_type, types

DIRK = {
    "id": "dirk",
    "name": "Dirk",
    "kind": "weapon",
    "damage": "1d6+1",
    "hth_damage": "2d6-1",
    "dagger_list": True,
    "state": "ready",
}
PONIARD = {
    "id": "poniard",
    "name": "Poniard",
    "kind": "weapon",
    "damage": "1d6+2",
    "hth_damage": "2d6",
    "dagger_list": True,
    "state": "ready",
}
KNIFE = {
    "id": "knife",
    "name": "Long knife",
    "kind": "weapon",
    "damage": "1d6",
    "hth_damage": "1d6+1",
    "dagger_list": True,
    "hth_dx_mod": -1,
    "state": "ready",
}
DAGGER_READY = {
    "id": "dagger",
    "name": "Dagger",
    "kind": "weapon",
    "damage": "1d6-1",
    "hth_damage": "1d6+1",
    "dagger_list": True,
    "state": "ready",
}
BUCKLER = {"id": "buckler", "name": "Buckler", "kind": "shield", "stops": 2, "state": "worn"}


def _fig(
    id: str, side: str, pos: list[int], facing: int, st: int, adj_dx: int, **stats: Any
) -> dict[str, Any]:
    return fig(id, side, st, adj_dx, pos, facing, **stats)


async def _brawl(
    tussle,
    a: dict[str, Any] | None = None,
    b: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
    second_turn: bool = True,
):
    """a1 (DX 13) gets into HTH with the prone b1 (DX 10) at 0,0 on turn 1 and passes; b1 passes; turn 2's action
    phase has begun. Ready dagger-list items are kept (`keep_hth_weapons_on_entry`)."""
    enc = await tussle.create(
        "tft", dice="manual", options={"keep_hth_weapons_on_entry": True, **(options or {})}
    )
    await enc.add(_fig("a1", "a", [1, 0], 3, **{"st": 12, "adj_dx": 13, "ma": 12, **(a or {})}))
    await enc.add(
        _fig("b1", "b", [0, 0], 0, **{"st": 12, "adj_dx": 10, "ma": 8, "posture": "prone", **(b or {})})
    )
    await next_turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    if second_turn:
        await next_turn(enc, 2)
    return enc


def _mods(roll: dict) -> list[tuple[int, str]]:
    return [(m["value"], m["reason"]) for m in roll["modifiers"]]


@pytest.mark.parametrize(
    "item, mods, notation",
    [
        (DIRK, [(-2, "Dirk in HTH")], "2d6-1"),
        (PONIARD, [(-4, "Poniard in HTH")], "2d6"),
        (KNIFE, [(-1, "Long knife in HTH")], "1d6+1"),
        (DAGGER_READY, [], "1d6+1"),
    ],
)
async def test_weapon_rows_and_the_hth_damage_column(tussle, item, mods, notation):
    enc = await _brawl(tussle, a={"items": [dict(item)]})
    damage_faces = [1] * int(notation[0])
    b = await enc.ok(
        "tft.hth_attack", combatant="a1", target="b1", weapon=item["id"], dice=[[2, 2, 2], damage_faces]
    )
    hit, dmg = of_type(b, "DieRolled")
    assert _mods(hit) == mods and hit["target"] == 13 + sum(v for v, _ in mods)
    assert dmg["notation"] == notation
    await enc.replay_matches_live()


async def test_a_ready_dirk_orders_the_figure_by_its_attack_dx(tussle):
    enc = await _brawl(tussle, a={"items": [dict(PONIARD)]})
    st = await enc.state()
    assert st["initiative"] == ["b1", "a1"]  # a1 13 - 4 poniard = 9 < 10
    await enc.ok("tft.pass", combatant="b1")
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="fist", dice=[[5, 5, 4]])
    assert _mods(of_type(b, "DieRolled")[0]) == []  # the poniard's penalty is for attacks made with it


@pytest.mark.parametrize(
    "a, expected",
    [
        ({"judo": 1, "items": [dict(DAGGER_READY)]}, [(2, "Judo 1")]),
        ({"judo": 1}, [(2, "Judo 1"), (2, "Judo, unarmed")]),
        ({"judo": 2, "items": [dict(DAGGER_READY)]}, [(2, "Judo 1"), (2, "Judo 2")]),
        ({"judo": 2}, [(2, "Judo 1"), (2, "Judo 2"), (2, "Judo, unarmed")]),
    ],
)
async def test_judo_rows(tussle, a, expected):
    # Judo's +4 / +8 ST would make a1 the strongest: b1 is given ST 30 so the strongest row stays out.
    enc = await _brawl(tussle, a=a, b={"st": 30})
    first = (await enc.state())["initiative"][0]
    if first != "a1":
        await enc.ok("tft.pass", combatant=first)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", dice=[[6, 6, 5]])
    hit = of_type(b, "DieRolled")[0]
    assert _mods(hit) == expected and hit["target"] == 13 + sum(v for v, _ in expected)
    await enc.replay_matches_live()


async def test_judo_st_bonus_makes_the_weaker_figure_strongest(tussle):
    # a1 ST 10 + 4 (Judo 1) = 14 in HTH against b1's 12: a1 is the strongest figure.
    enc = await _brawl(tussle, a={"st": 10, "judo": 1, "items": [dict(DAGGER_READY)]})
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=[[6, 6, 5]])
    assert _mods(of_type(b, "DieRolled")[0]) == [(2, "strongest figure in HTH"), (2, "Judo 1")]


async def test_equal_st_gives_nobody_the_strongest_bonus(tussle):
    enc = await _brawl(tussle)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", dice=[[6, 6, 5]])
    assert _mods(of_type(b, "DieRolled")[0]) == []  # and never a +4 for "each other's rear hex"
    await enc.ok("tft.pass", combatant="b1")


@pytest.mark.parametrize("remaining, strongest", [(False, "a1"), (True, "b1")])
async def test_strongest_uses_remaining_st_option(tussle, remaining, strongest):
    # a1 ST 14 takes 4 on turn 1 (10 left); b1 has ST 12.
    enc = await _brawl(
        tussle,
        a={"st": 14},
        b={"fist_damage": "1d6"},
        options={"strongest_uses_remaining_st": remaining},
        second_turn=False,
    )
    await enc.ok("tft.pass", combatant="a1")
    b = await enc.ok("tft.hth_attack", combatant="b1", target="a1", dice=[[2, 2, 2], [4]])
    assert of_type(b, "Wounded")[0]["amount"] == 4
    await next_turn(enc, 2)
    st = await enc.state()
    first = st["initiative"][0]
    if first != strongest:
        await enc.ok("tft.pass", combatant=first)
    b = await enc.ok(
        "tft.hth_attack", combatant=strongest, target="b1" if strongest == "a1" else "a1", dice=[[6, 6, 5]]
    )
    assert (2, "strongest figure in HTH") in _mods(of_type(b, "DieRolled")[0])
    await enc.replay_matches_live()


async def test_shield_penalty_on_every_hth_roll_and_no_protection_in_hth(tussle):
    dagger = dict(DAGGER_READY, state="carried")
    enc = await _brawl(
        tussle,
        a={"items": [dict(BUCKLER), dagger]},
        b={"items": [dict(BUCKLER, id="b_buckler")], "armor_stops": 1, "fist_damage": "1d6"},
    )
    st = await enc.state()
    assert st["initiative"] == ["a1", "b1"]  # 13 - 2 = 11, b1 10 - 2 = 8
    # The shield stays on through the entry (§Entering) ...
    assert next(i for i in st["combatants"]["a1"]["items"] if i["id"] == "buckler")["state"] == "worn"
    b = await enc.ok("tft.draw_dagger", combatant="a1", dice=[[6, 6, 6]])
    roll = of_type(b, "DieRolled")[0]
    assert _mods(roll) == [(-2, "Buckler worn (stops 2)")] and roll["target"] == 11
    # ... and stops nothing against a member of the brawl: armor 1 only.
    b = await enc.ok("tft.hth_attack", combatant="b1", target="a1", dice=[[2, 2, 2], [5]])
    assert _mods(of_type(b, "DieRolled")[0]) == [(-2, "Buckler worn (stops 2)")]
    assert of_type(b, "Wounded")[0]["amount"] == 5
    await next_turn(enc, 3)
    b = await enc.ok("tft.disengage", combatant="a1", to=[1, 0], dice=[[6, 6, 6, 6]])
    roll = of_type(b, "DieRolled")[0]
    assert (roll["notation"], _mods(roll), roll["target"], roll["outcome"]) == (
        "4d6",
        [(-2, "Buckler worn (stops 2)")],
        11,
        "failure",
    )
    await enc.replay_matches_live()


async def test_drop_shield_counts_its_own_penalty(tussle):
    enc = await _brawl(tussle, a={"items": [dict(BUCKLER)]})
    b = await enc.ok("tft.drop_shield", combatant="a1", dice=[[4, 4, 3]])
    roll = of_type(b, "DieRolled")[0]
    assert (roll["purpose"], _mods(roll), roll["target"], roll["outcome"]) == (
        "drop_shield",
        [(-2, "Buckler worn (stops 2)")],
        11,
        "success",
    )
    assert types(b) == ["ActionDeclared", "DieRolled", "ItemDropped", "ActionSpent"]
    st = await enc.state()
    assert st["initiative"] == ["a1", "b1"]
    await enc.ok("tft.pass", combatant="b1")
    await next_turn(enc, 3)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", dice=[[6, 6, 5]])
    assert _mods(of_type(b, "DieRolled")[0]) == []  # the shield is gone, and so is its penalty
    await enc.replay_matches_live()


async def test_spell_row_with_the_general_rows(tussle):
    enc = await _brawl(tussle, a={"judo": 1, "st": 20})
    b = await enc.ok("tft.cast_spell_in_hth", combatant="a1", spell="Shock Shield", dice=[[6, 6, 6]])
    roll = of_type(b, "DieRolled")[0]
    assert _mods(roll) == [
        (2, "strongest figure in HTH"),
        (2, "Judo 1"),
        (2, "Judo, unarmed"),
        (-6, "casting a spell in HTH"),
    ]
    assert (roll["purpose"], roll["target"], roll["outcome"]) == ("cast_spell", 13, "failure")
    assert types(b) == ["ActionDeclared", "DieRolled", "ActionSpent"]
