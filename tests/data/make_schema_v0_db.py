"""How tests/data/schema_v0.db and schema_v0.json were made: run once, on the code as it was before
the stores had schema versions (main at 5f643b3), and kept as it came out. Do not run it again: the
point of the file is that the database was written by the old code (tests/test_schema_upgrade.py).

    .venv/bin/python -m tests.data.make_schema_v0_db

Four fights of different rulesets: seats and a read token, server, manual and mixed dice, reactions
answered and one left pending, a void, a seed rotation, and a closed encounter. The JSON keeps what
today's server answered for each: the envelopes, state, log, audit, verify, and the tokens it handed
out (test data only), so the upgraded server can be compared with it.
"""

from __future__ import annotations

import asyncio
import json
import os
import shutil
import tempfile
from typing import Any

import aiohttp

from tests.gurps.gurps_world import fig as gurps_fig
from tests.support.client import RunningServer, TussleClient
from tests.tft.helpers import BROADSWORD, DAGGER
from tests.tft.helpers import fig as tft_fig

HERE = os.path.dirname(__file__)
ENTROPY = "fixture-entropy-0123456789"


async def tft_brawl(c: TussleClient) -> tuple[Any, dict[str, Any]]:
    """TFT, manual dice: two seats, a close combat entered, a note voided."""
    enc = await c.create("tft", dice="manual", name="Tavern brawl", command_id="v0-tft-brawl")
    await enc.add(tft_fig("a1", "a", 12, 13, [1, 0], 3, ma=10, items=[dict(BROADSWORD), dict(DAGGER)]))
    await enc.add(tft_fig("b1", "b", 12, 11, [0, 0], 0, ma=8, posture="prone"))
    alice = await enc.seat("Alice", ["a1"])
    bert = await enc.seat("Bert", ["b1"])
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("start_phase", phase="action")
    r = await enc.command("note", token=alice, text="Alice: I leap on him!", command_id="v0-note-1")
    assert r.status == 201, r.body
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    await enc.ok("void", target_command_id="v0-note-1", reason="said out of turn")
    await enc.ok("start_turn", turn=2)
    return enc, {"seats": {"Alice": alice, "Bert": bert}}


async def freeform_closed(c: TussleClient) -> tuple[Any, dict[str, Any]]:
    """Freeform, server dice, public: a player's roll, a question answered, a seed rotation, closed."""
    enc = await c.create("freeform", name="Duel at dawn", public=True, command_id="v0-freeform-duel")
    await enc.add({"id": "hero", "name": "Hero", "side": "a", "stats": {"skill": 12}, "position": [0, 0]})
    await enc.add({"id": "rogue", "name": "Rogue", "side": "b", "stats": {"skill": 11}, "position": [1, 0]})
    hero = await enc.seat("Hero's player", ["hero"])
    r = await c.request("POST", f"{enc.path}/read-tokens", {}, token=enc.gm_token)
    assert r.status == 201, r.body
    observer = r.body["token"]
    r = await enc.command(
        "roll", token=hero, expression="3d6", purpose="attack", entropy=ENTROPY, command_id="v0-hero-roll"
    )
    assert r.status == 201, r.body
    asked = await enc.ok(
        "ask",
        combatant="hero",
        kind="dodge_or_parry",
        options=["dodge", "parry"],
        default="dodge",
        question="Dodge or parry?",
    )
    rid = asked["events"][-1]["data"]["id"]
    r = await enc.command("respond", token=hero, reaction=rid, choice="parry")
    assert r.status == 201, r.body
    await enc.ok("roll", expression="4d6kh3", purpose="damage", entropy=ENTROPY)
    await enc.ok("rotate_seed")
    await enc.ok("roll", expression="2d6+1", purpose="morale", entropy=ENTROPY)
    await enc.ok("close")
    return enc, {"seats": {"Hero's player": hero}, "observer": observer}


async def gurps_pending(c: TussleClient) -> tuple[Any, dict[str, Any]]:
    """GURPS, manual dice: an evade answered, then a question left pending."""
    enc = await c.create(
        "gurps",
        dice="manual",
        name="Alley",
        options={"manual_dice_from": "actor"},
        command_id="v0-gurps-alley",
    )
    await enc.add(gurps_fig("ana", "a", [-2, 0], dx=12, move=6))
    await enc.add(gurps_fig("bors", "b", [0, 0], dx=11, posture="prone"))
    bors = await enc.seat("Bors's player", ["bors"])
    await enc.ok("start_turn", turn=1)
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="Move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    rid = b["events"][-1]["data"]["id"]
    r = await enc.command("respond", token=bors, reaction=rid, choice="stop", dice=[[4, 5, 3], [2, 3, 4]])
    assert r.status == 201, r.body
    await enc.ok("ask", combatant="bors", kind="get_up", options=["rise", "stay"], default="stay")
    return enc, {"seats": {"Bors's player": bors}}


async def skirmish_mixed(c: TussleClient) -> tuple[Any, dict[str, Any]]:
    """Skirmish, mixed dice, options changed: rolls both supplied and drawn."""
    enc = await c.create("skirmish", dice="mixed", name="Ridge", options={}, command_id="v0-skirmish-ridge")
    await enc.ok("set_options", options={})
    await enc.ok("roll", expression="d6", purpose="initiative", entropy=ENTROPY)
    await enc.ok("roll", expression="2d6", purpose="scatter", dice=[[3, 4]])
    await enc.ok("note", text="The ridge is slippery.")
    return enc, {}


async def main() -> None:
    work = tempfile.mkdtemp()
    db = os.path.join(work, "v0.db")
    srv = await RunningServer(db).start()
    record: dict[str, Any] = {"made_from": "5f643b3", "encounters": []}
    try:
        async with aiohttp.ClientSession() as session:
            c = TussleClient(srv.base_url, session, db)
            for make in (tft_brawl, freeform_closed, gurps_pending, skirmish_mixed):
                enc, tokens = await make(c)
                seen: dict[str, Any] = {"id": enc.id, "gm_token": enc.gm_token, **tokens}
                for key, suffix in (
                    ("info", ""),
                    ("state", "/state"),
                    ("log", "/log?format=json"),
                    ("log_markdown", "/log?format=markdown"),
                    ("audit", "/audit"),
                    ("verify", "/verify"),
                    ("events", "/events?limit=10000"),
                ):
                    r = await enc.get(suffix)
                    assert r.status == 200, (suffix, r.body)
                    seen[key] = r.body
                assert seen["verify"]["ok"], seen["verify"]
                record["encounters"].append(seen)
            r = await c.request("GET", "/encounters")
            record["public_list"] = r.body
    finally:
        await srv.stop()
    # The WAL is folded into the file, so one file is the whole database.
    import sqlite3

    con = sqlite3.connect(db)
    con.execute("PRAGMA wal_checkpoint(TRUNCATE)")
    con.execute("PRAGMA journal_mode=DELETE")
    con.close()
    shutil.copy(db, os.path.join(HERE, "schema_v0.db"))
    with open(os.path.join(HERE, "schema_v0.json"), "w") as f:
        json.dump(record, f, indent=1, sort_keys=True, ensure_ascii=False)
        f.write("\n")
    shutil.rmtree(work)


if __name__ == "__main__":
    os.environ.setdefault("TUSSLE_EXTRA_RULESETS", "tests.support.probe_ruleset:ruleset")
    asyncio.run(main())
