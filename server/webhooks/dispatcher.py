"""The dispatcher: sends the outbox's deliveries, at least once, in order per endpoint.

A background task of the app. It leases endpoints that have deliveries due (`claim_endpoints`: one
process per endpoint, also across PostgreSQL processes) and sends each leased endpoint's pending
deliveries one at a time in (seq, part) order, each in a task of its own so a slow or hanging
endpoint holds up only itself. A delivery is marked delivered after its 2xx; a crash in between
sends it again after restart (at least once; its `webhook-id` stays the same, for receivers to
deduplicate on). A failure stops the endpoint until its next try: exponential backoff with jitter,
or the receiver's `Retry-After` on a 429; an endpoint failing for `give_up_s` (24 h) is disabled and
the GM told (a `WebhookDisabled` event, whose notice reaches the GM's other webhooks).
"""

from __future__ import annotations

import asyncio
import random
import time
from collections.abc import Awaitable, Callable
from typing import Any

import aiohttp
import msgspec
import structlog

from events.envelope import Event
from events.store.outbox import Attempt, Delivery, WebhookRow, WebhookStore
from events.store.port import EventStore
from server.ops.metrics import Histogram
from server.settings import WebhookSettings
from server.webhooks import signing
from server.webhooks.discord import LIMIT
from server.webhooks.safety import CheckingResolver, ForbiddenAddress, UnsafeUrl, check_literal, parse_url

log = structlog.get_logger("tussle.webhooks")

LATENCY_BUCKETS = (0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0, 10.0, 60.0, 600.0, 3600.0)
EXCERPT = 200  # characters of a failed response's body kept as its last error


class Outcome(msgspec.Struct, frozen=True):
    ok: bool
    status: int | None = None
    error: str | None = None
    retry_after: float | None = None


class Stats:
    """What /metrics shows of webhooks."""

    def __init__(self) -> None:
        self.delivered = 0
        self.failed = 0  # failed attempts
        self.disabled = 0
        self.retrying: set[str] = set()  # endpoints waiting for their next try
        self.outbox_depth = 0
        self.latency = Histogram(LATENCY_BUCKETS)

    def lines(self) -> list[str]:
        out = [
            "# HELP tussle_webhook_deliveries_total Webhook deliveries by outcome (failed counts attempts).",
            "# TYPE tussle_webhook_deliveries_total counter",
            f'tussle_webhook_deliveries_total{{outcome="delivered"}} {self.delivered}',
            f'tussle_webhook_deliveries_total{{outcome="failed"}} {self.failed}',
            "# HELP tussle_webhook_endpoints_disabled_total Endpoints disabled after failing too long.",
            "# TYPE tussle_webhook_endpoints_disabled_total counter",
            f"tussle_webhook_endpoints_disabled_total {self.disabled}",
            "# HELP tussle_webhook_endpoints_retrying Endpoints of this process waiting for their next try.",
            "# TYPE tussle_webhook_endpoints_retrying gauge",
            f"tussle_webhook_endpoints_retrying {len(self.retrying)}",
            "# HELP tussle_webhook_outbox_depth Pending deliveries of active endpoints (whole store).",
            "# TYPE tussle_webhook_outbox_depth gauge",
            f"tussle_webhook_outbox_depth {self.outbox_depth}",
            "# HELP tussle_webhook_delivery_seconds From the append to the receiver's 2xx.",
            "# TYPE tussle_webhook_delivery_seconds histogram",
        ]
        h, cumulative = self.latency, 0
        for bound, n in zip(h.buckets, h.counts, strict=False):
            cumulative += n
            out.append(f'tussle_webhook_delivery_seconds_bucket{{le="{bound}"}} {cumulative}')
        out += [
            f'tussle_webhook_delivery_seconds_bucket{{le="+Inf"}} {h.count}',
            f"tussle_webhook_delivery_seconds_sum {h.sum}",
            f"tussle_webhook_delivery_seconds_count {h.count}",
        ]
        return out


def backoff(attempts: int, settings: WebhookSettings, rng: random.Random = random._inst) -> float:
    """Seconds until the next try after `attempts` failures: doubling from retry_base_s up to retry_cap_s,
    with jitter (a random half to whole of it) so endpoints that failed together do not retry together."""
    delay = min(settings.retry_cap_s, settings.retry_base_s * 2 ** max(0, attempts - 1))
    return delay * rng.uniform(0.5, 1.0)


def retry_after(value: str | None) -> float | None:
    """A Retry-After of seconds (the HTTP-date form is rare for webhooks: treated as absent)."""
    try:
        return max(0.0, float(value)) if value is not None else None
    except ValueError:
        return None


def render(w: WebhookRow, d: Delivery, event: Event | None) -> bytes:
    """The request body of a delivery: the same bytes on every try (only the signature's time differs)."""
    data = msgspec.json.decode(d.body)
    link = f"{w.base_url}/encounters/{w.stream}/view"
    if d.kind == "test":
        text = f"Test message from Tussle, sent by {data['by']}: this webhook is set up and its signature checks out."
        if w.format == "discord":
            body = {"content": f"{text}\n{link}", "username": "Tussle", "allowed_mentions": {"parse": []}}
            if w.avatar_url:
                body["avatar_url"] = w.avatar_url
            return msgspec.json.encode(body)
        when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(d.created_at))
        return msgspec.json.encode(
            {
                "type": "tussle.test",
                "timestamp": when,
                "data": {"encounter": w.stream, "seq": d.seq, "text": text, "link": link},
            }
        )
    if w.format == "discord":
        if "content" not in data:  # a notice owed since before notices were split in the outbox
            data = {
                "content": f"**{data['to_name']}**: {data['text']}"[: LIMIT - len(link) - 1],
                "link": True,
            }
        content = f"{data['content']}\n{link}" if data.get("link") else data["content"]
        body = {"content": content, "allowed_mentions": {"parse": []}}
        if data.get("username"):
            body["username"] = data["username"]
        if w.avatar_url:
            body["avatar_url"] = w.avatar_url
        return msgspec.json.encode(body)
    when = time.strftime("%Y-%m-%dT%H:%M:%SZ", time.gmtime(d.created_at))
    if d.kind == "event":
        payload: dict[str, Any] = {
            "type": "tussle.event",
            "timestamp": when,
            "data": {"encounter": w.stream, "seq": d.seq, "event": event},
        }
    elif d.kind == "log":
        payload = {
            "type": "tussle.log",
            "timestamp": when,
            "data": {"encounter": w.stream, "seq": d.seq, "entries": data["entries"], "link": link},
        }
    else:
        payload = {
            "type": "tussle.notice",
            "timestamp": when,
            "data": {
                "encounter": w.stream,
                "seq": d.seq,
                "to": data["to"],
                "to_name": data["to_name"],
                "kind": data["kind"],
                "text": data["text"],
                "reaction": data.get("reaction"),
                # your_turn and asked: the acting_now entry the notice tells of (rules/acting.py)
                "combatant": data.get("combatant"),
                "slot": data.get("slot"),
                # asked and reminder: when the default answers (UTC; null: the encounter sets no timeout)
                "deadline": data.get("deadline"),
                "link": link,
            },
        }
    return msgspec.json.encode(payload)


class Dispatcher:
    """One per app; `run()` is its background task (cancelled at cleanup)."""

    def __init__(
        self,
        store: WebhookStore,
        events: EventStore,
        settings: WebhookSettings,
        disabled: Callable[[WebhookRow, str], Awaitable[None]] | None = None,
    ):
        self.store = store
        self.events = events  # an event delivery's envelope is read from the stream
        self.settings = settings
        self.disabled = disabled  # tells the GM (appends WebhookDisabled)
        self.stats = Stats()
        self._wake = asyncio.Event()
        self._tasks: set[asyncio.Task[None]] = set()
        self._session: aiohttp.ClientSession | None = None
        self._rng = random.Random()
        # Outcomes waiting to be recorded, and the task recording them: the endpoints that finish a try
        # meanwhile share one transaction (one fsync on SQLite) instead of one each.
        self._outcomes: list[tuple[Attempt, asyncio.Future[None]]] = []
        self._recorder: asyncio.Task[None] | None = None

    def wake(self) -> None:
        """Look at the outbox now (new deliveries were committed by this process)."""
        self._wake.set()

    async def run(self) -> None:
        s = self.settings
        connector = aiohttp.TCPConnector(
            resolver=CheckingResolver(s.allow_private), use_dns_cache=False, limit=s.concurrency
        )
        timeout = aiohttp.ClientTimeout(
            total=s.connect_timeout_s + s.read_timeout_s,
            sock_connect=s.connect_timeout_s,
            sock_read=s.read_timeout_s,
        )
        self._session = aiohttp.ClientSession(
            connector=connector,
            timeout=timeout,
            auto_decompress=False,
            headers={"User-Agent": "Tussle-Webhooks/1"},
        )
        last_depth = 0.0
        try:
            while True:
                self._wake.clear()
                try:
                    free = s.concurrency - len(self._tasks)
                    if free > 0:
                        for w in await self.store.claim_endpoints(time.time(), s.lease_s, free):
                            task = asyncio.create_task(self._endpoint(w))
                            self._tasks.add(task)
                            task.add_done_callback(self._endpoint_done)
                    if time.monotonic() - last_depth >= 1.0:
                        self.stats.outbox_depth = await self.store.outbox_depth()
                        last_depth = time.monotonic()
                except Exception as exc:  # noqa: BLE001 - the store may be down for a while: try again later
                    log.warning("webhook_claim_failed", error=f"{type(exc).__name__}: {exc}")
                try:
                    await asyncio.wait_for(self._wake.wait(), s.poll_s)
                except TimeoutError:
                    pass
        finally:
            for task in list(self._tasks):
                task.cancel()
            await asyncio.gather(*self._tasks, return_exceptions=True)
            if self._recorder is not None:
                await asyncio.gather(self._recorder, return_exceptions=True)
            await self._session.close()

    def _endpoint_done(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        self._wake.set()  # a place is free: claim the next endpoint waiting, if any

    async def record(self, attempt: Attempt) -> None:
        """Record an outcome, committed together with those of other endpoints that finish meanwhile."""
        done: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        self._outcomes.append((attempt, done))
        if self._recorder is None or self._recorder.done():
            self._recorder = asyncio.create_task(self._record_waiting())
        await asyncio.shield(done)  # a cancelled endpoint task still has its outcome recorded

    async def _record_waiting(self) -> None:
        while self._outcomes:
            batch, self._outcomes = self._outcomes, []
            try:
                await self.store.record_attempts([a for a, _ in batch])
            except Exception as exc:  # noqa: BLE001 - each endpoint hears of it (its lease runs out)
                for _, done in batch:
                    done.set_exception(exc)
                continue
            for _, done in batch:
                done.set_result(None)

    async def _endpoint(self, w: WebhookRow) -> None:
        """Send one leased endpoint's pending deliveries in order until none is left or one fails."""
        held = True
        try:
            while True:
                batch = await self.store.pending(w.id, self.settings.batch)
                if not batch:
                    return
                for i, d in enumerate(batch):
                    # The last of a short batch releases the lease with its record: nothing is left (what
                    # is appended meanwhile wakes the next claim).
                    last = i == len(batch) - 1 and len(batch) < self.settings.batch
                    if not await self._deliver(w, d, release=last) or last:
                        held = False
                        return
        except asyncio.CancelledError:
            raise
        except Exception as exc:  # noqa: BLE001 - the lease runs out and another claim tries again
            log.warning("webhook_endpoint_failed", webhook=w.id, error=f"{type(exc).__name__}: {exc}")
        finally:
            if held:
                try:
                    await asyncio.shield(self.store.release_endpoint(w.id))
                except Exception:  # noqa: BLE001 - the lease runs out by itself
                    pass

    async def _deliver(self, w: WebhookRow, d: Delivery, release: bool) -> bool:
        s = self.settings
        event = None
        if d.kind == "event":
            found = await self.events.read(w.stream, d.seq, 1)
            event = found[0] if found else None
        outcome = await self.send(w, d.id, render(w, d, event))
        now = time.time()
        if outcome.ok:
            await self.record(
                Attempt(d.id, w.id, now, True, outcome.status, lease_s=0.0 if release else s.lease_s)
            )
            self.stats.delivered += 1
            self.stats.retrying.discard(w.id)
            self.stats.latency.observe(max(0.0, now - d.created_at))
            return True
        self.stats.failed += 1
        delay = (
            outcome.retry_after if outcome.retry_after is not None else backoff(d.attempts + 1, s, self._rng)
        )
        failing_since = w.failing_since if w.failing_since is not None else now
        give_up = now - failing_since >= s.give_up_s
        await self.record(
            Attempt(
                d.id, w.id, now, False, outcome.status, outcome.error, now + min(delay, s.give_up_s), give_up
            )
        )
        log.info(
            "webhook_attempt_failed",
            webhook=w.id,
            delivery=d.id,
            attempts=d.attempts + 1,
            status=outcome.status,
            error=outcome.error,
            retry_in_s=round(delay, 3),
        )
        if give_up:
            self.stats.disabled += 1
            self.stats.retrying.discard(w.id)
            if self.disabled is not None:
                await self.disabled(
                    w,
                    f"it failed for {round((now - failing_since) / 3600, 1)} h (last error: {outcome.error})",
                )
        else:
            self.stats.retrying.add(w.id)
        return False

    async def send(self, w: WebhookRow, msg_id: str, body: bytes) -> Outcome:
        """One signed POST; never follows a redirect, keeps a short excerpt of a failure's body."""
        assert self._session is not None
        try:
            _, host, _ = parse_url(w.url)
            check_literal(host, self.settings.allow_private)
        except UnsafeUrl as exc:
            return Outcome(False, error=str(exc))
        headers = {
            "Content-Type": "application/json",
            **signing.headers(w.secret, msg_id, int(time.time()), body),
        }
        try:
            async with self._session.post(w.url, data=body, headers=headers, allow_redirects=False) as r:
                if 200 <= r.status < 300:
                    return Outcome(True, r.status)
                excerpt = (await r.content.read(EXCERPT)).decode("utf-8", errors="replace")
                wait = retry_after(r.headers.get("Retry-After")) if r.status in (429, 503) else None
                return Outcome(False, r.status, f"HTTP {r.status}: {excerpt}".strip()[:EXCERPT], wait)
        except (aiohttp.ClientError, TimeoutError, OSError) as exc:
            # Messages name the host at most; the URL's path and query (a token, for Discord) never.
            error = f"{type(exc).__name__}: {_reason(exc)}".replace(w.url, host)
            return Outcome(False, error=error[:EXCERPT])


def _reason(exc: BaseException) -> str:
    """A failed delivery's reason: our resolver's refusal when that is what failed (aiohttp wraps it in a
    ClientConnectorDNSError whose text keeps only `[None]`), else the error's own text."""
    seen: BaseException | None = exc
    while seen is not None:
        if isinstance(seen, ForbiddenAddress):
            return str(seen)
        seen = getattr(seen, "os_error", None) or seen.__cause__ or seen.__context__
    return str(exc)
