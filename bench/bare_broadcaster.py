"""The fan-out ceiling for bench/fanout.py: a minimal broadcaster that speaks just enough of Tussle's API
for the same load (create an encounter, subscribe to its events, post a command) and, per command, builds
one event frame and writes the same bytes to every subscriber's transport — no auth, no decide, no
store, no per-subscriber queue.

    python bench/bare_broadcaster.py PORT FRAME_BYTES

FRAME_BYTES: the size of the event frames it sends, the mean of Tussle's in the same run, so that both
write the same bytes to the kernel.
"""

from __future__ import annotations

import secrets
import sys

import msgspec
from aiohttp import WSMsgType, web

_encode = msgspec.json.encode
SUBSCRIBERS = web.AppKey("subscribers", dict)
SEQS = web.AppKey("seqs", dict)
FRAME_BYTES = web.AppKey("frame_bytes", int)


def text_frame(payload: bytes) -> bytes:
    """An unmasked, final websocket text frame (RFC 6455 section 5.2)."""
    n = len(payload)
    if n < 126:
        return bytes((0x81, n)) + payload
    if n < 65536:
        return bytes((0x81, 126)) + n.to_bytes(2, "big") + payload
    return bytes((0x81, 127)) + n.to_bytes(8, "big") + payload


async def create(request: web.Request) -> web.Response:
    stream = secrets.token_hex(8)
    request.app[SUBSCRIBERS][stream] = set()
    request.app[SEQS][stream] = 1
    return web.json_response({"id": stream, "gm_token": "t"}, status=201)


async def on_subscribe(request: web.Request) -> web.WebSocketResponse:
    ws = web.WebSocketResponse(autoping=True)
    await ws.prepare(request)
    stream = request.match_info["id"]
    subscribers = request.app[SUBSCRIBERS][stream]
    async for msg in ws:
        if msg.type != WSMsgType.TEXT:
            break
        seq = request.app[SEQS][stream]
        await ws.send_str(f'{{"type":"caught_up","seq":{seq},"hash":"{"0" * 64}"}}')
        subscribers.add(request.transport)
    subscribers.discard(request.transport)
    return ws


async def command(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    await request.read()
    seqs = request.app[SEQS]
    seqs[stream] += 1
    seq = seqs[stream]
    head = b'{"type":"event","seq":%d,"event":{"seq":%d,"pad":"' % (seq, seq)
    pad = max(0, request.app[FRAME_BYTES] - len(head) - 3)
    wire = text_frame(head + b"x" * pad + b'"}}')
    for transport in request.app[SUBSCRIBERS][stream]:
        if not transport.is_closing():
            transport.write(wire)
    return web.Response(body=_encode({"seq": seq}), status=201, content_type="application/json")


def main() -> None:
    app = web.Application()
    app[SUBSCRIBERS] = {}
    app[SEQS] = {}
    app[FRAME_BYTES] = int(sys.argv[2])
    app.router.add_post("/encounters", create)
    app.router.add_get("/encounters/{id}/ws", on_subscribe)
    app.router.add_post("/encounters/{id}/commands", command)
    web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=None, print=None)


if __name__ == "__main__":
    main()
