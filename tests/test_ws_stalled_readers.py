"""Stalled websocket readers never grow the server's memory (issue 12 item 4, API.md "lagging").

Twenty real websocket clients subscribe to a 10 MB encounter from seq 0 and never read (their kernel
receive buffers are tiny), while a live reader follows and more large events are appended. The
server process's resident memory must stay within a bound far below what the stalled clients would
pin if the server held their catch-up (20 x 10 MB), the live reader must get every event, and the
stalled ones must be closed as lagging.
"""

from __future__ import annotations

import contextlib
import re
import secrets

import aiohttp

from tests.support.client import TussleClient
from tests.support.serving import ServeProcess
from tests.support.ws import WAIT, events_until_seq, stalled_client, subscribe, until

STALLED = 20
NOTE_BYTES = 100_000  # under --max-body (256 KiB)
STREAM_NOTES = 100  # a 10 MB encounter
LIVE_NOTES = 40
# The bound: each stalled client may cost its catch-up page, its socket buffer and one frame (under 1 MB at the
# defaults), the live frames are shared by all. Holding each one's catch-up would cost 20 x 10 MB.
RSS_GROWTH_BOUND = 40 * 1024 * 1024


def rss(pid: int) -> int:
    """The process's resident set size in bytes (Linux /proc)."""
    with open(f"/proc/{pid}/status") as f:
        found = re.search(r"^VmRSS:\s+(\d+) kB", f.read(), re.MULTILINE)
    assert found
    return int(found[1]) * 1024


def metric(text: str, name: str) -> float:
    found = re.search(rf"^{name} (\S+)$", text, re.MULTILINE)
    return float(found[1]) if found else 0.0


async def test_twenty_stalled_readers_leave_memory_bounded_and_a_live_reader_gets_everything(tmp_path):
    srv = ServeProcess("--db", str(tmp_path / "t.db"), "--rate-commands", "0", "--rate-reads", "0",
                       "--max-ws", "0", "--ws-send-timeout", "2")
    assert srv.port is not None, srv.stderr
    stalled = []
    try:
        async with aiohttp.ClientSession() as session:
            tussle = TussleClient(srv.url, session, "")
            enc = await tussle.create()

            async def note() -> dict:
                return await enc.ok("note", text=secrets.token_hex(NOTE_BYTES // 2))

            for _ in range(STREAM_NOTES):
                head = (await note())["seq"]
            # A reader that reads the whole stream once: what any catch-up needs is now warm.
            warm = await subscribe(enc, "events", after=0)
            await until(warm, "caught_up")
            await warm.close()
            baseline = rss(srv.proc.pid)
            peak = baseline

            for _ in range(STALLED):
                stalled.append(stalled_client(srv.connect_host, srv.port, f"{enc.path}/ws", enc.gm_token,
                                              {"op": "subscribe", "projection": "events", "after": 0}))
            live = await subscribe(enc, "events", after=head)
            await until(live, "caught_up")
            for _ in range(LIVE_NOTES):
                seq = (await note())["seq"]
                frames = await events_until_seq(live, seq)
                assert [f["seq"] for f in frames] == [seq]
                peak = max(peak, rss(srv.proc.pid))

            # The server gives up on the stalled ones (4008 lagging), and only the live reader stays.
            for _ in range(int(WAIT * 10)):
                m = (await tussle.request("GET", "/metrics")).body
                peak = max(peak, rss(srv.proc.pid))
                if metric(m, "tussle_websocket_connections") == 1:
                    break
                await until_a_ping_or(live, 0.1)
            assert metric(m, "tussle_websocket_connections") == 1, m
            assert metric(m, "tussle_websocket_lagging_total") == STALLED, m

            # The live reader is still served.
            seq = (await note())["seq"]
            assert [f["seq"] for f in await events_until_seq(live, seq)] == [seq]
            await live.close()
        assert peak - baseline < RSS_GROWTH_BOUND, f"RSS grew by {(peak - baseline) / 2**20:.0f} MiB"
    finally:
        for s in stalled:
            with contextlib.suppress(OSError):
                s.close()
        srv.stop()


async def until_a_ping_or(ws: aiohttp.ClientWebSocketResponse, seconds: float) -> None:
    """Wait a little while keeping the live reader read (it would otherwise stall too)."""
    with contextlib.suppress(TimeoutError):
        msg = await ws.receive(timeout=seconds)
        assert msg.type == aiohttp.WSMsgType.TEXT, msg
