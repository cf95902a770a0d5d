"""HTH actions, joining, strikes from outside, standing checks: through the HTTP API with manual dice."""

from __future__ import annotations

from tests.tft.helpers import (
    BROADSWORD,
    DAGGER,
    SHIELD,
    SPEAR,
    brawl,
    fig,
    next_turn,
    of_type,
    sentences,
    types,
)


async def _brawl(tussle, *extra, options=None, a_items=None, turn_two=True):
    """a1 (DX 13) gets into HTH with the prone b1 at 0,0 on turn 1; turn 2's action phase has begun."""
    enc = await brawl(tussle, *extra, a_ma=10, a_items=a_items, options=options)
    if turn_two:
        await next_turn(enc, 2, phase="movement")
    return enc


async def test_join_in_movement_phase_attacks_at_minus_4(tussle):
    c = fig("c1", "b", 10, 12, [3, 0], 3, ma=10, items=[dict(BROADSWORD), dict(DAGGER)])
    enc = await _brawl(tussle, c)
    await enc.ok("tft.move", combatant="c1", path=[[3, -1], [2, -1], [1, -1]])
    b = await enc.ok("tft.join_hth", combatant="c1", target="a1")
    assert types(b) == [
        "ActionDeclared",
        "Moved",
        "ItemDropped",
        "CloseCombatJoined",
        "PostureChanged",
        "HthFirstTurn",
    ]
    assert of_type(b, "CloseCombatJoined")[0] == {
        "group": "g1",
        "combatants": ["c1"],
        "at": [0, 0],
        "standing": False,
    }
    st = await enc.state()
    assert st["rules"]["figures"]["c1"]["hexes_moved"] == 4 and st["rules"]["figures"]["c1"]["movement_ended"]
    assert "tft.move" not in st["legal_actions"]["c1"]
    b = await enc.ok("start_phase", phase="action")
    assert of_type(b, "InitiativeSet")[0]["order"] == ["a1", "b1", "c1"]  # 13, 11, 12-4
    await enc.ok("tft.pass", combatant="a1")
    await enc.ok("tft.pass", combatant="b1")
    st = await enc.state()
    assert "tft.disengage" not in st["legal_actions"]["c1"] and "tft.hth_attack" in st["legal_actions"]["c1"]
    b = await enc.ok("tft.hth_attack", combatant="c1", target="a1", dice=[[6, 6, 5]])
    hit = of_type(b, "DieRolled")[0]
    assert hit["target"] == 8 and hit["outcome"] == "miss"
    await enc.replay_matches_live()


async def test_join_in_action_phase_resorts_the_order(tussle):
    c = fig("c1", "b", 10, 12, [0, 1], 3, ma=10)
    enc = await _brawl(tussle, c, turn_two=False)
    b = await enc.ok("tft.join_hth", combatant="c1", target="a1")
    assert types(b)[-1] == "InitiativeSet"
    assert of_type(b, "InitiativeSet")[0]["order"] == ["b1", "a1", "c1"]  # 11, 13-4, 12-4
    await enc.replay_matches_live()


async def test_disengage_ends_a_group_of_two(tussle):
    enc = await _brawl(tussle)
    await enc.ok("start_phase", phase="action")
    b = await enc.ok("tft.disengage", combatant="a1", to=[1, 0], facing=3, dice=[[3, 3, 3, 3]])
    assert types(b) == [
        "ActionDeclared",
        "DieRolled",
        "Moved",
        "PostureChanged",
        "FacingChanged",
        "CloseCombatLeft",
        "ActionSpent",
        "CloseCombatLeft",
    ]
    assert [d["how"] for d in of_type(b, "CloseCombatLeft")] == ["disengaged", "group_ended"]
    roll = of_type(b, "DieRolled")[0]
    assert (roll["notation"], roll["target"], roll["outcome"]) == ("4d6", 13, "success")
    st = await enc.state()
    assert st["groups"] == {} and st["combatants"]["b1"]["posture"] == "prone"
    assert st["combatants"]["a1"]["posture"] == "standing" and st["combatants"]["a1"]["position"] == [1, 0]
    await enc.replay_matches_live()


async def test_failed_disengage_spends_the_action(tussle):
    enc = await _brawl(tussle)
    await enc.ok("start_phase", phase="action")
    b = await enc.ok("tft.disengage", combatant="a1", to=[1, 0], dice=[[6, 6, 6, 6]])
    assert types(b) == ["ActionDeclared", "DieRolled", "ActionSpent"]
    await enc.replay_matches_live()


async def test_spell_shield_and_dagger(tussle):
    enc = await _brawl(tussle, a_items=[dict(SHIELD), dict(DAGGER)])
    b = await enc.ok("start_phase", phase="action")
    # a1: 13, -1 shield; b1: 11 +2 strongest? equal ST 12: a tie gives nobody the bonus
    assert of_type(b, "InitiativeSet")[0]["order"] == ["a1", "b1"]
    b = await enc.ok(
        "tft.cast_spell_in_hth",
        combatant="a1",
        spell="Shock Shield",
        modifiers=[{"value": -1, "reason": "spell ST cost"}],
        dice=[[2, 2, 1]],
    )
    roll = of_type(b, "DieRolled")[0]
    assert [m["value"] for m in roll["modifiers"]] == [-1, -6, -1] and roll["target"] == 5
    assert roll["outcome"] == "success"
    await next_turn(enc, 3)
    b = await enc.ok("tft.drop_shield", combatant="a1", dice=[[4, 4, 4]])
    assert of_type(b, "ItemDropped")[0] == {"combatant": "a1", "item": "shield", "at": [0, 0]}
    await next_turn(enc, 4)
    b = await enc.ok("tft.draw_dagger", combatant="a1", dice=[[6, 5, 2]])
    assert of_type(b, "DieRolled")[0]["target"] == 13 and types(b)[-2:] == ["ItemReadied", "ActionSpent"]
    await enc.ok("tft.pass", combatant="b1")
    await next_turn(enc, 5)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=[[1, 2, 3], [6]])
    dmg = of_type(b, "DieRolled")[1]
    assert (dmg["notation"], dmg["total"]) == ("1d6+1", 7)
    await enc.replay_matches_live()


async def test_first_turn_draw_option(tussle):
    enc = await _brawl(tussle, options={"first_turn_draw": True}, a_items=[dict(DAGGER)], turn_two=False)
    await enc.ok("tft.pass", combatant="b1")
    b = await enc.ok("tft.draw_dagger", combatant="a1", dice=[[3, 3, 3]])
    roll = of_type(b, "DieRolled")[0]
    assert roll["modifiers"] == [{"value": -4, "reason": "entered HTH this turn"}] and roll["target"] == 9


async def test_knockout_ends_the_group(tussle):
    enc = await _brawl(
        tussle,
        options={"keep_hth_weapons_on_entry": True},
        a_items=[dict(DAGGER, state="ready", hth_damage="3d6")],
    )
    await enc.ok("start_phase", phase="action")
    b = await enc.ok(
        "tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=[[2, 2, 2], [4, 3, 3]]
    )
    assert types(b)[-5:] == [
        "Wounded",
        "ConditionChanged",
        "ActionSpent",
        "CloseCombatLeft",
        "CloseCombatLeft",
    ]
    assert of_type(b, "ConditionChanged")[0] == {"combatant": "b1", "condition": "unconscious", "on": True}
    st = await enc.state()
    assert st["groups"] == {}
    await enc.replay_matches_live()


async def test_strike_into_hth_misses_then_hits_next_enemy(tussle):
    cara = fig("cara", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    eli = fig("eli", "b", 12, 10, [0, 1], 0, ma=12)
    enc = await _brawl(tussle, cara, eli)
    await enc.ok("tft.join_hth", combatant="eli", target="b1")
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.pass", combatant="a1")
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cara", target="b1", weapon="spear", dice=[[6, 4, 4], [3, 3, 3], [2]]
    )
    rolls = of_type(b, "DieRolled")
    assert [(r["total"], r["target"], r["outcome"]) for r in rolls[:2]] == [(14, 12, "miss"), (9, 12, "hit")]
    assert of_type(b, "Wounded")[0]["combatant"] == "eli"
    await enc.replay_matches_live()


async def test_strike_with_no_other_enemy_rolls_to_miss_friends(tussle):
    cara = fig("cara", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    enc = await _brawl(tussle, cara)
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.pass", combatant="a1")
    b = await enc.ok(
        "tft.strike_into_hth", combatant="cara", target="b1", weapon="spear", dice=[[6, 4, 4], [6, 6, 1], [5]]
    )
    rolls = of_type(b, "DieRolled")
    assert [(r["purpose"], r["outcome"]) for r in rolls[:2]] == [
        ("strike_into_hth", "miss"),
        ("strike_into_hth_to_miss", "hit"),
    ]
    assert of_type(b, "Wounded")[0]["combatant"] == "a1"


async def test_far_missile_hits_a_random_member(tussle):
    bow = {"id": "bow", "name": "Bow", "kind": "weapon", "damage": "1d6", "state": "ready"}
    archer = fig("archer", "a", 10, 12, [6, 0], 3, ma=10, items=[bow])
    enc = await _brawl(tussle, archer)
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.pass", combatant="a1")
    b = await enc.ok(
        "tft.missile_into_hth_far", combatant="archer", target="b1", weapon="bow", dice=[[3, 3, 3], [1], [4]]
    )
    pick = of_type(b, "DieRolled")[1]
    assert (pick["purpose"], pick["notation"], pick["outcome"]) == ("random_victim", "1d2", "A1")
    assert of_type(b, "Wounded")[0] == {
        "combatant": "a1",
        "amount": 4,
        "source": "Archer's Bow",
        "damage": 4,
        "stopped": [],
    }


async def test_standing_case_1_majority_falls_at_formation(tussle):
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True})
    await enc.add(fig("a1", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8))
    await next_turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C1", dice=[[1]])
    assert of_type(b, "StandingCheckResolved")[0] == {"group": "g1", "case": 1, "standing": False}
    assert [p["posture"] for p in of_type(b, "PostureChanged")] == ["prone", "prone"]
    # Formed standing, then fallen at once: the common state ends with the group on the ground.
    assert [j["standing"] for j in of_type(b, "CloseCombatJoined")] == [True, False]
    assert (await enc.state())["groups"]["g1"]["standing"] is False
    await enc.replay_matches_live()


async def test_successful_dive_forms_a_fallen_group(tussle):
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True})
    await enc.add(fig("a1", "a", 12, 13, [2, 0], 3, ma=12))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8))
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("tft.move", combatant="a1", path=[[1, 0]])
    b = await enc.ok("tft.dive_for_legs", combatant="a1", target="b1", dice=[[1]])
    roll = of_type(b, "DieRolled")[0]
    assert roll["total"] == 2 and roll["outcome"] == "enter_no_draw"
    assert of_type(b, "CloseCombatJoined")[0]["standing"] is False
    assert of_type(b, "ActionDeclared")[0]["params"]["condition"] == "C1"
    b = await enc.ok("start_phase", phase="action")
    assert "StandingCheckResolved" not in types(b)
    text = "\n".join(sentences(await enc.events()))
    assert "A1 dives for B1's legs (allowed: A1's MA 12 is higher than B1's 8)." in text
    await enc.replay_matches_live()


async def test_judo2_defends_on_the_ground_and_punches_prone(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("kiri", "a", 10, 14, [0, 0], 0, judo=2, ma=10, posture="prone"))
    await enc.add(fig("olaf", "b", 12, 12, [1, 0], 3, ma=12))
    await next_turn(enc, 1)
    b = await enc.ok("tft.prone_unarmed_attack", combatant="kiri", target="olaf", dice=[[3, 3, 3], [5]])
    roll = of_type(b, "DieRolled")[0]
    assert (roll["target"], roll["outcome"]) == (11, "hit")
    await enc.ok("tft.pass", combatant="olaf")
    await next_turn(enc, 2)
    b = await enc.ok("tft.defend", combatant="kiri")
    assert of_type(b, "ActionSpent")[0]["why"] == "defend"
    b = await enc.ok("tft.enter_hth", combatant="olaf", target="kiri", dice=[[1]])
    b = await enc.ok("tft.hth_attack", combatant="olaf", target="kiri", dice=[[1, 1, 1, 1], [6]])
    assert of_type(b, "DieRolled")[0]["notation"] == "4d6"
    await enc.replay_matches_live()
