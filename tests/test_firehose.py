"""The firehose (issue 30 item 5, docs/websocket.md "The firehose"): one websocket over every encounter a
server-level reader token may read; private ones only once their GM granted it, and no longer once the
GM took the grant back. On SQLite and on PostgreSQL."""

from __future__ import annotations

import asyncio
import subprocess
import sys
from typing import Any

import aiohttp
import jsonschema

from server.live.websocket import WS_HUBS
from tests.support.client import RunningServer, TussleClient
from tests.support.serving import ServeProcess
from tests.support.ws import frame, until
from tests.test_event_schemas import closed

ADMIN = "admin-" + "f" * 40


async def reader_token(client: TussleClient) -> dict[str, Any]:
    r = await client.request("POST", "/firehose-tokens", token=ADMIN)
    assert r.status == 201, r.body
    return r.body


async def firehose(client: TussleClient, token: str, after: int = 0) -> aiohttp.ClientWebSocketResponse:
    ws = await client.session.ws_connect(
        f"{client.base_url}/firehose", headers={"Authorization": f"Bearer {token}"}
    )
    await ws.send_json({"op": "subscribe", "after": after})
    return ws


async def next_event(ws: aiohttp.ClientWebSocketResponse) -> dict[str, Any]:
    f = await frame(ws)
    assert f.get("type") == "event", f
    return f


def fits_the_asyncapi_document(doc: dict[str, Any], frames: list[dict[str, Any]]) -> None:
    """Each frame valid against the firehose channel's titled payload, every object closed."""
    schemas = closed(doc["components"]["schemas"])
    for f in frames:
        name = {"event": "FirehoseEventFrame", "caught_up": "FirehoseCaughtUpFrame"}[f["type"]]
        v = jsonschema.Draft7Validator(
            {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
        )
        errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(f)]
        assert not errors, (f, errors[:3])


async def test_a_private_encounter_is_read_only_while_its_gm_grants_it(serve):
    srv = await serve(admin_token=ADMIN)
    async with aiohttp.ClientSession() as session:
        client = TussleClient(srv.base_url, session, "")
        open_fight = await client.create(public=True, token=ADMIN, name="Open")
        private = await client.create(public=False, token=ADMIN, name="Private")
        await private.ok("note", text="before the grant")
        reader = await reader_token(client)

        # Before the grant: neither the firehose nor the reader's HTTP reads see the private fight.
        assert (await private.get("/events", token=reader["token"])).status == 403
        ws = await firehose(client, reader["token"])
        caught, done = await until(ws, "caught_up")
        assert {f["encounter"] for f in caught} == {open_fight.id}
        assert [f["seq"] for f in caught] == [1]
        assert done["position"] >= caught[-1]["position"]
        await private.ok("note", text="unseen")
        r = await open_fight.ok("note", text="seen")
        f = await next_event(ws)
        assert (f["encounter"], f["seq"], f["event"]["hash"]) == (open_fight.id, 2, r["hash"])

        # The admin's token does not open a private fight to a reader: only its GM does.
        grant = {"token_id": reader["token_id"]}
        path = f"{private.path}/firehose-grants"
        assert (await client.request("POST", path, grant, token=ADMIN)).status == 403
        g = await client.request("POST", path, grant, token=private.gm_token)
        assert g.status == 201, g.body
        f = await next_event(ws)
        assert (f["encounter"], f["seq"], f["event"]["type"]) == (
            private.id,
            g.body["seq"],
            "FirehoseGranted",
        )
        assert f["event"]["data"] == {"token_id": reader["token_id"]}
        r = await private.ok("note", text="now seen")
        f = await next_event(ws)
        assert (f["encounter"], f["seq"], f["event"]["hash"]) == (private.id, r["seq"], r["hash"])
        assert (await private.get("/events", token=reader["token"])).status == 200

        # The GM takes it back: the revocation is the reader's last frame of that fight.
        assert (
            await client.request("DELETE", f"{path}/{reader['token_id']}", token=private.gm_token)
        ).status == 204
        f = await next_event(ws)
        assert (f["encounter"], f["event"]["type"]) == (private.id, "FirehoseRevoked")
        await private.ok("note", text="unseen again")
        later = await client.create(public=True, token=ADMIN, name="Later")  # created later: joins at once
        f = await next_event(ws)
        assert (f["encounter"], f["seq"], f["event"]["type"]) == (later.id, 1, "EncounterCreated")
        assert (await private.get("/events", token=reader["token"])).status == 403

        # Both are facts of the chain that a replay takes as given: the stream verifies.
        report = (await private.get("/verify?replay=1")).body
        assert report["ok"], report
        # The stream records both, so a resume from 0 sees the same: no private event but the two.
        again = await firehose(client, reader["token"])
        replayed, done = await until(again, "caught_up")
        fits_the_asyncapi_document((await client.request("GET", "/asyncapi.json")).body, [*replayed, done])
        assert [(f["encounter"], f["event"]["type"]) for f in replayed if f["encounter"] == private.id] == [
            (private.id, "FirehoseRevoked")
        ]
        await again.close()

        # The admin revokes the reader token: its firehose ends, and it opens no more.
        assert (
            await client.request("DELETE", f"/firehose-tokens/{reader['token_id']}", token=ADMIN)
        ).status == 204
        assert (await frame(ws))["code"] == "unauthenticated"
        assert await frame(ws) == {"closed": 4401}
        r = await client.request("GET", "/firehose-tokens", token=ADMIN)
        assert r.status == 200 and r.body == {"tokens": []}


async def test_only_a_reader_token_opens_the_firehose(serve):
    srv = await serve(admin_token=ADMIN)
    async with aiohttp.ClientSession() as session:
        client = TussleClient(srv.base_url, session, "")
        enc = await client.create(public=True, token=ADMIN)
        for token, status in ((ADMIN, 403), (enc.gm_token, 403), ("nobody", 401)):
            try:
                ws = await client.session.ws_connect(
                    f"{client.base_url}/firehose", headers={"Authorization": f"Bearer {token}"}
                )
            except aiohttp.WSServerHandshakeError as exc:
                assert exc.status == status
            else:
                raise AssertionError(f"{token} opened the firehose: {ws}")
        assert (await client.request("POST", "/firehose-tokens", token=enc.gm_token)).status in (401, 403)
        assert (await client.request("POST", "/firehose-tokens")).status == 401


def tussle(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, "-m", "server", *args], capture_output=True, text=True, timeout=120
    )


async def test_the_cli_makes_and_revokes_firehose_tokens_for_a_server_without_an_admin_token(tmp_path):
    db = str(tmp_path / "cli.db")
    made = tussle("firehose-tokens", "create", "--db", db)
    assert made.returncode == 0, made.stderr
    said = dict(line.split(" ", 1) for line in made.stdout.splitlines())
    srv = await asyncio.to_thread(ServeProcess, "--db", db)
    try:
        # A server holds its SQLite file (and caches its tokens): the CLI waits for it to stop.
        assert tussle("firehose-tokens", "revoke", said["token_id"], "--db", db).returncode == 1
        async with aiohttp.ClientSession() as session:
            client = TussleClient(srv.url, session, db)
            enc = await client.create(public=True)
            ws = await firehose(client, said["token"])
            caught, _ = await until(ws, "caught_up")
            assert [(f["encounter"], f["seq"]) for f in caught] == [(enc.id, 1)]
            await ws.close()
    finally:
        srv.stop()
    listed = tussle("firehose-tokens", "list", "--db", db)
    assert listed.stdout.split() == [said["token_id"]], listed
    assert tussle("firehose-tokens", "revoke", said["token_id"], "--db", db).returncode == 0
    assert tussle("firehose-tokens", "list", "--db", db).stdout == ""


async def test_a_stalled_firehose_is_closed_with_4008_and_resumes_from_its_last_position(tmp_path):
    """The encounter websocket's bounds hold on the firehose: a reader that stops reading is cut off
    with `lagging` (4008) naming its last position, the others keep receiving, and a resume from that
    position gives exactly what it missed."""
    srv = await RunningServer(
        str(tmp_path / "lag.db"), admin_token=ADMIN, ws_queue_frames=8, ws_close_timeout_s=60.0
    ).start()
    try:
        async with aiohttp.ClientSession() as s1, aiohttp.ClientSession() as s2:
            client = TussleClient(srv.base_url, s1, srv.db_path)
            reader = await reader_token(client)
            enc = await client.create(public=True, token=ADMIN)
            stalled = await s2.ws_connect(f"{srv.base_url}/firehose?token={reader['token']}")
            await stalled.send_json({"op": "subscribe", "after": 0})
            healthy = await firehose(client, reader["token"])
            seen, _ = await until(healthy, "caught_up")
            big = "x" * 60_000
            while srv.app[WS_HUBS].lagged == 0:  # the stalled one reads nothing; its queue fills
                assert len(seen) < 1000, "the stalled firehose was never found lagging"
                await enc.ok("note", text=big)
                seen.append(await next_event(healthy))
            got = []
            while "closed" not in (f := await frame(stalled)):
                got.append(f)
            assert f == {"closed": 4008}
            error, events = got[-1], [g for g in got if g.get("type") == "event"]
            # details.last_position is the last the socket was given, so a resume from it misses nothing
            # (the frames still queued were dropped).
            assert error["code"] == "lagging" and error["details"]["last_position"] == events[-1]["position"]
            resumed = await firehose(client, reader["token"], after=error["details"]["last_position"])
            rest, _ = await until(resumed, "caught_up")
            assert events + rest == seen
            for ws in (healthy, resumed):
                await ws.close()
    finally:
        await srv.stop()
