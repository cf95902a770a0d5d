"""The websocket `/encounters/{id}/ws` (API.md "Websocket", docs/websocket.md).

Shape of the machinery:

- One `Hub` per encounter with subscribers. It is the encounter's single LiveFeed listener: the
  listener only queues the published batch (O(1)); the hub's worker task encodes each frame once and
  offers the same bytes to every subscriber, and keeps one shared state-and-log follower for the
  `state` and `log` projections.
- One `Subscriber` per connection, with a bounded send queue (frames and bytes) drained by a sender
  task of its own. Offering a frame never waits: a subscriber whose queue is full is ended with `lagging`
  and close 4008, its queue dropped, so a slow client never slows the others nor grows memory. Every
  send to the socket has a deadline (`send_timeout_s`): a client that takes nothing is lagging too.
- An idle connection holds no queue, no sender task and no task of its own reading: the queue and its
  sender exist while frames wait, the keep-alive ping is a timer, and the handler's task reads the
  socket itself (thousands of idle subscribers, issue 32 item 3).
- `events` catch-up: the subscriber joins the hub (so it receives everything published from then on)
  BEFORE it reads the store; live frames are held while it reads (within the same byte bound), and
  those the catch-up already sent are dropped by seq. The catch-up reads pages sized in bytes and
  waits on the socket, so a client that never reads pins a page of a fraction of `queue_bytes`, not
  the encounter. `state` and `log` joins travel through the hub's worker queue, so the snapshot is
  taken exactly between two published batches.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
from collections.abc import Iterable, Iterator
from typing import Any

import msgspec
from aiohttp import WSMsgType, web

from events.envelope import ZERO_HASH, Event
from projections.log import NarrativeLog
from projections.view import state_view
from server.encounters.acting import reaction_deadlines
from server.encounters.log_reading import whole_log
from server.encounters.service_errors import RateLimited, ServiceError
from server.encounters.tokens import Principal, token_hash
from server.http.context import ENCOUNTERS, SETTINGS, bearer, principal, reader
from server.http.input_checks import decode_json
from server.http.streamed_json import encoded_pieces, raw_json_in_place
from server.live.frames import PING, PONG, caught_up_frame, error_frame, event_frame
from server.live.masked_frames import MaskedOnlyResponse
from server.ops.heap_trim import HEAP_TRIM
from server.ops.metrics import METRICS, ws_allowed, ws_closed, ws_key, ws_opened
from server.settings import WebsocketSettings

PROJECTIONS = ("events", "state", "log")
# Events after which some tokens of the encounter may have stopped working.
REVOKING_EVENTS = frozenset({"SeatRevoked", "SeatTokenRotated", "ReadTokenRevoked", "GmTokenRotated"})
CATCH_UP_PAGE = 1000  # events, at most
FIRST_CATCH_UP_PAGE = 8  # events: later pages are sized from the frames seen so far

_encode = msgspec.json.Encoder().encode


# Above this many bytes waiting in the kernel-side buffer, frames take the queued path with its drain.
FAST_PATH_BUFFER = 64 * 1024
# Larger payloads go out as a fragmented message, one fragment per socket drain (Subscriber.send).
FRAGMENT = 64 * 1024


def frame_header(first_byte: int, n: int) -> bytes:
    """A server's (unmasked) frame header: FIN and opcode in `first_byte`, then the payload length."""
    if n < 126:
        return bytes((first_byte, n))
    if n < 65536:
        return bytes((first_byte, 126)) + n.to_bytes(2, "big")
    return bytes((first_byte, 127)) + n.to_bytes(8, "big")


def text_frame(payload: bytes) -> bytes:
    """An unmasked, final, text websocket frame (RFC 6455 section 5.2), as a server sends it."""
    return frame_header(0x81, len(payload)) + payload


def offer_all(subs: Iterable[Subscriber], seq: int, frame: bytes | Pieces, closes: bool = False) -> None:
    """Offer one frame to each of `subs`, built as a websocket frame once for all of them: what is left
    per subscriber is its queue's bookkeeping and the write (`Subscriber.offer`)."""
    # A closing frame goes through the queue (its sender ends the connection after it); a large one in
    # fragments: neither is written at once.
    wire = None
    if not closes and isinstance(frame, bytes) and len(frame) <= FRAGMENT:
        wire = text_frame(frame)
    for s in list(subs):
        s.offer(seq, frame, closes, wire)


def _slices(frame: bytes) -> Iterator[bytes | memoryview]:
    view = memoryview(frame)
    for start in range(0, len(frame), FRAGMENT):
        yield view[start : start + FRAGMENT]


class Pieces:
    """A long payload (a log snapshot) kept in the pieces it was encoded in, each a few hundred entries,
    and sent a fragment at a time: joining 20 MB into one bytes object held the loop 15 ms."""

    def __init__(self, pieces: list[bytes]):
        self.pieces = pieces
        self.size = sum(len(p) for p in pieces)

    def __len__(self) -> int:
        return self.size

    def fragments(self) -> Iterator[bytes]:
        """The payload in fragments of about FRAGMENT bytes (small pieces joined, long ones cut)."""
        group: list[bytes | memoryview] = []
        size = 0
        for piece in self.pieces:
            for part in _slices(piece):
                group.append(part)
                size += len(part)
                if size >= FRAGMENT:
                    yield b"".join(group)
                    group, size = [], 0
        if group:
            yield b"".join(group)


async def payload(obj: dict[str, Any]) -> bytes | Pieces:
    """`obj` as a frame's JSON, encoded in pieces with yields between; kept in pieces when long."""
    pieces = await encoded_pieces(obj)
    return Pieces(pieces) if sum(len(p) for p in pieces) > FRAGMENT else b"".join(pieces)


class Subscriber:
    """One websocket connection: its bounded send queue, its position, and how it ends."""

    # Thousands of idle ones may be open at once (issue 32 item 3): no per-instance __dict__.
    __slots__ = (
        "ws",
        "transport",
        "writer",
        "settings",
        "hubs",
        "who",
        "token_hash",
        "projection",
        "hub",
        "queue",
        "queued_bytes",
        "sender",
        "pinger",
        "drained_at",
        "token_due",
        "sent_large",
        "live",
        "held",
        "held_bytes",
        "held_overflow",
        "last_seq",
        "sent_seq",
        "ending",
        "reader",
        "sending",
        "mid_message",
        "sending_lock",
        "task",
    )

    def __init__(
        self,
        ws: web.WebSocketResponse,
        transport: Any,
        settings: WebsocketSettings,
        hubs: Hubs,
        writer: Any = None,
    ):
        self.ws = ws
        self.transport = transport
        self.writer = writer  # what ws.prepare returned: its drain() waits while the socket's buffer is full
        self.settings = settings
        self.hubs = hubs
        self.who: Principal | None = None
        self.token_hash: str | None = None
        self.projection: str | None = None
        self.hub: Hub | None = None
        # Made for the first frame that waits and dropped once sent: an empty deque costs 768 bytes.
        self.queue: collections.deque[tuple[bytes | Pieces, bool, int | None]] | None = None
        self.queued_bytes = 0
        self.sender: asyncio.Task[None] | None = None  # while the queue has frames
        loop = asyncio.get_running_loop()
        # A timer rather than a sender idling under a timeout: a TimerHandle is a fifth of a waiting task.
        self.pinger = loop.call_later(settings.ping_s, self._ping)
        self.drained_at = loop.time()  # the ping comes ping_s after the queue last drained
        self.token_due = False  # the sender checks the token once the ping is out
        self.live = False  # offered frames go straight to the queue (else they are held)
        self.held: list[tuple[int, bytes | Pieces, bool]] = []
        self.held_bytes = 0
        self.held_overflow = False
        self.last_seq = 0  # the last seq offered (queued or written)
        self.sent_seq = 0  # the last seq whose frame went to the socket: what `lagging` names
        self.ending: tuple[int, bytes | None] | None = None
        self.reader: asyncio.Task[Any] | None = None  # the handler's task while it waits for a message
        self.sending = False
        self.mid_message = False  # a fragmented message is part-written: no other data frame may start
        self.sent_large = False  # a frame went out in fragments: its close asks for a heap trim
        # The catch-up and the sender task both send; one frame (or fragmented message) at a time, so a
        # ping of the sender's never lands between the fragments of a catch-up's large event.
        self.sending_lock = asyncio.Lock()
        self.task: asyncio.Task[None] | None = None  # the catch-up or join of the subscription

    # -- called by the hub: never waits -------------------------------------------------------

    def offer(self, seq: int, frame: bytes | Pieces, closes: bool = False, wire: bytes | None = None) -> None:
        """A live frame for `seq`, dropped when the connection already has it; `wire`: the frame as
        written to the socket, when it may be written at once (`offer_all`)."""
        if self.ending is not None:
            return
        if not self.live:
            if self.held_overflow:
                return
            if (
                len(self.held) >= self.settings.queue_frames
                or self.held_bytes + len(frame) > self.settings.queue_bytes
            ):
                # The catch-up will read these from the store again.
                self.held_overflow = True
                self.held.clear()
                self.held_bytes = 0
            else:
                self.held.append((seq, frame, closes))
                self.held_bytes += len(frame)
            return
        if seq <= self.last_seq:
            return
        self.last_seq = seq
        # The fast path of fan-out: when nothing waits before this frame and the socket's buffer is
        # nearly empty, the whole websocket frame goes to the transport at once (no task switch per
        # subscriber per event). `wire` is built per RFC 6455 (no compression is negotiated), and every
        # write is a whole frame, so none interleaves with aiohttp's own pings and closes.
        transport = self.transport
        if (
            wire is not None
            and not self.sending
            and not self.queue
            and transport is not None
            and not transport.is_closing()
            and transport.get_write_buffer_size() <= FAST_PATH_BUFFER
        ):
            transport.write(wire)
            self.sent_seq = seq
            return
        self.enqueue(frame, closes, seq)

    def enqueue(self, frame: bytes | Pieces, closes: bool = False, seq: int | None = None) -> None:
        """Queue a frame for the sender; a full queue ends the connection with `lagging`."""
        if self.ending is not None:
            return
        # The bound counts what waits behind the next frame to go out: that one may be larger than
        # the bound on its own (a big snapshot), and the small frames after it (caught_up) still fit.
        behind = self.queued_bytes - len(self.queue[0][0]) if self.queue else 0
        if self.queue and (
            len(self.queue) >= self.settings.queue_frames or behind + len(frame) > self.settings.queue_bytes
        ):
            self.lag()
            return
        if self.queue is None:
            self.queue = collections.deque()
        self.queue.append((frame, closes, seq))
        self.queued_bytes += len(frame)
        if self.sender is None:
            self.sender = asyncio.create_task(self._drain())

    def more_to_read(self, full_page: bool) -> bool:
        """After a catch-up page: whether to read another (the page was full, or the live frames held
        meanwhile overflowed their bound and must be read from the store instead)."""
        if full_page:
            return True
        if self.held_overflow:
            self.held_overflow = False
            return True
        return False

    def go_live(self, last: int, caught_up: bytes, closes: bool = False) -> None:
        """End a catch-up that sent everything up to `last`: `caught_up`, then the held frames after it."""
        # From here to `live = True` nothing awaits: no offer can slip between the two.
        self.last_seq = last
        self.enqueue(caught_up, closes=closes)
        held, self.held, self.held_bytes = self.held, [], 0
        self.live = True
        for seq, frame, closes_after in held:
            self.offer(seq, frame, closes_after)

    def lag(self) -> None:
        """End a connection that cannot keep up: its queue dropped, `lagging`, close 4008."""
        if self.ending is not None:
            return
        self.hubs.lagging()
        self.end(4008, error_frame("lagging", self.LAGGING, self.lag_details()), drop_queue=True)

    LAGGING = (
        "this connection fell too far behind the encounter; reconnect with after = the last seq you received"
    )

    def lag_details(self) -> dict[str, Any]:
        # The last one written, not the last queued: the queue is dropped, so resuming after a queued
        # seq would skip what never went out.
        return {"last_seq": self.sent_seq}

    async def send(self, frame: bytes | Pieces, seq: int | None = None) -> bool:
        """Send one frame (of event `seq`, if it is one), waiting while the socket's buffer is full; False
        (and the connection lagging) when the client took none of it within `send_timeout_s`."""
        try:
            async with self.sending_lock:
                # Counted as it starts: send_frame writes the whole frame before it waits for the drain,
                # and a fragmented message cut off by a lag gets no `lagging` frame after it at all.
                if seq is not None:
                    self.sent_seq = seq
                if isinstance(frame, Pieces) or (
                    len(frame) > FRAGMENT and self.writer is not None and self.transport is not None
                ):
                    await self._send_in_fragments(frame)
                else:
                    async with asyncio.timeout(self.settings.send_timeout_s):
                        await self.ws.send_frame(frame, WSMsgType.TEXT)
        except TimeoutError:
            self.lag()
            return False
        return True

    async def _send_in_fragments(self, frame: bytes | Pieces) -> None:
        """A large frame as a fragmented message (RFC 6455 section 5.4), each fragment written once the
        socket took the ones before. aiohttp would hand the transport the whole payload, which copies
        what the socket cannot take at once: a multi-megabyte log snapshot per stalled connection."""
        chunks = frame.fragments() if isinstance(frame, Pieces) else _slices(frame)
        self.mid_message = True
        self.sent_large = True
        first = True
        chunk: bytes | memoryview | None = next(chunks)
        while chunk is not None:
            following = next(chunks, None)
            if self.transport.is_closing():
                raise ConnectionResetError("the connection is closing")
            self.transport.write(
                frame_header((0x80 if following is None else 0) | (0x1 if first else 0x0), len(chunk))
            )
            self.transport.write(chunk)
            first, chunk = False, following
            async with asyncio.timeout(self.settings.send_timeout_s):
                await self.writer.drain()
            # drain() returns at once while the socket keeps up: without a yield a 10 MB snapshot to a
            # fast client goes out in one step of the loop (90 ms). Only the sender task yields here: a
            # catch-up sends beside it, and the sender must not start a frame inside this message.
            if self.sending:
                await asyncio.sleep(0)
        self.mid_message = False

    def end(self, code: int, frame: bytes | None = None, drop_queue: bool = False) -> None:
        """Close after what is queued (or at once with `drop_queue`), sending `frame` first."""
        if self.ending is not None:
            return
        if drop_queue:
            self.queue = None  # the sender stops after the frame it is writing
            self.queued_bytes = 0
        self.ending = (code, frame)
        self.pinger.cancel()
        reader, self.reader = self.reader, None
        if reader is not None:
            reader.cancel()  # the handler stops reading: `_receive` answers None
        if self.hub is not None:
            self.hub.leave(self)
        # A client that reads nothing cannot even take the close frame: cut it off after a while.
        asyncio.get_running_loop().call_later(self.settings.close_timeout_s, self._abort_if_open)

    def _abort_if_open(self) -> None:
        if not self.ws.closed and self.transport is not None:
            self.transport.abort()

    # -- the sender task, while frames wait ------------------------------------------------------

    async def _drain(self) -> None:
        """Send the queued frames, then end: the next frame queued starts another. The close itself is
        the handler's (`_finish`): it is the task that reads the socket."""
        try:
            while True:
                while self.queue:
                    frame, closes, seq = self.queue.popleft()
                    self.queued_bytes -= len(frame)
                    self.sending = True
                    if not await self.send(frame, seq):
                        return
                    self.sending = False
                    if closes:
                        self.end(1000)
                if not self.token_due or self.ending is not None:
                    return
                self.token_due = False
                assert self.token_hash is not None
                if not await self.hubs.token_alive(self.token_hash):
                    self.end(4401, error_frame("unauthenticated", "your token was revoked"))
        except (ConnectionError, RuntimeError, TimeoutError):
            if self.transport is not None:
                self.transport.abort()
        finally:
            self.sender, self.queue, self.queued_bytes, self.sending = None, None, 0, False
            self.drained_at = asyncio.get_running_loop().time()

    def _ping(self) -> None:
        """The keep-alive, ping_s after the queue last drained; the token is checked once it is out."""
        if self.ending is not None:
            return
        loop, every = asyncio.get_running_loop(), self.settings.ping_s
        # Not silent for ping_s yet: frames are going out (look again soon), or went out lately.
        wait = every / 8 if self.sender is not None else self.drained_at + every - loop.time()
        if wait > every / 100:
            self.pinger = loop.call_later(wait, self._ping)
            return
        self.pinger = loop.call_later(every, self._ping)
        self.token_due = self.token_hash is not None
        self.enqueue(PING)

    async def finish_sending(self) -> None:
        """Once the connection is ending: wait for the queued frames, then send the frame `end` asked for."""
        if self.sender is not None:
            with contextlib.suppress(Exception):
                await self.sender
        assert self.ending is not None
        _, last = self.ending
        if last is None or self.mid_message:  # only the Close may follow a part-written message
            return
        try:
            async with asyncio.timeout(self.settings.close_timeout_s), self.sending_lock:
                await self.ws.send_frame(last, WSMsgType.TEXT)
        except (ConnectionError, RuntimeError, TimeoutError):
            if self.transport is not None:
                self.transport.abort()


class Hub:
    """One encounter's fan-out: the LiveFeed listener, its worker, and the shared state/log follower."""

    def __init__(self, hubs: Hubs, stream: str):
        self.hubs = hubs
        self.stream = stream
        self.subs: dict[str, set[Subscriber]] = {p: set() for p in PROJECTIONS}
        self.inbox: asyncio.Queue[tuple[str, Any]] = asyncio.Queue()
        self.follower: NarrativeLog | None = None
        self.follower_has_entries = False  # False: only its state is followed (no `log` subscriber yet)
        # The last log snapshot frame, by seq (it grows with the encounter): the subscribers that join
        # between two appends share its bytes rather than each holding a copy while their sockets drain.
        self.log_snapshot: tuple[int, bytes | Pieces] | None = None
        self.unsubscribe = hubs.encounters.feed.subscribe(stream, self._published)
        self.worker = asyncio.create_task(self._run())

    def _published(self, events: list[Event], states: list[dict[str, Any]] | None) -> None:
        self.inbox.put_nowait(("events", (events, states)))

    def join_events(self, sub: Subscriber) -> None:
        """From now on `sub` is offered every published event (it holds them while catching up)."""
        sub.hub = self
        self.subs["events"].add(sub)

    def join_projection(self, sub: Subscriber) -> None:
        """Queue a state/log join: the worker sends its snapshot between two published batches."""
        sub.hub = self
        self.subs[sub.projection or "state"].add(sub)
        self.inbox.put_nowait(("join", sub))

    def leave(self, sub: Subscriber) -> None:
        for subs in self.subs.values():
            subs.discard(sub)
        if not any(self.subs.values()):
            self.hubs.drop(self)

    def close(self) -> None:
        self.unsubscribe()
        self.worker.cancel()
        # Its subscribers may outlive it a while (their closes), and they point at it: the log it
        # followed and its snapshot frame are freed now rather than with them.
        self.follower = None
        self.log_snapshot = None

    # -- the worker ---------------------------------------------------------------------------

    async def _run(self) -> None:
        while True:
            kind, item = await self.inbox.get()
            try:
                if kind == "events":
                    await self._deliver(*item)
                else:
                    await self._join(item)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # noqa: BLE001 - one bad batch must not stop the encounter's feed
                self.hubs.log.exception("websocket hub failed", stream=self.stream, error=str(exc))
                # Followers of state and log would now miss frames: end them so they reconnect.
                self.follower = None
                for s in [*self.subs["state"], *self.subs["log"]]:
                    s.end(
                        1011, error_frame("internal", "the server failed to follow this encounter; reconnect")
                    )

    async def _deliver(self, events: list[Event], states: list[dict[str, Any]] | None = None) -> None:
        self.log_snapshot = None  # a join from now on snapshots a later seq
        subs = self.subs["events"]
        if subs:
            for e in events:
                offer_all(subs, e.seq, event_frame(e), e.type == "EncounterClosed")
        if self.subs["state"] or self.subs["log"]:
            if self.follower is not None:
                await self._follow(events, states)
        else:
            self.follower = None  # nobody needs it; a later join reloads it
        if any(e.type in REVOKING_EVENTS for e in events):
            await self._check_tokens()

    async def _load(self, upto: int | None = None) -> None:
        """The follower as of `upto` (the head when None). The log's entries are described in pieces with
        yields between (server/encounters/log_reading.whole_log), never the whole stream in one go; for `state` subscribers
        alone the state comes from the nearest snapshot and its tail, and the entries wait for a `log` join."""
        enc = self.hubs.encounters
        if upto is None:
            info = await enc.store.stream_info(self.stream)
            upto = info.seq if info is not None else 0
        if self.subs["log"]:
            self.follower = await whole_log(enc, self.stream, upto)
            # Kept for as long as anyone watches, and only ever sent again (snapshot, log_reset) or freed.
            await raw_json_in_place(self.follower.entries)
            self.follower_has_entries = True
            return
        loaded = await enc.snapshots.load(self.stream, upto)
        assert loaded is not None, "a hub follows an encounter that has events"
        f = NarrativeLog(self.hubs.ruleset_for, set(loaded.skipped))
        f.state = loaded.state
        f.ruleset = enc.ruleset_of(loaded.state) if loaded.state["ruleset"] else None
        self.follower, self.follower_has_entries = f, False

    async def _join(self, sub: Subscriber) -> None:
        if sub.ending is not None:
            return
        if self.follower is None or (sub.projection == "log" and not self.follower_has_entries):
            await self._load()
        f = self.follower
        assert f is not None
        seq, hash_ = f.state["seq"], f.state["hash"]
        if sub.projection == "state":
            sub.enqueue(_encode({"type": "snapshot", "seq": seq, "data": self._state_view(f)}), seq=seq)
        else:
            if self.log_snapshot is None or self.log_snapshot[0] != seq:
                self.log_snapshot = (seq, await payload({"type": "snapshot", "seq": seq, "data": f.entries}))
            sub.enqueue(self.log_snapshot[1], seq=seq)
        sub.last_seq = seq
        sub.enqueue(caught_up_frame(seq, hash_), closes=bool(f.state["closed"]))
        sub.live = True

    async def _follow(self, events: list[Event], states: list[dict[str, Any]] | None = None) -> None:
        """Follow the published events; `states[i]`, from the process that appended them, is the state
        after events[i], which the follower takes rather than folding again (issue 26 item 3)."""
        f = self.follower
        assert f is not None
        batch: list[dict[str, Any]] = []
        last = events[-1].seq if events else None  # the batch's final state: the one frame with offers
        for i, e in enumerate(events):
            if e.seq <= f.state["seq"]:
                continue
            if e.seq != f.state["seq"] + 1 or e.type == "EventVoided":
                # A void changes the past; a gap means another process appended: rebuild from the store.
                self._send_log(batch, closes=False)
                batch = []
                await self._load(e.seq)
                f = self.follower
                assert f is not None
                self._send_state(e.seq, f, e.type == "EncounterClosed", offers_at=last)
                if self.subs["log"]:
                    reset = await payload({"type": "log_reset", "seq": e.seq, "data": f.entries})
                    offer_all(self.subs["log"], e.seq, reset)
                continue
            entry = f.apply(e, states[i] if states is not None else None)
            if entry is not None:
                batch.append(entry)
            self._send_state(e.seq, f, e.type == "EncounterClosed", offers_at=last)
        self._send_log(batch, closes=bool(f.state["closed"]))

    def _state_view(self, f: NarrativeLog, with_offers: bool = True) -> dict[str, Any]:
        deadlines = reaction_deadlines(self.hubs.encounters.reaction_deadlines, self.stream, f.state)
        return state_view(f.state, f.ruleset, deadlines, with_offers=with_offers)

    def _send_state(self, seq: int, f: NarrativeLog, closes: bool, offers_at: int | None = None) -> None:
        """The state frame after `seq`. Offers cost milliseconds each (every one is decided through the
        rules), so within a published batch only its last frame carries them; the others say at which seq
        they follow (`offers_at`), rather than holding the loop for offers of a state already gone."""
        if self.subs["state"]:
            if offers_at is None or offers_at == seq:
                msg = {"type": "state", "seq": seq, "data": self._state_view(f)}
            else:
                msg = {
                    "type": "state",
                    "seq": seq,
                    "offers_at": offers_at,
                    "data": self._state_view(f, False),
                }
            offer_all(self.subs["state"], seq, _encode(msg), closes)

    def _send_log(self, batch: list[dict[str, Any]], closes: bool) -> None:
        if batch and self.subs["log"]:
            seq = batch[-1]["seq"]
            offer_all(self.subs["log"], seq, _encode({"type": "log", "seq": seq, "entries": batch}), closes)

    async def _check_tokens(self) -> None:
        for s in [s for subs in self.subs.values() for s in subs]:
            if s.token_hash is not None and not await self.hubs.token_alive(s.token_hash):
                s.end(4401, error_frame("unauthenticated", "your token was revoked"))


class Hubs:
    """The app's hubs by encounter."""

    def __init__(self, app: web.Application):
        import structlog

        self.app = app
        self.encounters = app[ENCOUNTERS]
        self.hubs: dict[str, Hub] = {}
        self.lagged = 0
        self.log = structlog.get_logger("tussle.websocket")

    def lagging(self) -> None:
        """Count a connection ended as lagging."""
        self.lagged += 1
        self.app[METRICS].websockets_lagging += 1

    def ruleset_for(self, e: Event) -> Any:
        return self.encounters.registry.get(e.data["ruleset"])

    def hub(self, stream: str) -> Hub:
        if stream not in self.hubs:
            self.hubs[stream] = Hub(self, stream)
        return self.hubs[stream]

    def drop(self, hub: Hub) -> None:
        if self.hubs.get(hub.stream) is hub:
            del self.hubs[hub.stream]
        # The whole log it followed is freed a piece at a time (server/ops/heap_trim.py), then trimmed.
        entries = hub.follower.entries if hub.follower is not None and hub.follower_has_entries else None
        hub.close()
        if entries is not None:
            self.app[HEAP_TRIM].release(entries)

    async def token_alive(self, hash_: str) -> bool:
        return await self.encounters.store.token(hash_) is not None

    def connections(self) -> int:
        return sum(len(s) for h in self.hubs.values() for s in h.subs.values())

    async def close_all(self) -> None:
        for hub in list(self.hubs.values()):
            for subs in hub.subs.values():
                for s in list(subs):
                    s.end(1001)
            hub.close()
        self.hubs.clear()


WS_HUBS = web.AppKey("ws_hubs", Hubs)


# ---- the connection ---------------------------------------------------------------------------


def _parse(msg: Any) -> dict[str, Any] | None:
    if msg.type != WSMsgType.TEXT:
        return None
    try:
        body = decode_json(msg.data, "the message")
    except ServiceError:
        return None
    return body if isinstance(body, dict) else None


async def upgrade(
    request: web.Request, token: str | None, settings: WebsocketSettings
) -> tuple[web.WebSocketResponse, Any, str]:
    """The upgraded socket, what its prepare returned (the writer), and the key it counts against
    (`--max-ws` per token, per address when anonymous): a 429 before the upgrade when there are too many."""
    key = ws_key(request, token)
    if not ws_allowed(request.app, key):
        raise RateLimited("too many open websockets for this token (or address)")
    ws = MaskedOnlyResponse(
        max_msg_size=settings.max_message, timeout=settings.close_timeout_s, compress=False
    )
    writer = await ws.prepare(request)
    ws_opened(request.app, key)
    return ws, writer, key


async def websocket_handler(request: web.Request) -> web.StreamResponse:
    """GET /encounters/{id}/ws."""
    stream = request.match_info["id"]
    app = request.app
    hubs = app[WS_HUBS]
    settings = app[SETTINGS].ws
    info = await app[ENCOUNTERS].info(stream)
    token = bearer(request) or request.query.get("token") or None
    who: Principal | None = None
    if token is not None:
        who = await reader(request, stream, token)
    elif info.public:
        who = Principal("observer", stream)
    ws, writer, key = await upgrade(request, token, settings)
    sub = Subscriber(ws, request.transport, settings, hubs, writer)
    sub.who = who
    sub.token_hash = (
        token_hash(token) if token is not None and who is not None and who.role != "admin" else None
    )
    try:
        first = True
        if who is None:
            try:
                msg = await _receive(ws, sub, settings.auth_timeout_s)
            except TimeoutError:
                sub.end(
                    4401,
                    error_frame(
                        "unauthenticated",
                        f'send {{"op": "auth", "token": ...}} within {settings.auth_timeout_s:g} s',
                    ),
                )
                return await _finish(ws, sub)
            if msg is None or msg.type in _CLOSED:
                return await _finish(ws, sub)
            body = _parse(msg)
            if body is None or body.get("op") != "auth":
                sub.end(
                    4401,
                    error_frame(
                        "unauthenticated",
                        "this encounter is not public: the first message "
                        'must be {"op": "auth", "token": ...}',
                    ),
                )
                return await _finish(ws, sub)
            key = await _auth(request, sub, stream, body, key)
            if sub.ending is not None:
                return await _finish(ws, sub)
            first = False
        while (msg := await _receive(ws, sub)) is not None and msg.type not in _CLOSED:
            body = _parse(msg)
            del msg  # an idle connection waits for the next one holding none (issue 32 item 3)
            op = body.get("op") if body is not None else None
            if body is None:
                sub.enqueue(error_frame("bad_request", "messages are JSON objects with an op"))
            elif op == "auth" and first and token is None:
                key = await _auth(request, sub, stream, body, key)
                if sub.ending is not None:
                    break
            elif op == "ping":
                sub.enqueue(PONG)
            elif op == "subscribe":
                _subscribe(hubs, sub, stream, body)
            else:
                sub.enqueue(
                    error_frame(
                        "bad_request",
                        f"unknown op {op!r}: use subscribe, ping (or auth first)",
                        {"field": "op"},
                    )
                )
            first, body, op = False, None, None
    finally:
        ws_closed(app, key)
        if sub.ending is None:
            sub.end(1000)
        if sub.hub is not None:
            sub.hub.leave(sub)
        if sub.task is not None:
            sub.task.cancel()
    return await _finish(ws, sub)


# ERROR: a frame aiohttp could not take (too big, unmasked, malformed); it has closed the connection already.
_CLOSED = (WSMsgType.CLOSE, WSMsgType.CLOSING, WSMsgType.CLOSED, WSMsgType.ERROR)


def _forgotten_when_done(sub: Subscriber, task: asyncio.Task[None]) -> asyncio.Task[None]:
    """The subscription's catch-up or join task, dropped from `sub` once it is over: an idle
    connection need not keep a finished task (and its coroutine) alive."""

    def done(t: asyncio.Task[None]) -> None:
        if sub.task is t:
            sub.task = None

    task.add_done_callback(done)
    return task


async def _receive(ws: web.WebSocketResponse, sub: Subscriber, timeout: float | None = None) -> Any:
    """The client's next message, or None once the connection is ending (`sub.end`).

    Why not `async for msg in ws` with the sender closing: aiohttp's close() from another task while
    this one waits in receive() ends that wait and then drops the TCP connection at once, without the
    client's Close; a client answering our Close then writes to a dead socket (its close code lost,
    1006). Stopping the read here lets `_finish` close from the reading task: a full handshake."""
    if sub.ending is not None:
        return None
    this = asyncio.current_task()
    # `end` cancels this very task while it waits here: no task per wait, nor one to watch the end.
    sub.reader = this
    try:
        return await ws.receive(timeout)
    except asyncio.CancelledError:
        # `end` took `reader` as it cancelled; its cancel is taken back, and any other still ends us.
        if sub.reader is None and this is not None and this.uncancel() == 0:
            return None
        raise
    finally:
        sub.reader = None


async def _finish(ws: web.WebSocketResponse, sub: Subscriber) -> web.WebSocketResponse:
    """After the queued frames and the last one, close with the code `end` asked for: from this task, the
    only one reading, so aiohttp sends our Close and waits (at most close_timeout_s) for the client's."""
    if sub.ending is None:  # the client left first (its Close is answered already)
        sub.end(1000)
    await sub.finish_sending()
    assert sub.ending is not None
    code = sub.ending[0]
    try:
        async with asyncio.timeout(sub.settings.close_timeout_s):
            await ws.close(code=code)
    except (ConnectionError, RuntimeError, TimeoutError):
        if sub.transport is not None:
            sub.transport.abort()
    if sub.sent_large:  # its frames are freed now; glibc keeps their pages unless asked
        sub.hubs.app[HEAP_TRIM].soon()
    return ws


async def _auth(request: web.Request, sub: Subscriber, stream: str, body: dict[str, Any], key: str) -> str:
    """First-message auth: who the token is; the connection now counts against that token."""
    token = body.get("token")
    if not isinstance(token, str) or not token:
        sub.end(4401, error_frame("unauthenticated", "auth needs a token"))
        return key
    try:
        who = await principal(request, stream, token)
    except ServiceError as exc:
        sub.end(4401, error_frame(exc.code, exc.message, exc.details))
        return key
    new_key = count_against(request, sub, token, key)
    if sub.ending is None:
        sub.who = who
        sub.token_hash = token_hash(token) if who is not None and who.role != "admin" else None
    return new_key


def count_against(request: web.Request, sub: Subscriber, token: str, key: str) -> str:
    """After a first-message auth, the connection counts against `token`'s websockets rather than its
    address's: the new key, or `key` (the connection ended) when the token has too many open."""
    new_key = ws_key(request, token)
    ws_closed(request.app, key)
    if not ws_allowed(request.app, new_key):
        ws_opened(request.app, key)
        sub.end(1008, error_frame("rate_limited", "too many open websockets for this token"))
        return key
    ws_opened(request.app, new_key)
    return new_key


def _subscribe(hubs: Hubs, sub: Subscriber, stream: str, body: dict[str, Any]) -> None:
    if sub.projection is not None:
        sub.enqueue(
            error_frame("bad_request", "this connection already has a subscription; open another one")
        )
        return
    projection = body.get("projection")
    if projection not in PROJECTIONS:
        sub.enqueue(
            error_frame("bad_request", "projection must be events, state or log", {"field": "projection"})
        )
        return
    after = body.get("after", 0)
    if not isinstance(after, int) or isinstance(after, bool) or after < 0:
        sub.enqueue(
            error_frame("bad_request", "after must be the last seq you have (0 for none)", {"field": "after"})
        )
        return
    sub.projection = PROJECTIONS[PROJECTIONS.index(projection)]  # ours, not the message's copy
    if projection == "events":
        hubs.hub(stream).join_events(sub)  # BEFORE reading the store: nothing published from now on is missed
        sub.task = _forgotten_when_done(sub, asyncio.create_task(_catch_up(hubs, sub, stream, after)))
    else:
        sub.task = _forgotten_when_done(
            sub, asyncio.create_task(_check_position_then_join(hubs, sub, stream, after))
        )


async def _bad_position(hubs: Hubs, sub: Subscriber, stream: str, after: int) -> int | None:
    info = await hubs.encounters.store.stream_info(stream)
    head = info.seq if info else 0
    if after > head:
        sub.end(
            4400,
            error_frame(
                "bad_position",
                f"after = {after} is beyond the head of this encounter ({head})",
                {"after": after, "head": head},
            ),
        )
        return None
    return head


async def _check_position_then_join(hubs: Hubs, sub: Subscriber, stream: str, after: int) -> None:
    if await _bad_position(hubs, sub, stream, after) is not None and sub.ending is None:
        hubs.hub(stream).join_projection(sub)


async def _catch_up(hubs: Hubs, sub: Subscriber, stream: str, after: int) -> None:
    """Send every event after `after` from the store, then caught_up, then go live without a gap."""
    sub.sent_seq = after  # the client has everything up to it
    try:
        store = hubs.encounters.store
        if await _bad_position(hubs, sub, stream, after) is None:
            return
        last, last_hash, closed = after, ZERO_HASH, False
        if after > 0:
            last_hash = (await store.read(stream, after, 1))[0].hash
        limit = FIRST_CATCH_UP_PAGE
        page_bytes = max(1, sub.settings.queue_bytes // 4)
        while sub.ending is None:
            page = await store.read(stream, last + 1, limit)
            sent = 0
            for e in page:
                if sub.ending is not None:
                    return
                # Catch-up frames are ours to pace: wait on the socket rather than fill the queue.
                frame = event_frame(e)
                if not await sub.send(frame, e.seq):
                    return
                sent += len(frame)
                last, last_hash, closed = e.seq, e.hash, closed or e.type == "EncounterClosed"
            full = len(page) == limit
            if page:
                limit = max(1, min(CATCH_UP_PAGE, page_bytes * len(page) // max(1, sent)))
            del page
            if not sub.more_to_read(full):
                break
        if sub.ending is None:
            sub.go_live(last, caught_up_frame(last, last_hash), closed)
    except (ConnectionError, RuntimeError):
        sub.end(1011)


async def on_shutdown(app: web.Application) -> None:
    await app[WS_HUBS].close_all()


def setup(app: web.Application) -> None:
    """Register the websocket route and its hubs."""
    app[WS_HUBS] = Hubs(app)
    app.router.add_get("/encounters/{id}/ws", websocket_handler)
    app.on_shutdown.append(on_shutdown)
