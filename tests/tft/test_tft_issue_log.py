"""Issue 5: the log sentences of every TFT event in the style of spec section 8, read through the real
`GET /encounters/{id}/log`; and `GET /rulesets` listing every tft.* command with its fields and every option."""

from __future__ import annotations

import re
from typing import Any

import msgspec

from rules.interface import Command
from rules.tft.commands import TFT_COMMANDS
from rules.tft.describe import PURPOSE_WORDS
from rules.tft.events import TFT_EVENTS
from rules.tft.options import DEFAULTS
from tests.tft.helpers import (
    BROADSWORD,
    DAGGER,
    SHIELD,
    SPEAR,
    encounter,
    fig,
    next_turn,
    of_type,
    simeth,
    troll,
    tv3_dive,
)

BOW = {"id": "bow", "name": "Bow", "kind": "weapon", "damage": "1d6", "state": "ready"}


# The engine's last-resort sentence for an event nobody describes: "HthEntryResolved (gm)."
ENGINE_FALLBACK = re.compile(r"^[A-Z][A-Za-z]+ \([^)]*\)\.$")


async def _log(enc) -> list[dict[str, Any]]:
    await enc.replay_matches_live()
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    return r.body["entries"]


def _texts(entries: list[dict[str, Any]]) -> str:
    return "\n".join(e["text"] for e in entries)


async def _hal_holds_ivo(tussle, hal: tuple[int, int], ivo_st: int):
    """TV6 (OPTION pins): Hal (ST, DX `hal`) got into HTH with the prone Ivo in turn 4; turn 5's action phase."""
    enc = await tussle.create("tft", dice="manual", options={"pins": True})
    await enc.add(fig("hal", "a", *hal, [1, 0], 3, ma=10))
    await enc.add(fig("ivo", "b", ivo_st, 11, [0, 0], 0, ma=10, posture="prone"))
    await next_turn(enc, 4)
    await enc.ok("tft.enter_hth", combatant="hal", target="ivo", condition="C2", dice=[[1]])
    await next_turn(enc, 5)
    return enc


async def _troll(tussle):
    enc = await encounter(tussle, simeth(), troll(), phase="movement")
    await enc.ok("tft.move", combatant="simeth", path=[[1, 0]])
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[2]])
    await enc.ok("tft.hth_attack", combatant="troll", target="simeth", weapon="bite", dice=[[3, 4, 4], [4]])
    await enc.ok("tft.hth_attack", combatant="simeth", target="troll", weapon="fist", dice=[[5, 3, 2], [6]])
    await next_turn(enc, 2)
    await enc.ok("tft.draw_dagger", combatant="simeth", dice=[[3, 3, 3]])
    return enc


async def test_tv1_log_through_the_endpoint(tussle):
    enc = await _troll(tussle)
    text = _texts(await _log(enc))
    for sentence in [
        "Simeth has moved 1 hex of MA 10 this turn.",
        "Simeth tries to get into HTH with Troll (allowed: Troll's back is to a wall).",
        "Troll rolls 1d6 for the HTH defense: [2] (no modifiers) = 2 — Simeth gets in; Troll gets no "
        "free dagger draw",
        "Simeth gets into HTH with Troll; Troll gets no free dagger draw (HTH defense total 2).",
        "Simeth drops Broadsword at [0, 0].",
        "Troll drops Club at [0, 0].",
        "Simeth got into HTH on turn 1: this turn Simeth may only attack, at -4 DX.",
        "Order of action by DX: Troll 13 (11, +2 strongest figure in HTH), Simeth 11 (15, -4 entered HTH this turn).",
        "Troll attacks Simeth in HTH.",
        "Troll rolls 3d6 for an HTH attack: [3,4,4] = 11 vs DX 11 + 2 (strongest figure in HTH) = 13: hit",
        "Troll rolls 1d6+2 for damage: [4] +2 (bite 1d6+2) = 6",
        "Simeth takes 6 damage (Troll's bite); 7 ST left.",
        "Simeth rolls 3d6 for an HTH attack: [5,3,2] = 10 vs DX 15 − 4 (entered HTH this turn) = 11: hit",
        "Troll takes 2 damage (Simeth's fist); 33 ST left.",
        "Order of action by DX: Simeth 15, Troll 13 (11, +2 strongest figure in HTH).",
        "Simeth tries to draw a dagger.",
        "Simeth rolls 3d6 for drawing a dagger: [3,3,3] = 9 vs DX 15: the dagger is drawn",
        "Simeth readies Dagger.",
    ]:
        assert sentence in text, sentence
    md = await enc.get("/log?format=markdown")
    assert md.status == 200 and "Simeth takes 6 damage (Troll's bite); 7 ST left." in md.body


async def test_entry_rolls_dive_throw_and_dagger_sentences(tussle):
    # TV3: the dive knocked back
    enc = await tv3_dive(tussle)
    await enc.ok("tft.dive_for_legs", combatant="rolf", target="gorm", condition="C1", dice=[[4], [3, 5]])
    text = _texts(await _log(enc))
    for sentence in [
        "Rolf dives for Gorm's legs (allowed: Rolf's MA 10 is higher than Gorm's 8).",
        "Gorm rolls 1d6 for the HTH defense: [4] +1 (diving for the legs) +1 (Dive Block 1) = 6 — "
        "Rolf is knocked back, loses the action, and Gorm gets a free hit",
        "Gorm knocks Rolf back and gets a free hit; Rolf's action is lost (HTH defense total 6).",
        "Gorm rolls 2d6 for the free hit's damage: [3,5] (no modifiers) = 8",
        "Gorm's free hit does 8; Rolf's armor stops 2; Rolf takes 6, 6 ST left.",
    ]:
        assert sentence in text, sentence

    # TV4: rear rerolls and the free dagger
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
            reactions={"entry_dagger": "dagger"},
        )
    )
    await enc.add(fig("ana", "a", 10, 13, [-1, 0], 0, ma=10))
    await next_turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="ana", target="bors", condition="C3", dice=[[6], [6], [3]])
    text = _texts(await _log(enc))
    for sentence in [
        "Bors rolls 1d6 for the HTH defense: [6] (no modifiers) = 6 — Ana came from the rear hex, "
        "so the 6 is rolled again",
        "Bors rolls 1d6 for the HTH defense (reroll): [3] +1 (defender's Judo 1) = 4 — Ana gets in; "
        "Bors may draw a dagger",
        "Ana gets into HTH with Bors; Bors may ready a dagger, free (HTH defense total 4).",
        "Bors readies Dagger.",
    ]:
        assert sentence in text, sentence

    # TV5: the Judo 2 throw
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("kiri", "b", 10, 11, [0, 0], 0, judo=2, ma=10))
    await enc.add(fig("olaf", "a", 12, 12, [1, 0], 3, ma=12))
    await next_turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="olaf", target="kiri", condition="C1", dice=[[5]])
    await enc.ok("respond", reaction=of_type(b, "ReactionRequested")[0]["id"], choice="0,1", dice=[[3]])
    text = _texts(await _log(enc))
    for sentence in [
        "Kiri rolls 1d6 for the HTH defense: [5] +1 (defender's Judo 1) +1 (defender's Judo 2 "
        "choice) = 7 — Olaf is knocked back; Kiri may throw Olaf (Judo) or take a free hit",
        "Kiri throws Olaf (Judo); Olaf's action is lost (HTH defense total 7).",
        "Olaf moves from [0, 0] to [0, 1] (thrown).",
        "Kiri rolls 1d6-4+5 for the Judo throw's damage: [3] -4 (fist 1d6-4) +5 (Judo 2 throw) = 4",
        "Olaf takes 4 damage (Kiri's Judo throw); 8 ST left.",
    ]:
        assert sentence in text, sentence


async def test_take_down_standing_and_pin_sentences(tussle):
    # TV2: the Take Down contest in a standing brawl
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True})
    await enc.add(fig("joe", "a", 11, 12, [4, 5], 0, uc=2, ma=10))
    await enc.add(fig("frankfolson", "b", 15, 11, [5, 5], 3, uc=1, ma=10))
    for who in ("joe", "frankfolson"):
        await enc.ok("tft.set_hth_preferences", combatant=who, hth_wish="stand")
    await next_turn(enc, 3)
    await enc.ok("tft.consent_hth", combatant="frankfolson", target="joe")
    await enc.ok("tft.enter_hth", combatant="joe", target="frankfolson", dice=[[1], [3, 3, 3], [3, 3, 3]])
    await enc.ok("tft.set_hth_preferences", combatant="joe", hth_wish="fall", take_down_dice=2)
    await next_turn(enc, 4, dice=[[4, 6], [1, 2, 3, 4, 5]])
    text = _texts(await _log(enc))
    for sentence in [
        "Frankfolson lets Joe try to get into HTH this turn.",
        "Joe tries to get into HTH with Frankfolson (allowed: Frankfolson agreed).",
        "Joe rolls 3d6 for remaining standing: [3,3,3] = 9 vs DX 12: Joe stays on their feet",
        "The brawl at [5, 5] stays on its feet (standing case 2).",
        "Joe's HTH preferences: wishes to fall, entry dagger ask, Judo throw ask, Judo 1 defense used, Judo 2 shift "
        "+1, Take Down dice 2.",
        "Joe rolls 2d6 for the Take Down (pulling): [4,6] = 10 vs ST 11: Joe makes the roll",
        "Frankfolson rolls 5d6 for the Take Down (standing): [1,2,3,4,5] = 15 vs ST 15: "
        "Frankfolson makes the roll too",
        # §Take-Down: "The figure who wishes to cause the group to fall must win the roll, and his or her
        # opponent must fail": who won, and what follows.
        "Take Down, Joe (2 dice) pulling against Frankfolson (5 dice) standing: Frankfolson resists, and the brawl "
        "stays on its feet (a free action: no actions used).",
        "The brawl at [5, 5] stays on its feet (standing case 3).",
        "Order of action by DX: Frankfolson 13 (11, +2 strongest figure in HTH), Joe 12.",
    ]:
        assert sentence in text, sentence

    # TV6: pins
    enc = await _hal_holds_ivo(tussle, hal=(12, 12), ivo_st=13)
    await enc.ok("tft.pass", combatant="ivo")
    await enc.ok("tft.pin", combatant="hal", target="ivo", dice=[[3, 3, 3], [6, 6, 6]])
    for turn in (6, 7, 8):
        await next_turn(enc, turn)
    await enc.ok("tft.break_pin", combatant="ivo", dice=[[2, 3, 3, 4]])
    text = _texts(await _log(enc))
    for sentence in [
        "Hal tries to pin Ivo.",
        "Hal rolls 3d6 for the pin: [3,3,3] = 9 vs DX 12: Hal makes the pin roll",
        "Ivo rolls 3d6 for resisting the pin: [6,6,6] = 18 vs DX 11 + 2 (strongest figure in HTH) = 13: "
        "Ivo fails to resist",
        "Hal pins Ivo (turn 5): Ivo may act only without motion on turns 6 and 7. Ivo may try to break free from "
        "turn 8.",
        "Hal holds Ivo (turn 6, held 1 turn; Hal's action is spent). Ivo may try to break free from turn 8.",
        "Hal holds Ivo (turn 7, held 2 turns; Hal's action is spent). Ivo may try to break free from turn 8.",
        "Hal holds Ivo (turn 8, held 3 turns; Hal's action is spent). Ivo may try to break free.",
        "Ivo tries to break Hal's pin.",
        "Ivo rolls 4d6 for breaking the pin: [2,3,3,4] = 12 vs ST 13: Ivo breaks the pin",
        "Ivo breaks Hal's pin.",
    ]:
        assert sentence in text, sentence


async def test_a_weaker_pinned_figure_is_told_it_cannot_break_free(tussle):
    enc = await _hal_holds_ivo(tussle, hal=(14, 16), ivo_st=12)
    await enc.ok("tft.pin", combatant="hal", target="ivo", dice=[[3, 3, 3], [6, 6, 6]])
    await next_turn(enc, 6)
    text = _texts(await _log(enc))
    assert (
        "Hal holds Ivo (turn 6, held 1 turn; Hal's action is spent). Ivo is too weak to break the pin (ST in "
        "HTH 12 against 14)." in text
    )


async def test_strike_and_missile_sentences(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("ash", "a", 12, 13, [1, 0], 3, ma=12))
    await enc.add(fig("dax", "b", 12, 11, [0, 0], 0, ma=8, posture="prone"))
    await enc.add(fig("eli", "b", 12, 10, [0, 1], 2, ma=10))
    await enc.add(fig("cara", "a", 12, 12, [1, -1], 4, ma=10, items=[dict(SPEAR)]))
    await enc.add(fig("archer", "a", 10, 14, [6, 0], 3, ma=10, items=[dict(BOW)]))
    await next_turn(enc, 1)
    await enc.ok("tft.enter_hth", combatant="ash", target="dax", condition="C2", dice=[[1]])
    await enc.ok("tft.join_hth", combatant="eli", target="ash")
    await enc.ok(
        "tft.strike_into_hth",
        combatant="cara",
        target="dax",
        weapon="spear",
        dice=[[6, 4, 4], [3, 3, 3], [2]],
    )
    await enc.ok(
        "tft.missile_into_hth_far", combatant="archer", target="dax", weapon="bow", dice=[[3, 3, 3], [1], [4]]
    )
    text = _texts(await _log(enc))
    for sentence in [
        "Eli joins the brawl with Ash.",
        "Cara strikes into the brawl at Dax.",
        "Cara rolls 3d6 for a strike into the brawl at Dax: [6,4,4] = 14 vs DX 12: miss",
        "Cara rolls 3d6 for a strike into the brawl at the next enemy, Eli: [3,3,3] = 9 vs DX 12: hit",
        "Eli takes 3 damage (Cara's Spear); 9 ST left.",
        "Archer shoots into the brawl at Dax.",
        "Archer rolls 1d3 for which figure in the brawl is hit: [1] (no modifiers) = 1: Ash",
        "Ash takes 4 damage (Archer's Bow); 8 ST left.",
    ]:
        assert sentence in text, sentence


async def test_every_tft_event_and_roll_has_a_tft_sentence(tussle):
    """Across the scenarios above: no TFT event or TFT roll falls back to the engine's bare sentence."""
    seen_types: set[str] = set()
    seen_purposes: set[str] = set()
    encounters = [await _troll(tussle)]
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True, "pins": True})
    await enc.add(fig("a1", "a", 12, 13, [1, 0], 3, ma=12, items=[dict(SHIELD), dict(DAGGER)]))
    await enc.add(fig("b1", "b", 12, 11, [0, 0], 0, ma=8))
    await enc.add(fig("c1", "a", 10, 9, [3, 3], 0, ma=10))
    for who in ("a1", "b1"):
        await enc.ok("tft.set_hth_preferences", combatant=who, hth_wish="stand")
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("tft.move", combatant="c1", path=[[3, 2]])
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.consent_hth", combatant="b1", target="a1")
    await enc.ok(
        "tft.enter_hth", combatant="a1", target="b1", condition="C4", dice=[[1], [3, 3, 3], [6, 6, 6]]
    )
    await next_turn(enc, 2)
    await enc.ok("tft.cast_spell_in_hth", combatant="a1", spell="Blur", dice=[[6, 6, 6]])
    await next_turn(enc, 3)
    await enc.ok("tft.drop_shield", combatant="a1", dice=[[6, 6, 6]])
    await enc.ok("tft.pin", combatant="b1", target="a1", dice=[[6, 6, 6], [1, 1, 1]])
    await next_turn(enc, 4)
    await enc.ok("tft.disengage", combatant="a1", to=[1, 0], dice=[[1, 1, 1, 1]])
    encounters.append(enc)
    for e in encounters:
        for entry in await _log(e):
            assert not ENGINE_FALLBACK.match(entry["text"]), entry
            seen_types.add(entry["type"])
        for ev in await e.events():
            if ev["type"] == "DieRolled":
                seen_purposes.add(ev["data"]["purpose"])
                text = next(x["text"] for x in await _log(e) if x["seq"] == ev["seq"])
                assert f"rolls {ev['data']['notation']} for " in text, text
    assert {
        "HthEntryResolved",
        "HthFirstTurn",
        "HthConsentGiven",
        "HthPreferencesSet",
        "StandingCheckResolved",
        "TftMoveCounted",
    } <= seen_types
    assert (
        {
            "hth_defense",
            "hth_attack",
            "damage",
            "cast_spell",
            "draw_dagger",
            "drop_shield",
            "disengage",
            "pin_attempt",
            "pin_resist",
            "stay_standing",
        }
        <= seen_purposes
        <= set(PURPOSE_WORDS)
    )


async def test_get_rulesets_lists_every_tft_command_with_its_fields_and_every_option(tussle):
    r = await tussle.request("GET", "/rulesets")
    assert r.status == 200
    tft = next(x for x in r.body["rulesets"] if x["id"] == "tft")
    listed = {c["type"]: c for c in tft["commands"]}
    spec_commands = {
        "enter_hth",
        "dive_for_legs",
        "join_hth",
        "hth_attack",
        "cast_spell_in_hth",
        "draw_dagger",
        "drop_shield",
        "disengage",
        "pin",
        "release_pin",
        "break_pin",
        "strike_into_hth",
        "missile_into_hth_far",
        "consent_hth",
        "set_hth_preferences",
        "pass",
        "move",
        "prone_unarmed_attack",
        "set_back_to_wall",
    }
    assert {f"tft.{c}" for c in spec_commands} <= set(listed)
    assert set(listed) == {cls.__struct_config__.tag for cls in TFT_COMMANDS}
    envelope = {f.name for f in msgspec.structs.fields(Command)}  # command_id, dice ...: every command's
    for cls in TFT_COMMANDS:
        entry = listed[cls.__struct_config__.tag]
        fields = {f.name: f for f in msgspec.structs.fields(cls) if f.name not in envelope}
        shown = {f["name"]: f for f in entry["fields"]}
        assert set(fields) <= set(shown), (cls, set(fields) - set(shown))
        for name, f in fields.items():
            assert shown[name]["required"] is (f.required), (cls, name)
        assert entry["doc"], cls  # each command says what it does
    assert [f["name"] for f in listed["tft.enter_hth"]["fields"]][:4] == [
        "combatant",
        "target",
        "condition",
        "judo2_shift",
    ]
    options = {o["name"]: o["default"] for o in tft["options"]}
    assert {k: options[k] for k in DEFAULTS} == DEFAULTS
    assert DEFAULTS == {
        "diving_for_legs": True,
        "pins": False,
        "standing_in_hth": False,
        "first_turn_draw": False,
        "pin_resolution": "contest",
        "fist_damage": "flat",
        "standing_vote": "dissent_contest",
        "keep_hth_weapons_on_entry": False,
        "strongest_uses_remaining_st": False,
        "dive_is_entry_condition": False,
        "judo_throw_prone": False,
        "attack_criticals": True,
        "prone_crawl_hexes": 1,
    }
    assert {e.__name__ for e in TFT_EVENTS} >= {
        "HthEntryResolved",
        "HthFirstTurn",
        "HthConsentGiven",
        "HthPreferencesSet",
        "StandingCheckResolved",
        "TakeDownResolved",
    }
