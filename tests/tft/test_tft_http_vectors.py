"""TV2-TV6 of the spec (section 6) through the HTTP API with manual dice; replay equals live for each."""

from __future__ import annotations

import pytest

from tests.tft.helpers import BROADSWORD, DAGGER, fig, of_type, sentences, tv3_dive, types


async def _turn(enc, turn: int, action_dice=None):
    await enc.ok("start_turn", turn=turn)
    await enc.ok("start_phase", phase="movement")
    kw = {"dice": action_dice} if action_dice else {}
    return await enc.ok("start_phase", phase="action", **kw)


async def _standing_group(tussle, joe_uc: int = 2, frank_uc: int = 1):
    """Turn 3: Joe gets into a standing HTH with Frankfolson at 5,5 (both wish to stand, both stay up)."""
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True})
    await enc.add(fig("joe", "a", 11, 12, [4, 5], 0, uc=joe_uc, ma=10))
    await enc.add(fig("frankfolson", "b", 15, 11, [5, 5], 3, uc=frank_uc, ma=10))
    for who in ("joe", "frankfolson"):
        await enc.ok("tft.set_hth_preferences", combatant=who, hth_wish="stand")
    await _turn(enc, 3)
    await enc.ok("tft.consent_hth", combatant="frankfolson", target="joe")
    b = await enc.ok(
        "tft.enter_hth",
        combatant="joe",
        target="frankfolson",
        condition="C4",
        dice=[[1], [3, 3, 3], [3, 3, 3]],
    )
    assert of_type(b, "CloseCombatJoined")[0]["standing"] is True
    assert of_type(b, "StandingCheckResolved")[0] == {"group": "g1", "case": 2, "standing": True}
    assert "PostureChanged" not in types(b)
    await enc.ok("tft.set_hth_preferences", combatant="joe", hth_wish="fall", take_down_dice=2)
    return enc


async def test_tv2_take_down_fails(tussle):
    enc = await _standing_group(tussle)
    b = await _turn(enc, 4, [[4, 6], [1, 2, 3, 4, 5]])
    puller, stander = of_type(b, "DieRolled")
    assert (puller["purpose"], puller["notation"], puller["total"], puller["target"], puller["outcome"]) == (
        "take_down_puller",
        "2d6",
        10,
        11,
        "success",
    )
    assert (
        stander["purpose"],
        stander["notation"],
        stander["total"],
        stander["target"],
        stander["outcome"],
    ) == ("take_down_stander", "5d6", 15, 15, "success")
    assert of_type(b, "TakeDownResolved")[0] == {
        "group": "g1",
        "puller": "joe",
        "stander": "frankfolson",
        "puller_dice": 2,
        "stander_dice": 5,
        "taken_down": False,
    }
    assert of_type(b, "StandingCheckResolved")[0] == {"group": "g1", "case": 3, "standing": True}
    assert of_type(b, "InitiativeSet")[0]["order"] == ["frankfolson", "joe"]
    assert "ActionSpent" not in types(b) and "PostureChanged" not in types(b)
    assert "CloseCombatJoined" not in types(b)  # still standing: nothing to change in the common state
    st = await enc.state()
    assert st["groups"]["g1"]["standing"] is True
    assert {"tft.hth_attack", "tft.disengage"} <= set(st["legal_actions"]["frankfolson"])
    text = "\n".join(sentences(await enc.events()))
    assert (
        "Take Down, Joe (2 dice) pulling against Frankfolson (5 dice) standing: Frankfolson resists, and the brawl stays on its feet"
        in text
    )
    await enc.replay_matches_live()


async def test_tv2b_take_down_succeeds(tussle):
    enc = await _standing_group(tussle)
    b = await _turn(enc, 4, [[4, 6], [6, 5, 2, 2, 1]])
    assert of_type(b, "TakeDownResolved")[0]["taken_down"] is True
    assert of_type(b, "StandingCheckResolved")[0]["standing"] is False
    assert sorted((p["combatant"], p["posture"]) for p in of_type(b, "PostureChanged")) == [
        ("frankfolson", "prone"),
        ("joe", "prone"),
    ]
    # The fall is in the common state too: the same group re-emitted with standing false.
    assert of_type(b, "CloseCombatJoined") == [
        {"group": "g1", "combatants": ["joe", "frankfolson"], "at": [5, 5], "standing": False}
    ]
    assert (
        types(b).index("StandingCheckResolved")
        < types(b).index("CloseCombatJoined")
        < types(b).index("PostureChanged")
    )
    st = await enc.state()
    assert st["groups"]["g1"]["standing"] is False and st["groups"]["g1"]["combatants"] == [
        "joe",
        "frankfolson",
    ]
    assert st["rules"]["groups"]["g1"]["standing"] is False
    assert "The brawl at [5, 5] is now on the ground." in sentences(await enc.events())
    # A fallen group is not checked again (A16).
    b = await _turn(enc, 5)
    assert "StandingCheckResolved" not in types(b) and "CloseCombatJoined" not in types(b)
    await enc.replay_matches_live()


async def test_tv2c_uc_in_the_stander_favour(tussle):
    enc = await _standing_group(tussle, joe_uc=1, frank_uc=2)
    b = await _turn(enc, 4, [[4, 6], [1, 2, 3]])
    assert of_type(b, "TakeDownResolved")[0]["stander_dice"] == 3
    await enc.replay_matches_live()


async def test_tv3_dive_knocked_back(tussle):
    enc = await tv3_dive(tussle)
    b = await enc.ok("tft.dive_for_legs", combatant="rolf", target="gorm", condition="C1", dice=[[4], [3, 5]])
    assert types(b) == [
        "ActionDeclared",
        "Moved",
        "DieRolled",
        "HthEntryResolved",
        "Moved",
        "PostureChanged",
        "DieRolled",
        "Wounded",
        "ActionSpent",
    ]
    defense, hit = of_type(b, "DieRolled")
    assert defense["modifiers"] == [
        {"value": 1, "reason": "diving for the legs"},
        {"value": 1, "reason": "Dive Block 1"},
    ]
    assert (defense["total"], defense["outcome"]) == (6, "knocked_back_free_hit")
    charge, back = of_type(b, "Moved")
    assert (charge["to"], charge["reason"]) == ([0, 0], "charge")
    assert (back["from"], back["to"], back["reason"]) == ([0, 0], [1, 0], "knockback")
    assert of_type(b, "PostureChanged")[0] == {"combatant": "rolf", "posture": "prone"}
    assert (hit["purpose"], hit["notation"], hit["faces"], hit["total"]) == (
        "free_hit_damage",
        "2d6",
        [3, 5],
        8,
    )
    assert of_type(b, "Wounded")[0]["amount"] == 6
    assert of_type(b, "ActionSpent")[0]["why"] == "dive knocked back"
    r = await enc.command("tft.move", combatant="rolf", path=[[2, 0]])
    assert r.status == 422 and "movement has ended" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def _rear_entry(tussle, reactions=None):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(
        fig(
            "bors",
            "b",
            12,
            11,
            [0, 0],
            0,
            judo=1,
            items=[dict(BROADSWORD), dict(DAGGER)],
            reactions=reactions or {},
        )
    )
    await enc.add(fig("ana", "a", 10, 13, [-1, 0], 0, ma=10))
    await _turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="ana", target="bors", condition="C3", dice=[[6], [6], [3]])
    return enc, b


async def test_tv4_rear_entry_and_free_draw(tussle):
    enc, b = await _rear_entry(tussle)
    rolls = of_type(b, "DieRolled")
    assert [(r["purpose"], r["faces"], r["outcome"]) for r in rolls] == [
        ("hth_defense", [6], "reroll"),
        ("hth_defense_reroll", [6], "reroll"),
        ("hth_defense_reroll", [3], "enter_may_draw"),
    ]
    assert rolls[2]["modifiers"] == [{"value": 1, "reason": "defender's Judo 1"}] and rolls[2]["total"] == 4
    assert of_type(b, "HthEntryResolved")[0]["result"] == "enter_may_draw"
    assert types(b)[-1] == "ReactionRequested"
    req = of_type(b, "ReactionRequested")[0]
    assert (req["combatant"], req["kind"], req["options"]) == ("bors", "entry_dagger", ["dagger", "none"])
    r = await enc.command("tft.pass", combatant="ana")
    assert r.status == 422 and r.body["error"]["code"] == "reaction_pending"
    b = await enc.ok("respond", reaction=req["id"], choice="dagger")
    assert types(b) == ["ReactionAnswered", "ItemReadied"]
    assert of_type(b, "ItemReadied")[0] == {"combatant": "bors", "item": "dagger"}
    text = "\n".join(sentences(await enc.events()))
    assert "the 6 is rolled again" in text
    await enc.replay_matches_live()


async def test_tv4_standing_order_draws_at_once(tussle):
    enc, b = await _rear_entry(tussle, reactions={"entry_dagger": "dagger"})
    assert types(b)[-3:] == ["ReactionRequested", "ReactionAnswered", "ItemReadied"]
    await enc.replay_matches_live()


async def _judo_throw(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("kiri", "b", 10, 11, [0, 0], 0, judo=2, ma=10))
    await enc.add(fig("olaf", "a", 12, 12, [1, 0], 3, ma=12))
    await _turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="olaf", target="kiri", condition="C1", dice=[[5]])
    return enc, b


async def test_tv5_judo2_throw(tussle):
    enc, b = await _judo_throw(tussle)
    roll = of_type(b, "DieRolled")[0]
    assert roll["total"] == 7 and [m["value"] for m in roll["modifiers"]] == [1, 1]
    req = of_type(b, "ReactionRequested")[0]
    assert (req["combatant"], req["kind"]) == ("kiri", "judo_throw")
    assert sorted(req["options"]) == sorted(["1,0", "1,-1", "0,-1", "-1,0", "-1,1", "0,1", "no_throw"])
    b = await enc.ok("respond", reaction=req["id"], choice="0,1", dice=[[3]])
    assert types(b) == [
        "ReactionAnswered",
        "HthEntryResolved",
        "Moved",
        "DieRolled",
        "Wounded",
        "ActionSpent",
    ]
    assert of_type(b, "HthEntryResolved")[0]["result"] == "thrown"
    moved = of_type(b, "Moved")[0]
    assert (moved["from"], moved["to"], moved["reason"]) == ([0, 0], [0, 1], "thrown")
    dmg = of_type(b, "DieRolled")[0]
    assert (dmg["purpose"], dmg["notation"], dmg["faces"], dmg["total"]) == (
        "throw_damage",
        "1d6-4+5",
        [3],
        4,
    )
    assert of_type(b, "Wounded")[0]["amount"] == 4
    assert of_type(b, "ActionSpent")[0]["combatant"] == "olaf"
    await enc.replay_matches_live()


async def test_tv5_no_throw_gives_the_free_hit(tussle):
    enc, b = await _judo_throw(tussle)
    req = of_type(b, "ReactionRequested")[0]
    b = await enc.ok("respond", reaction=req["id"], choice="no_throw", dice=[[6]])
    assert of_type(b, "HthEntryResolved")[0]["result"] == "knocked_back_free_hit"
    assert of_type(b, "DieRolled")[0]["purpose"] == "free_hit_damage"
    await enc.replay_matches_live()


@pytest.fixture
def pins_opts():
    return {"pins": True}


async def test_tv6_pin_timeline(tussle, pins_opts):
    enc = await tussle.create("tft", dice="manual", options=pins_opts)
    await enc.add(fig("hal", "a", 12, 12, [1, 0], 3, ma=10))
    await enc.add(fig("ivo", "b", 13, 11, [0, 0], 0, ma=10, posture="prone"))
    await _turn(enc, 4)
    await enc.ok("tft.enter_hth", combatant="hal", target="ivo", condition="C2", dice=[[1]])
    await enc.ok("tft.pass", combatant="ivo")
    await enc.ok("tft.pass", combatant="hal")
    b = await _turn(enc, 5)
    assert of_type(b, "InitiativeSet")[0]["order"] == ["ivo", "hal"]  # ivo 11 +2 strongest
    await enc.ok("tft.pass", combatant="ivo")
    b = await enc.ok("tft.pin", combatant="hal", target="ivo", dice=[[3, 3, 3], [6, 6, 6]])
    assert of_type(b, "PinApplied")[0] == {"holder": "hal", "pinned": "ivo", "turn": 5}
    for turn in (6, 7, 8):
        b = await _turn(enc, turn)
        assert of_type(b, "PinHeld")[0] == {"holder": "hal", "pinned": "ivo", "turn": turn}
        assert {"combatant": "hal", "turn": turn, "why": "holding pin"} in of_type(b, "ActionSpent")
        if turn == 6:
            r = await enc.command("tft.hth_attack", combatant="ivo", target="hal")
            assert r.status == 422 and "Ivo is pinned" in r.body["error"]["message"]
        if turn == 7:
            r = await enc.command("tft.break_pin", combatant="ivo")
            assert r.status == 422 and "first try to break free on turn 8" in r.body["error"]["message"]
    b = await enc.ok("tft.break_pin", combatant="ivo", dice=[[2, 3, 3, 4]])
    roll = of_type(b, "DieRolled")[0]
    assert (roll["total"], roll["target"], roll["outcome"]) == (12, 13, "success")
    assert types(b)[-3:] == ["PinBroken", "ConditionChanged", "ActionSpent"]  # Ivo is no longer pinned
    assert of_type(b, "PinBroken")[0] == {"pinned": "ivo", "holder": "hal"}
    r = await enc.command("tft.pin", combatant="hal", target="ivo")
    assert r.status == 422 and "already used this turn's action" in r.body["error"]["message"]
    st = await enc.state()
    assert st["pins"] == []
    await enc.replay_matches_live()


async def test_tv4_answered_by_the_defenders_seat(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("bors", "b", 12, 11, [0, 0], 0, judo=1, items=[dict(BROADSWORD), dict(DAGGER)]))
    await enc.add(fig("ana", "a", 10, 13, [-1, 0], 0, ma=10))
    bors_seat = await enc.seat("Bea", ["bors"])
    ana_seat = await enc.seat("Al", ["ana"])
    await _turn(enc, 1)
    r = await enc.command("tft.enter_hth", token=ana_seat, combatant="bors", target="ana")
    assert r.status == 403, r.body
    b = await enc.ok("tft.enter_hth", combatant="ana", target="bors", dice=[[2]])
    req = of_type(b, "ReactionRequested")[0]
    assert req["asked_of"] != "gm"
    r = await enc.command("respond", token=ana_seat, reaction=req["id"], choice="dagger")
    assert r.status == 403, r.body
    r = await enc.command("respond", token=bors_seat, reaction=req["id"], choice="none")
    assert r.status == 201, r.body
    assert [e["type"] for e in r.body["events"]] == ["ReactionAnswered"]
    st = await enc.state()
    assert st["pending"] == [] and {"tft.hth_attack", "tft.draw_dagger", "tft.disengage"} <= set(
        st["legal_actions"]["bors"]
    )
    await enc.replay_matches_live()
