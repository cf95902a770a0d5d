"""Webhooks: subscriptions, the outbox written with the events, the dispatcher, notices, signatures.

`setup(app)` plugs them into an app: the routes (subscriptions.py), the side rows every append adds
(outbox.py, through `Encounters.side_rows`), the dispatcher as a background task (dispatcher.py), and
its figures on /metrics. Settings: `webhooks=WebhookSettings(...)` and `webhook_allow_private=True` of
`make_app` (`tussle serve --webhook-allow-private`), `public_url` for the links in notices.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import functools
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from events.common import WebhookDisabled
from events.envelope import NewEvent
from events.store.outbox import DISABLED, REVOKED, WebhookChange, WebhookRow
from server.encounters.service_errors import ServiceError
from server.encounters.survived import ACTING_NOTICES, WEBHOOK_DISABLE, Survived, stopped
from server.encounters.tokens import Principal
from server.http.context import ENCOUNTERS, SETTINGS
from server.ops.metrics import METRICS
from server.webhooks.dispatcher import Dispatcher
from server.webhooks.notices import reminder_notice
from server.webhooks.outbox import outbox_rows, reminder_rows
from server.webhooks.subscriptions import DISPATCH_WAKE, routes

DISPATCHER = web.AppKey("webhook_dispatcher", Dispatcher)


def side_rows(
    state: dict[str, Any],
    new: list[NewEvent],
    actor: str,
    command_id: str,
    ruleset: Any,
    states: list[dict[str, Any]] | None = None,
    now: dt.datetime | None = None,
    survived: Survived | None = None,
) -> dict[str, list[Any]]:
    """The deliveries an append's events cause, and the webhooks of seats it revokes."""
    hooks = state["webhooks"]
    if not hooks:
        return {}
    revoked = {ne.data["seat"] for ne in new if ne.type == "SeatRevoked"}

    def acting_failed(exc: BaseException) -> None:
        if survived is not None:
            survived.record(ACTING_NOTICES, exc, state["stream"])

    return {
        "outbox": outbox_rows(
            state, new, actor, command_id, ruleset, now, on_error=acting_failed, states=states
        ),
        "webhook_changes": [
            WebhookChange(wid, status=REVOKED) for wid, w in hooks.items() if w["seat"] in revoked
        ],
    }


def setup(app: web.Application) -> None:

    config = app[SETTINGS].webhooks
    enc = app[ENCOUNTERS]

    async def disabled(w: WebhookRow, reason: str) -> None:
        """Tell the GM, in the stream (whose notice reaches the GM's other webhooks)."""

        try:
            await enc.admin_event(
                w.stream,
                Principal("system", w.stream),
                {},
                WebhookDisabled(w.id, reason),
                side={"webhook_changes": [WebhookChange(w.id, status=DISABLED)]},
                action="disable_webhook",
            )
        except ServiceError as exc:  # a closed encounter takes no more events; the webhook's row says it all
            enc.survived.record(WEBHOOK_DISABLE, exc, w.stream)

    dispatcher = Dispatcher(enc.store, enc.store, config, disabled)
    app[DISPATCHER] = dispatcher
    app[DISPATCH_WAKE] = dispatcher.wake
    enc.side_rows = functools.partial(side_rows, survived=enc.survived)
    enc.after_side_rows = dispatcher.wake
    enc.reminder_rows = lambda state, p, deadline: reminder_rows(state, reminder_notice(state, p, deadline))
    app[METRICS].sections.append(dispatcher.stats.lines)
    app.add_routes(routes)

    async def dispatching(app: web.Application) -> AsyncIterator[None]:
        task = asyncio.create_task(dispatcher.run(), name="tussle-webhook-dispatcher")
        yield
        await stopped(task)

    app.cleanup_ctx.append(dispatching)
