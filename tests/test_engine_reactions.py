"""Reactions as data: timeouts answered by the server as `system`, allows, answers by the wrong seat."""

from __future__ import annotations

import asyncio
import time

import aiohttp

from tests.support.client import RunningServer, TussleClient


async def test_reaction_timeout_answers_the_default_as_system(tmp_path):
    server = await RunningServer(str(tmp_path / "t.db"), timeout_poll_s=0.1).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            enc = await client.create("probe", options={"reaction_timeout_s": 1})
            await enc.add({"id": "ann", "name": "Ann", "side": "red"})
            await enc.add({"id": "bob", "name": "Bob", "side": "blue"})
            await enc.ok("probe.grab", combatant="ann", target="bob", entropy="0123456789abcdefgh")
            # Poll until the server has answered (the bound only decides how long a broken build takes to fail).
            deadline = time.monotonic() + 30
            while (await enc.state())["pending"]:
                assert time.monotonic() < deadline, "the server never answered the overdue reaction"
                await asyncio.sleep(0.05)
            events = await enc.events()
            answered = next(e for e in events if e["type"] == "ReactionAnswered")
            assert answered["actor"] == "system" and answered["data"]["choice"] == "resist"
            assert any(e["type"] == "DieRolled" for e in events), "the default answer resumed with dice"
            await enc.replay_matches_live()
    finally:
        await server.stop()


async def test_only_the_seat_asked_or_the_gm_may_answer(tussle):
    enc = await tussle.create("probe", dice="manual")
    await enc.add({"id": "ann", "name": "Ann", "side": "red"})
    await enc.add({"id": "bob", "name": "Bob", "side": "blue"})
    alice = await enc.seat("Alice", ["ann"])
    bert = await enc.seat("Bert", ["bob"])
    body = await enc.ok("probe.grab", combatant="ann", target="bob")
    rid = body["events"][-1]["data"]["id"]
    r = await enc.command("respond", token=alice, reaction=rid, choice="yield")
    assert r.status == 403 and "seat-2" in r.body["error"]["message"]
    r = await enc.command("respond", token=bert, reaction=rid, choice="surrender")
    assert r.status == 422 and "resist, yield" in r.body["error"]["message"]
    r = await enc.command("respond", token=bert, reaction="nope/1", choice="yield")
    assert r.status == 422 and rid in r.body["error"]["message"]
    r = await enc.command("note", token=alice, text="Ann grins.")
    assert r.status == 201, "note is allowed while a reaction waits"
    r = await enc.command("respond", token=bert, reaction=rid, choice="yield")
    assert r.status == 201 and [e["type"] for e in r.body["events"]][-1] == "PinApplied"


async def test_a_refused_standing_order_leaves_the_question_open(tussle):
    enc = await tussle.create("probe", dice="manual")
    await enc.add({"id": "ann", "name": "Ann", "side": "red"})
    await enc.add(
        {
            "id": "bob",
            "name": "Bob",
            "side": "blue",
            "stats": {"no_yield": 1},
            "reactions": {"probe_defence": "yield"},
        }
    )
    r = await enc.command("probe.grab", combatant="ann", target="bob")
    assert r.status == 201
    assert [e["type"] for e in r.body["events"]] == ["ActionDeclared", "ReactionRequested"]
    assert len((await enc.state())["pending"]) == 1
