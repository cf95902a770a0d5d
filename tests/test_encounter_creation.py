"""POST /encounters resent: the same encounter, no GM token, nothing appended; ids are random; the admin
rotates a lost GM token. Real `tussle serve` processes on SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest

from server.encounters.ids import CountingIds
from tests.support.client import Encounter, RunningServer, TussleClient
from tests.support.serving import ServeProcess

ADMIN = "admin-token-for-creation-tests-0123456789"


@pytest.fixture
async def admin_server(serve_args: list[str]) -> AsyncIterator[TussleClient]:
    proc = ServeProcess(*serve_args, "--admin-token", ADMIN, "--host", "127.0.0.1")
    assert proc.port is not None, proc.stderr
    try:
        async with aiohttp.ClientSession() as session:
            yield TussleClient(proc.url, session, "")
    finally:
        proc.stop()


def body(**extra: Any) -> dict[str, Any]:
    return {"name": "Troll bridge", "ruleset": "freeform", "command_id": f"create-{uuid.uuid4()}", **extra}


async def listed(c: TussleClient) -> list[str]:
    return [e["id"] for e in (await c.request("GET", "/encounters", token=ADMIN)).body["encounters"]]


async def test_a_resend_returns_the_encounter_without_a_gm_token_and_appends_nothing(admin_server):
    c = admin_server
    sent = body()
    first = await c.request("POST", "/encounters", sent, token=ADMIN)
    assert first.status == 201 and first.body["gm_token"]
    enc = Encounter(c, first.body)
    head = (await enc.get()).body["seq"]
    again = await c.request("POST", "/encounters", sent, token=ADMIN)
    assert again.status == 200, again.body
    assert again.body["id"] == first.body["id"] and again.body["gm_token"] is None
    assert {k: v for k, v in again.body.items() if k != "gm_token"} == {
        k: v for k, v in first.body.items() if k != "gm_token"
    }
    events = await enc.events()
    assert len(events) == head == 1 and "GmTokenRotated" not in [e["type"] for e in events]
    assert (await enc.get("/state")).status == 200, "the first GM token still works"
    assert await listed(c) == [first.body["id"]]


async def test_the_same_command_id_with_another_body_is_refused(admin_server):
    c = admin_server
    sent = body()
    first = await c.request("POST", "/encounters", sent, token=ADMIN)
    other = await c.request("POST", "/encounters", {**sent, "name": "Another bridge"}, token=ADMIN)
    assert other.status == 409 and other.body["error"]["code"] == "command_id_reused", other.body
    assert sent["command_id"] in other.body["error"]["message"]
    assert await listed(c) == [first.body["id"]], "nothing was created"


async def test_concurrent_resends_make_one_encounter_and_one_gm_token(admin_server):
    c = admin_server
    sent = body()
    answers = await asyncio.gather(*(c.request("POST", "/encounters", sent, token=ADMIN) for _ in range(6)))
    assert sorted(a.status for a in answers) == [200] * 5 + [201], [a.body for a in answers]
    assert len({a.body["id"] for a in answers}) == 1
    assert [bool(a.body["gm_token"]) for a in answers].count(True) == 1
    assert await listed(c) == [answers[0].body["id"]]


async def test_encounter_ids_are_random_not_derived_from_the_command_id(admin_server):
    c = admin_server
    sent = body()
    made = await c.request("POST", "/encounters", sent, token=ADMIN)
    derived = hashlib.sha256(f"tussle-encounter:{sent['command_id']}".encode()).hexdigest()[:16]
    assert made.body["id"] != derived
    # A deleted encounter's command_id creates a new one, under another id.
    assert (await c.request("DELETE", f"/encounters/{made.body['id']}", token=ADMIN)).status in (200, 204)
    again = await c.request("POST", "/encounters", sent, token=ADMIN)
    assert again.status == 201 and again.body["id"] != made.body["id"] and again.body["gm_token"]


async def test_the_admin_rotates_a_lost_gm_token(admin_server):
    c = admin_server
    first = await c.request("POST", "/encounters", body(), token=ADMIN)
    enc = Encounter(c, first.body)
    seat = await enc.seat("Alice", [])
    path = f"{enc.path}/gm-token"
    assert (await c.request("POST", path)).status == 401
    assert (await c.request("POST", path, token=seat)).status == 403
    rotated = await c.request("POST", path, token=ADMIN)
    assert rotated.status == 201 and rotated.body["gm_token"] not in (None, enc.gm_token)
    assert (await enc.get("/state")).status == 401, "the lost token no longer works"
    found = Encounter(c, {"id": enc.id, "gm_token": rotated.body["gm_token"]})
    assert (await found.get("/state")).status == 200
    (event,) = [e for e in await found.events() if e["type"] == "GmTokenRotated"]
    assert event["actor"] == "admin"
    assert (await found.get("/verify")).body["ok"]


async def test_ids_come_from_one_injectable_source(tmp_path):
    server = await RunningServer(str(tmp_path / "ids.db"), ids=CountingIds("g")).start()
    try:
        async with aiohttp.ClientSession() as session:
            c = TussleClient(server.base_url, session, server.db_path)
            enc = await c.create()
            note = await enc.ok("note", text="no command_id sent")
            r = await c.request("POST", f"{enc.path}/read-tokens", {}, token=enc.gm_token)
    finally:
        await server.stop()
    assert enc.id == "ge1" and note["command_id"] == "srv-g2" and r.body["token_id"] == "gr3"
