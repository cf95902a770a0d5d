"""What every handler module shares: the app keys, JSON in and out, and who a request's token is.

Apart from server/app.py so that the modules app wires in (live, websocket, operations, metrics,
webhooks) import these without importing app, which imports them: no import circle.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec
from aiohttp import web

from events.store import receipt_key
from events.store.port import Store, TokenRow
from events.store.receipt_key import ReceiptKeys
from events.store.server_tokens import FIREHOSE, SERVER_STREAM
from server.encounters import reader_tokens
from server.encounters.access import firehose_may_read, may_read, require
from server.encounters.service import Encounters
from server.encounters.service_errors import Unauthenticated, bad_request
from server.encounters.tokens import Principal, same_secret, token_hash
from server.http import api_types as t
from server.settings import Settings

ENCOUNTERS = web.AppKey("encounters", Encounters)
SETTINGS = web.AppKey("settings", Settings)


class ReceiptSigner:
    """The server's receipt keys (events/store/receipt_key.py), found when the store opens: beside a
    SQLite file, from the environment for PostgreSQL, made for this process for an in-memory database."""

    def __init__(self) -> None:
        self.keys: ReceiptKeys | None = None

    def load(self, store: Store) -> None:
        self.keys = store.receipt_keys()

    def _keys(self) -> ReceiptKeys:
        if self.keys is None:
            self.keys = receipt_key.ephemeral()
        return self.keys

    def sign(self, head: Any) -> t.SignedReceipt:
        """The signed receipt of an answer's head event, timed by its `ts`: a resent command's answer
        carries the same receipt, byte for byte (docs/verifying.md "Signed receipts")."""
        return t.SignedReceipt(**self._keys().sign(head.stream, head.seq, head.hash, head.ts))

    def public(self) -> list[dict[str, Any]]:
        return self._keys().public()

    def answer(self, discord: list[str] | None = None) -> t.ReceiptKeys:
        """GET /keys (`discord`: the Discord application's public keys, where Discord is set up)."""
        return t.ReceiptKeys([t.ReceiptKey(**k) for k in self.public()], discord)


RECEIPTS = web.AppKey("receipts", ReceiptSigner)
# Who the request acted as, set by the auth helpers below (the request log keeps the role only).
PRINCIPAL = web.RequestKey("principal", Principal)
# What the handler knew of a command or an error, for the request log and metrics (which would otherwise
# decode the request and response bodies again): (command type, seq) of an appended command; the code of
# a ServiceError answered.
COMMAND_FACTS = web.RequestKey("command_facts", tuple)
ERROR_CODE = web.RequestKey("error_code", str)

_json = msgspec.json.Encoder()


def json_response(data: Any, status: int = 200) -> web.Response:
    return web.Response(body=_json.encode(data), status=status, content_type="application/json")


def bearer(request: web.Request) -> str | None:
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        return header[7:].strip() or None
    return None


async def principal(request: web.Request, stream: str | None, token: str | None = None) -> Principal | None:
    """Who the token is, for this encounter; None when anonymous. An unknown token is a 401."""
    token = token if token is not None else bearer(request)
    if token is None:
        return None
    admin = request.app[SETTINGS].admin_token
    if admin and same_secret(token, admin):
        request[PRINCIPAL] = Principal("admin", stream)  # for the request log (role only)
        return request[PRINCIPAL]
    found = await request.app[ENCOUNTERS].token_holder(token_hash(token))
    if found is None or (stream is not None and found[0] not in (stream, SERVER_STREAM)):
        raise Unauthenticated("this token is not valid for this encounter")
    stream_of, row = found
    if row.role == FIREHOSE:
        # A server-level reader: an observer of each encounter it may read (public, or granted).
        if stream is None:
            request[PRINCIPAL] = Principal(FIREHOSE, None, None, row.token_id, row.token_hash)
            return request[PRINCIPAL]
        info = await request.app[ENCOUNTERS].info(stream)
        firehose_may_read(
            await reader_tokens.reads(request.app[ENCOUNTERS], stream, row.token_id, info.public)
        )
        stream_of = stream
        row = TokenRow(row.token_hash, "observer", None, row.token_id)
    request[PRINCIPAL] = Principal(row.role, stream_of, row.seat, row.token_id, row.token_hash)
    return request[PRINCIPAL]


async def reader(request: web.Request, stream: str, token: str | None = None) -> Principal:
    """A principal allowed to read this encounter (404 before 401 before 403)."""
    info = await request.app[ENCOUNTERS].info(stream)
    who = await principal(request, stream, token)
    if who is None:
        request[PRINCIPAL] = may_read(None, stream, info.public)
        return request[PRINCIPAL]
    return who


async def actor(request: web.Request, stream: str) -> Principal:
    """A principal that may send commands: the GM or a player (observers get 403)."""
    await request.app[ENCOUNTERS].info(stream)
    return require(await principal(request, stream), "act")


async def gm(request: web.Request, stream: str) -> Principal:
    return require(await actor(request, stream), "gm")


_INTEGER = re.compile(r"-?[0-9]{1,15}")


def int_query(request: web.Request, name: str, default: int | None, low: int, high: int | None) -> int | None:
    raw = request.query.get(name)
    if raw is None:
        return default
    # ASCII digits only, and few of them: int() would take "１", " 1" and "1_0", and raise on 5,000 digits.
    if not _INTEGER.fullmatch(raw):
        raise bad_request(f"{name} must be an integer", name)
    value = int(raw)
    if value < low or (high is not None and value > high):
        raise bad_request(f"{name} must be between {low} and {high}", name)
    return value
