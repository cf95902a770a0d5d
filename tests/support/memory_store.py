"""A third backend, in memory: what "implement the ports, pass tests/contract/" asks of a new store.

A test double of the store port (events/store/port.py), never of the product: it holds its tables in
dicts, checks and seals each batch with the one plan both real backends run (events/store/sealing.py),
and commits by swapping in a copy of the tables changed under one lock, so a reader never sees half a
transaction and a rolled-back batch leaves nothing, its feed positions included. Several handles on
one `MemoryDatabase` stand for several processes sharing a database, as the contract suite opens them
(tests/contract/test_memory_store.py).
"""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import Awaitable, Callable

import msgspec

from events.envelope import ZERO_HASH, Event
from events.store.discord_rows import DiscordRow
from events.store.outbox import (
    ACTIVE,
    CANCELLED,
    DELETED,
    DELIVERED,
    DISABLED,
    PENDING,
    Attempt,
    Delivery,
    OutboxRow,
    WebhookRow,
)
from events.store.port import (
    Append,
    AppendResult,
    Creation,
    Deadline,
    Listening,
    SharedFeed,
    Store,
    StoredCommand,
    StreamInfo,
    TokenRow,
)
from events.store.sealing import Plan, Prior, Resend, plan_batch
from events.store.seed_key import SeedKey
from events.store.server_tokens import FIREHOSE_GRANT, SERVER_STREAM
from events.store.snapshots import SnapshotRow

# The key a handle opened without one seals seeds under (a real backend reads it from its key file).
TEST_SEED_KEY = SeedKey(bytes(range(32)), "the memory store's test key")


@dataclasses.dataclass
class Tables:
    """One committed state of the database: every value is immutable, so a shallow copy is a snapshot."""

    streams: dict[str, StreamInfo] = dataclasses.field(default_factory=dict)  # in creation order
    events: dict[str, tuple[Event, ...]] = dataclasses.field(default_factory=dict)
    feed: tuple[tuple[int, Event], ...] = ()
    next_position: int = 1
    commands: dict[tuple[str, str], Prior] = dataclasses.field(default_factory=dict)
    creations: dict[str, Creation] = dataclasses.field(default_factory=dict)
    seeds: dict[tuple[str, str], tuple[bytes, bool]] = dataclasses.field(
        default_factory=dict
    )  # sealed, revealed
    tokens: dict[str, tuple[str, TokenRow, bool]] = dataclasses.field(
        default_factory=dict
    )  # stream, row, revoked
    deadlines: dict[tuple[str, str], str] = dataclasses.field(default_factory=dict)
    webhooks: dict[str, WebhookRow] = dataclasses.field(default_factory=dict)
    leases: dict[str, float] = dataclasses.field(default_factory=dict)
    deliveries: dict[str, Delivery] = dataclasses.field(default_factory=dict)
    snapshots: dict[tuple[str, int], SnapshotRow] = dataclasses.field(default_factory=dict)
    discord: dict[str, DiscordRow] = dataclasses.field(default_factory=dict)
    fingerprint: str | None = None

    def copy(self) -> Tables:
        return dataclasses.replace(
            self,
            **{
                f.name: dict(v)
                for f in dataclasses.fields(self)
                if isinstance(v := getattr(self, f.name), dict)
            },
        )


class MemoryDatabase:
    """What the handles share: the committed tables and the one write lock."""

    def __init__(self) -> None:
        self.tables = Tables()
        self.write = asyncio.Lock()
        # The handles listening for commit notices (SharedMemoryStore.listen), as NOTIFY reaches every
        # process's LISTEN connection.
        self.notices: list[Callable[[str], None]] = []


class MemoryStore(Store):
    """One handle on a MemoryDatabase."""

    # Awaited inside every append transaction just before its commit, as the real backends do (tests).
    before_commit: Callable[[list[Append]], Awaitable[None]] | None = None

    def __init__(self, db: MemoryDatabase, *, seed_key: SeedKey | None = None):
        self.db = db
        self.seed_key = seed_key or TEST_SEED_KEY

    async def open(self) -> None:
        async with self.db.write:
            t = self.db.tables
            if t.fingerprint is None:
                t.fingerprint = self.seed_key.fingerprint
            self.seed_key.check(t.fingerprint)

    async def close(self) -> None:
        return None

    @property
    def _t(self) -> Tables:
        return self.db.tables

    async def _transaction(self, change: Callable[[Tables], object]) -> object:
        """`change` on a copy of the tables, committed by swapping it in (a write outside an append)."""
        async with self.db.write:
            new = self.db.tables.copy()
            result = change(new)
            self.db.tables = new
            return result

    # ---- appending ---------------------------------------------------------------------------

    async def append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        async with self.db.write:
            t = self.db.tables.copy()
            heads = {s: (i.seq, i.hash) for s, i in t.streams.items()}
            live = {h: (s, row) for h, (s, row, revoked) in t.tokens.items() if not revoked}
            wanted = {r.token_hash for r in requests if r.token_hash is not None}
            plan = plan_batch(
                requests,
                heads,
                t.commands,
                set(t.creations),
                self.clock,
                {h: live[h] for h in wanted if h in live},
            )
            self._write_plan(t, plan)
            results = [self._stored(t, r) if isinstance(r, Resend) else r for r in plan.results]
            if self.before_commit is not None:
                await self.before_commit(requests)  # raising rolls back: `t` is never swapped in
            self.db.tables = t
        self._committed(plan)
        return results

    def _committed(self, plan: Plan) -> None:
        """After a commit: a store shared by several processes announces it (SharedMemoryStore)."""

    @staticmethod
    def _stored(t: Tables, resend: Resend) -> AppendResult:
        events = t.events.get(resend.stream, ())
        return AppendResult(
            [e for e in events if resend.first_seq <= e.seq <= resend.last_seq], duplicate=True
        )

    def _write_plan(self, t: Tables, plan: Plan) -> None:
        for info in plan.created:
            t.streams[info.id] = StreamInfo(
                info.id, info.name, info.ruleset, info.public, 0, ZERO_HASH, False
            )
            t.events[info.id] = ()
        for req in plan.accepted:
            self._write_side_rows(t, req)
        feed = list(t.feed)
        for e in plan.events:
            t.events[e.stream] = (*t.events[e.stream], e)
            feed.append((t.next_position, e))
            t.next_position += 1
        t.feed = tuple(feed)
        for c in plan.commands:
            t.commands[(c.stream, c.command_id)] = Prior(c.identity, c.actor, c.first_seq, c.last_seq)
        for stream, h in plan.heads.items():
            info = t.streams[stream]
            t.streams[stream] = msgspec.structs.replace(
                info, seq=h.seq, hash=h.hash, closed=info.closed or h.closes
            )

    def _write_side_rows(self, t: Tables, req: Append) -> None:
        s = req.stream
        if req.create is not None and req.create_key is not None:
            t.creations[req.create_key] = Creation(s, req.identity)
        for seed in req.seeds:
            t.seeds[(s, seed.commitment)] = (self.seed_key.seal(s, seed.commitment, seed.seed), False)
        for c in req.reveal:
            if (s, c) in t.seeds:
                t.seeds[(s, c)] = (t.seeds[(s, c)][0], True)
        for r in req.revoke:  # revocations first: a rotation revokes the old tokens, then adds the new one
            for h, (stream, row, _) in list(t.tokens.items()):
                named = (
                    row.token_id == r.token_id
                    if r.token_id is not None
                    else (row.role, row.seat) == (r.role, r.seat)
                )
                if stream == s and named:
                    t.tokens[h] = (stream, row, True)
        for tok in req.tokens:
            t.tokens[tok.token_hash] = (s, tok, False)
        now = self.now()
        for w in req.webhooks:
            t.webhooks[w.id] = w
            t.leases[w.id] = 0.0
        for o in req.outbox:
            t.deliveries[o.id] = _delivery(s, o, now)
        for change in req.webhook_changes:  # last: a webhook this append stops is owed none of its events
            w = t.webhooks[change.id]
            if change.secret is not None:
                w = msgspec.structs.replace(w, secret=change.secret)
            if change.status is not None:
                w = msgspec.structs.replace(w, status=change.status)
                if change.status != ACTIVE:
                    _set_deliveries(t, change.id, {PENDING}, status=CANCELLED)
            t.webhooks[change.id] = w
        for reaction in req.clear_deadlines:
            t.deadlines.pop((s, reaction), None)
        for d in req.deadlines:
            t.deadlines[(s, d.reaction)] = d.due

    # The scheduling clock of the webhook rows (Unix seconds), as the real backends read time.time().
    now: Callable[[], float] = staticmethod(__import__("time").time)

    # ---- events ------------------------------------------------------------------------------

    async def read(self, stream: str, from_seq: int = 1, limit: int | None = None) -> list[Event]:
        events = [e for e in self._t.events.get(stream, ()) if e.seq >= from_seq]
        return events if limit is None else events[:limit]

    async def read_all(self, after_position: int, limit: int = 1000) -> list[tuple[int, Event]]:
        return [(p, e) for p, e in self._t.feed if p > after_position][:limit]

    async def last_position(self) -> int:
        return self._t.feed[-1][0] if self._t.feed else 0

    async def external_writes_marker(self) -> None:
        return None  # nothing but this process's own handles can write to memory

    async def stream_info(self, stream: str) -> StreamInfo | None:
        return self._t.streams.get(stream)

    async def list_streams(self, public_only: bool) -> list[StreamInfo]:
        return [i for i in self._t.streams.values() if i.public or not public_only]

    async def delete_stream(self, stream: str) -> bool:
        def delete(t: Tables) -> bool:
            found = t.streams.pop(stream, None) is not None
            t.events.pop(stream, None)
            t.feed = tuple((p, e) for p, e in t.feed if e.stream != stream)
            hooks = {w for w, row in t.webhooks.items() if row.stream == stream}
            for table, of in (
                (t.commands, lambda k, v: k[0]),
                (t.creations, lambda k, v: v.stream),
                (t.seeds, lambda k, v: k[0]),
                (t.tokens, lambda k, v: v[0]),
                (t.deadlines, lambda k, v: k[0]),
                (t.webhooks, lambda k, v: v.stream),
                (t.leases, lambda k, v: stream if k in hooks else None),
                (t.deliveries, lambda k, v: v.stream),
                (t.snapshots, lambda k, v: k[0]),
                (t.discord, lambda k, v: v.stream),
            ):
                for k in [k for k, v in table.items() if of(k, v) == stream]:  # type: ignore[no-untyped-call]
                    del table[k]
            return found

        return bool(await self._transaction(delete))

    async def find_command(self, stream: str, command_id: str) -> StoredCommand | None:
        prior = self._t.commands.get((stream, command_id))
        if prior is None:
            return None
        stored = self._stored(self._t, Resend(stream, prior.first_seq, prior.last_seq))
        return StoredCommand(prior.identity, prior.actor, stored.events)

    async def find_creation(self, command_id: str) -> Creation | None:
        return self._t.creations.get(command_id)

    # ---- seeds, tokens, deadlines ------------------------------------------------------------

    async def seed(self, stream: str, commitment: str) -> bytes | None:
        row = self._t.seeds.get((stream, commitment))
        return self.seed_key.open(stream, commitment, row[0]) if row else None

    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        return {
            c: self.seed_key.open(s, c, sealed).hex()
            for (s, c), (sealed, revealed) in self._t.seeds.items()
            if s == stream and revealed
        }

    async def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        row = self._t.tokens.get(token_hash)
        return (row[0], row[1]) if row and not row[2] else None

    # ---- the Discord rows (events/store/discord_rows.py) ---------------------------------------

    async def discord_row(self, key: str) -> DiscordRow | None:
        return self._t.discord.get(key)

    async def put_discord_row(self, row: DiscordRow) -> None:
        await self._transaction(lambda t: t.discord.__setitem__(row.key, row))

    async def take_discord_row(self, key: str) -> DiscordRow | None:
        return await self._transaction(lambda t: t.discord.pop(key, None))  # type: ignore[return-value]

    async def discord_rows(self, stream: str, kind: str) -> list[DiscordRow]:
        return sorted(
            (r for r in self._t.discord.values() if r.stream == stream and r.kind == kind),
            key=lambda r: r.key,
        )

    async def stream_tokens(self, stream: str) -> list[TokenRow]:
        rows = [row for s, row, revoked in self._t.tokens.values() if s == stream and not revoked]
        return sorted(rows, key=lambda r: r.token_hash)

    async def add_server_token(self, row: TokenRow) -> None:
        def add(t: Tables) -> None:
            t.tokens[row.token_hash] = (SERVER_STREAM, row, False)

        await self._transaction(add)

    async def revoke_server_token(self, token_id: str) -> bool:
        def revoke(t: Tables) -> bool:
            found = [
                h
                for h, (s, row, revoked) in t.tokens.items()
                if s == SERVER_STREAM and row.token_id == token_id and not revoked
            ]
            for h in found:
                t.tokens[h] = (SERVER_STREAM, t.tokens[h][1], True)
            return bool(found)

        return bool(await self._transaction(revoke))

    async def server_tokens(self) -> list[TokenRow]:
        return [row for s, row, revoked in self._t.tokens.values() if s == SERVER_STREAM and not revoked]

    async def granted_streams(self, token_id: str) -> list[str]:
        return [
            s
            for s, row, revoked in self._t.tokens.values()
            if row.role == FIREHOSE_GRANT and row.token_id == token_id and not revoked
        ]

    async def due_deadlines(self, now: str, limit: int = 100) -> list[Deadline]:
        due = sorted((d, s, r) for (s, r), d in self._t.deadlines.items() if d <= now)
        return [Deadline(s, r, d) for d, s, r in due[:limit]]

    async def clear_deadline(self, stream: str, reaction: str) -> None:
        await self._transaction(lambda t: t.deadlines.pop((stream, reaction), None))

    # ---- webhooks and their outbox -------------------------------------------------------------

    async def webhooks(self, stream: str) -> list[WebhookRow]:
        rows = [w for w in self._t.webhooks.values() if w.stream == stream and w.status != DELETED]
        return sorted(rows, key=lambda w: (w.created_at, w.id))

    async def webhook(self, webhook_id: str) -> WebhookRow | None:
        return self._t.webhooks.get(webhook_id)

    async def deliveries(self, webhook_id: str, limit: int = 100) -> list[Delivery]:
        rows = [d for d in self._t.deliveries.values() if d.webhook == webhook_id]
        return sorted(rows, key=lambda d: (d.seq, d.part), reverse=True)[:limit]

    async def pending(self, webhook_id: str, limit: int) -> list[Delivery]:
        rows = [d for d in self._t.deliveries.values() if d.webhook == webhook_id and d.status == PENDING]
        return sorted(rows, key=lambda d: (d.seq, d.part))[:limit]

    async def claim_endpoints(self, now: float, lease_s: float, limit: int) -> list[WebhookRow]:
        def claim(t: Tables) -> list[WebhookRow]:
            owed = {d.webhook for d in t.deliveries.values() if d.status == PENDING}
            free = [
                w
                for w in t.webhooks.values()
                if w.status == ACTIVE and w.next_at <= now and t.leases.get(w.id, 0.0) <= now and w.id in owed
            ]
            chosen = {w.id for w in sorted(free, key=lambda w: w.next_at)[:limit]}
            for w in chosen:
                t.leases[w] = now + lease_s
            return [w for w in free if w.id in chosen]  # in the table's order, as the real backends answer

        return await self._transaction(claim)  # type: ignore[return-value]

    async def record_attempts(self, attempts: list[Attempt]) -> None:
        def record(t: Tables) -> None:
            for a in attempts:
                t.leases[a.webhook] = a.at + a.lease_s if a.lease_s else 0.0
                d = t.deliveries.get(a.delivery)
                w = t.webhooks[a.webhook]
                if a.ok:
                    if d is not None and d.status == PENDING:
                        t.deliveries[d.id] = msgspec.structs.replace(
                            d,
                            status=DELIVERED,
                            attempts=d.attempts + 1,
                            delivered_at=a.at,
                            last_status=a.status,
                            last_error=None,
                        )
                    t.webhooks[w.id] = msgspec.structs.replace(
                        w, failing_since=None, last_error=None, next_at=0.0
                    )
                    continue
                if d is not None and d.status == PENDING:
                    t.deliveries[d.id] = msgspec.structs.replace(
                        d,
                        attempts=d.attempts + 1,
                        next_at=a.retry_at,
                        last_status=a.status,
                        last_error=a.error,
                    )
                t.webhooks[w.id] = msgspec.structs.replace(
                    w,
                    failing_since=w.failing_since if w.failing_since is not None else a.at,
                    last_error=a.error,
                    next_at=a.retry_at,
                    status=DISABLED if a.disable else w.status,
                )

        await self._transaction(record)

    async def release_endpoint(self, webhook_id: str) -> None:
        await self._transaction(lambda t: t.leases.__setitem__(webhook_id, 0.0))

    async def redeliver(self, webhook_id: str, now: float) -> int:
        def again(t: Tables) -> int:
            n = _set_deliveries(t, webhook_id, {PENDING, CANCELLED}, status=PENDING, next_at=now)
            if webhook_id in t.webhooks:
                t.webhooks[webhook_id] = msgspec.structs.replace(
                    t.webhooks[webhook_id], next_at=0.0, failing_since=None
                )
            return n

        return await self._transaction(again)  # type: ignore[return-value]

    async def add_delivery(self, stream: str, row: OutboxRow, now: float) -> None:
        await self._transaction(lambda t: t.deliveries.setdefault(row.id, _delivery(stream, row, now)))

    async def outbox_depth(self) -> int:
        t = self._t
        return sum(
            1
            for d in t.deliveries.values()
            if d.status == PENDING and d.webhook in t.webhooks and t.webhooks[d.webhook].status == ACTIVE
        )

    # ---- snapshots -----------------------------------------------------------------------------

    async def save_snapshots(self, rows: list[SnapshotRow]) -> None:
        await self._transaction(lambda t: t.snapshots.update({(r.stream, r.seq): r for r in rows}))

    async def nearest_snapshot(self, stream: str, at_most: int | None = None) -> SnapshotRow | None:
        rows = [
            r
            for (s, seq), r in self._t.snapshots.items()
            if s == stream and (at_most is None or seq <= at_most)
        ]
        return max(rows, key=lambda r: r.seq, default=None)

    async def drop_snapshots(self, stream: str) -> None:
        def drop(t: Tables) -> None:
            for k in [k for k in t.snapshots if k[0] == stream]:
                del t.snapshots[k]

        await self._transaction(drop)

    async def turn_bounds(self, stream: str, turn: int) -> tuple[int, int | None]:
        rows = [r for (s, _), r in self._t.snapshots.items() if s == stream]
        before = max((r.seq for r in rows if r.turn < turn), default=0)
        after = min((r.seq for r in rows if r.turn > turn), default=None)
        return before, after


def _delivery(stream: str, o: OutboxRow, now: float) -> Delivery:
    return Delivery(
        o.id, o.webhook, stream, o.seq, o.part, o.kind, o.body, PENDING, 0, now, now, None, None, None
    )


def _set_deliveries(t: Tables, webhook_id: str, statuses: set[str], **change: object) -> int:
    """Change the webhook's deliveries in one of `statuses`; how many."""
    hit = [d for d in t.deliveries.values() if d.webhook == webhook_id and d.status in statuses]
    for d in hit:
        t.deliveries[d.id] = msgspec.structs.replace(d, **change)
    return len(hit)


class SharedMemoryStore(MemoryStore, SharedFeed):
    """A handle on a MemoryDatabase that other processes append to as well: each commit is announced
    to every listening handle, a wake-up only (stream, seq, position), delivered later on the loop as a
    NOTIFY arrives, so the feed listener (server/live/pg_listener.py) runs on it as it runs on
    PostgreSQL. It keeps no cache, so the notices teach it nothing."""

    def __init__(self, db: MemoryDatabase, *, seed_key: SeedKey | None = None):
        super().__init__(db, seed_key=seed_key)
        self._on_commit: list[Callable[[], None]] = []

    def _committed(self, plan: Plan) -> None:
        last = self.db.tables.next_position - 1
        loop = asyncio.get_running_loop()
        for stream, head in plan.heads.items():
            payload = msgspec.json.encode({"stream": stream, "seq": head.seq, "position": last}).decode()
            for heard in list(self.db.notices):
                loop.call_soon(heard, payload)
        for listener in list(self._on_commit):
            listener()

    async def last_position(self) -> int:
        return self.db.tables.next_position - 1

    def on_commit(self, listener: Callable[[], None]) -> Callable[[], None]:
        self._on_commit.append(listener)
        return lambda: self._on_commit.remove(listener)

    async def listen(self, heard: Callable[[str], None], lost: Callable[[], None]) -> Listening:
        self.db.notices.append(heard)
        return MemoryListening(self.db, heard)

    def notified(self, payload: dict[str, object]) -> None:
        return None

    def notices_trusted(self, trusted: bool) -> None:
        return None

    def notice_unreadable(self) -> None:
        return None


class MemoryListening(Listening):
    def __init__(self, db: MemoryDatabase, heard: Callable[[str], None]):
        self.db = db
        self.heard = heard

    async def last_committed(self, timeout: float) -> int:
        return self.db.tables.next_position - 1

    async def close(self) -> None:
        if self.heard in self.db.notices:
            self.db.notices.remove(self.heard)
