"""The firehose `GET /firehose` (docs/websocket.md "The firehose"): one websocket over the events of every
encounter a server-level reader token may read, each frame tagged with its encounter.

Shape of the machinery, the encounter websocket's (server/live/websocket.py) over the whole server:

- One `Firehose` per app while it has subscribers. It follows the store-wide feed in position order
  (`store.read_all`), woken by the LiveFeed whenever any encounter's events are published (on PostgreSQL
  the feed carries every process's appends: server/live/pg_listener.py). Each event's frame is encoded
  once (server/live/frames.py) and the same bytes offered to every subscriber that may read it.
- Who reads what: every public encounter, and the private ones whose GM granted the subscriber's
  token. The firehose keeps both sets current from the events it follows (`EncounterCreated`,
  `FirehoseGranted`, `FirehoseRevoked`): an encounter created or granted later joins at once, a
  revoked grant stops at once (its `FirehoseRevoked` is the last frame of it).
- Resuming is by one global position, the store's commit order: each subscriber is a `Subscriber` of
  the encounter websocket (bounded queue, 4008 `lagging`, held frames during catch-up) whose "seq" is
  the position. It joins the firehose BEFORE it reads the store, so nothing published from then on is
  missed, and frames it already read are dropped by position.
"""

from __future__ import annotations

import asyncio
from typing import Any

from aiohttp import web

from events.envelope import Event
from server.encounters.access import require
from server.encounters.service_errors import ServiceError
from server.encounters.survived import FIREHOSE_READ
from server.encounters.tokens import token_hash
from server.http.context import ENCOUNTERS, SETTINGS, bearer, principal
from server.live.frames import PONG, error_frame, firehose_caught_up_frame, firehose_frame
from server.live.websocket import (
    _CLOSED,
    CATCH_UP_PAGE,
    FIRST_CATCH_UP_PAGE,
    WS_HUBS,
    Subscriber,
    _finish,
    _parse,
    _receive,
    count_against,
    offer_all,
    upgrade,
)
from server.ops.metrics import ws_closed

FEED_PAGE = 500  # events per read of the store-wide feed
RETRY_S = 0.5  # after a failed read


class FirehoseSubscriber(Subscriber):
    """A firehose connection: a Subscriber whose position is the feed's, reading as one reader token."""

    __slots__ = ("firehose", "reader_id")

    def __init__(self, *args: Any, firehose: Firehose, **kwargs: Any):
        super().__init__(*args, **kwargs)
        self.firehose = firehose
        self.reader_id: str | None = None

    def end(self, code: int, frame: bytes | None = None, drop_queue: bool = False) -> None:
        if self.ending is None:
            self.firehose.leave(self)
        super().end(code, frame, drop_queue)

    LAGGING = (
        "this connection fell too far behind the server's feed; "
        "reconnect with after = the last position you received"
    )

    def lag_details(self) -> dict[str, Any]:
        return {"last_position": self.sent_seq}


class Firehose:
    """The app's one follower of the store-wide feed, and who of its subscribers reads which encounter."""

    def __init__(self, app: web.Application):
        self.app = app
        self.encounters = app[ENCOUNTERS]
        self.subs: set[FirehoseSubscriber] = set()
        self.position = 0  # the last position read and offered
        self.public: set[str] = set()
        self.granted: dict[str, set[str]] = {}  # reader token id -> the encounters its grants open
        self.wake = asyncio.Event()
        self.worker: asyncio.Task[None] | None = None
        self.unsubscribe: Any = None
        self.starting = asyncio.Lock()

    def reads(self, sub: FirehoseSubscriber, stream: str) -> bool:
        return stream in self.public or stream in self.granted.get(sub.reader_id or "", ())

    async def join(self, sub: FirehoseSubscriber) -> None:
        """From now on `sub` is offered every event it may read (held while it catches up). Whatever is
        published before its grants are loaded, the catch-up that follows reads from the store."""
        if sub.ending is not None:
            return
        self.subs.add(sub)  # first: another subscriber leaving meanwhile does not stop the follower
        store = self.encounters.store
        async with self.starting:
            if self.worker is None:
                # Position first, then the sets: events between the two are applied again, which
                # changes nothing (a set's last event wins, in position order).
                self.position = await store.last_position()
                self.public = {s.id for s in await store.list_streams(public_only=True)}
                self.granted = {}
                self.unsubscribe = self.encounters.feed.subscribe_every(lambda _s, _e: self.wake.set())
                self.worker = asyncio.create_task(self._run(), name="firehose")
            reader = sub.reader_id or ""
            if reader not in self.granted:
                self.granted[reader] = set(await store.granted_streams(reader))
        if sub.ending is not None:  # it ended while joining
            self.leave(sub)

    def leave(self, sub: FirehoseSubscriber) -> None:
        self.subs.discard(sub)
        if not self.subs:
            self.stop()

    def stop(self) -> None:
        """Nobody follows: read nothing. A later subscriber starts it again at the head, then catches up."""
        if self.unsubscribe is not None:
            self.unsubscribe()
            self.unsubscribe = None
        if self.worker is not None:
            self.worker.cancel()
            self.worker = None

    def reader_revoked(self, token_id: str) -> None:
        """The admin revoked a reader token: its connections in this process end now (those of other
        processes at their next ping, when they find the token gone)."""
        for s in [s for s in self.subs if s.reader_id == token_id]:
            s.end(4401, error_frame("unauthenticated", "your token was revoked"))

    async def _run(self) -> None:
        while True:
            await self.wake.wait()
            self.wake.clear()  # a publish during the read below triggers one more pass
            try:
                while True:
                    page = await self.encounters.store.read_all(self.position, FEED_PAGE)
                    for position, e in page:
                        self._offer(position, e)
                        self.position = position
                    if len(page) < FEED_PAGE:
                        break
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - the store failed a read: read the same page again
                self.encounters.survived.record(FIREHOSE_READ, exc)
                await asyncio.sleep(RETRY_S)
                self.wake.set()

    def _offer(self, position: int, e: Event) -> None:
        """Offer one event to its readers, its frame encoded once; keep who reads what current."""
        self.follow_access(e)
        readers = [s for s in self.subs if self.reads(s, e.stream)]
        if e.type == "FirehoseRevoked":  # the revoked reader's last frame of this encounter
            readers += [s for s in self.subs if s.reader_id == e.data["token_id"] and s not in readers]
        if readers:
            offer_all(readers, position, firehose_frame(position, e))

    def follow_access(self, e: Event) -> None:
        if e.type == "EncounterCreated" and e.data.get("public"):
            self.public.add(e.stream)
        elif e.type == "FirehoseGranted" and e.data["token_id"] in self.granted:
            self.granted[e.data["token_id"]].add(e.stream)
        elif e.type == "FirehoseRevoked" and e.data["token_id"] in self.granted:
            self.granted[e.data["token_id"]].discard(e.stream)


FIREHOSE = web.AppKey("firehose", Firehose)


# ---- the connection ---------------------------------------------------------------------------


async def firehose_handler(request: web.Request) -> web.StreamResponse:
    """GET /firehose: auth with a reader token (header, ?token= or a first auth message), then subscribe."""
    app = request.app
    hubs, firehose = app[WS_HUBS], app[FIREHOSE]
    settings = app[SETTINGS].ws
    token = bearer(request) or request.query.get("token") or None
    reader_id = await _reader_id(request, token) if token is not None else None
    ws, writer, key = await upgrade(request, token, settings)
    sub = FirehoseSubscriber(ws, request.transport, settings, hubs, writer, firehose=firehose)
    sub.reader_id = reader_id
    if token is not None:
        sub.token_hash = token_hash(token)
    try:
        while (
            msg := await _receive(ws, sub, None if sub.reader_id else settings.auth_timeout_s)
        ) is not None:
            if msg.type in _CLOSED:
                break
            body = _parse(msg)
            del msg  # an idle connection waits for the next one holding none (issue 32 item 3)
            op = body.get("op") if body is not None else None
            if sub.reader_id is None:
                if op != "auth" or not isinstance(body, dict) or not isinstance(body.get("token"), str):
                    sub.end(
                        4401,
                        error_frame(
                            "unauthenticated", 'the first message must be {"op": "auth", "token": ...}'
                        ),
                    )
                    break
                key = await _auth(request, sub, body["token"], key)
            elif op == "ping":
                sub.enqueue(PONG)
            elif op == "subscribe":
                _subscribe(sub, body or {})
            else:
                sub.enqueue(
                    error_frame("bad_request", f"unknown op {op!r}: use subscribe or ping", {"field": "op"})
                )
            body = None
    except TimeoutError:
        sub.end(
            4401,
            error_frame(
                "unauthenticated", f'send {{"op": "auth", "token": ...}} within {settings.auth_timeout_s:g} s'
            ),
        )
    finally:
        ws_closed(app, key)
        if sub.ending is None:
            sub.end(1000)
        firehose.leave(sub)
        if sub.task is not None:
            sub.task.cancel()
    return await _finish(ws, sub)


async def _reader_id(request: web.Request, token: str) -> str:
    """The id of a firehose (server-level reader) token; any other token, the admin's too, is refused (403)."""
    who = require(await principal(request, None, token), "read_firehose")
    assert who.token_id is not None  # every firehose token has one
    return who.token_id


async def _auth(request: web.Request, sub: FirehoseSubscriber, token: str, key: str) -> str:
    try:
        sub.reader_id = await _reader_id(request, token)
    except ServiceError as exc:
        sub.end(4401, error_frame(exc.code, exc.message, exc.details))
        return key
    new_key = count_against(request, sub, token, key)
    if sub.ending is None:
        sub.token_hash = token_hash(token)
    return new_key


def _subscribe(sub: FirehoseSubscriber, body: dict[str, Any]) -> None:
    if sub.projection is not None:
        sub.enqueue(
            error_frame("bad_request", "this connection already has a subscription; open another one")
        )
        return
    if body.get("projection", "events") != "events":
        sub.enqueue(
            error_frame(
                "bad_request",
                "the firehose carries events only: state and log stay on each encounter's websocket",
                {"field": "projection"},
            )
        )
        return
    after = body.get("after", 0)
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        sub.enqueue(
            error_frame(
                "bad_request", "after must be the last position you have (0 for none)", {"field": "after"}
            )
        )
        return
    sub.projection = "events"
    sub.task = asyncio.create_task(_catch_up(sub, after))


async def _catch_up(sub: FirehoseSubscriber, after: int) -> None:
    """Send every readable event after position `after` from the store, then caught_up, then go live."""
    firehose = sub.firehose
    store = firehose.encounters.store
    try:
        await firehose.join(sub)  # BEFORE reading the store: nothing published from now on is missed
        head = await store.last_position()
        if after > head:
            sub.end(
                4400,
                error_frame(
                    "bad_position",
                    f"after = {after} is beyond the server's last position ({head})",
                    {"after": after, "head": head},
                ),
            )
            return
        last = after
        sub.sent_seq = after  # the reader has everything up to it
        limit = FIRST_CATCH_UP_PAGE
        page_bytes = max(1, sub.settings.queue_bytes // 4)
        while sub.ending is None:
            page = await store.read_all(last, limit)
            sent = 0
            for position, e in page:
                if sub.ending is not None:
                    return
                last = position
                if not firehose.reads(sub, e.stream) and not (
                    e.type == "FirehoseRevoked" and e.data["token_id"] == sub.reader_id
                ):
                    sub.sent_seq = position  # nothing of it is owed to this reader
                    continue
                frame = firehose_frame(position, e)
                if not await sub.send(frame, position):
                    return
                sent += len(frame)
            full = len(page) == limit
            if page and sent:
                limit = max(1, min(CATCH_UP_PAGE, page_bytes * len(page) // sent))
            elif full:
                limit = CATCH_UP_PAGE  # nothing readable in it: read on in large pages
            del page
            if not sub.more_to_read(full):
                break
        if sub.ending is None:
            sub.go_live(last, firehose_caught_up_frame(last))
    except (ConnectionError, RuntimeError):
        sub.end(1011)


async def on_shutdown(app: web.Application) -> None:
    firehose = app[FIREHOSE]
    for s in list(firehose.subs):
        s.end(1001)
    firehose.stop()


def setup(app: web.Application) -> None:
    """Register the firehose route (after the encounter websocket's hubs, whose settings it shares)."""
    app[FIREHOSE] = Firehose(app)
    app.router.add_get("/firehose", firehose_handler)
    app.on_shutdown.append(on_shutdown)
