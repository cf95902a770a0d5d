"""The PostgreSQL store: several server processes share one database (DESIGN.md "Growing past one machine").

Same semantics as the SQLite store, over asyncpg:

- Appends to one encounter serialize across processes on its `streams` row (`SELECT ... FOR UPDATE`),
  backed by the unique (stream, seq) key: two writers deciding on the same head get exactly one
  success; the other sees the moved head and gets `SeqConflict`.
- Event `data` is stored as canonical JSON in a TEXT column, so it is hashed exactly as stored
  (jsonb would re-order keys and normalise text, breaking the chain check on read-back).
- Global positions come from one counter row (see `_allocate_positions`): dense and commit-ordered.
- Every append transaction NOTIFYs `channel` with "stream X has events up to seq N (position P)"; the
  notification is only a wake-up for other processes' feed listeners, which read the events from the
  table (server/pg_listener.py).

The schema is created on open, idempotently, in the connection's current schema (the first entry of
`search_path`, which a DSN may set: `postgresql://host/db?search_path=tussle`).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable
from typing import Any

import asyncpg
import msgspec

from events.canonical import canonical
from events.envelope import ZERO_HASH, Event, seal, timestamp
from events.store import (
    Append,
    AppendResult,
    CommandIdReused,
    SeqConflict,
    Store,
    StoredCommand,
    StreamExists,
    StreamInfo,
    TokenRow,
)

SCHEMA = """
CREATE TABLE IF NOT EXISTS streams (
    id TEXT PRIMARY KEY, name TEXT NOT NULL, ruleset TEXT NOT NULL, public BOOLEAN NOT NULL,
    seq BIGINT NOT NULL, hash TEXT NOT NULL, closed BOOLEAN NOT NULL DEFAULT FALSE,
    listed BIGSERIAL NOT NULL
);
CREATE TABLE IF NOT EXISTS events (
    position BIGINT PRIMARY KEY,
    stream TEXT NOT NULL, seq BIGINT NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
    actor TEXT NOT NULL, command_id TEXT NOT NULL, ts TEXT NOT NULL,
    prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
    UNIQUE (stream, seq)
);
CREATE TABLE IF NOT EXISTS event_positions (
    only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row), last BIGINT NOT NULL
);
INSERT INTO event_positions (only_row, last) VALUES (TRUE, 0) ON CONFLICT DO NOTHING;
CREATE TABLE IF NOT EXISTS commands (
    stream TEXT NOT NULL, command_id TEXT NOT NULL, identity TEXT NOT NULL, actor TEXT NOT NULL,
    first_seq BIGINT NOT NULL, last_seq BIGINT NOT NULL,
    PRIMARY KEY (stream, command_id)
);
CREATE TABLE IF NOT EXISTS dice_seeds (
    stream TEXT NOT NULL, commitment TEXT NOT NULL, seed BYTEA NOT NULL, revealed BOOLEAN NOT NULL DEFAULT FALSE,
    PRIMARY KEY (stream, commitment)
);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY, stream TEXT NOT NULL, role TEXT NOT NULL, seat TEXT, token_id TEXT,
    revoked BOOLEAN NOT NULL DEFAULT FALSE
);
CREATE INDEX IF NOT EXISTS tokens_by_stream ON tokens (stream, role, seat);
"""

# Two processes starting at once must not race on CREATE TABLE IF NOT EXISTS (it is not atomic in
# PostgreSQL): the schema is created under a transaction-scoped advisory lock.
_SCHEMA_LOCK = 0x7475_7373_6C65  # "tussle"

_EVENT_COLUMNS = "stream, seq, type, data, actor, command_id, ts, prev_hash, hash"
_STREAM_COLUMNS = "id, name, ruleset, public, seq, hash, closed"

# PostgreSQL aborts one of two deadlocked transactions; nothing of it was committed, so it is retried.
_DEADLOCK_RETRIES = 5

CommitListener = Callable[[], None]


class NoSchema(Exception):
    """The connection's search_path names no existing schema."""


def _event(row: Any) -> Event:
    return Event(row["stream"], row["seq"], row["type"], msgspec.json.decode(row["data"]), row["actor"],
                 row["command_id"], row["ts"], row["prev_hash"], row["hash"])


def _info(r: Any) -> StreamInfo:
    return StreamInfo(r["id"], r["name"], r["ruleset"], r["public"], r["seq"], r["hash"], r["closed"])


def channel_for(schema: str) -> str:
    """The NOTIFY channel of the store living in `schema` (channels are database-wide, schemas are not)."""
    return "tussle_events_" + hashlib.sha256(schema.encode()).hexdigest()[:16]


class PostgresStore(Store):
    """The PostgreSQL backend, shared by any number of server processes."""

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10):
        self.dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self.pool: asyncpg.Pool | None = None
        self.schema: str = ""
        self.channel: str = ""
        self._commit_listeners: list[CommitListener] = []

    # ---- lifecycle -------------------------------------------------------------------------

    async def open(self) -> None:
        self.pool = await asyncpg.create_pool(self.dsn, min_size=self.min_size, max_size=self.max_size)
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _SCHEMA_LOCK)
                schema = await conn.fetchval("SELECT current_schema()")
                if schema is None:
                    raise NoSchema(f"search_path {await conn.fetchval('SHOW search_path')!r} names no "
                                   "existing schema: create it first")
                await conn.execute(SCHEMA)
            self.schema = schema
            self.channel = channel_for(schema)
        except BaseException:
            await self.pool.close()
            self.pool = None
            raise

    async def close(self) -> None:
        if self.pool is not None:
            await self.pool.close()
            self.pool = None

    @property
    def _pool(self) -> asyncpg.Pool:
        assert self.pool is not None, "store is not open"
        return self.pool

    async def connect(self) -> asyncpg.Connection:
        """A connection of its own (outside the pool), e.g. for LISTEN: the caller closes it."""
        return await asyncpg.connect(self.dsn)

    def on_commit(self, listener: CommitListener) -> Callable[[], None]:
        """Call `listener()` after each append this handle commits; returns the function that stops it."""
        self._commit_listeners.append(listener)
        return lambda: self._commit_listeners.remove(listener)

    # ---- appending -------------------------------------------------------------------------

    async def append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        for attempt in range(_DEADLOCK_RETRIES):
            try:
                async with self._pool.acquire() as conn:
                    results = await self._append_batch(conn, requests)
                break
            except asyncpg.DeadlockDetectedError:
                if attempt == _DEADLOCK_RETRIES - 1:
                    raise
        if any(isinstance(r, AppendResult) and not r.duplicate and r.events for r in results):
            for listener in list(self._commit_listeners):
                listener()
        return results

    async def _append_batch(self, conn: asyncpg.Connection, requests: list[Append]) -> list[AppendResult | Exception]:
        results: list[AppendResult | Exception] = []
        heads: dict[str, tuple[int, int]] = {}  # stream -> (last seq, last position) appended here
        async with conn.transaction():
            if len(requests) > 1:
                # Lock every existing stream of the batch up front, in one order, so that two group
                # commits never hold one stream each while waiting for the other's.
                await conn.execute("SELECT 1 FROM streams WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE",
                                   sorted({r.stream for r in requests}))
            for req in requests:
                try:
                    async with conn.transaction():  # a savepoint: this request fails alone
                        result, last_position = await self._append_one(conn, req)
                except (SeqConflict, CommandIdReused, StreamExists) as exc:
                    results.append(exc)
                    continue
                except asyncpg.UniqueViolationError:
                    head = await self._head(conn, req.stream, lock=False)
                    results.append(SeqConflict(req.expected_seq, head[0] if head else 0))
                    continue
                results.append(result)
                if last_position is not None:
                    heads[req.stream] = (result.events[-1].seq, last_position)
            for stream, (seq, position) in heads.items():
                # Delivered at commit, in commit order, and never if the transaction rolls back.
                await conn.execute("SELECT pg_notify($1, $2)", self.channel,
                                   msgspec.json.encode({"stream": stream, "seq": seq, "position": position}).decode())
            if self.before_commit is not None:
                await self.before_commit(requests)
        return results

    async def _head(self, conn: asyncpg.Connection, stream: str, lock: bool = True) -> tuple[int, str] | None:
        sql = "SELECT seq, hash FROM streams WHERE id = $1" + (" FOR UPDATE" if lock else "")
        row = await conn.fetchrow(sql, stream)
        return (row["seq"], row["hash"]) if row else None

    async def _append_one(self, conn: asyncpg.Connection, req: Append) -> tuple[AppendResult, int | None]:
        # The stream row lock is what serializes appends to one encounter across processes: a second
        # writer waits here and then reads the head the first one committed.
        head = await self._head(conn, req.stream)
        created = False
        if head is None and req.create is not None:
            info = req.create
            inserted = await conn.fetchval(
                "INSERT INTO streams (id, name, ruleset, public, seq, hash, closed) VALUES ($1, $2, $3, $4, 0, $5, FALSE)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                info.id, info.name, info.ruleset, info.public, ZERO_HASH)
            if inserted is not None:
                created, head = True, (0, ZERO_HASH)
            else:  # a concurrent creation committed first
                head = await self._head(conn, req.stream)
        prior = await conn.fetchrow(
            "SELECT identity, actor, first_seq, last_seq FROM commands WHERE stream = $1 AND command_id = $2",
            req.stream, req.command_id)
        if prior:
            if prior["identity"] != req.identity or prior["actor"] != req.actor:
                raise CommandIdReused(req.command_id)
            events = await self._range(conn, req.stream, prior["first_seq"], prior["last_seq"])
            return AppendResult(events, duplicate=True), None
        if req.create is not None and not created:
            raise StreamExists(req.stream)
        if head is None:
            raise SeqConflict(req.expected_seq, 0)
        seq, prev = head
        if seq != req.expected_seq:
            raise SeqConflict(req.expected_seq, seq)
        ts = timestamp()
        sealed: list[Event] = []
        for new in req.events:
            seq += 1
            ev = seal(req.stream, seq, new, req.actor, req.command_id, ts, prev)
            prev = ev.hash
            sealed.append(ev)
        if sealed:
            await conn.execute(
                "INSERT INTO commands (stream, command_id, identity, actor, first_seq, last_seq)"
                " VALUES ($1, $2, $3, $4, $5, $6)",
                req.stream, req.command_id, req.identity, req.actor, sealed[0].seq, sealed[-1].seq)
        await conn.execute("UPDATE streams SET seq = $1, hash = $2, closed = closed OR $3 WHERE id = $4",
                           seq, prev, req.closes, req.stream)
        for s in req.seeds:
            await conn.execute("INSERT INTO dice_seeds (stream, commitment, seed) VALUES ($1, $2, $3)",
                               req.stream, s.commitment, s.seed)
        for c in req.reveal:
            await conn.execute("UPDATE dice_seeds SET revealed = TRUE WHERE stream = $1 AND commitment = $2",
                               req.stream, c)
        for t in req.tokens:
            await conn.execute(
                "INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES ($1, $2, $3, $4, $5)",
                t.token_hash, req.stream, t.role, t.seat, t.token_id)
        for r in req.revoke:
            if r.token_id is not None:
                await conn.execute("UPDATE tokens SET revoked = TRUE WHERE stream = $1 AND token_id = $2",
                                   req.stream, r.token_id)
            else:
                await conn.execute(
                    "UPDATE tokens SET revoked = TRUE WHERE stream = $1 AND role = $2 AND seat IS NOT DISTINCT FROM $3",
                    req.stream, r.role, r.seat)
        if not sealed:
            return AppendResult(sealed), None
        last = await self._allocate_positions(conn, len(sealed))
        first = last - len(sealed) + 1
        await conn.execute(
            f"INSERT INTO events (position, {_EVENT_COLUMNS}) SELECT * FROM unnest("
            "$1::bigint[], $2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[], $8::text[],"
            " $9::text[], $10::text[])",
            list(range(first, last + 1)), [e.stream for e in sealed], [e.seq for e in sealed],
            [e.type for e in sealed], [canonical(e.data).decode() for e in sealed], [e.actor for e in sealed],
            [e.command_id for e in sealed], [e.ts for e in sealed], [e.prev_hash for e in sealed],
            [e.hash for e in sealed])
        return AppendResult(sealed), last

    async def _allocate_positions(self, conn: asyncpg.Connection, count: int) -> int:
        """Take `count` positions from the counter row; returns the last one.

        Why a counter row and not a sequence: a sequence value is drawn at insert but becomes visible
        at commit, so a writer that draws 7 and commits after the writer that drew 8 lets a reader
        bookmark 8 and skip 7 for ever. Updating this one row instead locks it until the transaction
        ends: the next writer's UPDATE waits for that commit (or rollback) and then reads the final
        value, so positions are handed out in commit order, and a rollback (of the transaction or of a
        request's savepoint) returns its numbers, so they are dense. The price is that appends to
        *different* encounters serialize from this point to their commit; it is taken as late as
        possible (after the checks, the hashing and the side rows) to keep that window short, and group
        commit amortizes it.
        """
        return await conn.fetchval("UPDATE event_positions SET last = last + $1 RETURNING last", count)

    # ---- reading ---------------------------------------------------------------------------

    async def _range(self, conn: asyncpg.Connection | asyncpg.Pool, stream: str, first: int, last: int) -> list[Event]:
        rows = await conn.fetch(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
            stream, first, last)
        return [_event(r) for r in rows]

    async def read(self, stream: str, from_seq: int = 1, limit: int | None = None) -> list[Event]:
        rows = await self._pool.fetch(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
            stream, from_seq, limit)
        return [_event(r) for r in rows]

    async def read_all(self, after_position: int, limit: int = 1000) -> list[tuple[int, Event]]:
        rows = await self._pool.fetch(
            f"SELECT position, {_EVENT_COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2",
            after_position, limit)
        return [(r["position"], _event(r)) for r in rows]

    async def last_position(self) -> int:
        """The last position handed out (committed): a feed that starts now starts after it."""
        return await self._pool.fetchval("SELECT last FROM event_positions")

    async def stream_info(self, stream: str) -> StreamInfo | None:
        r = await self._pool.fetchrow(f"SELECT {_STREAM_COLUMNS} FROM streams WHERE id = $1", stream)
        return _info(r) if r else None

    async def list_streams(self, public_only: bool) -> list[StreamInfo]:
        where = " WHERE public" if public_only else ""
        rows = await self._pool.fetch(f"SELECT {_STREAM_COLUMNS} FROM streams{where} ORDER BY listed")
        return [_info(r) for r in rows]

    async def delete_stream(self, stream: str) -> bool:
        async with self._pool.acquire() as conn, conn.transaction():
            found = await conn.fetchval("DELETE FROM streams WHERE id = $1 RETURNING id", stream) is not None
            for table in ("events", "commands", "dice_seeds", "tokens"):
                await conn.execute(f"DELETE FROM {table} WHERE stream = $1", stream)
        return found

    async def find_command(self, stream: str, command_id: str) -> StoredCommand | None:
        r = await self._pool.fetchrow(
            "SELECT identity, actor, first_seq, last_seq FROM commands WHERE stream = $1 AND command_id = $2",
            stream, command_id)
        if not r:
            return None
        return StoredCommand(r["identity"], r["actor"], await self._range(self._pool, stream, r["first_seq"], r["last_seq"]))

    async def seed(self, stream: str, commitment: str) -> bytes | None:
        seed = await self._pool.fetchval(
            "SELECT seed FROM dice_seeds WHERE stream = $1 AND commitment = $2", stream, commitment)
        return bytes(seed) if seed is not None else None

    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        rows = await self._pool.fetch(
            "SELECT commitment, seed FROM dice_seeds WHERE stream = $1 AND revealed", stream)
        return {r["commitment"]: bytes(r["seed"]).hex() for r in rows}

    async def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        r = await self._pool.fetchrow(
            "SELECT stream, role, seat, token_id FROM tokens WHERE token_hash = $1 AND NOT revoked", token_hash)
        return (r["stream"], TokenRow(token_hash, r["role"], r["seat"], r["token_id"])) if r else None


__all__ = ["PostgresStore", "NoSchema", "channel_for"]
