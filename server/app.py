"""The aiohttp application: routes of API.md, auth, and the app's lifecycle."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import msgspec
from aiohttp import web

from events.store.port import SharedFeed, Store
from projections.view import offers_view
from rules.offers import GM
from rules.pipeline import commanded_by
from rules.registry import Registry
from server import webhooks
from server.discord import interactions as discord
from server.encounters.access import require, sees_private_encounters
from server.encounters.acting import asked_now, reaction_deadlines, with_deadlines
from server.encounters.service import Encounters
from server.encounters.service_errors import NotFound
from server.encounters.survived import REACTION_SWEEP, stopped
from server.guides.describing import describe_rulesets
from server.http import api_types as t
from server.http import web as pages
from server.http.context import (
    COMMAND_FACTS,
    ENCOUNTERS,
    RECEIPTS,
    SETTINGS,
    ReceiptSigner,
    actor,
    gm,
    int_query,
    json_response,
    principal,
    reader,
)
from server.http.errors import note_started
from server.http.input_checks import read_json
from server.http.streamed_json import LONG_LIST, streamed, streamed_json
from server.live import pg_listener
from server.live import routes as live
from server.ops import heap_trim, loop_probe
from server.ops import setup as operations
from server.ops.forwarded import trusted_networks
from server.ops.front_door import front_door
from server.ops.metrics import METRICS
from server.settings import Settings
from server.transfer.exporting import ndjson_lines

# ---- handlers ---------------------------------------------------------------------------------

routes = web.RouteTableDef()


@routes.get("/healthz")
async def healthz(request: web.Request) -> web.Response:
    return json_response(t.Health(ok=True))


@routes.get("/keys")
async def receipt_keys(request: web.Request) -> web.Response:
    """The public keys that sign receipts, current and retired (docs/verifying.md "Signed receipts"), and
    the Discord application's public key where Discord is set up (as every export's trailer names it)."""
    return json_response(request.app[RECEIPTS].answer(discord=_discord_keys(request)))


@routes.get("/rulesets")
async def list_rulesets(request: web.Request) -> web.Response:

    described = {"rulesets": describe_rulesets(request.app[ENCOUNTERS].registry)}
    return json_response(msgspec.convert(described, t.RulesetList))


def _ruleset_or_404(request: web.Request) -> Any:
    rid = request.match_info["id"]
    rs = request.app[ENCOUNTERS].registry.get(rid)
    if rs is None:
        raise NotFound(
            f"there is no ruleset {rid!r} on this server (GET /rulesets lists them)", {"ruleset": rid}
        )
    return rs


@routes.get("/rulesets/{id}")
async def get_ruleset(request: web.Request) -> web.Response:
    from server.guides.guide import ruleset_detail

    return json_response(ruleset_detail(_ruleset_or_404(request)))


@routes.get("/rulesets/{id}/guide")
async def ruleset_guide(request: web.Request) -> web.Response:
    from server.guides.guide import CSP, guide_html
    from server.http.web import SECURITY_HEADERS

    page = guide_html(_ruleset_or_404(request))
    return web.Response(
        text=page,
        content_type="text/html",
        charset="utf-8",
        # The pages' own headers, but for the guide's stricter CSP (a page link may carry a token).
        headers={**SECURITY_HEADERS, "Content-Security-Policy": CSP},
    )


@routes.post("/encounters")
async def create_encounter(request: web.Request) -> web.Response:
    body = await read_json(request)
    admin = request.app[SETTINGS].admin_token
    who = await principal(request, None)
    if admin:
        require(who, "create_encounter")
    enc = request.app[ENCOUNTERS]
    info, gm_token, out = await enc.create(body, "gm")
    created = out.events[0].data
    payload = t.EncounterCreatedResponse(
        id=info.id,
        gm_token=gm_token,
        commitment=created["commitment"],
        ruleset=info.ruleset,
        options=created["options"],
        geometry=t.Geometry(**created["geometry"]),
        name=info.name,
        dice=created["dice"],
        public=info.public,
        hidden_commitment=created.get("hidden_commitment"),
        # The head after creation: a first receipt, which pins seq 1 whole (its dice source and
        # options as well as its commitments) for `tussle verify --receipts`.
        seq=out.events[-1].seq,
        hash=out.events[-1].hash,
        receipt=request.app[RECEIPTS].sign(out.events[-1]),
    )
    return json_response(payload, status=200 if out.duplicate else 201)


@routes.get("/encounters")
async def list_encounters(request: web.Request) -> web.Response:
    who = await principal(request, None)
    streams = await request.app[ENCOUNTERS].list_encounters(public_only=not sees_private_encounters(who))
    return json_response(
        t.EncounterList(
            [t.EncounterSummary(s.id, s.name, s.ruleset, s.seq, s.closed, s.public) for s in streams],
            # The landing page asks for the admin token only where creating needs it.
            admin_creates=bool(request.app[SETTINGS].admin_token),
        )
    )


@routes.delete("/encounters/{id}")
async def delete_encounter(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    enc = request.app[ENCOUNTERS]
    await enc.info(stream)  # 404 before 401
    await enc.delete(stream, await principal(request, None))
    return web.Response(status=204)


@routes.get("/encounters/{id}")
async def get_encounter(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    await reader(request, stream)
    enc = request.app[ENCOUNTERS]
    state = await enc.state(stream)
    commitments = await enc.commitments(stream)  # kept with the cached state: no read of the stream
    return json_response(
        t.EncounterDetail(
            id=stream,
            name=state["name"],
            ruleset=state["ruleset"],
            ruleset_version=state["ruleset_version"],
            options=state["options"],
            geometry=t.Geometry(**state["geometry"]),
            dice=state["dice"],
            public=state["public"],
            seq=state["seq"],
            hash=state["hash"],
            head=t.Head(state["seq"], state["hash"]),
            commitment=state["commitment"],
            commitments=commitments,
            revealed_seeds=await enc.revealed_seeds(stream),
            closed=state["closed"],
        )
    )


@routes.get("/encounters/{id}/hidden-rolls")
async def get_hidden_rolls(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    require(await reader(request, stream), "read_hidden_rolls")
    rolls = await request.app[ENCOUNTERS].hidden_rolls(stream)
    return json_response(t.HiddenRollList([t.HiddenRoll(**r) for r in rolls]))


@routes.post("/encounters/{id}/commands")
async def post_command(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    body = await read_json(request)
    who = await actor(request, stream)
    out = await request.app[ENCOUNTERS].execute(stream, who, body)
    last = out.events[-1]
    request[COMMAND_FACTS] = (body.get("type"), last.seq)
    # The stored events are the answer's envelopes as they are (t.Envelope is the store's Event).
    answer = t.CommandAppended(
        last.seq, last.hash, last.command_id, request.app[RECEIPTS].sign(last), t.envelopes(out.events)
    )
    return json_response(answer, status=200 if out.duplicate else 201)


@routes.get("/encounters/{id}/events")
async def get_events(request: web.Request) -> web.Response | web.StreamResponse:
    stream = request.match_info["id"]
    await reader(request, stream)
    enc = request.app[ENCOUNTERS]
    info = await enc.info(stream)
    start = int_query(request, "from", 1, 1, info.seq + 1)
    limit = int_query(request, "limit", 1000, 1, 10_000)
    assert start is not None and limit is not None
    if "application/x-ndjson" in request.headers.get("Accept", ""):
        earlier = None
        if start > 1:  # the trailer's commitments before `start` come from the nearest snapshot
            before = await enc.snapshots.load(stream, start - 1)
            if before is not None:
                earlier = (before.commitments, before.state["seq"], before.state["hash"])
        resp = web.StreamResponse(headers={"Content-Type": "application/x-ndjson"})
        return await streamed(
            request,
            resp,
            ndjson_lines(
                enc.events,
                stream,
                start,
                earlier,
                request.app[RECEIPTS].public(),
                pages.verifying_url(request),
                _discord_keys(request),
            ),
        )
    events = await enc.read_range(stream, start, start + limit - 1)
    next_from = events[-1].seq + 1 if events else start
    # The stored events are the answer's envelopes as they are (t.Envelope is the store's Event).
    page = t.EventsPage(t.envelopes(events), next_from, t.Head(info.seq, info.hash))
    if len(events) > LONG_LIST:
        resp = await streamed_json(request, page)
        request.app[heap_trim.HEAP_TRIM].release(events)  # as /log's entries are (server/live/routes.py)
        return resp
    return json_response(page)


def _discord_keys(request: web.Request) -> list[str] | None:
    key = request.app[SETTINGS].discord.public_key
    return [key] if key else None


@routes.get("/encounters/{id}/state")
async def get_state(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    await reader(request, stream)
    enc = request.app[ENCOUNTERS]
    info = await enc.info(stream)
    at = int_query(request, "at", None, 1, info.seq)
    state = await enc.state_at(stream, at)
    from projections.view import state_view

    deadlines = reaction_deadlines(enc.reaction_deadlines, stream, state)
    return json_response(state_view(state, enc.ruleset_of(state), deadlines))


@routes.get("/encounters/{id}/me")
async def get_me(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    enc = request.app[ENCOUNTERS]
    await enc.info(stream)
    who = require(await principal(request, stream), "ask_who_i_am")
    state = await enc.state(stream)
    ruleset = enc.ruleset_of(state)
    if who.role == "gm":
        mine = commanded_by(state, None)
    elif who.role == "player":
        mine = commanded_by(state, who.seat or "")
    else:
        mine = []
    asked = [
        p
        for p in state["pending"]
        if (who.role == "gm" and p["asked_of"] == "gm")
        or (who.role == "player" and p["asked_of"] == who.seat)
    ]

    deadlines = reaction_deadlines(enc.reaction_deadlines, stream, state)
    return json_response(
        {
            "role": who.role,
            "seat": who.seat,
            "combatants": mine,
            "reactions": with_deadlines(asked, deadlines),
            "legal_actions": {c: ruleset.legal_actions(state, c) for c in mine},
            "offers": offers_view(state, ruleset, [*mine, GM] if who.role == "gm" else mine),
            **asked_now(state, ruleset, who, mine, deadlines),
        }
    )


@routes.post("/encounters/{id}/seats")
async def create_seat(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    body = await read_json(request)
    who = await gm(request, stream)
    seat, token = await request.app[ENCOUNTERS].create_seat(stream, who, body)
    return json_response(t.SeatCreatedResponse(seat, token), status=201 if token else 200)


@routes.patch("/encounters/{id}/seats/{seat}")
async def patch_seat(request: web.Request) -> web.Response:
    stream, seat = request.match_info["id"], request.match_info["seat"]
    body = await read_json(request)
    who = await gm(request, stream)
    out = await request.app[ENCOUNTERS].change_seat(stream, who, seat, body)
    last = out.events[-1]
    return json_response(
        t.SeatChangedResponse(
            seat, last.seq, last.hash, request.app[RECEIPTS].sign(last), t.envelopes(out.events)
        )
    )


@routes.post("/encounters/{id}/seats/{seat}/token")
async def rotate_seat_token(request: web.Request) -> web.Response:
    stream, seat = request.match_info["id"], request.match_info["seat"]
    who = await gm(request, stream)
    token = await request.app[ENCOUNTERS].rotate_seat_token(stream, who, seat)
    return json_response(t.SeatTokenResponse(seat, token), status=201)


@routes.delete("/encounters/{id}/seats/{seat}")
async def revoke_seat(request: web.Request) -> web.Response:
    stream, seat = request.match_info["id"], request.match_info["seat"]
    who = await gm(request, stream)
    await request.app[ENCOUNTERS].revoke_seat(stream, who, seat)
    return web.Response(status=204)


@routes.post("/encounters/{id}/read-tokens")
async def create_read_token(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    who = await gm(request, stream)
    token_id, token = await request.app[ENCOUNTERS].create_read_token(stream, who)
    return json_response(t.ReadTokenResponse(token_id, token), status=201)


@routes.delete("/encounters/{id}/read-tokens/{token_id}")
async def revoke_read_token(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    who = await gm(request, stream)
    await request.app[ENCOUNTERS].revoke_read_token(stream, who, request.match_info["token_id"])
    return web.Response(status=204)


@routes.post("/encounters/{id}/gm-token")
async def rotate_gm_token(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    who = await actor(request, stream)
    token = await request.app[ENCOUNTERS].rotate_gm_token(stream, who)
    return json_response(t.GmTokenResponse(token), status=201)


# ---- the application --------------------------------------------------------------------------


async def _reaction_timeouts(app: web.Application) -> AsyncIterator[None]:
    """Answer overdue reactions with their default, as actor `system` (the clock lives here)."""

    async def loop() -> None:
        while True:
            await asyncio.sleep(app[SETTINGS].timeout_poll_s)
            try:
                await app[ENCOUNTERS].answer_overdue(app[ENCOUNTERS].ids.now())
            except Exception as exc:  # noqa: BLE001 - a failed sweep must not stop later ones
                app[ENCOUNTERS].survived.record(REACTION_SWEEP, exc)

    task = asyncio.create_task(loop(), name="tussle-reaction-timeouts")
    yield
    await stopped(task)


def make_app(
    store: Store,
    registry: Registry | None = None,
    settings: Settings | None = None,
    *,
    ids: Any = None,
    **changes: Any,
) -> web.Application:
    """Build the server around an open-able store with these settings (`changes`: some of them by name,
    as `Settings.with_changes` reads them; `ids`: where its ids come from, server/encounters/ids.py)."""
    settings = (settings or Settings()).with_changes(**changes)
    proxies = trusted_networks(settings.trusted_proxies)
    app = web.Application(
        middlewares=[front_door(proxies)],
        client_max_size=settings.max_body,
        handler_args={
            "auto_decompress": False,  # bodies are decoded by input_checks.read_json
            # aiohttp closes a connection whose next request's headers have not all come this long after
            # it opened or last answered (its keep-alive timer runs from the connection's start and is
            # not reset by bytes that complete no request): the header read timeout, idle keep-alive too.
            "keepalive_timeout": settings.header_timeout_s,
        },
    )
    app[SETTINGS] = settings
    app.on_response_prepare.append(note_started)
    app[ENCOUNTERS] = Encounters(
        store,
        registry or Registry.discover(),
        max_events=settings.max_events,
        ids=ids,
        cache_encounters=settings.cache_encounters,
        snapshot_every=settings.snapshot_every,
        roll_limits=settings.roll_limits,
    )

    app[RECEIPTS] = ReceiptSigner()

    async def store_ctx(app: web.Application) -> AsyncIterator[None]:
        await store.open()
        app[RECEIPTS].load(store)  # the receipt keys live beside the seed key, never in the database
        yield
        await app[ENCOUNTERS].snapshots.settled()  # a snapshot being saved finishes before the store closes
        await store.close()

    app.cleanup_ctx.append(store_ctx)
    app.cleanup_ctx.append(_reaction_timeouts)
    app.add_routes(routes)

    heap_trim.install(app)
    live.setup(app)
    if isinstance(store, SharedFeed):  # other processes append too: the feed reads what they commit
        pg_listener.attach(app, store)
    operations.setup(app)
    app[METRICS].sections.append(app[ENCOUNTERS].cache.metric_lines)
    app[METRICS].sections.append(app[ENCOUNTERS].metric_lines)
    app[METRICS].sections.append(app[ENCOUNTERS].survived.metric_lines)
    if settings.loop_probe:
        loop_probe.install(app, app[METRICS].sections, trace=settings.loop_probe == "trace")
    webhooks.setup(app)
    discord.setup(app)
    pages.setup(app)
    return app
