"""Issue 5: what follows from wounds and the order: a pin released when its holder is knocked out, death at 0 ST,
the DX tie roll-off (A29), the free hit stopped by the entrant's armor and shield; replay equals live for each."""

from __future__ import annotations

from tests.tft.helpers import fig, of_type, types

AXE = {"id": "axe", "name": "Axe", "kind": "weapon", "damage": "3d6", "state": "ready"}
SHIELD = {"id": "shield", "name": "Small shield", "kind": "shield", "stops": 1, "state": "worn"}


async def _turn(enc, n: int, **kw) -> dict:
    await enc.ok("start_turn", turn=n)
    await enc.ok("start_phase", phase="movement")
    return await enc.ok("start_phase", phase="action", **kw)


async def test_a_knocked_out_holder_releases_the_pin_and_the_brawl_ends(tussle):
    enc = await tussle.create("tft", dice="manual", options={"pins": True})
    await enc.add(fig("hal", "a", 12, 16, [1, 0], 3, ma=10))
    await enc.add(fig("ivo", "b", 13, 11, [0, 0], 0, ma=10, posture="prone"))
    await enc.add(fig("vik", "b", 12, 17, [0, 1], 2, ma=10, items=[dict(AXE)]))
    await _turn(enc, 1)
    await enc.ok("tft.pass", combatant="vik")
    await enc.ok("tft.enter_hth", combatant="hal", target="ivo", condition="C2", dice=[[1]])
    await _turn(enc, 2)
    await enc.ok("tft.pass", combatant="vik")
    await enc.ok("tft.pin", combatant="hal", target="ivo", dice=[[3, 3, 3], [6, 6, 6]])
    b = await _turn(enc, 3)
    assert "PinHeld" in types(b)
    # Vik (Ivo's friend) strikes into the brawl at Hal: 10 damage leaves Hal 2 ST: unconscious.
    b = await enc.ok(
        "tft.strike_into_hth", combatant="vik", target="hal", weapon="axe", dice=[[3, 3, 3], [3, 3, 4]]
    )
    assert types(b)[-7:] == [
        "Wounded",
        "ConditionChanged",
        "ActionSpent",
        "PinReleased",
        "ConditionChanged",
        "CloseCombatLeft",
        "CloseCombatLeft",
    ]
    assert of_type(b, "ConditionChanged")[0] == {"combatant": "hal", "condition": "unconscious", "on": True}
    assert of_type(b, "PinReleased")[0]["holder"] == "hal"
    st = await enc.state()
    assert st["pins"] == [] and st["groups"] == {}
    assert st["combatants"]["ivo"]["posture"] == "prone"  # the survivors keep their posture (A27)
    await enc.replay_matches_live()


async def test_zero_st_left_is_death(tussle):
    enc = await tussle.create("tft", dice="manual", options={"keep_hth_weapons_on_entry": True})
    dagger = {
        "id": "dagger",
        "name": "Dagger",
        "kind": "weapon",
        "damage": "1d6",
        "hth_damage": "4d6",
        "dagger_list": True,
        "state": "ready",
    }
    await enc.add(fig("a1", "a", 12, 21, [1, 0], 3, ma=12, items=[dagger]))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8, posture="prone"))
    await _turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    b = await enc.ok(
        "tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=[[2, 3, 4], [3, 3, 3, 3]]
    )
    assert of_type(b, "Wounded")[0]["amount"] == 12
    assert of_type(b, "ConditionChanged") == [{"combatant": "b1", "condition": "dead", "on": True}]
    st = await enc.state()
    assert st["groups"] == {} and "dead" in st["combatants"]["b1"]["conditions"]
    await enc.replay_matches_live()


async def test_dx_ties_are_rolled_off_and_rerolled(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("a1", "a", 12, 12, [5, 0], 3, ma=10))
    await enc.add(fig("b1", "b", 12, 12, [0, 0], 0, ma=10))
    await enc.add(fig("c1", "a", 12, 14, [0, 5], 0, ma=10))
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    b = await enc.ok("start_phase", phase="action", dice=[[4], [4], [2], [5]])
    rolls = of_type(b, "DieRolled")
    assert [(r["purpose"], r["combatant"], r["faces"]) for r in rolls] == [
        ("dx_tie", "a1", [4]),
        ("dx_tie", "b1", [4]),
        ("dx_tie", "a1", [2]),
        ("dx_tie", "b1", [5]),
    ]
    assert of_type(b, "InitiativeSet")[0]["order"] == ["c1", "b1", "a1"]
    await enc.replay_matches_live()


async def test_the_free_hit_is_stopped_by_the_entrants_armor_and_shield(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("ent", "a", 12, 13, [1, 0], 3, ma=12, armor_stops=1, items=[dict(SHIELD)]))
    await enc.add(fig("dfn", "b", 12, 11, [0, 0], 0, ma=8, items=[dict(AXE)]))
    await _turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="ent", target="dfn", dice=[[6], [2, 2, 3]])
    assert of_type(b, "DieRolled")[1]["total"] == 7
    assert of_type(b, "Wounded")[0]["amount"] == 7 - 1 - 1
    await enc.replay_matches_live()
