"""Hostile inputs, on SQLite and PostgreSQL alike: every one is a 4xx in the error shape that names what
is wrong, never a 5xx, and nothing is appended (issue 12 items 1 and 6).

Each case is a request a client can send to the real server: bodies nested a thousand levels deep,
numbers of thousands of digits in roll expressions, integers past 2^53 in a creation's options, a
Content-Encoding the body does not have, NUL in text and in path ids, falsy command ids, full-width
digits. After each, the store's last position must be where it was.
"""

from __future__ import annotations

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
import pytest

from events.store.port import Store
from server.http.context import ENCOUNTERS
from tests.support.client import Encounter, Resp, RunningServer, TussleClient
from tests.support.ws import connect, frame
from tests.test_pg_processes import InProcessServer

DEEP = 1500
BIG = "9" * 5000  # more digits than int() converts (4,300)
FIGHTER = {"id": "ana", "name": "Ana", "side": "a", "position": [0, 0], "stats": {}}


@dataclass
class Live:
    client: TussleClient
    store: Store
    enc: Encounter  # a freeform encounter with one combatant and one seat

    async def position(self) -> int:
        """The store-wide position of the last event: any append, a new encounter's included, moves it."""
        feed = await self.store.read_all(0, 100_000)
        return feed[-1][0] if feed else 0


@pytest.fixture(params=["sqlite", "postgres"])
def pg_or_sqlite(request: pytest.FixtureRequest) -> str | None:
    """A fresh PostgreSQL schema's DSN, or None for SQLite."""
    return request.getfixturevalue("pg_schema_dsn") if request.param == "postgres" else None


@pytest.fixture
async def live(pg_or_sqlite: str | None, tmp_path: Any) -> AsyncIterator[Live]:
    if pg_or_sqlite is None:
        srv: Any = await RunningServer(str(tmp_path / "tussle.db")).start()
        url, app = srv.base_url, srv.app
    else:
        srv = await InProcessServer(pg_or_sqlite).start()
        url, app = srv.url, srv.app
    # A fresh connection per request: a body the server refuses unread leaves its connection unusable.
    async with aiohttp.ClientSession(connector=aiohttp.TCPConnector(force_close=True)) as session:
        client = TussleClient(url, session, "")
        enc = await client.create("freeform")
        await enc.add(FIGHTER)
        await enc.seat("Ana's player", ["ana"])
        yield Live(client, app[ENCOUNTERS].store, enc)
    await srv.stop()


def nested(levels: int, leaf: str = "1") -> str:
    return "[" * levels + leaf + "]" * levels


def nested_objects(levels: int) -> str:
    return '{"a":' * levels + "1" + "}" * levels


# (name, method, path under the encounter or absolute, raw body or JSON value, headers, expected status,
#  the field the error names or None)
Case = tuple[str, str, str, Any, dict[str, str], int, str | None]

PLAIN_CREATE = b'{"name": "Plain", "ruleset": "freeform"}'

CASES: list[Case] = [
    # deeply nested JSON, in every body the server reads
    (
        "deep create options",
        "POST",
        "/encounters",
        f'{{"name": "x", "ruleset": "freeform", "options": {nested(DEEP)}}}',
        {},
        400,
        None,
    ),
    (
        "deep command field",
        "POST",
        "{enc}/commands",
        f'{{"type": "note", "text": {nested(DEEP)}}}',
        {},
        400,
        None,
    ),
    (
        "deep combatant stats",
        "POST",
        "{enc}/commands",
        f'{{"type": "add_combatant", "combatant": {{"id": "b", "name": "B", "side": "b", "position": [0, 0], '
        f'"stats": {nested_objects(DEEP)}}}}}',
        {},
        400,
        None,
    ),
    (
        "deep stats under the decoder's limit",
        "POST",
        "{enc}/commands",
        f'{{"type": "add_combatant", "combatant": {{"id": "b", "name": "B", "side": "b", "position": [0, 0], '
        f'"stats": {nested_objects(900)}}}}}',
        {},
        400,
        None,
    ),
    (
        "deep ruling overrides",
        "POST",
        "{enc}/commands",
        f'{{"type": "ruling", "text": "t", "overrides": {nested_objects(DEEP)}}}',
        {},
        400,
        None,
    ),
    ("deep seat", "POST", "{enc}/seats", f'{{"name": "s", "combatants": {nested(DEEP, "")}}}', {}, 400, None),
    ("deep seat change", "PATCH", "{enc}/seats/seat-1", f'{{"name": {nested(DEEP)}}}', {}, 400, None),
    ("deep top level", "POST", "{enc}/commands", nested(DEEP), {}, 400, None),
    # numbers of thousands of digits, and full-width digits, in roll expressions
    (
        "roll count digits",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": BIG + "d6"},
        {},
        400,
        "expression",
    ),
    (
        "roll sides digits",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "1d" + BIG},
        {},
        400,
        "expression",
    ),
    (
        "roll modifier digits",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "1d6+" + BIG},
        {},
        400,
        "expression",
    ),
    (
        "roll keep digits",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "4d6kh" + BIG},
        {},
        400,
        "expression",
    ),
    (
        "roll full-width digits",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "１d６"},
        {},
        400,
        "expression",
    ),
    (
        "roll full-width modifier",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "1d6+２"},
        {},
        400,
        "expression",
    ),
    (
        "roll Arabic-Indic digits",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "٣d٦"},
        {},
        400,
        "expression",
    ),
    # integers past 2^53 (and fractions) in a creation's options: they would be hashed into EncounterCreated
    (
        "option at 2^53",
        "POST",
        "/encounters",
        {"name": "x", "ruleset": "freeform", "options": {"reaction_timeout_s": 2**53}},
        {},
        400,
        "options.reaction_timeout_s",
    ),
    (
        "option below -2^53",
        "POST",
        "/encounters",
        {"name": "x", "ruleset": "freeform", "options": {"reaction_timeout_s": -(2**60)}},
        {},
        400,
        "options.reaction_timeout_s",
    ),
    (
        "option of 5,000 digits",
        "POST",
        "/encounters",
        '{"name": "x", "ruleset": "freeform", "options": {"reaction_timeout_s": ' + BIG + "}}",
        {},
        400,
        None,
    ),
    (
        "option fraction",
        "POST",
        "/encounters",
        {"name": "x", "ruleset": "freeform", "options": {"reaction_timeout_s": 1.5}},
        {},
        400,
        None,
    ),
    (
        "command integer past 2^53",
        "POST",
        "{enc}/commands",
        {"type": "move", "combatant": "ana", "to": [2**53, 0]},
        {},
        400,
        "to[0]",
    ),
    # fields of the wrong type that a falsy default used to swallow (issue 33 item 8)
    *(
        (
            f"options {raw}",
            "POST",
            "/encounters",
            f'{{"name": "x", "ruleset": "freeform", "options": {raw}}}',
            {},
            400,
            "options",
        )
        for raw in ("false", "0", "[]", '""', "true")
    ),
    (
        "seat combatants null",
        "POST",
        "{enc}/seats",
        '{"name": "s", "combatants": null}',
        {},
        400,
        "combatants",
    ),
    # a Content-Encoding the body does not have
    (
        "gzip header, plain create",
        "POST",
        "/encounters",
        PLAIN_CREATE,
        {"Content-Encoding": "gzip"},
        400,
        "Content-Encoding",
    ),
    (
        "deflate header, plain create",
        "POST",
        "/encounters",
        PLAIN_CREATE,
        {"Content-Encoding": "deflate"},
        400,
        "Content-Encoding",
    ),
    (
        "gzip header, plain command",
        "POST",
        "{enc}/commands",
        b'{"type": "note", "text": "hi"}',
        {"Content-Encoding": "gzip"},
        400,
        "Content-Encoding",
    ),
    # NUL in any text, and in path ids (PostgreSQL cannot store it; SQLite must refuse it alike)
    (
        "NUL in encounter name",
        "POST",
        "/encounters",
        {"name": "a\x00b", "ruleset": "freeform"},
        {},
        400,
        "name",
    ),
    (
        "NUL in combatant name",
        "POST",
        "{enc}/commands",
        {"type": "add_combatant", "combatant": {**FIGHTER, "id": "b", "name": "B\x00"}},
        {},
        400,
        "combatant.name",
    ),
    (
        "NUL in combatant id",
        "POST",
        "{enc}/commands",
        {"type": "add_combatant", "combatant": {**FIGHTER, "id": "b\x00"}},
        {},
        400,
        "combatant.id",
    ),
    (
        "NUL in a stats key",
        "POST",
        "{enc}/commands",
        {"type": "add_combatant", "combatant": {**FIGHTER, "id": "b", "stats": {"s\x00": 1}}},
        {},
        400,
        "combatant.stats",
    ),
    ("NUL in a note", "POST", "{enc}/commands", {"type": "note", "text": "hello\x00world"}, {}, 400, "text"),
    ("NUL in a ruling", "POST", "{enc}/commands", {"type": "ruling", "text": "\x00"}, {}, 400, "text"),
    (
        "NUL in a roll purpose",
        "POST",
        "{enc}/commands",
        {"type": "roll", "expression": "1d6", "purpose": "x\x00"},
        {},
        400,
        "purpose",
    ),
    ("NUL in a seat name", "POST", "{enc}/seats", {"name": "s\x00", "combatants": []}, {}, 400, "name"),
    (
        "NUL in a seat's combatants",
        "POST",
        "{enc}/seats",
        {"name": "s", "combatants": ["\x00"]},
        {},
        400,
        "combatants[0]",
    ),
    ("NUL in a seat change", "PATCH", "{enc}/seats/seat-1", {"name": "\x00"}, {}, 400, "name"),
    ("NUL in a path id, events", "GET", "/encounters/a%00b/events", None, {}, 400, "path"),
    ("NUL in a path id, encounter", "GET", "/encounters/a%00b", None, {}, 400, "path"),
    (
        "NUL in a path id, commands",
        "POST",
        "/encounters/a%00b/commands",
        {"type": "note", "text": "x"},
        {},
        400,
        "path",
    ),
    ("NUL in a seat id", "PATCH", "{enc}/seats/a%00b", {"name": "x"}, {}, 400, "path"),
    ("NUL in a read-token id", "DELETE", "{enc}/read-tokens/a%00b", None, {}, 400, "path"),
    ("NUL in a query", "GET", "{enc}/log?format=%00", None, {}, 400, "format"),
    # falsy command ids are refused, not replaced by a server id
    *[
        (f"command_id {label} on {where}", "POST", path, {**body, "command_id": value}, {}, 400, "command_id")
        for label, value in (("false", False), ("0", 0), ("empty", ""))
        for where, path, body in (
            ("create", "/encounters", {"name": "x", "ruleset": "freeform"}),
            ("a command", "{enc}/commands", {"type": "note", "text": "x"}),
            ("a seat", "{enc}/seats", {"name": "s", "combatants": []}),
        )
    ],
    (
        "command_id with a newline",
        "POST",
        "{enc}/commands",
        {"type": "note", "text": "x", "command_id": "a\n"},
        {},
        400,
        "command_id",
    ),
    (
        "entropy with a newline",
        "POST",
        "{enc}/commands",
        {"type": "note", "text": "x", "entropy": "abc\n"},
        {},
        400,
        "entropy",
    ),
    # more: query integers in other scripts or of thousands of digits, JSON that is not an object
    ("full-width at", "GET", "{enc}/state?at=１", None, {}, 400, "at"),
    ("at with a space", "GET", "{enc}/state?at=%201", None, {}, 400, "at"),
    ("from of 5,000 digits", "GET", "{enc}/events?from=" + BIG, None, {}, 400, "from"),
    ("limit of 5,000 digits", "GET", "{enc}/events?limit=" + BIG, None, {}, 400, "limit"),
    ("max_chars of 5,000 digits", "GET", "{enc}/log?max_chars=" + BIG, None, {}, 400, "max_chars"),
    (
        "expected_seq of 5,000 digits",
        "POST",
        "{enc}/commands",
        '{"type": "note", "text": "x", "expected_seq": ' + BIG + "}",
        {},
        400,
        None,
    ),
    (
        "number out of range",
        "POST",
        "{enc}/commands",
        '{"type": "note", "text": "x", "expected_seq": 1e400}',
        {},
        400,
        None,
    ),
    ("lone surrogate", "POST", "{enc}/commands", '{"type": "note", "text": "\\ud800"}', {}, 400, None),
    ("invalid UTF-8", "POST", "{enc}/commands", b'{"type": "note", "text": "\xff"}', {}, 400, None),
    ("a JSON list", "POST", "{enc}/commands", "[]", {}, 400, None),
    ("JSON null", "POST", "/encounters", "null", {}, 400, None),
]


async def send(live: Live, case: Case) -> Resp:
    _, method, path, body, headers, _, _ = case
    path = path.replace("{enc}", live.enc.path)
    if isinstance(body, str):
        body = body.encode()
    raw = body if isinstance(body, bytes) else None
    json_body = None if raw is not None else body
    if raw is None and json_body is not None:
        raw = json.dumps(json_body).encode()  # as a client would send it, escapes and all
    return await live.client.request(method, path, token=live.enc.gm_token, raw=raw, headers=headers)


@pytest.mark.parametrize("case", CASES, ids=[c[0] for c in CASES])
async def test_a_hostile_request_is_a_4xx_naming_the_field_and_appends_nothing(live: Live, case: Case):
    before = await live.position()
    r = await send(live, case)
    name, _, _, _, _, status, field = case
    assert r.status < 500, (name, r.status, r.body)
    assert r.status == status, (name, r.status, r.body)
    assert set(r.body["error"]) == {"code", "message", "details"}, r.body
    assert r.body["error"]["code"] == "bad_request"
    if field is not None:
        assert r.body["error"]["details"].get("field") == field, r.body
    assert await live.position() == before, f"{name} appended something"
    # The server still works: the encounter takes a command.
    ok = await live.enc.command("note", text="still here")
    assert ok.status == 201, ok.body


async def test_a_deeply_nested_websocket_frame_gets_an_error_frame_and_the_socket_stays_open(live: Live):
    ws = await connect(live.enc)
    try:
        for text in ('{"op": ' + nested(DEEP) + "}", nested_objects(DEEP), '{"op": "subscribe\\u0000"}'):
            await ws.send_str(text)
            got = await frame(ws)
            assert got.get("type") == "error" and got["code"] == "bad_request", got
        await ws.send_json({"op": "ping"})
        assert await frame(ws) == {"type": "pong"}
        await ws.send_json({"op": "subscribe", "projection": "events", "after": 0})
        assert (await frame(ws))["type"] == "event"
    finally:
        await ws.close()


async def test_every_405_names_the_allowed_methods(live: Live):
    for method, path in (
        ("PUT", "/encounters"),
        ("POST", "{enc}"),
        ("GET", "{enc}/commands"),
        ("POST", "/healthz"),
        ("DELETE", "{enc}/seats/seat-1/token"),
        ("PUT", "/openapi.json"),
    ):
        r = await live.client.request(method, path.replace("{enc}", live.enc.path), token=live.enc.gm_token)
        assert r.status == 405, (method, path, r.status)
        allowed = r.body["error"]["details"]["allowed"]
        assert r.headers.get("Allow") == ", ".join(allowed), (method, path, r.headers)
        assert method not in allowed


async def test_a_real_gzip_body_and_one_without_a_json_content_type_are_read(live: Live):
    import gzip

    r = await live.client.request(
        "POST",
        "/encounters",
        raw=gzip.compress(PLAIN_CREATE),
        headers={"Content-Encoding": "gzip", "Content-Type": "application/json"},
    )
    assert r.status == 201, r.body
    # `curl -d` sends application/x-www-form-urlencoded; the README's examples rely on it being read as JSON.
    r = await live.client.request(
        "POST",
        f"{live.enc.path}/commands",
        token=live.enc.gm_token,
        raw=b'{"type": "note", "text": "from curl"}',
        headers={"Content-Type": "application/x-www-form-urlencoded"},
    )
    assert r.status == 201, r.body


async def test_a_nested_body_within_the_limit_is_still_accepted(live: Live):
    """The depth limit leaves room for any body of the contract: a note of 60 nested lists is refused
    by the note's own type check (400 naming text), not by the depth check."""
    r = await send(
        live, ("", "POST", "{enc}/commands", f'{{"type": "note", "text": {nested(60)}}}', {}, 0, None)
    )
    assert r.status == 400 and r.body["error"]["details"].get("field") == "text", r.body


@pytest.mark.parametrize("damage", ["1d6+" + BIG, BIG + "d6", "1d" + BIG, "１d６", "1d0"])
async def test_a_tft_damage_of_thousands_of_digits_or_other_scripts_is_refused_at_add_combatant(
    live: Live, damage
):
    """A damage the attack could not roll (int() refuses 5,000 digits, a die needs a side) is refused when
    the figure joins, not met later as a 500 in the middle of a fight."""
    enc = await live.client.create("tft")
    before = await live.position()
    troll = {
        "id": "troll",
        "name": "Troll",
        "side": "b",
        "position": [0, 0],
        "facing": 0,
        "stats": {"st": 35, "adj_dx": 11, "ma": 12, "natural_attacks": [{"name": "bite", "damage": damage}]},
    }
    r = await enc.command("add_combatant", combatant=troll)
    assert r.status == 400, r.body
    assert await live.position() == before


async def raw_request(live: Live, head: bytes) -> bytes:
    """Send one request's head as bytes (headers a client library would refuse to send) and read the answer."""
    import asyncio
    from urllib.parse import urlsplit

    port = urlsplit(live.client.base_url).port
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    writer.write(head + b"Host: test\r\nConnection: close\r\n\r\n")
    await writer.drain()
    answer = await asyncio.wait_for(reader.read(), 30)
    writer.close()
    return answer


async def test_an_authorization_header_that_is_not_utf8_is_a_401(live: Live):
    """Issue 33 item 2: `Bearer \\xff\\xfe` was a 500 (UnicodeEncodeError hashing the token) for anyone."""
    bad = b"Authorization: Bearer \xff\xfe\r\n"
    for path in (f"{live.enc.path}/state", "/encounters", f"{live.enc.path}"):
        answer = await raw_request(live, f"GET {path} HTTP/1.1\r\n".encode() + bad)
        assert answer.startswith(b"HTTP/1.1 401 "), (path, answer[:300])
        assert b'"unauthenticated"' in answer, answer
    upgrade = (
        b"Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
        b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
    )
    answer = await raw_request(live, f"GET {live.enc.path}/ws HTTP/1.1\r\n".encode() + bad + upgrade)
    assert answer.startswith(b"HTTP/1.1 401 "), answer[:300]
    # A lone surrogate in the websocket's auth message is the same unknown token.
    ws = await connect(live.enc, header=False)
    try:
        await ws.send_str('{"op": "auth", "token": "\\udcff\\ud800"}')
        got = await frame(ws)
        assert got.get("code") == "unauthenticated" or got.get("closed") == 4401, got
    finally:
        await ws.close()
