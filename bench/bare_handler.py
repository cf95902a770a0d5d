"""The append ceiling for bench/append.py: a bare aiohttp handler that decodes the same command body
with msgspec and returns 201 — no auth, no decide, no store.

    python bench/bare_handler.py PORT
"""

from __future__ import annotations

import sys

import msgspec
from aiohttp import web

_decode = msgspec.json.decode
_encode = msgspec.json.encode


async def command(request: web.Request) -> web.Response:
    body = _decode(await request.read())
    return web.Response(
        body=_encode({"command_id": body.get("command_id")}), status=201, content_type="application/json"
    )


async def healthz(request: web.Request) -> web.Response:
    return web.json_response({"ok": True})


def main() -> None:
    app = web.Application()
    app.router.add_post("/encounters/{id}/commands", command)
    app.router.add_get("/healthz", healthz)
    web.run_app(app, host="127.0.0.1", port=int(sys.argv[1]), access_log=None, print=None)


if __name__ == "__main__":
    main()
