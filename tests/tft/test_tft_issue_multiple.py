"""Issue 5: multiple HTH through the HTTP API: a three-figure brawl with a friend and a foe outside striking in,
thrown weapons from 3 hexes or less, shields against outsiders (standing vs fallen), far missiles that miss."""

from __future__ import annotations

from tests.tft.helpers import fig, next_turn, of_type, types

SPEAR = {"id": "spear", "name": "Spear", "kind": "weapon", "damage": "1d6+1", "state": "ready"}
AXE = {"id": "axe", "name": "Axe", "kind": "weapon", "damage": "2d6", "state": "ready"}
BOW = {"id": "bow", "name": "Bow", "kind": "weapon", "damage": "1d6", "state": "ready"}
SHIELD = {"id": "shield", "name": "Large shield", "kind": "shield", "stops": 2, "state": "worn"}


async def _three_figure_brawl(tussle, *outsiders, options=None):
    """Turn 1: Ash (side a) gets into HTH with the prone Bo (b) at 0,0; Bea (b) joins. Turn 2's action phase."""
    enc = await tussle.create("tft", dice="manual", options=options or {})
    await enc.add(fig("ash", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("bo", "b", 12, 11, [0, 0], 0, ma=8, posture="prone"))
    await enc.add(fig("bea", "b", 11, 10, [0, 1], 2, ma=10, armor_stops=1))
    for o in outsiders:
        await enc.add(o)
    await next_turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="ash", target="bo", condition="C2", dice=[[1]])
    b = await enc.ok("tft.join_hth", combatant="bea", target="ash")
    assert types(b) == [
        "ActionDeclared",
        "Moved",
        "CloseCombatJoined",
        "PostureChanged",
        "HthFirstTurn",
        "InitiativeSet",
    ]
    # Bea joined this turn: attack only, at -4 (§Multiple).
    st = await enc.state()
    assert st["groups"]["g1"]["combatants"] == ["ash", "bo", "bea"]
    b = await enc.ok("tft.hth_attack", combatant="bea", target="ash", dice=[[6, 6, 5]])
    assert of_type(b, "DieRolled")[0]["modifiers"] == [{"value": -4, "reason": "entered HTH this turn"}]
    await next_turn(enc, 2)
    return enc


async def test_a_friend_and_a_foe_outside_strike_into_a_three_figure_brawl(tussle):
    cal = fig("cal", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])  # Ash's friend
    dov = fig("dov", "b", 12, 14, [-1, 1], 0, ma=10, items=[dict(AXE)])  # Bo's and Bea's friend
    enc = await _three_figure_brawl(tussle, cal, dov)

    # Cal aims at Bo and misses; the next enemy in join order is Bea: hit.
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[6, 5, 4], [2, 3, 4], [5]]
    )
    rolls = of_type(b, "DieRolled")
    assert [(r["purpose"], r["total"], r["target"], r["outcome"]) for r in rolls] == [
        ("strike_into_hth", 15, 12, "miss"),
        ("strike_into_hth", 9, 12, "hit"),
        ("damage", 6, None, "6 damage"),
    ]
    assert of_type(b, "Wounded") == [
        {
            "combatant": "bea",
            "amount": 5,
            "source": "Cal's Spear",
            "damage": 6,
            "stopped": [{"by": "armor", "amount": 1}],
        }
    ]  # armor 1
    assert types(b)[-1] == "ActionSpent"

    # Dov aims at Ash, his only enemy there, and misses: he rolls "to miss" each friend in join order.
    # Bo: 8, not above 14, missed; Bea: 15, above 14, hit.
    b = await enc.ok(
        "tft.strike_into_hth",
        combatant="dov",
        target="ash",
        weapon="axe",
        dice=[[6, 6, 4], [2, 3, 3], [5, 5, 5], [3, 3]],
    )
    rolls = of_type(b, "DieRolled")
    assert [(r["purpose"], r["total"], r["outcome"]) for r in rolls] == [
        ("strike_into_hth", 16, "miss"),
        ("strike_into_hth_to_miss", 8, "miss"),
        ("strike_into_hth_to_miss", 15, "hit"),
        ("damage", 6, "6 damage"),
    ]
    assert of_type(b, "Wounded") == [
        {
            "combatant": "bea",
            "amount": 5,
            "source": "Dov's Axe",
            "damage": 6,
            "stopped": [{"by": "armor", "amount": 1}],
        }
    ]
    st = await enc.state()
    assert st["combatants"]["bea"]["wounds"] == 10 and "unconscious" in st["combatants"]["bea"]["conditions"]
    assert st["groups"]["g1"]["combatants"] == ["ash", "bo", "bea"]  # Ash and Bo are still enemies
    await enc.replay_matches_live()


async def test_a_strike_that_hits_the_aimed_figure_stops(tussle):
    cal = fig("cal", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    enc = await _three_figure_brawl(tussle, cal)
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bea", weapon="spear", dice=[[1, 2, 3], [1]]
    )
    assert [r["purpose"] for r in of_type(b, "DieRolled")] == ["strike_into_hth", "damage"]
    assert of_type(b, "Wounded")[0]["combatant"] == "bea"


async def test_every_strike_missed_hits_nobody(tussle):
    cal = fig("cal", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    enc = await _three_figure_brawl(tussle, cal)
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[6, 5, 5], [6, 6, 4]]
    )
    assert types(b) == [
        "ActionDeclared",
        "DieRolled",
        "DieRolled",
        "ActionSpent",
    ]  # no friend roll: enemies there


async def test_thrown_weapon_from_three_hexes_with_given_modifiers(tussle):
    cal = fig("cal", "a", 12, 12, [3, -1], 3, ma=10, items=[dict(SPEAR)])
    enc = await _three_figure_brawl(tussle, cal)
    b = await enc.ok(
        "tft.strike_into_hth",
        combatant="cal",
        target="bo",
        weapon="spear",
        attack="thrown",
        modifiers=[{"value": -1, "reason": "range 3"}],
        dice=[[3, 3, 4], [2]],
    )
    roll = of_type(b, "DieRolled")[0]
    assert roll["modifiers"] == [{"value": -1, "reason": "range 3"}] and roll["target"] == 11
    # The figures the rolls would go to, in order (Bo aimed at, then the other enemy Bea; no friend roll).
    assert of_type(b, "ActionDeclared")[0]["params"] == {
        "weapon": "spear",
        "attack": "thrown",
        "roll_order": ["bo", "bea"],
    }
    assert of_type(b, "Wounded")[0]["combatant"] == "bo"
    await enc.replay_matches_live()


async def test_far_missile_that_misses_hits_nobody(tussle):
    archer = fig("archer", "a", 10, 12, [6, 0], 3, ma=10, items=[dict(BOW)])
    enc = await _three_figure_brawl(tussle, archer)
    r = await enc.command(
        "tft.strike_into_hth", combatant="archer", target="bo", weapon="bow", attack="missile"
    )
    assert r.status == 422 and "use missile_into_hth_far" in r.body["error"]["message"]
    b = await enc.ok(
        "tft.missile_into_hth_far", combatant="archer", target="bo", weapon="bow", dice=[[6, 6, 4]]
    )
    assert types(b) == ["ActionDeclared", "DieRolled", "ActionSpent"]


async def test_far_missile_picks_among_all_members(tussle):
    archer = fig("archer", "a", 10, 12, [6, 0], 3, ma=10, items=[dict(BOW)])
    enc = await _three_figure_brawl(tussle, archer)
    b = await enc.ok(
        "tft.missile_into_hth_far", combatant="archer", target="bo", weapon="bow", dice=[[3, 3, 3], [3], [4]]
    )
    pick = of_type(b, "DieRolled")[1]
    assert (pick["purpose"], pick["notation"], pick["faces"], pick["outcome"]) == (
        "random_victim",
        "1d3",
        [3],
        "Bea",
    )
    assert of_type(b, "Wounded")[0] == {
        "combatant": "bea",
        "amount": 3,
        "source": "Archer's Bow",
        "damage": 4,
        "stopped": [{"by": "armor", "amount": 1}],
    }
    await enc.replay_matches_live()


async def _pair_with_a_shield(tussle, standing: bool):
    options = {"standing_in_hth": True} if standing else {}
    enc = await tussle.create("tft", dice="manual", options=options)
    await enc.add(fig("ash", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("bo", "b", 12, 11, [0, 0], 0, ma=8, items=[dict(SHIELD)]))
    await enc.add(fig("cal", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)]))
    if standing:
        for cid in ("ash", "bo"):
            await enc.ok("tft.set_hth_preferences", combatant=cid, hth_wish="stand")
    await next_turn(enc, 1)
    dice = [[1], [3, 3, 3], [3, 3, 3]] if standing else [[1]]
    await enc.ok("tft.enter_hth", combatant="ash", target="bo", condition="C1", dice=dice)
    assert (await enc.state())["groups"]["g1"]["standing"] is standing
    return enc


async def test_a_shield_stops_an_outsiders_hit_only_in_a_standing_brawl(tussle):
    enc = await _pair_with_a_shield(tussle, standing=True)
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[2, 2, 2], [4]]
    )
    assert of_type(b, "Wounded")[0]["amount"] == 5 - 2
    enc = await _pair_with_a_shield(tussle, standing=False)
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[2, 2, 2], [4]]
    )
    assert of_type(b, "Wounded")[0]["amount"] == 5
    await enc.replay_matches_live()


async def test_criticals_apply_to_strikes_and_shots_into_a_brawl(tussle):
    cal = fig("cal", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    archer = fig("archer", "a", 10, 14, [6, 0], 3, ma=10, items=[dict(BOW)])
    enc = await _three_figure_brawl(tussle, cal, archer)
    # A 3 on the roll at the aimed figure: a hit for triple damage.
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[1, 1, 1], [2]]
    )
    assert of_type(b, "DieRolled")[1]["total"] == 3 * 3
    # An 18 on a shot: a miss, and the bow is dropped (the GM rules on the breakage); nothing is hit.
    b = await enc.ok(
        "tft.missile_into_hth_far", combatant="archer", target="bo", weapon="bow", dice=[[6, 6, 6]]
    )
    assert types(b) == ["ActionDeclared", "DieRolled", "ItemDropped", "ActionSpent"]
    assert of_type(b, "ItemDropped") == [{"combatant": "archer", "item": "bow", "at": [6, 0]}]
    await enc.replay_matches_live()


async def test_a_fumbled_strike_ends_the_rolls(tussle):
    cal = fig("cal", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    enc = await _three_figure_brawl(tussle, cal, options={"attack_criticals": True})
    b = await enc.ok("tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[6, 6, 5]])
    assert types(b) == ["ActionDeclared", "DieRolled", "ItemDropped", "ActionSpent"]
    enc = await _three_figure_brawl(tussle, cal, options={"attack_criticals": False})
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cal", target="bo", weapon="spear", dice=[[6, 6, 5], [6, 6, 6]]
    )
    assert types(b) == ["ActionDeclared", "DieRolled", "DieRolled", "ActionSpent"]
