"""The firehose's tokens and grants over HTTP (docs/websocket.md "The firehose"; the rules in
server/encounters/reader_tokens.py): the admin makes, lists and revokes reader tokens; an encounter's
GM grants one its private encounter and takes the grant back."""

from __future__ import annotations

from aiohttp import web

from server.encounters import reader_tokens
from server.http.context import ENCOUNTERS, RECEIPTS, gm, json_response, principal
from server.http.input_checks import read_json
from server.live.firehose import FIREHOSE


async def create_token(request: web.Request) -> web.Response:
    """POST /firehose-tokens (admin)"""
    token_id, token = await reader_tokens.create(request.app[ENCOUNTERS], await principal(request, None))
    return json_response({"token_id": token_id, "token": token}, status=201)


async def list_tokens(request: web.Request) -> web.Response:
    """GET /firehose-tokens (admin)"""
    tokens = await reader_tokens.listed(request.app[ENCOUNTERS], await principal(request, None))
    return json_response({"tokens": tokens})


async def revoke_token(request: web.Request) -> web.Response:
    """DELETE /firehose-tokens/{token_id} (admin)"""
    token_id = request.match_info["token_id"]
    await reader_tokens.revoke(request.app[ENCOUNTERS], await principal(request, None), token_id)
    request.app[FIREHOSE].reader_revoked(token_id)
    return web.Response(status=204)


async def grant(request: web.Request) -> web.Response:
    """POST /encounters/{id}/firehose-grants (GM)"""
    stream = request.match_info["id"]
    body = await read_json(request)
    who = await gm(request, stream)
    out = await reader_tokens.grant(request.app[ENCOUNTERS], stream, who, body)
    head = out.events[-1]
    return json_response(
        {
            "token_id": head.data["token_id"],
            "seq": head.seq,
            "hash": head.hash,
            "receipt": request.app[RECEIPTS].sign(head),
        },
        status=200 if out.duplicate else 201,
    )


async def revoke_grant(request: web.Request) -> web.Response:
    """DELETE /encounters/{id}/firehose-grants/{token_id} (GM)"""
    stream = request.match_info["id"]
    who = await gm(request, stream)
    await reader_tokens.revoke_grant(request.app[ENCOUNTERS], stream, who, request.match_info["token_id"])
    return web.Response(status=204)


def setup(app: web.Application) -> None:
    app.router.add_post("/firehose-tokens", create_token)
    app.router.add_get("/firehose-tokens", list_tokens)
    app.router.add_delete("/firehose-tokens/{token_id}", revoke_token)
    app.router.add_post("/encounters/{id}/firehose-grants", grant)
    app.router.add_delete("/encounters/{id}/firehose-grants/{token_id}", revoke_grant)
