"""What any request may carry, checked before a handler uses it (API.md "Errors", round 2).

A JSON body or websocket frame nests at most MAX_DEPTH levels: every walk over a body after this one
(msgspec's decoder and to_builtins, the canonical encoder, the integer check, the rulesets' own) may
then recurse freely. No text holds NUL, in a body, a path or a query: PostgreSQL cannot store it in
`text`, and SQLite would, so refusing it everywhere keeps both stores answering alike. A body whose
Content-Encoding does not match its bytes is the client's mistake, not a crash.
"""

from __future__ import annotations

from typing import Any

import msgspec
from aiohttp import web
from aiohttp.web_protocol import RequestPayloadError

from server.encounters.service_errors import bad_request

# Far deeper than any body of the contract (a ruling's overrides on a weapon's reach is about 8).
MAX_DEPTH = 64

_decode = msgspec.json.Decoder().decode


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


async def read_json(request: web.Request) -> dict[str, Any]:
    """The request's body as a JSON object, whatever its Content-Type (`curl -d` sends form-urlencoded)."""
    try:
        raw = await request.read()
    except RequestPayloadError:
        encoding = request.headers.get("Content-Encoding", "")
        raise bad_request(
            f"the body cannot be read as Content-Encoding {encoding!r}: send it encoded so, "
            "or without that header",
            "Content-Encoding",
        ) from None
    if not raw:
        raise bad_request("the body must be a JSON object")
    body = decode_json(raw)
    if not isinstance(body, dict):
        raise bad_request("the body must be a JSON object")
    return body


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


@web.middleware
async def nul_in_url_middleware(request: web.Request, handler: Any) -> web.StreamResponse:
    """A path or query holding NUL (`/encounters/a%00b/events`) is a 400 before any lookup."""
    if "\x00" in request.path:
        raise bad_request("the path holds a NUL character, which no id may hold", "path")
    for name, value in request.query.items():
        if "\x00" in name or "\x00" in value:
            raise bad_request(f"the query parameter {name!r} holds a NUL character", name)
    return await handler(request)
