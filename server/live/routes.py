"""Live and audit routes (websocket, log, audit, verify, AsyncAPI): registered by `setup`."""

from __future__ import annotations

from aiohttp import web

from projections.forum_export import forum_posts
from projections.log import group_by_turn
from server.audit import whole_stream
from server.audit.verified_prefixes import VERIFIED_PREFIXES, VerifiedPrefixes
from server.audit.verifying import parse_head
from server.encounters.log_reading import DEFAULT_LIMIT, log_range, timeline, turn_range
from server.encounters.service_errors import bad_request
from server.http import api_types as t
from server.http.asyncapi import asyncapi_document
from server.http.context import ENCOUNTERS, SETTINGS, int_query, json_response, reader
from server.http.streamed_json import LONG_LIST, converted, streamed, streamed_json
from server.http.web import verifying_url
from server.live import firehose, firehose_tokens, websocket
from server.ops.heap_trim import HEAP_TRIM
from server.transfer.exporting import forum_chunks

LOG_FORMATS = ("json", "markdown", "bbcode")


async def get_log(request: web.Request) -> web.StreamResponse:
    """GET /encounters/{id}/log?format=json|markdown|bbcode&at=&turn=&max_chars=&from=&limit=

    Paged like /events: the entries of seqs `from`..`from + limit - 1` (at most `at`), and `next_from`;
    a turn excerpt (`turn=`) reads only that turn's range (server/encounters/log_reading.py)."""
    stream = request.match_info["id"]
    await reader(request, stream)
    enc = request.app[ENCOUNTERS]
    info = await enc.info(stream)
    fmt = request.query.get("format", "json")
    if fmt not in LOG_FORMATS:
        raise bad_request("format must be json, markdown or bbcode", "format")
    at = int_query(request, "at", None, 1, info.seq) or info.seq
    turn = int_query(request, "turn", None, 0, None)
    max_chars = int_query(request, "max_chars", None, 200, 1_000_000)
    first = int_query(request, "from", 1, 1, max(at, 1) + 1)
    limit = int_query(request, "limit", DEFAULT_LIMIT, 1, 10_000)
    assert first is not None and limit is not None
    if turn is not None:
        first, last = await turn_range(enc, stream, turn, at)
    else:
        last = min(at, first + limit - 1)
    next_from = last + 1
    more = (
        {"Link": f'<{request.rel_url.update_query({"from": next_from})}>; rel="next"'}
        if next_from <= at
        else {}
    )
    if fmt != "json" and "application/json" not in request.headers.get("Accept", ""):
        return await _forum_text(request, stream, fmt, turn, max_chars, (first, last, at), more)
    r = await log_range(enc, stream, first, last, at)
    log, end = r.log, r.end.state
    entries = log.entries if turn is None else [e for e in log.entries if e["turn"] == turn]
    head = {"seq": end["seq"], "hash": end["hash"]}
    if fmt == "json":
        answer = t.LogPage(
            stream=stream,
            name=end["name"],
            at=head["seq"],
            head=t.Head(head["seq"], head["hash"]),
            turn=turn,
            entries=await converted(entries, t.LogEntry),
            turns=await converted(group_by_turn(entries), t.LogTurn),
            next_from=next_from,
        )
        if len(entries) > LONG_LIST:
            resp = await streamed_json(request, answer)
            # Freed a piece per turn of the loop, not all at once as the handler returns: 10,000 entries,
            # their typed copies, their turns and events held the loop 21-40 ms of CPU (server/ops/heap_trim.py).
            for items in (answer.turns, answer.entries, log.entries, r.events):
                request.app[HEAP_TRIM].release(items)
            return resp
        return json_response(answer)
    commitments = timeline(r, await enc.store.revealed_seeds(stream) if r.earlier else {})
    posts = forum_posts(
        entries,
        name=end["name"] or stream,
        commitments=commitments,
        head=head,
        flavour=fmt,
        max_chars=max_chars,
        verify_url=verifying_url(request),
    )
    resp = json_response(
        t.ForumPosts(
            "markdown" if fmt == "markdown" else "bbcode", t.Head(head["seq"], head["hash"]), posts, next_from
        )
    )
    resp.headers.update(more)
    return resp


async def _forum_text(
    request: web.Request,
    stream: str,
    fmt: str,
    turn: int | None,
    max_chars: int | None,
    span: tuple[int, int, int],
    more: dict[str, str],
) -> web.StreamResponse:
    """A forum export written turn by turn as the log is read (server/transfer/exporting.py), never all at once."""
    content_type = "text/markdown" if fmt == "markdown" else "text/plain"
    resp = web.StreamResponse(headers={"Content-Type": f"{content_type}; charset=utf-8", **more})
    texts = forum_chunks(request.app[ENCOUNTERS], stream, fmt, turn, max_chars, span, verifying_url(request))
    return await streamed(request, resp, (text.encode() async for text in texts))


async def get_audit(request: web.Request) -> web.StreamResponse:
    """GET /encounters/{id}/audit (made off the event loop: server/audit/whole_stream.py)"""
    stream = request.match_info["id"]
    await reader(request, stream)
    enc = request.app[ENCOUNTERS]
    await enc.info(stream)  # 404 for an encounter that is not there
    body = await whole_stream.report(enc.store, stream)
    return await whole_stream.write_report(request, body)


async def get_verify(request: web.Request) -> web.StreamResponse:
    """GET /encounters/{id}/verify (made off the event loop: server/audit/whole_stream.py). It checks only
    the events after the ones this server checked last time (server/audit/verified_prefixes.py), unless
    `?full=1`, `?replay=1` or a `?head=` inside the part already checked asks for all of them."""
    stream = request.match_info["id"]
    await reader(request, stream)
    kept = []
    if "head" in request.query:
        try:
            kept.append((*parse_head(request.query["head"]), "the head you kept"))
        except ValueError as exc:
            raise bad_request(str(exc), "head") from None
    enc = request.app[ENCOUNTERS]
    info = await enc.info(stream)
    replay = request.query.get("replay", "0")
    if replay not in ("0", "1"):
        raise bad_request("replay must be 1 (decide every declared command again) or 0", "replay")
    full = request.query.get("full", "0")
    if full not in ("0", "1"):
        raise bad_request("full must be 1 (check the whole stream again) or 0 (only what came since)", "full")
    body = await whole_stream.verified(
        enc.store,
        request.app[VERIFIED_PREFIXES],
        await enc.store.external_writes_marker(),
        full == "1" or replay == "1",
        stream,
        (info.seq, info.hash),
        kept,
        request.query.get("commitment"),
        replay == "1",
        [key] if (key := request.app[SETTINGS].discord.public_key) else None,
    )
    return await whole_stream.write_report(request, body)


async def get_asyncapi(request: web.Request) -> web.Response:
    """GET /asyncapi.json"""
    return json_response(asyncapi_document(request.app[ENCOUNTERS].registry))


def setup(app: web.Application) -> None:
    """Add the live and audit routes to the app."""
    app.router.add_get("/encounters/{id}/log", get_log)
    app.router.add_get("/encounters/{id}/audit", get_audit)
    app.router.add_get("/encounters/{id}/verify", get_verify)
    app[VERIFIED_PREFIXES] = VerifiedPrefixes()
    app.router.add_get("/asyncapi.json", get_asyncapi)
    websocket.setup(app)
    firehose.setup(app)
    firehose_tokens.setup(app)
