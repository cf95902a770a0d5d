"""The websocket of API.md: catch-up, live frames, resume, projections, pings, errors and close codes."""

from __future__ import annotations

import asyncio

import aiohttp
import pytest

from server.live.websocket import WS_HUBS
from tests.support.client import RunningServer, TussleClient
from tests.support.ws import connect, events_until_seq, frame, subscribe, until

ANN = {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]}


def assert_linked(frames: list[dict], after: int, after_hash: str | None = None) -> None:
    """Each event frame is seq = previous + 1 and its prev_hash is the previous hash."""
    seq, h = after, after_hash
    for f in frames:
        assert f["seq"] == seq + 1 == f["event"]["seq"]
        if h is not None:
            assert f["event"]["prev_hash"] == h
        seq, h = f["seq"], f["event"]["hash"]


async def test_events_catch_up_then_caught_up_then_live(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    await enc.ok("note", text="one")
    ws = await subscribe(enc, "events", after=1)
    caught, done = await until(ws, "caught_up")
    assert [f["seq"] for f in caught] == [2, 3]
    assert_linked(caught, 1)
    head = (await enc.get("")).body["head"]
    assert done == {"type": "caught_up", "seq": 3, "hash": head["hash"]}
    r = await enc.ok("note", text="two")
    live = await frame(ws)
    assert live["type"] == "event" and live["seq"] == 4 and live["event"]["hash"] == r["hash"]
    assert live["event"]["prev_hash"] == head["hash"]
    await ws.close()


async def test_caught_up_at_the_head_names_the_head_hash(tussle):
    enc = await tussle.create()
    r = await enc.ok("note", text="x")
    ws = await subscribe(enc, "events", after=2)
    assert await frame(ws) == {"type": "caught_up", "seq": 2, "hash": r["hash"]}
    await ws.close()


async def test_resume_under_500_concurrent_appends(tussle):
    """A client drops mid-stream while others append 500 events; resuming with `after` gives exactly the
    missing ones, in order, each linking to the one before."""
    enc = await tussle.create()
    await enc.add(ANN)
    watcher = await subscribe(enc, "events", after=0)  # stays connected throughout
    dropper = await subscribe(enc, "events", after=0)
    _, _ = await until(dropper, "caught_up")

    async def append(writer: int) -> None:
        for i in range(100):
            await enc.ok("note", text=f"writer {writer} note {i}")

    writers = asyncio.gather(*(append(w) for w in range(5)))
    seen = []
    while len(seen) < 40:  # drop mid-stream, while the writers are busy
        f = await frame(dropper)
        assert f["type"] == "event"
        seen.append(f)
    await dropper.close()
    last = seen[-1]
    resumed = await subscribe(enc, "events", after=last["seq"])
    await writers
    head = (await enc.get("")).body["head"]
    assert head["seq"] == 502
    missing = await events_until_seq(resumed, head["seq"])
    assert_linked(missing, last["seq"], last["event"]["hash"])
    # Nothing more arrives: the resumed client has exactly the missing ones.
    await enc.ok("note", text="after")
    assert (await frame(resumed))["seq"] == head["seq"] + 1
    stored = await enc.events()
    everything = [f for f in await events_until_seq(watcher, head["seq"] + 1)]
    assert [f["event"] for f in everything] == stored
    assert_linked(everything, 0)
    for ws in (watcher, resumed):
        await ws.close()


@pytest.fixture
async def small_queue_server(tmp_path):
    srv = await RunningServer(str(tmp_path / "t.db"), ws_queue_frames=8, ws_close_timeout_s=60.0).start()
    yield srv
    await srv.stop()


async def test_stalled_client_is_closed_with_4008_while_a_healthy_one_keeps_receiving(small_queue_server):
    srv = small_queue_server
    async with aiohttp.ClientSession() as s1, aiohttp.ClientSession() as s2:
        enc = await TussleClient(srv.base_url, s1, srv.db_path).create()
        stalled = await s2.ws_connect(
            f"{srv.base_url}{enc.path}/ws", headers={"Authorization": f"Bearer {enc.gm_token}"}
        )
        await stalled.send_json({"op": "subscribe", "projection": "events", "after": 0})
        healthy = await subscribe(enc, "events", after=0)
        await until(healthy, "caught_up")
        big = "x" * 60_000
        hubs = srv.app[WS_HUBS]
        sent = 0
        received = []
        while hubs.lagged == 0:  # the stalled client reads nothing; its queue fills
            assert sent < 1000, "the stalled client was never found lagging"
            await enc.ok("note", text=big)
            sent += 1
            received.append(await frame(healthy))  # the healthy one keeps up, frame by frame
        for _ in range(3):  # and keeps receiving after the other was cut off
            r = await enc.ok("note", text="still here")
            f = await frame(healthy)
            assert f["seq"] == r["seq"]
            received.append(f)
        assert_linked(received, 1)
        # The stalled client, reading at last, finds the lagging error and the 4008 close.
        frames = []
        while True:
            f = await frame(stalled)
            frames.append(f)
            if "closed" in f:
                break
        assert frames[-1]["closed"] == 4008
        assert frames[-2]["type"] == "error" and frames[-2]["code"] == "lagging"
        # It names the last seq the client was sent (what was still queued was dropped): resuming after it
        # misses nothing and repeats nothing.
        got = [f["seq"] for f in frames if f.get("type") == "event"]
        assert frames[-2]["details"]["last_seq"] == got[-1], (frames[-2], got[-3:])
        await healthy.close()


async def test_state_projection_snapshot_then_whole_state_after_each_event(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    ws = await subscribe(enc, "state", after=0)
    snap = await frame(ws)
    assert snap["type"] == "snapshot" and snap["seq"] == 2 and snap["data"] == await enc.state()
    assert (await frame(ws))["type"] == "caught_up"
    await enc.ok("move", combatant="ann", to=[2, 0])
    f = await frame(ws)
    assert f["type"] == "state" and f["seq"] == 3
    assert f["data"] == await enc.state() and f["data"]["combatants"]["ann"]["position"] == [2, 0]
    await ws.close()


async def test_log_projection_entries_and_reset_after_a_void(tussle):
    enc = await tussle.create()
    await enc.add(ANN)
    ws = await subscribe(enc, "log")
    snap = await frame(ws)
    assert snap["type"] == "snapshot" and [e["seq"] for e in snap["data"]] == [1, 2]
    assert (await frame(ws))["type"] == "caught_up"
    r = await enc.ok("roll", expression="2d6", purpose="a test roll", combatant="ann")
    f = await frame(ws)
    assert f["type"] == "log" and f["seq"] == r["seq"]
    assert f["entries"][0]["text"].startswith("Ann rolls 2d6 for a test roll: ")
    await enc.ok("void", seq=r["seq"], reason="wrong die")
    reset = await frame(ws)
    assert reset["type"] == "log_reset" and reset["seq"] == r["seq"] + 1
    assert [e["seq"] for e in reset["data"]] == [1, 2, r["seq"] + 1]
    assert "wrong die" in reset["data"][-1]["text"] and "Ann rolls 2d6" in reset["data"][-1]["text"]
    log = (await enc.get("/log")).body
    assert log["entries"] == reset["data"]
    await ws.close()


async def test_ping_pong_bad_request_and_a_second_subscription(tussle):
    enc = await tussle.create()
    ws = await connect(enc)
    await ws.send_json({"op": "ping"})
    assert await frame(ws) == {"type": "pong"}
    await ws.send_str("not json")
    f = await frame(ws)
    assert f["type"] == "error" and f["code"] == "bad_request"
    await ws.send_json({"op": "subscribe", "projection": "nope"})
    assert (await frame(ws))["code"] == "bad_request"
    await ws.send_json({"op": "subscribe", "projection": "events", "after": 0})
    await until(ws, "caught_up")
    await ws.send_json({"op": "subscribe", "projection": "state"})
    f = await frame(ws)
    assert f["type"] == "error" and f["code"] == "bad_request"
    await ws.send_json({"op": "ping"})
    assert await frame(ws) == {"type": "pong"}  # still open
    await ws.close()


async def test_server_pings_when_idle(tmp_path):
    srv = await RunningServer(str(tmp_path / "t.db"), ws_ping_s=0.05).start()
    try:
        async with aiohttp.ClientSession() as s:
            enc = await TussleClient(srv.base_url, s, srv.db_path).create()
            ws = await s.ws_connect(
                f"{srv.base_url}{enc.path}/ws", headers={"Authorization": f"Bearer {enc.gm_token}"}
            )
            msg = await ws.receive_json(timeout=30)
            assert msg == {"type": "ping"}
            await ws.close()
    finally:
        await srv.stop()


async def test_after_beyond_the_head_is_bad_position_4400(tussle):
    enc = await tussle.create()
    ws = await subscribe(enc, "events", after=99)
    f = await frame(ws)
    assert f["type"] == "error" and f["code"] == "bad_position"
    assert (await frame(ws)) == {"closed": 4400}


async def test_close_1000_after_encounter_closed(tussle):
    enc = await tussle.create()
    ws = await subscribe(enc, "events")
    await until(ws, "caught_up")
    await enc.ok("close")
    _, last = await until(ws, "never")
    assert last == {"closed": 1000}
    seen = []
    ws = await subscribe(enc, "events")  # a closed encounter: everything, caught_up, then 1000
    while "closed" not in (f := await frame(ws)):
        seen.append(f)
    assert seen[-2]["event"]["type"] == "EncounterClosed" and seen[-1]["type"] == "caught_up"
    assert f == {"closed": 1000}


async def test_the_server_keeps_the_connection_until_the_clients_close(tussle):
    """The closing handshake (RFC 6455 section 7.1): after its Close frame the server waits for the
    client's before it drops the TCP connection, so a client that answers its Close a little later
    (here after a whole request round trip) still closes cleanly, with the server's code."""
    enc = await tussle.create()
    ws = await tussle.session.ws_connect(
        f"{tussle.base_url}{enc.path}/ws",
        autoclose=False,
        headers={"Authorization": f"Bearer {enc.gm_token}"},
    )
    await ws.send_json({"op": "subscribe", "projection": "events"})
    await until(ws, "caught_up")
    await enc.ok("close")
    _, last = await until(ws, "never")
    assert last == {"closed": 1000}
    assert (await tussle.request("GET", "/healthz")).status == 200
    await ws.close()  # our Close reaches a connection that is still open
    assert ws.close_code == 1000 and ws.exception() is None


async def test_auth_header_query_first_message_and_failures(tussle):
    enc = await tussle.create()
    # An unknown token fails before the upgrade, with the HTTP code.
    r = await tussle.request("GET", f"{enc.path}/ws", token="wrong")
    assert r.status == 401 and r.body["error"]["code"] == "unauthenticated"
    r = await tussle.request("GET", "/encounters/nope/ws", token=enc.gm_token)
    assert r.status == 404
    # ?token= works.
    ws = await connect(enc, header=False, query=f"?token={enc.gm_token}")
    await ws.send_json({"op": "subscribe", "projection": "events"})
    assert (await until(ws, "caught_up"))[1]["seq"] == 1
    await ws.close()
    # The first message may carry the token.
    ws = await connect(enc, header=False)
    await ws.send_json({"op": "auth", "token": enc.gm_token})
    await ws.send_json({"op": "subscribe", "projection": "events"})
    assert (await until(ws, "caught_up"))[1]["seq"] == 1
    await ws.close()
    # A wrong first-message token closes with 4401.
    ws = await connect(enc, header=False)
    await ws.send_json({"op": "auth", "token": "wrong"})
    f = await frame(ws)
    assert f["type"] == "error" and f["code"] == "unauthenticated"
    assert await frame(ws) == {"closed": 4401}
    # A private encounter without any auth: the first message must be auth.
    ws = await connect(enc, header=False)
    await ws.send_json({"op": "subscribe", "projection": "events"})
    assert (await frame(ws))["code"] == "unauthenticated"
    assert await frame(ws) == {"closed": 4401}


async def test_no_auth_message_within_the_limit_closes_4401(tmp_path):
    srv = await RunningServer(str(tmp_path / "t.db"), ws_auth_timeout_s=0.1).start()
    try:
        async with aiohttp.ClientSession() as s:
            enc = await TussleClient(srv.base_url, s, srv.db_path).create()
            ws = await s.ws_connect(f"{srv.base_url}{enc.path}/ws")
            assert (await frame(ws))["code"] == "unauthenticated"
            assert await frame(ws) == {"closed": 4401}
    finally:
        await srv.stop()


async def test_public_encounter_needs_no_token(tussle):
    enc = await tussle.create(public=True)
    ws = await connect(enc, header=False)
    await ws.send_json({"op": "subscribe", "projection": "log"})
    assert (await frame(ws))["type"] == "snapshot"
    await ws.close()


async def test_revoked_token_closes_4401(tussle):
    enc = await tussle.create()
    made = await tussle.request("POST", f"{enc.path}/read-tokens", token=enc.gm_token)
    assert made.status == 201
    ws = await subscribe(enc, "events", token=made.body["token"])
    await until(ws, "caught_up")
    r = await tussle.request("DELETE", f"{enc.path}/read-tokens/{made.body['token_id']}", token=enc.gm_token)
    assert r.status == 204
    frames = []
    while "closed" not in (f := await frame(ws)):
        frames.append(f)
    assert frames[-1]["type"] == "error" and frames[-1]["code"] == "unauthenticated"
    assert f == {"closed": 4401}


async def test_asyncapi_document(tussle):
    r = await tussle.request("GET", "/asyncapi.json")
    assert r.status == 200 and r.body["asyncapi"].startswith("3.")
    assert r.body["channels"]["encounter"]["address"] == "/encounters/{id}/ws"
    assert {"event", "caughtUp", "snapshot", "state", "log", "logReset", "error"} <= set(
        r.body["components"]["messages"]
    )


@pytest.mark.parametrize("length", [10, 125, 126, 65535, 70_000])
async def test_live_frames_of_every_length_class_arrive_whole(tussle, length):
    # The fan-out writes websocket frames itself: 7-bit, 16-bit and 64-bit payload lengths.
    enc = await tussle.create()
    ws = await subscribe(enc, "events", after=1)
    await until(ws, "caught_up")
    text = "x" * length
    await enc.ok("note", text=text)
    await enc.ok("note", text="after")
    first, second = await frame(ws), await frame(ws)
    assert first["event"]["data"]["text"] == text and second["event"]["data"]["text"] == "after"
    await ws.close()
