"""Webhook subscriptions over HTTP: create, list, delete, rotate the secret, and see the deliveries.

The GM manages every webhook of the encounter; a player may add webhooks for its own seat's notices
and manage those. Each change is an event in the stream recording only {webhook, seat, deliver,
format, host} — the URL (whose path may hold a token, as Discord's does) and the secret stay in the
store, and the secret is shown once, when made.
"""

from __future__ import annotations

import datetime as dt
import secrets
import time
from collections.abc import Callable
from typing import Any
from urllib.parse import urlsplit

import msgspec
from aiohttp import web

from events.common import WebhookCreated, WebhookDeleted, WebhookEnabled, WebhookSecretRotated
from events.envelope import NewEvent, by_command
from events.store.outbox import (
    ACTIVE,
    DELETED,
    DISABLED,
    REVOKED,
    Delivery,
    OutboxRow,
    WebhookChange,
    WebhookRow,
)
from rules.pipeline import ID_PATTERN
from rules.state import evolve
from server.encounters.access import require, sees_webhook, webhook_fields
from server.encounters.service import SideOf
from server.encounters.service_errors import Closed, Conflict, NotFound, bad_request
from server.encounters.tokens import Principal
from server.http import api_types as t
from server.http.context import ENCOUNTERS, SETTINGS, actor, int_query, json_response
from server.http.input_checks import read_json
from server.webhooks import signing
from server.webhooks.outbox import outbox_rows
from server.webhooks.safety import UnsafeUrl, check_reachable

DELIVER = ("events", "log", "notices")
FORMATS = ("json", "discord")
MAX_PER_ENCOUNTER = 20
ROLES = ("gm", "player")

routes = web.RouteTableDef()
# Wakes the dispatcher (server/webhooks/__init__.py sets it): a retried or test delivery goes at once.
DISPATCH_WAKE: web.AppKey[Callable[[], None]] = web.AppKey("webhook_dispatch_wake")


def _iso(t: float | None) -> str | None:
    if t is None or t <= 0:
        return None
    return dt.datetime.fromtimestamp(t, dt.UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def _view_fields(w: WebhookRow) -> dict[str, Any]:
    """A webhook as its readers see it: the host, never the URL or the secret."""
    return {
        "id": w.id,
        "seat": w.seat,
        "deliver": w.deliver,
        "format": w.format,
        "host": urlsplit(w.url).hostname,
        "status": w.status,
        "created_at": _iso(w.created_at),
        "failing_since": _iso(w.failing_since),
        "next_try": _iso(w.next_at),
        "last_error": w.last_error,
        "avatar_url": w.avatar_url,
    }


def webhook_view(w: WebhookRow) -> t.WebhookView:
    return t.WebhookView(**_view_fields(w))


def webhook_created(w: WebhookRow, secret: str | None) -> t.WebhookCreatedResponse:
    """The answer to POST .../webhooks: the webhook and its secret, shown this once (null on a resend)."""
    return t.WebhookCreatedResponse(**_view_fields(w), secret=secret)


def delivery_view(d: Delivery) -> t.DeliveryView:
    return t.DeliveryView(
        id=d.id,
        seq=d.seq,
        part=d.part,
        kind=d.kind,
        status=d.status,
        attempts=d.attempts,
        created_at=_iso(d.created_at),
        next_try=_iso(d.next_at) if d.status == "pending" else None,
        last_status=d.last_status,
        last_error=d.last_error,
        delivered_at=_iso(d.delivered_at),
    )


def _fields(body: dict[str, Any], who: Principal, state: dict[str, Any]) -> tuple[str | None, list[str], str]:
    unknown = set(body) - {"url", "deliver", "format", "seat", "avatar_url", "command_id"}
    if unknown:
        raise bad_request(f"unknown field {sorted(unknown)[0]!r}", sorted(unknown)[0])
    deliver = body.get("deliver", ["notices"])
    if (
        not isinstance(deliver, list)
        or not deliver
        or not all(isinstance(k, str) and k in DELIVER for k in deliver)
        or len(set(deliver)) != len(deliver)
    ):
        raise bad_request("deliver must be a non-empty list of events, log and notices", "deliver")
    fmt = body.get("format", "json")
    if fmt not in FORMATS:
        raise bad_request("format must be json or discord", "format")
    seat = body.get("seat", who.seat if who.role == "player" else None)
    if seat is not None and (not isinstance(seat, str) or not ID_PATTERN.match(seat)):
        raise bad_request("seat must be a seat id", "seat")
    if seat is not None and (seat not in state["seats"] or state["seats"][seat].get("revoked")):
        raise bad_request(f"there is no seat {seat!r} in this encounter", "seat")
    webhook_fields(who, seat, deliver)
    return seat, deliver, fmt


def _avatar(url: Any) -> str | None:
    """An avatar for Discord messages: an https URL (Discord fetches it; nothing else is accepted)."""
    if url is None or url == "":
        return None
    parts = urlsplit(url) if isinstance(url, str) else None
    if parts is None or parts.scheme != "https" or not parts.hostname or len(url) > 2048:
        raise bad_request("avatar_url must be an https URL (at most 2,048 characters)", "avatar_url")
    return url


async def _mine(request: web.Request, stream: str, who: Principal, wid: str) -> WebhookRow:
    """The webhook named in the path, if this principal may manage it (404 for anyone else's)."""
    w = await request.app[ENCOUNTERS].webhook(wid)
    if w is None or w.stream != stream or w.status == DELETED or not sees_webhook(who, w):
        raise NotFound(f"there is no webhook {wid!r} in this encounter")
    return w


async def _operation(request: web.Request, op: str, wid: str) -> dict[str, Any]:
    """The body a webhook's deletion, secret rotation or re-enabling is appended with: the client's own
    `command_id` (a POST's JSON body, a DELETE's query), so that a page or bot can keep it in its sent
    record as it does every command in its seat's name (docs/verifying.md), and a resend is answered as
    one; with the operation and the webhook, so that the same id reused for another is a 409."""
    given: dict[str, Any] = {}
    if request.method == "DELETE":
        if "command_id" in request.query:
            given = {"command_id": request.query["command_id"]}
    elif request.can_read_body:
        given = await read_json(request)
        unknown = set(given) - {"command_id"}
        if unknown:
            raise bad_request(f"unknown field {sorted(unknown)[0]!r}", sorted(unknown)[0])
    return {**given, "operation": op, "webhook": wid}


async def _manager(request: web.Request, stream: str) -> Principal:
    return require(await actor(request, stream), "manage_webhooks")


@routes.post("/encounters/{id}/webhooks")
async def create_webhook(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    body = await read_json(request)
    who = await _manager(request, stream)
    enc = request.app[ENCOUNTERS]
    state = await enc.state(stream)
    seat, deliver, fmt = _fields(body, who, state)
    try:
        host = await check_reachable(body.get("url"), request.app[SETTINGS].webhooks.allow_private)
    except UnsafeUrl as exc:
        raise bad_request(str(exc), "url") from None
    if len(await enc.webhooks(stream)) >= MAX_PER_ENCOUNTER:
        raise bad_request(f"an encounter has at most {MAX_PER_ENCOUNTER} webhooks: delete one first", "url")
    wid, secret = f"wh_{secrets.token_hex(8)}", signing.new_secret()
    base_url = request.app[SETTINGS].public_url or str(request.url.origin())
    row = WebhookRow(
        wid,
        stream,
        body["url"],
        secret,
        seat,
        deliver,
        fmt,
        base_url.rstrip("/"),
        time.time(),
        avatar_url=_avatar(body.get("avatar_url")),
    )
    out = await enc.admin_event(
        stream,
        who,
        body,
        WebhookCreated(wid, seat, deliver, fmt, host),
        side={"webhooks": [row]},
        action="manage_webhooks",
    )
    if out.duplicate:  # a resent command_id: the webhook it made, without its secret (shown once)
        made = await enc.webhook(out.events[0].data["webhook"])
        assert made is not None
        return json_response(webhook_created(made, None), status=200)
    made = await enc.webhook(wid)
    assert made is not None
    return json_response(webhook_created(made, secret), status=201)


@routes.get("/encounters/{id}/webhooks")
async def list_webhooks(request: web.Request) -> web.Response:
    stream = request.match_info["id"]
    who = await _manager(request, stream)
    hooks = await request.app[ENCOUNTERS].webhooks(stream)
    return json_response(t.WebhookList([webhook_view(w) for w in hooks if sees_webhook(who, w)]))


@routes.delete("/encounters/{id}/webhooks/{wid}")
async def delete_webhook(request: web.Request) -> web.Response:
    stream, wid = request.match_info["id"], request.match_info["wid"]
    who = await _manager(request, stream)
    body = await _operation(request, "delete", wid)
    await _mine(request, stream, who, wid)
    await request.app[ENCOUNTERS].admin_event(
        stream,
        who,
        body,
        WebhookDeleted(wid),
        action="manage_webhooks",
        side={"webhook_changes": [WebhookChange(wid, status=DELETED)]},
    )
    return web.Response(status=204)


@routes.post("/encounters/{id}/webhooks/{wid}/secret")
async def rotate_secret(request: web.Request) -> web.Response:
    stream, wid = request.match_info["id"], request.match_info["wid"]
    who = await _manager(request, stream)
    body = await _operation(request, "rotate_secret", wid)
    await _mine(request, stream, who, wid)
    secret = signing.new_secret()
    out = await request.app[ENCOUNTERS].admin_event(
        stream,
        who,
        body,
        WebhookSecretRotated(wid),
        action="manage_webhooks",
        side={"webhook_changes": [WebhookChange(wid, secret=secret)]},
    )
    if out.duplicate:  # a resent command_id: the secret its rotation set, for the one who rotated it
        rotated = await request.app[ENCOUNTERS].webhook(wid)
        assert rotated is not None
        return json_response(t.WebhookSecret(wid, rotated.secret), status=200)
    return json_response(t.WebhookSecret(wid, secret), status=201)


@routes.get("/encounters/{id}/webhooks/{wid}/deliveries")
async def list_deliveries(request: web.Request) -> web.Response:
    stream, wid = request.match_info["id"], request.match_info["wid"]
    limit = int_query(request, "limit", 100, 1, 1000)
    who = await _manager(request, stream)
    w = await _mine(request, stream, who, wid)
    found = await request.app[ENCOUNTERS].deliveries(wid, limit or 100)
    return json_response(t.DeliveryList(webhook_view(w), [delivery_view(d) for d in found]))


@routes.post("/encounters/{id}/webhooks/{wid}/redeliver")
async def redeliver(request: web.Request) -> web.Response:
    """Send the webhook's undelivered deliveries again, in order, now; a disabled webhook is re-enabled
    first, which the stream records (`WebhookEnabled`), as it recorded the disabling."""
    stream, wid = request.match_info["id"], request.match_info["wid"]
    who = require(await _manager(request, stream), "redeliver_webhook")
    body = await _operation(request, "redeliver", wid)
    w = await _mine(request, stream, who, wid)
    enc = request.app[ENCOUNTERS]
    if w.status == REVOKED:
        raise Conflict("this webhook stopped with its seat, which was revoked: a new seat adds its own")
    enabled = False
    if w.status == DISABLED:
        state = await enc.state(stream)
        if state["closed"]:
            raise Closed(
                "this encounter is closed and takes no more events: re-enabling a webhook is one "
                "(WebhookEnabled), so a disabled webhook stays disabled; an active one's deliveries can "
                "still be retried"
            )
        host = urlsplit(w.url).hostname or ""
        enabling = WebhookEnabled(wid, w.seat, w.deliver, w.format, host)
        await enc.admin_event(
            stream,
            who,
            body,
            enabling,
            action="redeliver_webhook",
            side={"webhook_changes": [WebhookChange(wid, status=ACTIVE)]},
            side_of=_missed_while_disabled(enc, stream, enabling, who.actor),
        )
        enabled = True
    owed = await enc.redeliver(wid, time.time())
    request.app[DISPATCH_WAKE]()
    made = await enc.webhook(wid)
    assert made is not None
    return json_response(t.Redelivering(webhook_view(made), owed, enabled))


def _missed_while_disabled(enc: Any, stream: str, enabling: WebhookEnabled, actor: str) -> SideOf:
    """The deliveries a re-enabled webhook is owed for what it missed: every command appended since it
    was disabled, and the re-enabling itself, made as if it had been on all along, so that it is sent
    everything in order from the first event it was not delivered (issue 28 item 4)."""
    wid = enabling.webhook
    hook = msgspec.structs.asdict(enabling)  # as the fold keeps an enabled webhook

    async def side_of(state: dict[str, Any], command_id: str) -> dict[str, Any]:
        since = await _disabled_at(enc, stream, wid, state["seq"])
        ruleset = enc.ruleset_of(state)
        rows: list[OutboxRow] = []
        if since < state["seq"]:
            loaded = await enc.snapshots.load(stream, since)
            s = loaded.state
            for group in by_command(await enc.read_range(stream, since + 1, state["seq"])):
                before = {**s, "webhooks": {wid: hook}}
                states: list[
                    dict[str, Any]
                ] = []  # after each event, folded once: outbox_rows takes them as they are
                for e in group:
                    states.append(evolve(states[-1] if states else before, e, ruleset))
                new = [NewEvent(e.type, e.data) for e in group]
                rows += outbox_rows(before, new, group[0].actor, group[0].command_id, ruleset, states=states)
                if any(e.type == "EventVoided" for e in group):  # a void changes the past: fold again
                    s = (await enc.snapshots.load(stream, group[-1].seq)).state
                else:
                    s = states[-1]
        new = [NewEvent("WebhookEnabled", hook)]
        rows += outbox_rows({**state, "webhooks": {wid: hook}}, new, actor, command_id, ruleset)
        return {"outbox": rows}

    return side_of


async def _disabled_at(enc: Any, stream: str, wid: str, head: int) -> int:
    """The seq of the webhook's last WebhookDisabled (after its last delivery); the head if none."""
    last = await enc.deliveries(wid, 1)
    events = await enc.read_range(stream, last[0].seq if last else 1, head)
    found = [e.seq for e in events if e.type == "WebhookDisabled" and e.data["webhook"] == wid]
    return found[-1] if found else head


@routes.post("/encounters/{id}/webhooks/{wid}/test")
async def test_delivery(request: web.Request) -> web.Response:
    """A test message to the webhook, signed as every delivery is: recorded in its deliveries, never in the
    stream (it appends nothing)."""
    stream, wid = request.match_info["id"], request.match_info["wid"]
    who = await _manager(request, stream)
    w = await _mine(request, stream, who, wid)
    if w.status != ACTIVE:
        raise Conflict(
            f"this webhook is {w.status}: it sends nothing"
            + (" until the GM re-enables it (POST …/redeliver)" if w.status == DISABLED else "")
        )
    enc = request.app[ENCOUNTERS]
    state = await enc.state(stream)
    # After everything owed at this head (its parts count from 0), so the endpoint's order holds.
    row = OutboxRow(
        f"{wid}.test.{secrets.token_hex(6)}",
        wid,
        state["seq"],
        TEST_PART,
        "test",
        msgspec.json.encode({"by": _by(state, who)}).decode(),
    )
    await enc.add_delivery(stream, row, time.time())
    request.app[DISPATCH_WAKE]()
    return json_response(t.TestDelivery(row.id, webhook_view(w)), status=202)


# Parts of the deliveries a command causes count up from 0; a test delivery comes after them.
TEST_PART = 1_000_000


def _by(state: dict[str, Any], who: Principal) -> str:
    if who.role == "gm":
        return "the GM"
    return state["seats"].get(who.seat or "", {}).get("name", "a player")
