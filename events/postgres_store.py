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

import asyncio
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

    def __init__(self, dsn: str, *, min_size: int = 1, max_size: int = 10, batch_max: int = 100):
        self.dsn = dsn
        self.min_size = min_size
        self.max_size = max_size
        self.pool: asyncpg.Pool | None = None
        self.schema: str = ""
        self.channel: str = ""
        self._commit_listeners: list[CommitListener] = []
        self.batch_max = batch_max
        self._waiting: list[tuple[Append, asyncio.Future[AppendResult | Exception]]] = []
        self._committer: asyncio.Task[None] | None = None

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

    async def append(self, request: Append) -> AppendResult:
        """Append one command, committed together with the appends waiting beside it (group commit).

        Every append takes the position counter from its UPDATE to its commit, so across the whole
        database commits happen one at a time; sharing one transaction (and one WAL flush) between
        the commands that arrived meanwhile is what keeps throughput up under load. Each command still
        succeeds or fails alone (a savepoint each).
        """
        future: asyncio.Future[AppendResult | Exception] = asyncio.get_running_loop().create_future()
        self._waiting.append((request, future))
        if self._committer is None:
            self._committer = asyncio.create_task(self._commit_waiting())
        result = await future
        if isinstance(result, Exception):
            raise result
        return result

    async def _commit_waiting(self) -> None:
        try:
            while self._waiting:
                batch, self._waiting = self._waiting[:self.batch_max], self._waiting[self.batch_max:]
                requests = [r for r, _ in batch]
                try:
                    results: list[AppendResult | Exception] = await self.append_many(requests)
                except Exception:  # noqa: BLE001 - not a conflict: let each command meet its own fate
                    results = [await self._append_alone(r) for r in requests]
                for (_, future), result in zip(batch, results, strict=True):
                    if not future.done():  # its caller may have gone (cancelled)
                        future.set_result(result)
        except BaseException as exc:
            for _, future in self._waiting:
                if not future.done():
                    future.set_exception(exc if isinstance(exc, Exception) else RuntimeError("the store closed"))
            self._waiting = []
            raise
        finally:
            self._committer = None

    async def _append_alone(self, request: Append) -> AppendResult | Exception:
        try:
            (result,) = await self.append_many([request])
        except Exception as exc:  # noqa: BLE001 - handed to the command's caller
            return exc
        return result

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
        # A lone request needs no savepoint: when it fails, the whole transaction is rolled back.
        single = len(requests) == 1
        results: list[AppendResult | Exception] = []
        staged: list[Event] = []  # this transaction's new events, in append order
        appended: dict[tuple[str, str], list[Event]] = {}  # (stream, command_id) -> its staged events
        try:
            async with conn.transaction():
                if not single:
                    # Lock every existing stream of the batch up front, in one order, so that two group
                    # commits never hold one stream each while waiting for the other's.
                    await conn.execute("SELECT 1 FROM streams WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE",
                                       sorted({r.stream for r in requests}))
                for req in requests:
                    if single:
                        result = await self._append_one(conn, req, appended)
                    else:
                        try:
                            async with conn.transaction():  # a savepoint: this request fails alone
                                result = await self._append_one(conn, req, appended)
                        except (SeqConflict, CommandIdReused, StreamExists) as exc:
                            results.append(exc)
                            continue
                        except asyncpg.UniqueViolationError:
                            head = await self._head(conn, req.stream)
                            results.append(SeqConflict(req.expected_seq, head[0] if head else 0))
                            continue
                    results.append(result)
                    if not result.duplicate:
                        staged += result.events
                if staged:
                    await self._insert_events(conn, staged)
                if self.before_commit is not None:
                    await self.before_commit(requests)
        except (SeqConflict, CommandIdReused, StreamExists) as exc:
            return [exc]  # only a lone request raises these here; its transaction was rolled back
        except asyncpg.UniqueViolationError:
            if not single:
                raise
            head = await self._head(conn, requests[0].stream)
            return [SeqConflict(requests[0].expected_seq, head[0] if head else 0)]
        return results

    async def _head(self, conn: asyncpg.Connection, stream: str) -> tuple[int, str] | None:
        row = await conn.fetchrow("SELECT seq, hash FROM streams WHERE id = $1", stream)
        return (row["seq"], row["hash"]) if row else None

    async def _lock_head(self, conn: asyncpg.Connection, req: Append) -> Any:
        # The stream row lock is what serializes appends to one encounter across processes: a second
        # writer waits here and then reads the head the first one committed. The command's earlier
        # append (a resend), if any, comes in the same round trip.
        return await conn.fetchrow(
            "SELECT s.seq, s.hash, c.identity, c.actor, c.first_seq, c.last_seq"
            " FROM (SELECT seq, hash FROM streams WHERE id = $1 FOR UPDATE) AS s"
            " LEFT JOIN commands AS c ON c.stream = $1 AND c.command_id = $2",
            req.stream, req.command_id)

    async def _append_one(self, conn: asyncpg.Connection, req: Append,
                          appended: dict[tuple[str, str], list[Event]]) -> AppendResult:
        row = await self._lock_head(conn, req)
        created = False
        if row is None and req.create is not None:
            info = req.create
            inserted = await conn.fetchval(
                "INSERT INTO streams (id, name, ruleset, public, seq, hash, closed) VALUES ($1, $2, $3, $4, 0, $5, FALSE)"
                " ON CONFLICT (id) DO NOTHING RETURNING id",
                info.id, info.name, info.ruleset, info.public, ZERO_HASH)
            if inserted is not None:
                created = True
            else:  # a concurrent creation committed first
                row = await self._lock_head(conn, req)
        if row is not None and row["identity"] is not None:
            if row["identity"] != req.identity or row["actor"] != req.actor:
                raise CommandIdReused(req.command_id)
            earlier = appended.get((req.stream, req.command_id))
            if earlier is None:
                earlier = await self._range(conn, req.stream, row["first_seq"], row["last_seq"])
            return AppendResult(earlier, duplicate=True)
        if req.create is not None and not created:
            raise StreamExists(req.stream)
        if created:
            seq, prev = 0, ZERO_HASH
        elif row is None:
            raise SeqConflict(req.expected_seq, 0)
        else:
            seq, prev = row["seq"], row["hash"]
        if seq != req.expected_seq:
            raise SeqConflict(req.expected_seq, seq)
        ts = timestamp()
        sealed: list[Event] = []
        for new in req.events:
            seq += 1
            ev = seal(req.stream, seq, new, req.actor, req.command_id, ts, prev)
            prev = ev.hash
            sealed.append(ev)
        await conn.execute(
            "WITH command AS (INSERT INTO commands (stream, command_id, identity, actor, first_seq, last_seq)"
            "   SELECT $1, $2, $3, $4, $5, $6 WHERE $7)"
            " UPDATE streams SET seq = $6, hash = $8, closed = closed OR $9 WHERE id = $1",
            req.stream, req.command_id, req.identity, req.actor, seq - len(sealed) + 1, seq, bool(sealed),
            prev, req.closes)
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
        if sealed:
            appended[(req.stream, req.command_id)] = sealed
        return AppendResult(sealed)

    async def _insert_events(self, conn: asyncpg.Connection, events: list[Event]) -> None:
        """Give the transaction's events their positions, store them, and queue the wake-ups.

        Positions come from one counter row, updated here in the append transaction. Why not a
        sequence: a sequence value is drawn at insert but becomes visible at commit, so a writer that
        draws 7 and commits after the writer that drew 8 lets a reader bookmark 8 and skip 7 for ever.
        Updating this one row instead locks it until the transaction ends: the next writer's UPDATE
        waits for that commit (or rollback) and then reads the final value, so positions are handed
        out in commit order, and a rollback gives its numbers back, so they are dense. The price is
        that appends, across all encounters and processes, commit one transaction at a time from this
        statement on; it comes last (after the checks, the hashing and the side rows, which run in
        parallel) to keep that window short, and group commit (`append`) shares it among the commands
        that arrived meanwhile.

        The NOTIFY ("stream X has new events up to seq N") is delivered at commit, in commit order,
        and never if the transaction rolls back; listeners read the events themselves from the table.
        """
        heads: dict[str, int] = {}
        for e in events:
            heads[e.stream] = e.seq
        notes = [msgspec.json.encode({"stream": s, "seq": n}).decode() for s, n in heads.items()]
        await conn.execute(
            "WITH counter AS (UPDATE event_positions SET last = last + $1 RETURNING last),"
            " stored AS ("
            f"   INSERT INTO events (position, {_EVENT_COLUMNS})"
            "   SELECT counter.last - $1 + e.n, e.stream, e.seq, e.type, e.data, e.actor, e.command_id, e.ts,"
            "          e.prev_hash, e.hash"
            "   FROM counter, unnest($2::text[], $3::bigint[], $4::text[], $5::text[], $6::text[], $7::text[],"
            "                        $8::text[], $9::text[], $10::text[])"
            "        WITH ORDINALITY AS e(stream, seq, type, data, actor, command_id, ts, prev_hash, hash, n))"
            " SELECT pg_notify($11, note) FROM unnest($12::text[]) AS note",
            len(events), [e.stream for e in events], [e.seq for e in events], [e.type for e in events],
            [canonical(e.data).decode() for e in events], [e.actor for e in events],
            [e.command_id for e in events], [e.ts for e in events], [e.prev_hash for e in events],
            [e.hash for e in events], self.channel, notes)

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
