"""Issue 6 audit: a log sentence for every Rogue Trader event and roll, read through the real
`GET /encounters/{id}/log`; `GET /rulesets` lists every `rogue-trader.*` command with its fields; the engine
has no branch naming this ruleset."""

from __future__ import annotations

import pathlib
import re
from typing import Any

import msgspec
from rt_support import at, cultist, encounter, marine, of_type, red_charges_blue

from rules.rogue_trader.commands import RT_COMMANDS
from rules.rogue_trader.events import RT_EVENTS

ROOT = pathlib.Path(__file__).resolve().parents[2]
RT_PURPOSES = {
    "to_hit",
    "to_hit_second",
    "to_wound",
    "save",
    "damage",
    "initiative_roll_off",
    "rout_test",
    "follow_up_hold",
    "variant",
    "stand_fire_to_hit",
    "stand_fire_to_wound",
    "stand_fire_save",
    "free_blow_to_hit",
    "free_blow_to_wound",
}


async def _log(enc: Any) -> list[dict[str, Any]]:
    r = await enc.get("/log")
    assert r.status == 200, r.body
    return r.body["entries"]


async def _results_and_hold(tussle) -> Any:
    enc = await red_charges_blue(
        tussle, m1={"Ld": 7, "unit_name": "Red"}, m2={"Ld": 7}, c1={"unit_name": "Blue"}
    )
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    await enc.ok("rogue-trader.push_back", unit="B")
    await enc.ok("rogue-trader.follow_up", unit="R", choice="hold", dice=[[3, 4]])
    await enc.ok("start_phase", phase="end")
    return enc


async def _charges(tussle) -> Any:
    enc = await encounter(
        tussle,
        [
            marine("m6", 0, 0, save=4),
            cultist("c6", 7, 0, reactions={}),
            cultist("c7", 0, 6, reactions={}),
            marine("m9", 30, 0),
            cultist("c9", 39.5, 0),
        ],
    )
    body = await enc.ok("rogue-trader.charge", combatant="m6", target="c6")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    await enc.ok("respond", reaction=rid, choice="run_away")
    body = await enc.ok("rogue-trader.retarget", combatant="m6", target="c7")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    await enc.ok(
        "respond", reaction=rid, choice="stand_and_fire", params={"turn_to_face": True}, dice=[[6], [6], [4]]
    )
    await enc.ok("rogue-trader.charge", combatant="m9", target="c9")  # 8.5" needed, 8" reach: fails
    return enc


async def _devils(tussle) -> Any:
    enc = await encounter(
        tussle,
        [
            {
                "id": "dv",
                "name": "Devil",
                "side": "red",
                "position": at(0, 0),
                "facing": 90,
                "stats": {"creature": "catachan_devil", "size": "medium"},
                "reactions": {"charged": "hold"},
            },
            cultist("t2", 0, -3, side="blue", unit="T", facing=90, save=6),
        ],
        options={"turn_order": ["blue", "red"]},
    )
    r = await enc.command(
        "add_combatant",
        dice=[[30], [7]],
        combatant={
            "id": "big",
            "name": "Big Devil",
            "side": "red",
            "position": at(40, 40),
            "stats": {"creature": "catachan_devil", "size": "large"},
        },
    )
    assert r.status == 201, r.body
    await enc.ok("rogue-trader.set_situation", combatant="t2", uphill_over=["dv"], prepared_position=True)
    await enc.ok("rogue-trader.charge", combatant="t2", target="dv")
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[
            {"attack": "tail", "target": "t2"},
            *({"attack": "stomp", "target": "t2"} for _ in range(4)),
            {"attack": "tentacle", "target": "t2"},
        ],
    )
    await enc.ok("rogue-trader.resolve_round", group="dv", dice=[[5], [4], [2], [3]])
    return enc


async def _split_and_rejoin(tussle) -> Any:
    # m3 is 8" from m1's base: too far to close up in one 4" move (split); two moves bring it back.
    enc = await encounter(
        tussle,
        [marine("m1", 0, 0, unit="R", leader=True), marine("m3", 9, 0, unit="R"), cultist("c1", 30, 30)],
    )
    await enc.ok("start_phase", phase="shooting")
    for turn, x in ((3, 5), (5, 2)):
        await enc.ok("start_turn", turn=turn)
        await enc.ok("start_phase", phase="movement")
        await enc.ok("move", combatant="m3", to=at(x, 0))
        await enc.ok("start_phase", phase="shooting")
    return enc


async def _break_off_and_roll_off(tussle) -> Any:
    enc = await encounter(
        tussle,
        [marine("m5", 18, 10, unit="A2", A=2, WS=1), cultist("c5", 21, 10, unit="B2", I=4, WS=5)],
        options={"turn_order": ["blue", "red"], "initiative_ties": "roll_off"},
        turn=4,
    )
    await enc.ok("rogue-trader.charge", combatant="m5", target="c5")
    await enc.ok("start_turn", turn=5)
    await enc.ok("start_phase", phase="close_combat")
    # Roll-off blue 5, red 2: c5 (WS5 v 1 -> 3) hits on 3, wound 1 fails; m5 (WS1 v 5 -> 7): 6 then 1, two attacks.
    await enc.ok("rogue-trader.resolve_round", group="c5", dice=[[5], [2], [3], [1], [6], [1], [5]])
    await enc.ok("start_turn", turn=7)
    await enc.ok("start_phase", phase="movement")
    # m5's free blow: WS1 v WS "1" (its back is turned) -> 5: a 6 hits, a 2 does not wound.
    await enc.ok("rogue-trader.break_off", unit="B2", dice=[[2, 4], [6], [2]])
    return enc


async def test_every_rogue_trader_event_and_roll_has_its_own_sentence(tussle):
    types_seen: set[str] = set()
    purposes_seen: set[str] = set()
    for scenario in (_results_and_hold, _charges, _devils, _split_and_rejoin, _break_off_and_roll_off):
        enc = await scenario(tussle)
        entries = await _log(enc)
        events = {e["seq"]: e for e in await enc.events()}
        for entry in entries:
            t = entry["type"]
            text = entry["text"]
            assert text and not re.search(r"\b[0-9a-f]{16}\b", text), entry
            if t.startswith("Rt"):
                types_seen.add(t)
                # The engine's fallback for an event nobody describes is "<Type> (<actor>)."
                assert not text.startswith(t), entry
            if t == "DieRolled":
                d = events[entry["seq"]]["data"]
                purposes_seen.add(d["purpose"])
                # The ruleset's own roll sentence: faces, target and outcome, never "1d6 for <purpose>".
                assert f"for {d['purpose']}" not in text, entry
                assert str(d["faces"][0]) in text and (d["target"] is None or str(d["target"]) in text), entry
                if not d["purpose"].endswith("damage"):
                    assert str(d["outcome"]).replace("_", " ") in text, entry
        await enc.replay_matches_live()
    assert types_seen == {cls.__name__ for cls in RT_EVENTS}
    assert RT_PURPOSES <= purposes_seen


async def test_log_reads_like_the_gm_expects(tussle):
    """Spec §9, as this server words it."""
    enc = await _results_and_hold(tussle)
    texts = [e["text"] for e in await _log(enc)]
    expected = [
        'M1 declares a charge at C1 (reach 8.0").',
        "C1 is charged and may hold, stand and fire or run away; the GM answers (default: hold).",
        'M1 charges 2.0" from (8", 10") to (10", 10").',
        "M1 is in base contact with C1: both fight in the close combat phase.",
        "M1 rolls to hit: 4 +1 (charging) = 5, needs 4 — hit (manual dice, not verifiable).",
        "M1 rolls to wound: 3, needs 3 — wound (manual dice, not verifiable).",
        "M1's chainsword hits C1 (WS 4 against WS 3) and wounds (S 4 against T 3): 1 wound.",
        "C1 is slain.",
        "Round 3, initiative 4: M1 and M2 strike.",
        "Round 3, initiative 3: C2 strikes.",
        "Round 3: Red caused 1 wound and took 0; Blue caused 0 wounds and took 1 — Red wins the round; Blue loses it "
        "and must take a rout test.",
        "M1 has no opponent left and stays put for the rest of the turn.",
        "Blue takes a rout test: 2+3 = 5 ≤ Ld 7 — passes: no rout (manual dice, not verifiable).",
        'C2 is pushed back 2.0" to (13", 12"), still facing the same way.',
        "Red must follow up (M2), unless it passes a Ld test to hold.",
        "Red tests to hold instead of following up: 3+4 = 7 ≤ Ld 7 — holds: it stays where it is (manual dice, "
        "not verifiable).",
        "Red holds ground and stays put for the rest of the turn.",
        "The close combat phase begins.",
    ]
    for line in expected:
        assert line in texts, (line, texts)
    enc = await _break_off_and_roll_off(tussle)
    texts = [e["text"] for e in await _log(enc)]
    assert "Unit B2 breaks off." in texts
    assert (
        "Unit B2 takes a rout test: 2+4 = 6 ≤ Ld 7 — passes: it retreats at double pace (manual dice, not "
        "verifiable)." in texts
    )
    assert any(t.startswith("Free blow: M5 rolls to hit: 6 (no modifiers), needs 5 — hit") for t in texts), (
        texts
    )
    assert (
        "M5's chainsword hits C5 (WS 1 against WS 1 (back turned)) but does not wound (S 4 against T 3)."
        in texts
    )
    assert any(
        t.startswith('C5 breaks off and retreats 8.0" from (21", 10") to (29", 10")') for t in texts
    ), texts
    assert "Round 5, initiative 4: the roll-off winners strike first (C5), then M5." in texts
    # No guessed pronoun, no internal name of a command, a reaction or a phase.
    for t in texts:
        assert not re.search(r"\b(he|she|his|her|its)\b", t), t
        assert not re.search(r"rogue-trader\.|stand_and_fire|close_combat|turn_to_face", t), t


async def test_rulesets_lists_every_rogue_trader_command_with_its_fields(tussle):
    r = await tussle.request("GET", "/rulesets")
    assert r.status == 200
    rt = next(x for x in r.body["rulesets"] if x["id"] == "rogue-trader")
    listed = {c["type"]: c for c in rt["commands"]}
    expected = {cls.__struct_config__.tag: cls for cls in RT_COMMANDS}
    assert (
        set(listed)
        == set(expected)
        == {
            "rogue-trader.charge",
            "rogue-trader.retarget",
            "rogue-trader.allocate_attacks",
            "rogue-trader.resolve_round",
            "rogue-trader.push_back",
            "rogue-trader.follow_up",
            "rogue-trader.break_off",
            "rogue-trader.set_situation",
        }
    )
    for tag, cls in expected.items():
        fields = {f["name"]: f for f in listed[tag]["fields"]}
        own = {f.name for f in msgspec.structs.fields(cls)} - {"actor"} - set(_envelope_fields())
        assert own <= set(fields), (tag, own - set(fields))
        assert listed[tag]["doc"], tag
    assert {f["name"] for f in listed["rogue-trader.charge"]["fields"]} >= {
        "combatant",
        "target",
        "path",
        "terrain_divisor",
    }
    assert (
        next(f for f in listed["rogue-trader.charge"]["fields"] if f["name"] == "target")["required"] is True
    )
    assert {f["name"] for f in listed["rogue-trader.set_situation"]["fields"]} >= {
        "combatant",
        "uphill_over",
        "behind_obstacle",
        "obstacle_against",
        "prepared_position",
        "living",
        "frenzied",
    }
    options = {o["name"] for o in rt["options"]}
    assert options >= {
        "initiative_ties",
        "high_to_hit",
        "wound_chart",
        "strength_save_mods",
        "rout_test_on_loss",
        "rout_flee_in",
        "count_overkill",
        "turn_to_face_in_round",
        "slow_weapon_bars_model",
        "shoot_to_hit",
        "nonliving_tail_damage",
        "turn_order",
    }
    assert rt["geometry"]["kind"] == "plane"


def _envelope_fields() -> tuple[str, ...]:
    from rules.interface import Command

    return Command.__struct_fields__


def test_the_engine_has_no_branch_naming_this_ruleset():
    hits = []
    for folder in ("events", "projections", "server"):
        for path in (ROOT / folder).rglob("*.py"):
            text = path.read_text(encoding="utf-8")
            if re.search(r"rogue", text, re.IGNORECASE):
                hits.append(str(path.relative_to(ROOT)))
    assert hits == []
