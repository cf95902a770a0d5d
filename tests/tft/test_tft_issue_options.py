"""Issue 5: every option of the spec through the API (at least once each), the half-move limit of entry and dives,
the entry conditions' edges (sprinting, the GM's back-to-wall ruling) and the small commands."""

from __future__ import annotations

import pytest

from tests.tft.helpers import DAGGER, encounter, fig, next_turn, of_type, refused, types


async def test_every_option_is_accepted_and_stored(tussle):
    opts = {
        "diving_for_legs": False,
        "pins": True,
        "standing_in_hth": True,
        "first_turn_draw": True,
        "pin_resolution": "gm",
        "fist_damage": "by_st",
        "standing_vote": "majority_first",
        "keep_hth_weapons_on_entry": True,
        "strongest_uses_remaining_st": True,
        "dive_is_entry_condition": True,
        "judo_throw_prone": True,
        "attack_criticals": False,
        "prone_crawl_hexes": 2,
    }
    enc = await tussle.create("tft", options=opts)
    st = await enc.state()
    assert {k: st["options"][k] for k in opts} == opts
    r = await tussle.request(
        "POST", "/encounters", {"name": "x", "ruleset": "tft", "options": {"pinz": True}}
    )
    assert r.status == 400, r.body
    r = await tussle.request(
        "POST", "/encounters", {"name": "x", "ruleset": "tft", "options": {"fist_damage": "huge"}}
    )
    assert r.status == 400, r.body


# ---- fist_damage --------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, st_, notation", [("flat", 13, "1d6-4"), ("by_st", 13, "1d6-1"), ("by_st", 35, "2d6+1")]
)
async def test_fist_damage_option(tussle, option, st_, notation):
    a = fig("a1", "a", st_, 13, [1, 0], 3, ma=12)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=8, posture="prone")
    enc = await encounter(tussle, a, b, options={"fist_damage": option})
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    damage = [1] * int(notation[0])
    b_ = await enc.ok("tft.hth_attack", combatant="a1", target="b1", dice=[[2, 2, 2], damage])
    assert of_type(b_, "DieRolled")[1]["notation"] == notation


async def test_a_figures_own_fist_damage_overrides_the_option(tussle):
    a = fig("a1", "a", 13, 13, [1, 0], 3, ma=12, fist_damage="1d6-2")
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=8, posture="prone")
    enc = await encounter(tussle, a, b, options={"fist_damage": "by_st"})
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    b_ = await enc.ok("tft.hth_attack", combatant="a1", target="b1", dice=[[2, 2, 2], [5]])
    assert of_type(b_, "DieRolled")[1]["notation"] == "1d6-2" and of_type(b_, "Wounded")[0]["amount"] == 3


# ---- attack_criticals ------------------------------------------------------------------------------------------


async def _armed_brawl(tussle, options, adj_dx=13):
    dagger = dict(DAGGER, state="ready", hth_damage="1d6")
    a = fig("a1", "a", 12, adj_dx, [1, 0], 3, ma=12, items=[dagger])
    b = fig("b1", "b", 30, 10, [0, 0], 0, ma=8, posture="prone")
    enc = await encounter(tussle, a, b, options={"keep_hth_weapons_on_entry": True, **options})
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    await enc.ok("tft.pass", combatant="b1")
    return enc


@pytest.mark.parametrize(
    "faces, outcome, damage, dropped",
    [
        ([1, 1, 1], "hit", 3 * 2, False),  # 3: triple damage
        ([1, 1, 2], "hit", 2 * 2, False),  # 4: double damage
        ([5, 5, 6], "miss", None, False),  # 16: a miss even against DX 17
        ([5, 6, 6], "miss", None, True),  # 17: the ready weapon is dropped
        ([6, 6, 6], "miss", None, True),  # 18: it breaks (dropped; the GM rules on the breakage)
    ],
)
async def test_attack_criticals(tussle, faces, outcome, damage, dropped):
    enc = await _armed_brawl(tussle, {}, adj_dx=21)  # 21 - 4 on the entry turn = 17
    dice = [faces, [2]] if damage else [faces]
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=dice)
    hit = of_type(b, "DieRolled")[0]
    assert (hit["target"], hit["outcome"]) == (17, outcome)
    if damage:
        dmg = of_type(b, "DieRolled")[1]
        assert dmg["total"] == damage and dmg["modifiers"][-1]["reason"].startswith("critical hit: damage x")
    assert (of_type(b, "ItemDropped") == [{"combatant": "a1", "item": "dagger", "at": [0, 0]}]) is dropped
    await enc.replay_matches_live()


async def test_attack_criticals_off(tussle):
    enc = await _armed_brawl(tussle, {"attack_criticals": False}, adj_dx=21)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=[[1, 1, 1], [2]])
    assert of_type(b, "DieRolled")[1]["total"] == 2
    enc = await _armed_brawl(tussle, {"attack_criticals": False}, adj_dx=21)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="dagger", dice=[[5, 5, 6], [2]])
    assert of_type(b, "DieRolled")[0]["outcome"] == "hit"


# ---- dive_is_entry_condition, the half-move limit --------------------------------------------------------------


async def test_dive_is_entry_condition_option(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=8)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=8)
    enc = await encounter(tussle, a, b, phase="movement")
    await refused(
        enc,
        "tft.dive_for_legs",
        "C1: A1's MA 8 is not higher than B1's 8",
        "C4:",
        combatant="a1",
        target="b1",
    )
    enc = await encounter(tussle, a, b, options={"dive_is_entry_condition": True}, phase="movement")
    b_ = await enc.ok("tft.dive_for_legs", combatant="a1", target="b1", dice=[[1]])
    assert of_type(b_, "ActionDeclared")[0]["params"]["allowed"] == "diving for the legs"
    assert "CloseCombatJoined" in types(b_)
    fast = fig("b1", "b", 12, 10, [0, 0], 0, ma=16)
    enc = await encounter(tussle, a, fast, options={"dive_is_entry_condition": True}, phase="movement")
    await refused(enc, "tft.dive_for_legs", "B1's MA is at least twice A1's", combatant="a1", target="b1")


async def test_half_move_limits(tussle):
    a = fig("a1", "a", 12, 13, [5, 0], 3, ma=10)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=10, back_to_wall=True)
    enc = await encounter(tussle, a, b, phase="movement")
    await enc.ok("tft.move", combatant="a1", path=[[4, 0], [3, 0], [2, 0], [1, 0]])
    # the dive step is the fifth hex: exactly half of MA 10
    st = await enc.state()
    assert "tft.dive_for_legs" in st["legal_actions"]["a1"]
    b_ = await enc.ok("tft.dive_for_legs", combatant="a1", target="b1", dice=[[1]])
    assert (await enc.state())["rules"]["figures"]["a1"]["hexes_moved"] == 5 and "CloseCombatJoined" in types(
        b_
    )
    enc2 = await encounter(tussle, a, b, phase="movement")
    await enc2.ok("tft.move", combatant="a1", path=[[4, 0], [3, 0], [2, 0], [2, -1], [1, -1]])
    await refused(
        enc2,
        "tft.dive_for_legs",
        "with the dive A1 would move 6 hexes, more than half their MA (5)",
        combatant="a1",
        target="b1",
    )
    # ... but after 5 hexes the action-phase entry is still allowed (hexes_moved <= half MA)
    await enc2.ok("start_phase", phase="action")
    b_ = await enc2.ok("tft.enter_hth", combatant="a1", target="b1", dice=[[2]])
    assert of_type(b_, "ActionDeclared")[0]["params"]["condition"] == "C2"
    await enc2.replay_matches_live()


# ---- prone_crawl_hexes ----------------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "option, judo, path_len, ok",
    [(1, 0, 1, True), (1, 0, 2, False), (2, 0, 2, True), (1, 2, 3, True), (1, 2, 4, False)],
)
async def test_prone_crawl_hexes(tussle, option, judo, path_len, ok):
    a = fig("a1", "a", 12, 13, [5, 0], 3, ma=10, posture="prone", judo=judo)
    enc = await encounter(tussle, a, options={"prone_crawl_hexes": option}, phase="movement")
    path = [[5, -i] for i in range(1, path_len + 1)]
    if ok:
        b = await enc.ok("tft.move", combatant="a1", path=path)
        assert of_type(b, "TftMoveCounted")[0]["hexes_moved"] == path_len
    else:
        limit = 3 if judo == 2 else option
        await refused(
            enc, "tft.move", f"more than their crawl limit on the ground ({limit})", combatant="a1", path=path
        )


# ---- entry conditions' edges ----------------------------------------------------------------------------------------


async def test_sprinting_bonus_does_not_count_for_c1(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=12, sprint_bonus=4)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=10)
    enc = await encounter(tussle, a, b)
    await refused(
        enc,
        "tft.enter_hth",
        "C1: A1's MA 8 is not higher than B1's 10 (sprinting bonus not counted)",
        combatant="a1",
        target="b1",
        condition="C1",
    )


async def test_the_gms_back_to_wall_ruling_makes_c2_hold(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=8)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=8)
    enc = await encounter(tussle, a, b)
    await refused(
        enc, "tft.enter_hth", "C2: B1's back is not to a wall", combatant="a1", target="b1", condition="C2"
    )
    b_ = await enc.ok("tft.set_back_to_wall", combatant="b1")
    assert of_type(b_, "RulingMade")[0]["overrides"] == {
        "combatants": {"b1": {"stats": {"back_to_wall": True}}}
    }
    b_ = await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    assert of_type(b_, "ActionDeclared")[0]["params"]["allowed"] == "B1's back is to a wall"
    await enc.replay_matches_live()


@pytest.mark.parametrize("posture", ["prone", "kneeling", "on_back", "on_stomach"])
async def test_c2_any_down_posture(tussle, posture):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=8)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=8, posture=posture)
    enc = await encounter(tussle, a, b)
    b_ = await enc.ok("tft.enter_hth", combatant="a1", target="b1", dice=[[1]])
    assert of_type(b_, "ActionDeclared")[0]["params"]["condition"] == "C2"


async def test_consent_is_for_this_entrant_and_this_turn_only(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=8)
    b = fig("b1", "b", 12, 10, [0, 0], 0, ma=8)
    enc = await encounter(tussle, a, b)
    b_ = await enc.ok("tft.consent_hth", combatant="b1", target="a1")
    assert of_type(b_, "HthConsentGiven") == [{"defender": "b1", "entrant": "a1", "turn": 1}]
    await enc.ok("tft.pass", combatant="a1")
    await next_turn(enc, 2)
    await refused(
        enc,
        "tft.enter_hth",
        "C4: B1 has not agreed this turn to let A1 try",
        combatant="a1",
        target="b1",
        condition="C4",
    )


# ---- the small commands ------------------------------------------------------------------------------------------


async def test_set_hth_preferences_records_every_field(tussle):
    a = fig("a1", "a", 12, 13, [1, 0], 3, ma=8)
    enc = await encounter(tussle, a)
    b = await enc.ok(
        "tft.set_hth_preferences",
        combatant="a1",
        use_judo1_defense=False,
        judo2_shift_defense=-1,
        entry_dagger="always",
        judo_throw="never",
        hth_wish="stand",
        take_down_dice=3,
    )
    assert of_type(b, "HthPreferencesSet")[0] == {
        "combatant": "a1",
        "use_judo1_defense": False,
        "judo2_shift_defense": -1,
        "entry_dagger": "always",
        "judo_throw": "never",
        "hth_wish": "stand",
        "take_down_dice": 3,
    }
    assert of_type(b, "StandingOrdersSet")[0]["reactions"] == {
        "entry_dagger": "dagger",
        "judo_throw": "no_throw",
    }
    assert (await enc.state())["rules"]["figures"]["a1"]["prefs"]["take_down_dice"] == 3
    r = await enc.command("tft.set_hth_preferences", combatant="a1", take_down_dice=0)
    assert r.status == 400
    r = await enc.command("tft.set_hth_preferences", combatant="a1", hth_wish="fly")
    assert r.status == 400
    await enc.replay_matches_live()
