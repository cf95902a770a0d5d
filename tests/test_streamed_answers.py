"""Streamed answers (issue 33 item 1), on SQLite and PostgreSQL: an answer is computed far enough to
know it succeeds before its status line goes out, and a failure after its first byte closes the
connection — the body is never followed by a second status line, which a client would read as data.
"""

from __future__ import annotations

import asyncio
import sqlite3
from typing import Any

import aiohttp
import asyncpg
import msgspec

from server.http.context import ENCOUNTERS
from tests.support.appends import command
from tests.support.client import PgServer, RunningServer, TussleClient


async def raw_get(srv: RunningServer, path: str, headers: dict[str, str]) -> bytes:
    """Everything the server sends for one GET on a fresh connection, until it closes it."""
    reader, writer = await asyncio.open_connection("127.0.0.1", srv.port)
    lines = "".join(f"{k}: {v}\r\n" for k, v in headers.items())
    writer.write(f"GET {path} HTTP/1.1\r\nHost: test\r\nConnection: close\r\n{lines}\r\n".encode())
    await writer.drain()
    data = await asyncio.wait_for(reader.read(), 60)
    writer.close()
    return data


def chunks(raw: bytes) -> tuple[bytes, list[bytes], bool]:
    """(the head, the chunks, whether the terminal zero-length chunk came): strict HTTP/1.1 framing,
    failing on anything that is not a chunk."""
    head, _, body = raw.partition(b"\r\n\r\n")
    assert b"transfer-encoding: chunked" in head.lower(), head
    out: list[bytes] = []
    while body:
        size_line, sep, rest = body.partition(b"\r\n")
        assert sep, f"a chunk size line cut off: {size_line[:40]!r}"
        size = int(size_line, 16)  # a status line here would fail to parse
        if size == 0:
            assert rest == b"\r\n", rest[:80]
            return head, out, True
        if len(rest) < size + 2:
            return head, out, False  # the connection closed inside a chunk
        assert rest[size : size + 2] == b"\r\n", rest[size : size + 40]
        out.append(rest[:size])
        body = rest[size + 2 :]
    return head, out, False


async def corrupt(srv: RunningServer, stream: str, seq: int) -> None:
    """Make one stored event unreadable, as a damaged row would be."""
    sql = "UPDATE events SET data = '{' WHERE stream = {p1} AND seq = {p2}"
    if isinstance(srv, PgServer):
        conn = await asyncpg.connect(srv.dsn)
        try:
            await conn.execute(sql.replace("{p1}", "$1").replace("{p2}", "$2"), stream, seq)
        finally:
            await conn.close()
    else:
        with sqlite3.connect(srv.db_path) as db:
            db.execute(sql.replace("{p1}", "?").replace("{p2}", "?"), (stream, seq))


async def test_a_stream_broken_mid_way_closes_the_connection_without_a_second_status(serve):
    srv = await serve(rate_reads=0, rate_commands=0)
    async with aiohttp.ClientSession() as session:
        enc = await TussleClient(srv.base_url, session, srv.db_path).create("freeform")
        # More than one page of the export (server/transfer/exporting.py's PAGE), appended by the server's own store.
        assert srv.app is not None
        await srv.app[ENCOUNTERS].store.append(command(enc.id, 1, "notes", n=299))
        await corrupt(srv, enc.id, 280)
        raw = await raw_get(
            srv,
            f"{enc.path}/events",
            {"Accept": "application/x-ndjson", "Authorization": f"Bearer {enc.gm_token}"},
        )
        assert raw.startswith(b"HTTP/1.1 200 ")
        assert raw.count(b"HTTP/1.1 ") == 1, raw[-300:]
        _, got, ended = chunks(raw)
        assert not ended, "a broken stream must not look complete"
        lines = b"".join(got).split(b"\n")
        whole = [msgspec.json.decode(line) for line in lines[:-1]]
        assert [e["seq"] for e in whole] == list(range(1, len(whole) + 1)) and len(whole) >= 250
        assert b"trailer" not in b"".join(got)
        # The server goes on answering.
        r = await enc.get("/events?limit=5")
        assert r.status == 200 and len(r.body["events"]) == 5


async def test_a_turn_not_begun_as_of_at_is_an_empty_excerpt(serve):
    """The drill's repro: a snapshot with turn < T lies at seq >= A (GET /log?turn=T&at=A)."""
    srv = await serve(snapshot_every=3, rate_reads=0, rate_commands=0)
    async with aiohttp.ClientSession() as session:
        enc = await TussleClient(srv.base_url, session, srv.db_path).create("freeform")
        for n in range(12):
            await enc.ok("note", text=f"note {n}")
        assert (await enc.get("/log?format=markdown")).status == 200  # the snapshots are saved
        for fmt in ("markdown", "bbcode"):
            raw = await raw_get(
                srv, f"{enc.path}/log?format={fmt}&turn=99&at=5", {"Authorization": f"Bearer {enc.gm_token}"}
            )
            assert raw.startswith(b"HTTP/1.1 200 "), raw[:200]
            _, got, ended = chunks(raw)
            assert ended and raw.count(b"HTTP/1.1 ") == 1
            assert b"".join(got).strip() == b"", got  # no entries: what a turn never played gives
        answer: Any = (await enc.get("/log?turn=99&at=5")).body
        assert answer["entries"] == [] and answer["at"] == 5
