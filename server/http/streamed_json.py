"""A JSON answer with long lists written in pieces, yielding to the loop between them (issue 19 item 1).

Encoding 10,000 envelopes or log entries at once holds the event loop for tens of milliseconds; the
same bytes written a few hundred items at a time never do. The body is exactly what encoding the
whole object at once gives.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Iterator
from typing import Any, TypeVar

import msgspec
from aiohttp import web

_enc = msgspec.json.Encoder()
T = TypeVar("T")

# Items encoded between yields to the loop.
PIECE = 250


# Lists longer than this are worth streaming; shorter answers are encoded at once.
LONG_LIST = 1000


def _weight(value: Any, limit: int = PIECE) -> int:
    """About how many items encoding `value` touches: its list items, and theirs one level down. Counting
    stops once past `limit` (all a caller compares with): a 100,000-entry list is not walked in one go."""
    if isinstance(value, list):
        n = len(value)
        for x in value:
            if n > limit:
                break
            if isinstance(x, dict):
                n += _weight(x, limit - n)
        return n
    if isinstance(value, dict):
        return sum(len(v) for v in value.values() if isinstance(v, list))
    return 1


def _pieces(value: Any) -> Iterator[bytes]:
    """The JSON of `value` in pieces of about PIECE items each."""
    if isinstance(value, dict) and _weight(value) > PIECE:
        yield b"{"
        for n, (key, item) in enumerate(value.items()):
            yield (b"," if n else b"") + _enc.encode(key) + b":"
            yield from _pieces(item)
        yield b"}"
    elif isinstance(value, list) and _weight(value) > PIECE:
        yield b"["
        sep = b""
        batch: list[Any] = []
        weight = 0
        for item in value:
            w = 1 + (_weight(item) if isinstance(item, dict) else 0)
            if batch and (w > PIECE or weight + w > PIECE):
                yield sep + _enc.encode(batch)[1:-1]
                sep, batch, weight = b",", [], 0
            if w > PIECE:  # one item with long lists inside: cut it too
                yield sep
                sep = b","
                yield from _pieces(item)
                continue
            batch.append(item)
            weight += w
        if batch:
            yield sep + _enc.encode(batch)[1:-1]
        yield b"]"
    else:
        yield _enc.encode(value)


async def encoded_pieces(obj: dict[str, Any]) -> list[bytes]:
    """The JSON of `obj` in pieces whose concatenation is the bytes of encoding it at once, encoded PIECE
    items at a time with yields to the loop between."""
    parts = []
    for piece in _pieces(obj):
        parts.append(piece)
        if len(piece) > 1:
            await asyncio.sleep(0)
    return parts


async def converted(items: list[Any], kind: type[T]) -> list[T]:
    """`msgspec.convert(items, list[kind])` PIECE items at a time with yields between: 10,000 log entries
    at once held the loop 6-90 ms (more as the heap grows)."""
    out: list[T] = []
    for start in range(0, len(items), PIECE):
        out += msgspec.convert(items[start : start + PIECE], list[kind])  # type: ignore[valid-type]
        await asyncio.sleep(0)
    return out


async def raw_json_in_place(items: list[Any]) -> None:
    """Replace each item by its JSON (msgspec.Raw), PIECE at a time with yields between, for a list kept
    long and only ever encoded again (a websocket hub's whole log): half the memory (396 B a freeform log
    entry against 759 B as a dict), freed in one piece each, and nothing in it for the cyclic collector
    to walk where entries nest lists. Encoding copies the bytes as they are: the frame is the same."""
    for start in range(0, len(items), PIECE):
        end = min(start + PIECE, len(items))
        items[start:end] = [msgspec.Raw(_enc.encode(item)) for item in items[start:end]]
        await asyncio.sleep(0)


def _fields_of(answer: msgspec.Struct) -> dict[str, Any]:
    """A Struct answer as the dict of its fields, the values left as they are, so that its long lists are
    cut into pieces (a Struct is encoded whole; msgspec.to_builtins would walk them all at once): the
    same bytes, for a Struct that keeps its defaults."""
    return {name: getattr(answer, name) for name in answer.__struct_fields__}


async def streamed_json(request: web.Request, obj: Any) -> web.StreamResponse:
    """Answer 200 with `obj` (a Struct answer or plain values) as JSON, its long lists written PIECE
    items at a time."""
    if isinstance(obj, msgspec.Struct) and not obj.__struct_config__.omit_defaults:
        obj = _fields_of(obj)
    resp = web.StreamResponse(headers={"Content-Type": "application/json"})
    await resp.prepare(request)
    for piece in _pieces(obj):
        await resp.write(piece)
        if len(piece) > 1:
            await asyncio.sleep(0)
    await resp.write_eof()
    return resp


async def streamed(
    request: web.Request, resp: web.StreamResponse, body: AsyncIterator[bytes]
) -> web.StreamResponse:
    """Answer with `resp` and `body`'s pieces. The first piece is made before the status line goes out, so
    bad input or a failure reading it is an ordinary error answer; a failure after it ends the connection
    (server/http/errors.py), the body cut short."""
    pieces = aiter(body)
    first = await anext(pieces, b"")
    await resp.prepare(request)
    await resp.write(first)
    async for piece in pieces:
        await resp.write(piece)
    await resp.write_eof()
    return resp
