"""The cross-process feed of a shared database (PostgreSQL; the port: `SharedFeed` in
events/store/port.py): every committed event, whichever process appended it, reaches
this process's LiveFeed (and so its websocket subscribers) once, in commit order.

- LISTEN/NOTIFY is only a wake-up ("stream X has new events up to seq N"): the events themselves are
  read from the table by position, so a notification's payload is never trusted or needed.
- On every (re)connection the listener LISTENs first and then catches up from the last position it
  delivered: anything committed before the LISTEN is found by the catch-up, anything after it wakes it.
- It also polls every `poll_s` as a backstop, so a lost notification (or a half-open connection)
  delays an event but never drops it; the poll also pings the LISTEN connection.
- The notifications also keep the store's caches current (events/store/notified_caches.py): every one
  is handed to `store.notified`; the caches are trusted only from a LISTEN until the connection is
  lost (`notices_trusted`), since a notification sent while nobody listened is lost for good.
- While this process has no subscriber at all, the listener reads no events: it moves its bookmark to
  the last position it heard of (from a notification, or read by the poll) instead. A subscriber that
  comes later catches up from the store itself after joining its hub (server/live/websocket.py), so
  nothing committed before it joined is owed to it by the feed.
- Positions are dense and commit-ordered (events/store/postgres.py), so "everything after my last
  position" is exactly what is new: nothing committed later can appear below the bookmark.

Why the listener is the only publisher on PostgreSQL (`Encounters.publish_appends = False`): this
process's own appends would otherwise reach the feed twice (once from the append path, once from the
table), and deduplicating by seq cannot tell "already sent" from "not yet sent, a gap" when another
process appended in between. Reading the table by position gives each subscriber every event once,
per encounter in seq order with no gap. Local appends wake the listener directly (`store.on_commit`),
so they do not wait for the NOTIFY round trip.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import itertools
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import structlog
from aiohttp import web

from events.envelope import Event
from events.store.port import Listening, SharedFeed
from server.encounters.feed import LiveFeed
from server.http.context import ENCOUNTERS

log = structlog.get_logger("tussle.pg_listener")


class PgFeedListener:
    """Publishes every event appended to the database after `start` into `feed`, once, in position order."""

    def __init__(
        self,
        store: SharedFeed,
        feed: LiveFeed,
        *,
        poll_s: float = 1.0,
        retry_s: float = 0.5,
        batch: int = 500,
    ):
        self.store = store
        self.feed = feed
        self.poll_s = poll_s
        self.retry_s = retry_s
        self.batch = batch
        self.position = 0  # the last position delivered to the feed
        self.heard = 0  # the last committed position heard of (notifications, the poll)
        self.connections = 0  # how many times a LISTEN connection was made (1 + reconnections)
        self.listen_pid: int | None = None  # the LISTEN connection's server process (for operators, tests)
        self._wake = asyncio.Event()
        self._task: asyncio.Task[None] | None = None
        self._listening: Listening | None = None
        self._stop_local: Any = None

    async def start(self) -> None:
        """Begin after the last committed position: subscribers catch up on older events from the store."""
        self.position = await self.store.last_position()
        self._stop_local = self.store.on_commit(self._wake.set)
        self._task = asyncio.create_task(self._run(), name="pg-feed-listener")

    async def stop(self) -> None:
        if self._stop_local is not None:
            self._stop_local()
            self._stop_local = None
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None

    async def _run(self) -> None:
        while True:
            lost = asyncio.Event()
            try:
                self._listening = await self.store.listen(self._notified, functools.partial(self._lost, lost))
                self.store.notices_trusted(True)
                self.listen_pid = self._listening.server_pid
                self.connections += 1
                # LISTEN is in force from here on: catch up on what was committed before it.
                await self._catch_up()
                while not lost.is_set():
                    woken = await self._wait(lost)
                    if not woken and not lost.is_set():
                        # The backstop poll: also proves the LISTEN connection is still alive.
                        last = await self._listening.last_committed(timeout=max(self.poll_s, 5.0))
                        self.heard = max(self.heard, last)
                    await self._catch_up()
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the database went away: reconnect, never give up
                log.warning(
                    "pg_listener_reconnect", error=f"{type(exc).__name__}: {exc}", position=self.position
                )
            finally:
                self.store.notices_trusted(False)
                await self._close_listening()
            await asyncio.sleep(self.retry_s)

    async def _close_listening(self) -> None:
        listening, self._listening = self._listening, None
        if listening is not None:
            await listening.close()

    def _lost(self, lost: asyncio.Event) -> None:
        self.store.notices_trusted(False)  # at once: notifications may already be missing
        lost.set()

    def _notified(self, payload: str) -> None:
        try:
            said = msgspec.json.decode(payload)
            position = said.get("position")
            if isinstance(position, int) and position > self.heard:
                self.heard = position
            self.store.notified(said)
        except (msgspec.DecodeError, AttributeError):
            self.store.notice_unreadable()  # not ours: whatever it said, trust nothing cached before it
            position = None  # not ours to judge: read the table
        if not isinstance(position, int) or position > self.position:
            self._wake.set()  # else this process delivered those events already (its own append)

    async def _wait(self, lost: asyncio.Event) -> bool:
        """Wait for a wake-up, a lost connection or the poll interval; True when woken."""
        waiters = [asyncio.ensure_future(self._wake.wait()), asyncio.ensure_future(lost.wait())]
        try:
            done, _ = await asyncio.wait(waiters, timeout=self.poll_s, return_when=asyncio.FIRST_COMPLETED)
        finally:
            for w in waiters:
                w.cancel()
        return waiters[0] in done

    async def _catch_up(self) -> None:
        """Publish everything after the last delivered position, in position order."""
        while True:
            self._wake.clear()  # a wake-up during the read below triggers one more pass
            if self.feed.idle():  # no subscriber here: nobody is owed these events by the feed
                self.position = max(self.position, self.heard)
                return
            batch = await self.store.read_all(self.position, self.batch)
            if not batch:
                return
            self._publish([e for _, e in batch])
            self.position = batch[-1][0]
            if len(batch) < self.batch:
                return

    def _publish(self, events: list[Event]) -> None:
        for stream, run in itertools.groupby(events, key=lambda e: e.stream):
            try:
                self.feed.publish(stream, list(run))
            except Exception as exc:  # noqa: BLE001 - one bad subscriber must not stop the feed
                log.error("pg_listener_subscriber_failed", stream=stream, error=repr(exc))


PG_LISTENER = web.AppKey("pg_listener", PgFeedListener)


def attach(app: web.Application, store: SharedFeed, **options: Any) -> None:
    """Make the app's LiveFeed carry every process's events; the listener becomes its only publisher."""

    encounters = app[ENCOUNTERS]
    encounters.publish_appends = False
    listener = app[PG_LISTENER] = PgFeedListener(store, encounters.feed, **options)

    async def listening(app: web.Application) -> AsyncIterator[None]:
        await listener.start()
        yield
        await listener.stop()

    app.cleanup_ctx.append(listening)
