"""Each refusal of the tft rules: a 422 whose message names every failed condition, and nothing appended."""

from __future__ import annotations

from tests.tft.helpers import BROADSWORD, DAGGER, SHIELD, encounter, fig, refused, simeth, troll


async def test_enter_names_each_failing_condition(tussle):
    t = troll()
    t["stats"]["back_to_wall"] = False
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, t)
    msg = await refused(
        enc,
        "tft.enter_hth",
        "C1: Simeth's MA 10 is not higher than Troll's 12",
        "C2: Troll's back is not to a wall",
        "C3: Simeth is not in Troll's rear hex (-1,0)",
        "C4: Troll has not agreed this turn",
        combatant="simeth",
        target="troll",
    )
    assert msg.startswith("Simeth may not try to get into HTH with Troll:")
    await refused(
        enc, "tft.enter_hth", "C1: Simeth's MA 10", combatant="simeth", target="troll", condition="C1"
    )


async def test_enter_needs_slot_adjacency_and_a_lone_enemy(tussle):
    enc = await encounter(tussle, simeth(), troll())
    await refused(
        enc,
        "tft.enter_hth",
        "Simeth is not next to Troll",
        combatant="simeth",
        target="troll",
        condition="C2",
    )
    # The order binds players; the GM may act out of it (4.0).
    troll_seat = await enc.seat("Tina", ["troll"])
    await refused(
        enc,
        "tft.enter_hth",
        "it is not Troll's turn to act (Simeth acts first)",
        combatant="troll",
        target="simeth",
        token=troll_seat,
    )


async def test_the_gm_acts_out_of_the_order_but_players_keep_to_it(tussle):
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, troll())
    assert (await enc.state())["initiative"] == ["simeth", "troll"]
    troll_seat = await enc.seat("Tina", ["troll"])
    await refused(
        enc,
        "tft.pass",
        "it is not Troll's turn to act (Simeth acts first)",
        combatant="troll",
        token=troll_seat,
    )
    b = await enc.ok("tft.pass", combatant="troll")
    assert [e["type"] for e in b["events"]] == ["ActionSpent"] and b["events"][0]["actor"] == "gm"
    # The GM's override skips only the order: one action per turn still holds, for the GM too.
    await refused(enc, "tft.pass", "Troll has already used this turn's action (pass)", combatant="troll")
    await refused(
        enc,
        "tft.enter_hth",
        "Troll has already used this turn's action (pass)",
        combatant="troll",
        target="simeth",
        condition="C1",
    )
    await enc.replay_matches_live()


async def test_the_gm_enters_hth_for_a_figure_out_of_the_order(tussle):
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, troll())
    b = await enc.ok("tft.enter_hth", combatant="troll", target="simeth", condition="C1", dice=[[1]])
    assert b["events"][0]["data"]["combatant"] == "troll"
    assert any(e["type"] == "CloseCombatJoined" for e in b["events"])
    await enc.replay_matches_live()


async def test_enter_after_moving_more_than_half(tussle):
    s = simeth()
    s["position"] = [6, 0]
    enc = await encounter(tussle, s, troll(), phase="movement")
    await enc.ok("tft.move", combatant="simeth", path=[[5, 0], [4, 0], [3, 0], [2, 0], [1, 0], [1, 1]])
    await enc.ok("tft.move", combatant="simeth", path=[[1, 0]])
    await enc.ok("start_phase", phase="action")
    await refused(
        enc,
        "tft.enter_hth",
        "Simeth moved 7 hexes, more than half their MA (5)",
        combatant="simeth",
        target="troll",
        condition="C2",
    )


async def test_plain_move_into_an_enemy_hex(tussle):
    enc = await encounter(tussle, simeth(), troll(), phase="movement")
    await refused(
        enc,
        "move",
        "holds Troll, an enemy: use dive_for_legs, or enter_hth from the next hex at your action",
        combatant="simeth",
        to=[0, 0],
    )
    await refused(enc, "tft.move", "is not next to", combatant="simeth", path=[[0, 1]])
    await refused(
        enc,
        "tft.move",
        "more than their MA (10)",
        combatant="simeth",
        path=[[3, 0], [4, 0], [5, 0], [6, 0], [7, 0], [8, 0], [9, 0], [10, 0], [11, 0], [12, 0], [13, 0]],
    )


async def test_dive_refusals(tussle):
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, troll(), options={"diving_for_legs": False}, phase="movement")
    await refused(
        enc, "tft.dive_for_legs", "option diving_for_legs", combatant="simeth", target="troll", condition="C2"
    )
    enc = await encounter(tussle, s, troll(), phase="action")
    await refused(
        enc,
        "tft.dive_for_legs",
        "a dive is made in the movement phase",
        combatant="simeth",
        target="troll",
        condition="C2",
    )


async def test_hth_action_refusals_on_the_entry_turn(tussle):
    s = simeth()
    s["position"] = [1, 0]
    s["items"].append(dict(SHIELD))
    enc = await encounter(tussle, s, troll())
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[1]])
    await enc.ok("tft.pass", combatant="troll")
    for type_ in ("tft.draw_dagger", "tft.drop_shield", "tft.cast_spell_in_hth"):
        await refused(enc, type_, "Simeth may only attack on the turn of entering HTH", combatant="simeth")
    await refused(
        enc,
        "tft.disengage",
        "Simeth may only attack on the turn of entering HTH",
        combatant="simeth",
        to=[1, 0],
    )
    await refused(
        enc,
        "tft.pin",
        "pins are not used in this encounter",
        "only attack",
        combatant="simeth",
        target="troll",
    )


async def test_attack_refusals(tussle):
    enc = await encounter(tussle, simeth(), troll())
    await refused(enc, "tft.hth_attack", "Simeth is not in HTH", combatant="simeth", target="troll")
    r = await enc.command("tft.hth_attack", combatant="simeth", target="troll", weapon="nothing")
    assert r.status in (400, 422)


async def test_join_refusals(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=10)
    b = fig("b1", "b", 12, 11, [0, 0], 0, ma=8, posture="prone")
    c = fig("c1", "a", 12, 9, [5, 5], 0, ma=10)
    enc = await encounter(tussle, a, b, c)
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("tft.pass", combatant="a1")
    await refused(enc, "tft.join_hth", "C1 is not next to the brawl", combatant="c1", target="a1")


async def test_disengage_and_break_pin_refusals(tussle):
    enc = await encounter(tussle, simeth(), troll())
    await refused(enc, "tft.disengage", "Simeth is not in HTH", combatant="simeth", to=[3, 0])
    await refused(enc, "tft.break_pin", "pins are not used", "Simeth is not pinned", combatant="simeth")
    await refused(enc, "tft.release_pin", "Simeth is not holding anyone", combatant="simeth")


async def test_strike_into_hth_refusals(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=10)
    b = fig("b1", "b", 12, 11, [0, 0], 0, ma=8, posture="prone")
    c = fig("c1", "a", 12, 9, [5, 0], 0, ma=10, items=[dict(BROADSWORD), dict(DAGGER)])
    enc = await encounter(tussle, a, b, c)
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("tft.pass", combatant="a1")
    await refused(
        enc,
        "tft.strike_into_hth",
        "C1 is not next to the brawl",
        combatant="c1",
        target="b1",
        weapon="broadsword",
    )
    await refused(
        enc,
        "tft.strike_into_hth",
        "the brawl is 5 hexes away",
        combatant="c1",
        target="b1",
        weapon="broadsword",
        attack="thrown",
    )


async def test_set_back_to_wall_is_the_gms_alone(tussle):
    enc = await encounter(tussle, simeth(), troll())
    tina = await enc.seat("Tina", ["troll"])
    r = await enc.command("tft.set_back_to_wall", token=tina, combatant="troll", back_to_wall=False)
    assert r.status == 403, r.body
    b = await enc.ok("tft.set_back_to_wall", combatant="troll", back_to_wall=False)
    assert [e["type"] for e in b["events"]] == ["RulingMade"]
