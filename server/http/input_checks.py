"""What any request may carry, checked before a handler uses it (API.md "Errors", round 2).

A JSON body or websocket frame nests at most MAX_DEPTH levels: every walk over a body after this one
(msgspec's decoder and to_builtins, the canonical encoder, the integer check, the rulesets' own) may
then recurse freely. No text holds NUL, in a body, a path or a query: PostgreSQL cannot store it in
`text`, and SQLite would, so refusing it everywhere keeps both stores answering alike. A body whose
Content-Encoding does not match its bytes is the client's mistake, not a crash.
"""

from __future__ import annotations

import asyncio
import zlib
from typing import Any

import msgspec
from aiohttp import web

from server.encounters.service_errors import bad_request
from server.http.context import SETTINGS

# Far deeper than any body of the contract (a ruling's overrides on a weapon's reach is about 8).
MAX_DEPTH = 64

_decode = msgspec.json.Decoder().decode


class ClientGone(Exception):
    """The client closed its connection before its whole body came: no one is left to answer, and it is
    no failure of ours (errors_middleware logs it as status 499, as nginx names it, never as a 500)."""


def decode_json(raw: bytes | str, what: str = "the body") -> Any:
    """Decode JSON a client sent, or raise a 400 saying why not (too deep, NUL, not JSON)."""
    try:
        value = _decode(raw)
    except msgspec.DecodeError as exc:
        raise bad_request(f"{what} is not JSON: {exc}") from None
    except RecursionError:
        raise bad_request(f"{what} nests deeper than {MAX_DEPTH} levels") from None
    if not _acceptable(value):
        _explain(value, what)
    return value


class BodyTooSlow(Exception):
    """The body did not arrive whole within the body timeout (`Settings.body_timeout_s`): answered 408
    and the connection closed, so a client trickling its body (slowloris) holds no socket for long."""

    def __init__(self, timeout_s: float):
        super().__init__(f"the body did not arrive within {timeout_s:g} s")


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's body as a JSON object, whatever its Content-Type (`curl -d` sends form-urlencoded)."""
    timeout_s = request.app[SETTINGS].body_timeout_s
    try:
        if request.content.is_eof():  # the whole body came with the headers: nothing to wait for, no timer
            body = await request.read()
        else:
            async with asyncio.timeout(timeout_s):
                body = await request.read()
        raw = _decoded(request, body)
    except ConnectionError:
        raise ClientGone() from None
    except TimeoutError:
        # The rest of the body is not wanted: without this aiohttp would linger after the 408, waiting
        # for it (up to 10 s) before closing, and a second read of the body would wait for it too.
        request.content.feed_eof()
        raise BodyTooSlow(timeout_s) from None
    if not raw:
        raise bad_request("the body must be a JSON object")
    body = decode_json(raw)
    if not isinstance(body, dict):
        raise bad_request("the body must be a JSON object")
    return body


# What a body may be encoded with: zlib's window bits for each (deflate is zlib's format, RFC 9110
# 8.4.1.2; raw deflate, which some clients send under that name, is tried after it).
_WBITS = {
    "gzip": (16 + zlib.MAX_WBITS,),
    "x-gzip": (16 + zlib.MAX_WBITS,),
    "deflate": (zlib.MAX_WBITS, -zlib.MAX_WBITS),
}


def _decoded(request: web.Request, raw: bytes) -> bytes:
    """The body without its Content-Encoding, at most client_max_size bytes decoded. Decoding is ours, not
    aiohttp's (make_app turns its auto_decompress off): its decoder failed inside the protocol, where a
    body that was not what its header said could leave the connection unanswered and log a traceback."""
    encoding = request.headers.get("Content-Encoding", "").strip().lower()
    if encoding in ("", "identity"):
        return raw
    limit = request.app[SETTINGS].max_body
    for wbits in _WBITS.get(encoding, ()):
        d = zlib.decompressobj(wbits)
        try:
            out = d.decompress(raw, limit + 1)
        except zlib.error:
            continue
        if len(out) > limit:
            raise web.HTTPRequestEntityTooLarge(max_size=limit, actual_size=len(out))
        if d.eof and not d.unused_data:
            return out
    raise bad_request(
        f"the body cannot be read as Content-Encoding {encoding!r}: send it encoded so (gzip or deflate), "
        "or without that header",
        "Content-Encoding",
    )


def _acceptable(value: Any) -> bool:
    """No NUL in any string or key, and at most MAX_DEPTH levels; without naming places as it goes
    (every body passes here, and nearly all pass)."""
    level, depth = [value], 0
    while level:
        depth += 1
        if depth > MAX_DEPTH:
            return False
        below = []
        for v in level:
            if isinstance(v, str):
                if "\x00" in v:
                    return False
            elif isinstance(v, dict):
                for k, item in v.items():
                    if "\x00" in k:
                        return False
                    below.append(item)
            elif isinstance(v, list):
                below.extend(v)
        level = [v for v in below if isinstance(v, (str, dict, list))]
    return True


def _explain(value: Any, what: str) -> None:
    """Raise the 400 naming the first place `_acceptable` refuses."""
    stack: list[tuple[Any, str, int]] = [(value, "", 1)]
    while stack:
        v, path, depth = stack.pop()
        if depth > MAX_DEPTH:
            raise bad_request(
                f"{what} nests deeper than {MAX_DEPTH} levels (at {path or 'the top'})", path or None
            )
        if isinstance(v, str) and "\x00" in v:
            raise bad_request(f"{path or what} holds a NUL character, which no text may hold", path or None)
        if isinstance(v, dict):
            for k, item in reversed(v.items()):
                if "\x00" in k:
                    raise bad_request(f"a field name in {path or what} holds a NUL character", path or None)
                stack.append((item, f"{path}.{k}" if path else k, depth + 1))
        elif isinstance(v, list):
            stack.extend((item, f"{path}[{i}]", depth + 1) for i, item in reversed(list(enumerate(v))))


def check_url(request: web.Request) -> None:
    """A path or query holding NUL (`/encounters/a%00b/events`) is a 400 before any lookup."""
    if "\x00" in request.path:
        raise bad_request("the path holds a NUL character, which no id may hold", "path")
    for name, value in request.query.items():
        if "\x00" in name or "\x00" in value:
            raise bad_request(f"the query parameter {name!r} holds a NUL character", name)
