"""Issue 5: the refusals not covered elsewhere, through the HTTP API: each a 422 naming the rule (400 for a bad
field), nothing appended. Among them: disengaging on the turn one joined, HTH entry into a brawl, dives after
the action is lost, and the Judo 2 ground commands."""

from __future__ import annotations

from tests.tft.helpers import BROADSWORD, DAGGER, SHIELD, SPEAR, brawl, fig, next_turn, of_type, refused


async def test_entering_refusals(tussle):
    c = fig("c1", "a", 12, 15, [0, 1], 2, ma=12)
    d = fig("d1", "b", 12, 9, [3, 0], 3, ma=8)  # rear hex 4,0
    e = fig("e1", "a", 12, 8, [2, 0], 3, ma=12)
    enc = await brawl(tussle, c, d, e)
    await refused(
        enc,
        "tft.enter_hth",
        "B1 is already in HTH: use join_hth to join the brawl",
        combatant="c1",
        target="b1",
        condition="C2",
    )
    await refused(
        enc,
        "tft.enter_hth",
        "A1 is already in HTH",
        "A1 is not next to D1",
        combatant="a1",
        target="d1",
        condition="C1",
    )
    await refused(
        enc, "tft.enter_hth", "E1 is not an enemy of C1", combatant="c1", target="e1", condition="C2"
    )
    await refused(enc, "tft.enter_hth", "C1 cannot enter HTH with C1", combatant="c1", target="c1")
    await refused(
        enc,
        "tft.enter_hth",
        "C3: E1 is not in D1's rear hex (4,0)",
        combatant="e1",
        target="d1",
        condition="C3",
    )


async def test_entering_a_hex_that_is_not_the_enemys_alone(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("a1", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8))
    await enc.add(fig("b2", "b", 12, 10, [0, 0], 0, ma=8))  # two figures placed in one hex by the GM
    await next_turn(enc, 1)
    await refused(
        enc, "tft.enter_hth", "B1 is not alone in its hex", combatant="a1", target="b1", condition="C1"
    )


async def test_a_joiner_may_not_disengage_cast_or_pin_on_the_turn_he_joined(tussle):
    c = fig("c1", "b", 12, 15, [0, 1], 2, ma=12, items=[dict(SHIELD), dict(DAGGER)])
    enc = await brawl(tussle, c, options={"pins": True})
    await enc.ok("tft.join_hth", combatant="c1", target="a1")
    for t in ("tft.cast_spell_in_hth", "tft.drop_shield", "tft.draw_dagger"):
        await refused(enc, t, "C1 may only attack on the turn of entering HTH", combatant="c1")
    await refused(
        enc, "tft.disengage", "C1 may only attack on the turn of entering HTH", combatant="c1", to=[-1, 1]
    )
    await refused(
        enc, "tft.pin", "C1 may only attack on the turn of entering HTH", combatant="c1", target="a1"
    )
    st = await enc.state()
    assert "tft.disengage" not in st["legal_actions"].get("c1", [])


async def test_the_initiator_may_not_disengage_on_his_entry_turn_but_may_the_next(tussle):
    enc = await brawl(tussle)
    await enc.ok("tft.pass", combatant="b1")
    await refused(
        enc, "tft.disengage", "A1 may only attack on the turn of entering HTH", combatant="a1", to=[1, 0]
    )
    await enc.ok("tft.pass", combatant="a1")
    await next_turn(enc, 2)
    b = await enc.ok("tft.disengage", combatant="a1", to=[1, 0], dice=[[1, 1, 1, 1]])
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "disengaged"


async def test_the_defender_may_disengage_on_the_entry_turn(tussle):
    enc = await brawl(tussle)
    b = await enc.ok(
        "tft.disengage", combatant="b1", to=[-1, 0], dice=[[1, 1, 1, 1]]
    )  # being jumped restricts nothing
    assert of_type(b, "Moved")[0]["to"] == [-1, 0]


async def test_disengage_target_hex_refusals(tussle):
    c = fig("c1", "a", 12, 9, [-1, 0], 0, ma=10)
    enc = await brawl(tussle, c)
    await refused(enc, "tft.disengage", "3,0 is not next to the brawl at 0,0", combatant="b1", to=[3, 0])
    await refused(enc, "tft.disengage", "-1,0 is not empty", combatant="b1", to=[-1, 0])
    await refused(enc, "tft.disengage", "to must be an [q, r] hex", status=400, combatant="b1", to=[1])
    await refused(enc, "tft.disengage", "facing must be 0-5", status=400, combatant="b1", to=[0, 1], facing=7)


async def test_disengage_keeps_a_ready_dagger_and_leaves_dropped_weapons(tussle):
    enc = await brawl(tussle, a_items=[dict(BROADSWORD, state="ready"), dict(DAGGER)])
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("tft.pass", combatant="a1")
    await next_turn(enc, 2)
    await enc.ok("tft.draw_dagger", combatant="a1", dice=[[1, 1, 1]])
    await enc.ok("tft.pass", combatant="b1")
    await next_turn(enc, 3)
    await enc.ok("tft.disengage", combatant="a1", to=[1, 0], facing=3, dice=[[1, 1, 1, 1]])
    st = await enc.state()
    items = {i["id"]: i["state"] for i in st["combatants"]["a1"]["items"]}
    assert items == {"broadsword": "dropped", "dagger": "ready"}
    assert st["combatants"]["a1"]["position"] == [1, 0] and st["combatants"]["a1"]["facing"] == 3
    await enc.replay_matches_live()


async def test_dive_refusals_after_the_action_is_lost_and_when_down(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("a1", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8))
    await enc.add(fig("p1", "a", 12, 13, [-1, 0], 0, ma=12, posture="prone"))
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    await refused(enc, "tft.dive_for_legs", "P1 is not standing", combatant="p1", target="b1", condition="C1")
    await enc.ok("tft.dive_for_legs", combatant="a1", target="b1", dice=[[4]])  # 4 + 1 = 5: knocked back
    await refused(
        enc,
        "tft.dive_for_legs",
        "A1's movement has ended this turn",
        "A1 has already lost this turn's action",
        "A1 is not standing",
        combatant="a1",
        target="b1",
        condition="C1",
        dice=[[1]],
    )


async def test_join_refusals(tussle):
    c = fig("c1", "b", 12, 9, [4, 0], 3, ma=6)
    d = fig("d1", "b", 12, 8, [5, 5], 3, ma=10)
    enc = await brawl(tussle, c, d)
    await refused(
        enc,
        "tft.join_hth",
        "D1 is not in HTH: use enter_hth from the next hex at your action",
        combatant="c1",
        target="d1",
    )
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("tft.pass", combatant="a1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("tft.move", combatant="c1", path=[[3, 0], [2, 0], [2, -1]])
    await refused(
        enc,
        "tft.join_hth",
        "with this step C1 would move 4 hexes, more than half their MA (3)",
        combatant="c1",
        target="a1",
    )
    await refused(enc, "tft.join_hth", "A1 is already in HTH", combatant="a1", target="b1")


async def test_attack_refusals_in_hth(tussle):
    c = fig("c1", "b", 12, 9, [3, 0], 3, ma=6)
    enc = await brawl(
        tussle,
        c,
        a_items=[dict(BROADSWORD, state="carried"), dict(DAGGER)],
        options={"keep_hth_weapons_on_entry": True},
    )
    await enc.ok("tft.pass", combatant="b1")
    await refused(
        enc,
        "tft.hth_attack",
        "C1 is not in HTH with A1: someone in HTH attacks only those in HTH with them",
        combatant="a1",
        target="c1",
    )
    await refused(enc, "tft.hth_attack", "A1 cannot attack themself", combatant="a1", target="a1")
    await refused(
        enc,
        "tft.hth_attack",
        "only daggers and the cestus can be used in HTH (§Overview); the Broadsword is neither",
        combatant="a1",
        target="b1",
        weapon="broadsword",
    )
    await refused(
        enc,
        "tft.hth_attack",
        "A1 has no weapon or natural attack 'kick'",
        status=400,
        combatant="a1",
        target="b1",
        weapon="kick",
    )


async def test_a_weapon_not_usable_in_hth_was_dropped_on_entry(tussle):
    enc = await brawl(tussle, a_items=[dict(SPEAR)], options={"keep_hth_weapons_on_entry": True})
    await enc.ok("tft.pass", combatant="b1")
    await refused(
        enc,
        "tft.hth_attack",
        "A1 may not attack with the Spear: only daggers and the cestus can be used "
        "in HTH (§Overview); the Spear was dropped on entering HTH",
        combatant="a1",
        target="b1",
        weapon="spear",
    )


async def test_a_natural_attack_not_usable_in_hth(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(
        fig(
            "a1",
            "a",
            12,
            13,
            [1, 0],
            3,
            ma=12,
            natural_attacks=[{"name": "horns", "damage": "2d6", "hth": False}],
        )
    )
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8, posture="prone"))
    await next_turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", dice=[[1]])
    await enc.ok("tft.pass", combatant="b1")
    await refused(
        enc,
        "tft.hth_attack",
        "A1 may not attack with their horns: only daggers and the cestus can be used in HTH",
        combatant="a1",
        target="b1",
        weapon="horns",
    )


async def test_draw_and_drop_refusals(tussle):
    enc = await brawl(
        tussle, a_items=[dict(DAGGER, state="ready")], options={"keep_hth_weapons_on_entry": True}
    )
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("tft.pass", combatant="a1")
    await next_turn(enc, 2)
    await refused(
        enc,
        "tft.draw_dagger",
        "A1 carries no dagger-list weapon",
        "A1 already has a weapon ready for HTH",
        combatant="a1",
    )
    await refused(enc, "tft.drop_shield", "A1 wears no shield", combatant="a1")
    await refused(
        enc,
        "tft.cast_spell_in_hth",
        "missing required field `reason`",
        status=400,
        combatant="a1",
        spell="x",
        modifiers=[{"value": 1}],
    )


async def test_outsider_refusals(tussle):
    c = fig("c1", "a", 12, 15, [1, -1], 4, ma=10, items=[dict(SPEAR)])
    f = fig("f1", "b", 12, 14, [5, 5], 0, ma=10)
    enc = await brawl(tussle, c, f)
    await refused(
        enc,
        "tft.strike_into_hth",
        "A1 is in HTH and attacks only those in HTH with them",
        combatant="a1",
        target="b1",
    )
    await refused(
        enc,
        "tft.strike_into_hth",
        "F1 is not in HTH: an attack on a standing figure out of HTH is base TFT melee",
        combatant="c1",
        target="f1",
        weapon="spear",
    )
    await refused(
        enc,
        "tft.missile_into_hth_far",
        "the brawl is only 1 hexes away: use strike_into_hth",
        combatant="c1",
        target="b1",
        weapon="spear",
    )


async def test_judo2_ground_command_refusals(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("k1", "a", 12, 14, [3, 0], 3, ma=10, judo=2, posture="prone"))
    await enc.add(fig("n1", "a", 12, 13, [5, 0], 3, ma=10))
    await enc.add(fig("o1", "b", 12, 11, [2, 0], 0, ma=10))
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("tft.move", combatant="k1", path=[[4, 0]])
    await enc.ok("start_phase", phase="action")
    await refused(
        enc,
        "tft.prone_unarmed_attack",
        "K1 has moved this turn",
        "O1 is not next to K1",
        combatant="k1",
        target="o1",
    )
    await refused(
        enc,
        "tft.prone_unarmed_attack",
        "N1 does not have Judo 2",
        "N1 is not prone",
        combatant="n1",
        target="o1",
    )
    await refused(enc, "tft.defend", "N1 does not have Judo 2", "N1 is not on the ground", combatant="n1")


async def test_move_refusals(tussle):
    c = fig("c1", "a", 12, 9, [3, 0], 3, ma=10)
    enc = await brawl(tussle, c)
    await refused(
        enc,
        "tft.move",
        "figures move in the movement phase, and turn 1's movement phase is over",
        combatant="c1",
        path=[[2, 0]],
    )
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("tft.pass", combatant="a1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    await refused(
        enc,
        "tft.move",
        "A1 is in HTH: only disengage, an action (not on the turn of getting in), takes a figure out",
        combatant="a1",
        path=[[1, 0]],
    )
    await refused(
        enc, "tft.move", "0,0 holds an HTH brawl: use join_hth", combatant="c1", path=[[2, 0], [1, 0], [0, 0]]
    )
    await refused(enc, "move", "0,0 holds an HTH brawl: use join_hth", combatant="c1", to=[0, 0])
    await refused(enc, "tft.move", "path needs at least one hex", status=400, combatant="c1", path=[])


async def test_combatant_refusals_at_join(tussle):
    enc = await tussle.create("tft", dice="manual")
    bad_dagger = {"id": "d", "name": "Main-gauche", "kind": "weapon", "damage": "1d6", "dagger_list": True}
    r = await enc.command("add_combatant", combatant=fig("x", "a", 10, 10, [0, 0], items=[bad_dagger]))
    assert r.status == 400 and "needs hth_damage" in r.body["error"]["message"]
    r = await enc.command(
        "add_combatant", combatant=fig("x", "a", 10, 10, [0, 0], judo=2, dx=12, iq=14, uc=1)
    )
    assert r.status == 422 and "Judo 2 needs DX 14+ (dx is 12)" in r.body["error"]["message"]
    r = await enc.command("add_combatant", combatant=fig("x", "a", 10, 10, [0, 0], judo=1, iq=12, uc=1))
    assert r.status == 201, r.body
    r = await enc.command("add_combatant", combatant=fig("y", "a", 10, 10, [0, 0], dive_block=3))
    assert r.status == 400


async def test_a_named_dagger_the_defender_does_not_carry(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("a1", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8, items=[dict(DAGGER)]))
    await next_turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="a1", target="b1", dice=[[3]])
    rid = of_type(b, "ReactionRequested")[0]["id"]
    r = await enc.command("respond", reaction=rid, choice="dagger", item="sword")
    assert r.status == 400 and "B1 has no item 'sword'" in r.body["error"]["message"]
    b = await enc.ok("respond", reaction=rid, choice="dagger", item="dagger")
    assert of_type(b, "ItemReadied") == [{"combatant": "b1", "item": "dagger"}]


async def test_a_judo2_entrant_may_not_defend_on_his_entry_turn(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("k1", "a", 12, 14, [1, 0], 3, ma=12, judo=2))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8))
    await next_turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="k1", target="b1", dice=[[1]])
    st = await enc.state()
    assert st["combatants"]["k1"]["posture"] == "prone"
    order = st["initiative"]
    if order[0] != "k1":
        await enc.ok("tft.pass", combatant=order[0])
    assert "tft.defend" not in (await enc.state())["legal_actions"]["k1"]
    await refused(enc, "tft.defend", "K1 may only attack on the turn of entering HTH", combatant="k1")
    await enc.ok("tft.hth_attack", combatant="k1", target="b1", dice=[[6, 6, 5]])
