"""Live and audit routes (websocket, log, audit, verify, AsyncAPI): registered by `setup`."""

from __future__ import annotations

from typing import Any

from aiohttp import web

from events.envelope import Event
from projections.audit import audit
from projections.forum_export import forum_posts, forum_text
from projections.log import group_by_turn
from server.http.asyncapi import asyncapi_document
from server.http.context import ENCOUNTERS, int_query, json_response, reader
from server.live import websocket
from server.log_reading import DEFAULT_LIMIT, log_range, timeline, turn_range
from server.service import bad_request
from server.verifying import Problem, verify_events

PAGE = 10_000
LOG_FORMATS = ("json", "markdown", "bbcode")


async def read_stream(request: web.Request, stream: str, at: int | None = None) -> list[Event]:
    """The encounter's events 1..at (all when at is None), read page by page."""
    store = request.app[ENCOUNTERS].store
    out: list[Event] = []
    while True:
        page = await store.read(stream, len(out) + 1, PAGE if at is None else min(PAGE, at - len(out)))
        out += page
        if len(page) < PAGE or (at is not None and len(out) >= at):
            return out


def _ruleset_for(request: web.Request) -> Any:
    registry = request.app[ENCOUNTERS].registry
    return lambda e: registry.get(e.data["ruleset"])


async def get_log(request: web.Request) -> web.Response:
    """GET /encounters/{id}/log?format=json|markdown|bbcode&at=&turn=&max_chars=&from=&limit=

    Paged like /events: the entries of seqs `from`..`from + limit - 1` (at most `at`), and `next_from`;
    a turn excerpt (`turn=`) reads only that turn's range (server/log_reading.py)."""
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
    r = await log_range(enc, stream, first, last, at)
    log, end = r.log, r.end.state
    entries = log.entries if turn is None else [e for e in log.entries if e["turn"] == turn]
    head = {"seq": end["seq"], "hash": end["hash"]}
    next_from = last + 1
    if fmt == "json":
        return json_response({"stream": stream, "name": end["name"], "at": head["seq"], "head": head,
                              "turn": turn, "entries": entries, "turns": group_by_turn(entries),
                              "next_from": next_from})
    if turn is not None and entries:
        head = {"seq": entries[-1]["seq"], "hash": entries[-1]["hash"]}
    commitments = timeline(r, await enc.store.revealed_seeds(stream) if r.earlier else {})
    posts = forum_posts(entries, name=end["name"] or stream, commitments=commitments,
                        head=head, flavour=fmt, max_chars=max_chars)
    more = {"Link": f'<{request.rel_url.update_query({"from": next_from})}>; rel="next"'} if next_from <= at else {}
    if "application/json" in request.headers.get("Accept", ""):
        resp = json_response({"format": fmt, "head": head, "posts": posts, "next_from": next_from})
        resp.headers.update(more)
        return resp
    content_type = "text/markdown" if fmt == "markdown" else "text/plain"
    return web.Response(text=forum_text(posts), content_type=content_type, charset="utf-8", headers=more)


async def get_audit(request: web.Request) -> web.Response:
    """GET /encounters/{id}/audit"""
    stream = request.match_info["id"]
    await reader(request, stream)
    events = await read_stream(request, stream)
    report = audit(events)
    in_force = [c["commitment"] for c in report["commitments"] if c["revealed_seed"] is None]
    report["commitment_in_force"] = in_force[-1] if in_force else None
    report["revealed_seeds"] = {c["commitment"]: c["revealed_seed"] for c in report["commitments"]
                                if c["revealed_seed"] is not None}
    return json_response(report)


async def get_verify(request: web.Request) -> web.Response:
    """GET /encounters/{id}/verify"""
    stream = request.match_info["id"]
    await reader(request, stream)
    info = await request.app[ENCOUNTERS].info(stream)
    events = await read_stream(request, stream)
    extra: list[Problem] = []
    if events and (events[-1].seq != info.seq or events[-1].hash != info.hash):
        extra.append(Problem("chain", f"the encounter's listing names head seq {info.seq} hash {info.hash}, but "
                                      f"its last event is seq {events[-1].seq} hash {events[-1].hash}",
                             events[-1].seq))
    return json_response(verify_events(events, format_problems=extra))


async def get_asyncapi(request: web.Request) -> web.Response:
    """GET /asyncapi.json"""
    return json_response(asyncapi_document())


def setup(app: web.Application) -> None:
    """Add the live and audit routes to the app."""
    app.router.add_get("/encounters/{id}/log", get_log)
    app.router.add_get("/encounters/{id}/audit", get_audit)
    app.router.add_get("/encounters/{id}/verify", get_verify)
    app.router.add_get("/asyncapi.json", get_asyncapi)
    websocket.setup(app)
