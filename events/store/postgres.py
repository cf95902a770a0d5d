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
  table (server/live/pg_listener.py).

The tables are made on open by the migrations the database lacks (events/store/migrations.py), in the
connection's current schema: the first entry of `search_path`, which a DSN may set
(`postgresql://host/db?search_path=tussle`); a schema named there that does not exist yet is created.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator, Awaitable, Callable
from typing import Any

import asyncpg
import msgspec

from events.envelope import ZERO_HASH, Event, timestamp
from events.store import receipt_key
from events.store.group_commit import GroupCommit
from events.store.migrations import MIGRATIONS, VERSION_TABLE, Migration, pending, seals_seeds, stream_tables
from events.store.notified_caches import NotifiedCaches
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
    T,
    TokenRow,
)
from events.store.postgres_discord import PostgresDiscord
from events.store.postgres_one_trip import ONE_TRIP_CHECKS, one_trip_arguments, one_trip_plan
from events.store.postgres_snapshots import PostgresSnapshots
from events.store.postgres_webhooks import PostgresWebhooks, seal_plain_webhooks, write_webhook_rows
from events.store.receipt_key import ReceiptKeys
from events.store.sealing import Plan, Prior, Resend, plan_batch
from events.store.seed_key import SeedKey, for_postgres
from events.store.server_tokens import FIREHOSE_GRANT, SERVER_STREAM

# Two processes starting at once must not both migrate (nor race on CREATE TABLE IF NOT EXISTS, which
# is not atomic in PostgreSQL): migrations run under this transaction-scoped advisory lock.
_SCHEMA_LOCK = 0x7475_7373_6C65  # "tussle"
# The first key of the two-key advisory locks that serialise deciding on one encounter (the second is
# hashtext of its id: two encounters sharing a hash only wait for each other).
_DECIDING_LOCK = 0x7475_7373  # "tuss"

_EVENT_COLUMNS = "stream, seq, type, data, actor, command_id, ts, prev_hash, hash"
_STREAM_COLUMNS = "id, name, ruleset, public, seq, hash, closed"

# PostgreSQL aborts one of two deadlocked transactions; nothing of it was committed, so it is retried.
_DEADLOCK_RETRIES = 5

CommitListener = Callable[[], None]


# What a database that went away or filled up answers (a lost or refused connection, a shutdown, a
# database renamed or dropped, a full disk): nothing of the transaction was kept, worth trying later.
_UNAVAILABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InsufficientResourcesError,
    asyncpg.OperatorInterventionError,
    asyncpg.InvalidCatalogNameError,
    asyncpg.PostgresSystemError,
)


class NoSchema(Exception):
    """The connection's search_path names no schema to keep the tables in."""


def _event(row: Any) -> Event:
    return Event(
        row["stream"],
        row["seq"],
        row["type"],
        msgspec.json.decode(row["data"]),
        row["actor"],
        row["command_id"],
        row["ts"],
        row["prev_hash"],
        row["hash"],
    )


def _info(r: Any) -> StreamInfo:
    return StreamInfo(r["id"], r["name"], r["ruleset"], r["public"], r["seq"], r["hash"], r["closed"])


async def _keep_session(conn: asyncpg.Connection) -> None:
    """The pool's reset of a connection handed back: nothing. asyncpg's default sends a query (advisory
    unlocks, CLOSE ALL, UNLISTEN, RESET ALL) on every release, a round trip per use; this store's pooled
    connections take no session-level locks, cursors, listeners or settings (the feed listener has a
    connection of its own, `connect`), and an open transaction is still rolled back by asyncpg."""


class PostgresStreamReader(msgspec.Struct, frozen=True):
    """Reads a whole stream through a connection of its own to the store's schema (`whole_stream_reader`)."""

    dsn: str
    schema: str

    def __call__(self, stream: str, after: int = 0) -> list[Event]:
        return asyncio.run(self._read(stream, after))

    async def _read(self, stream: str, after: int) -> list[Event]:
        conn = await asyncpg.connect(self.dsn)
        try:
            await conn.execute(
                "SELECT set_config('search_path', $1, false)", '"' + self.schema.replace('"', '""') + '"'
            )
            rows = await conn.fetch(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = $1 AND seq > $2 ORDER BY seq",
                stream,
                after,
            )
        finally:
            await conn.close()
        return [_event(r) for r in rows]


class PostgresListening(Listening):
    """A LISTEN connection of the store's (`PostgresStore.listen`)."""

    def __init__(self, conn: asyncpg.Connection):
        self.conn = conn
        self.server_pid = conn.get_server_pid()

    async def last_committed(self, timeout: float) -> int:
        return await self.conn.fetchval("SELECT last FROM event_positions", timeout=timeout) or 0

    async def close(self) -> None:
        conn = self.conn
        if not conn.is_closed():
            with contextlib.suppress(Exception):
                await asyncio.wait_for(conn.close(), timeout=2)
            if not conn.is_closed():
                conn.terminate()


def channel_for(schema: str) -> str:
    """The NOTIFY channel of the store living in `schema` (channels are database-wide, schemas are not)."""
    return "tussle_events_" + hashlib.sha256(schema.encode()).hexdigest()[:16]


class PostgresStore(PostgresWebhooks, PostgresSnapshots, PostgresDiscord, Store, SharedFeed):
    """The PostgreSQL backend, shared by any number of server processes."""

    # Awaited inside every append transaction just before its commit: None but in tests, which hold a
    # writer's transaction open with it while others write and read, or make it fail.
    before_commit: Callable[[list[Append]], Awaitable[None]] | None = None

    def __init__(
        self,
        dsn: str,
        *,
        min_size: int = 1,
        max_size: int = 10,
        batch_max: int = 100,
        migrations: list[Migration] = MIGRATIONS,
        seed_key: SeedKey | None = None,
    ):
        self.dsn = dsn
        self.seed_key = seed_key  # None: TUSSLE_SEED_KEY, read at open (never made: all processes share it)
        self.migrations = migrations
        self.min_size = min_size
        self.max_size = max_size
        self._lock_pool: asyncpg.Pool | None = None
        self.pool: asyncpg.Pool | None = None
        self.schema: str = ""
        self.channel: str = ""
        self._commit_listeners: list[CommitListener] = []
        # Tokens and heads, trusted while the feed listener hears every commit (server/live/pg_listener.py).
        self.caches = NotifiedCaches()
        # Every append holds the position counter from its UPDATE to its commit (see _write_events), so
        # across the whole database commits happen one at a time; sharing one transaction (and one WAL
        # flush) between the commands that arrived meanwhile is what keeps throughput up under load.
        self._group_commit = GroupCommit(self._write_group, batch_max)

    # ---- lifecycle -------------------------------------------------------------------------

    async def open(self) -> None:
        if self.seed_key is None:
            self.seed_key = for_postgres()
        self.pool = await asyncpg.create_pool(
            self.dsn, min_size=self.min_size, max_size=self.max_size, reset=_keep_session
        )
        try:
            async with self.pool.acquire() as conn, conn.transaction():
                await conn.execute("SELECT pg_advisory_xact_lock($1)", _SCHEMA_LOCK)
                schema = await conn.fetchval("SELECT current_schema()")
                if schema is None:
                    schema = await self._create_schema(conn)
                await self._migrate(conn)
            self.schema = schema
            self.channel = channel_for(schema)
            self._lock_pool = await asyncpg.create_pool(
                self.dsn, min_size=0, max_size=self.max_size, reset=_keep_session
            )
        except BaseException:
            await self.pool.close()
            self.pool = None
            raise

    async def _migrate(self, conn: asyncpg.Connection) -> None:
        """Inside open's transaction, under the advisory lock: run the migrations this schema lacks
        (events/store/migrations.py) with their `schema_migrations` rows; a process that waited for the lock
        finds them applied and runs none."""
        await conn.execute(VERSION_TABLE["postgres"])
        applied = [
            (r["version"], r["name"])
            for r in await conn.fetch("SELECT version, name FROM schema_migrations ORDER BY version")
        ]
        for version, migration in pending(applied, self.migrations):
            if migration.postgres:
                await conn.execute(migration.postgres)
            if migration.seal_seeds:
                await self._seal_plain_seeds(conn)
            if migration.seal_webhooks:
                await seal_plain_webhooks(conn, self._key)
            await conn.execute(
                "INSERT INTO schema_migrations (version, name, applied_at) VALUES ($1, $2, $3)",
                version,
                migration.name,
                timestamp(),
            )
        if seals_seeds(self.migrations):
            await self._check_seed_key(conn)

    async def _seal_plain_seeds(self, conn: asyncpg.Connection) -> None:
        """The seed_key migration's own step: seal each seed written plain before it. (PostgreSQL keeps
        the old row versions until VACUUM reclaims them; docs/deploy.md says to run it after upgrading.)"""
        rows = await conn.fetch("SELECT stream, commitment, seed FROM dice_seeds")
        await conn.executemany(
            "UPDATE dice_seeds SET seed = $1 WHERE stream = $2 AND commitment = $3",
            [
                (self._key.seal(r["stream"], r["commitment"], bytes(r["seed"])), r["stream"], r["commitment"])
                for r in rows
            ],
        )

    async def _check_seed_key(self, conn: asyncpg.Connection) -> None:
        """Record the seed key's fingerprint in a database that has none; refuse another key's."""
        stored = await conn.fetchval("SELECT fingerprint FROM seed_key")
        if stored is None:
            await conn.execute(
                "INSERT INTO seed_key (only_row, fingerprint) VALUES (TRUE, $1)", self._key.fingerprint
            )
        else:
            self._key.check(stored)

    @property
    def _key(self) -> SeedKey:
        assert self.seed_key is not None, "store is not open"
        return self.seed_key

    async def _create_schema(self, conn: asyncpg.Connection) -> str:
        """Create the first schema the search_path names (e.g. `?search_path=tussle` in the DSN)."""
        search_path = await conn.fetchval("SHOW search_path")
        names = [n.strip().strip('"') for n in search_path.split(",") if n.strip() and n.strip() != '"$user"']
        if not names:
            raise NoSchema(f"search_path {search_path!r} names no schema to create the tables in")
        quoted = '"' + names[0].replace('"', '""') + '"'
        await conn.execute(f"CREATE SCHEMA IF NOT EXISTS {quoted}")
        return await conn.fetchval("SELECT current_schema()")

    async def close(self) -> None:
        await self._group_commit.drained()
        for pool in (self.pool, self._lock_pool):
            if pool is not None:
                await pool.close()
        self.pool = self._lock_pool = None

    @property
    def serialises_deciding(self) -> bool:
        return True

    @contextlib.asynccontextmanager
    async def deciding(self, stream: str) -> AsyncIterator[None]:
        """A transaction-level advisory lock on the encounter, held while its command is decided and
        appended: another process's command on it waits, then reads the head this one committed. (The
        optimistic way, deciding again on a lost race, ran out of retries under two busy processes: issue
        33 item 5.) The locks come from a pool of their own, so that commands holding locks never wait for
        a connection the appends they wait for need."""
        assert self._lock_pool is not None, "store is not open"
        async with self._lock_pool.acquire() as conn, conn.transaction():
            await conn.execute("SELECT pg_advisory_xact_lock($1, hashtext($2))", _DECIDING_LOCK, stream)
            yield

    @property
    def _pool(self) -> asyncpg.Pool:
        assert self.pool is not None, "store is not open"
        return self.pool

    async def connect(self) -> asyncpg.Connection:
        """A connection of its own (outside the pool), e.g. for LISTEN: the caller closes it."""
        return await asyncpg.connect(self.dsn)

    def on_commit(self, listener: CommitListener) -> Callable[[], None]:
        self._commit_listeners.append(listener)
        return lambda: self._commit_listeners.remove(listener)

    async def listen(self, heard: Callable[[str], None], lost: Callable[[], None]) -> PostgresListening:
        conn = await self.connect()
        try:
            conn.add_termination_listener(lambda _conn: lost())
            await conn.add_listener(self.channel, lambda _conn, _pid, _channel, payload: heard(payload))
        except BaseException:
            await PostgresListening(conn).close()
            raise
        return PostgresListening(conn)

    def notices_trusted(self, trusted: bool) -> None:
        if trusted:
            self.caches.went_live()
        else:
            self.caches.went_deaf()

    def notice_unreadable(self) -> None:
        self.caches.drop_all()

    def receipt_keys(self) -> ReceiptKeys:
        return receipt_key.for_postgres()

    def whole_stream_reader(self) -> PostgresStreamReader | None:
        return PostgresStreamReader(self.dsn, self.schema) if self.schema else None

    async def external_writes_marker(self) -> None:
        return None  # other processes append here by design: an edit of old rows is found by a full check

    def unavailable(self, exc: BaseException) -> str | None:
        # A connection the server dropped mid-command can be left "in another operation" when asyncpg
        # is asked to reset it (seen under load when the database goes away): the database, not us.
        if (
            isinstance(exc, _UNAVAILABLE)
            or (isinstance(exc, asyncpg.InterfaceError) and "closed" in str(exc))
            or (isinstance(exc, asyncpg.InternalClientError) and "another operation" in str(exc))
        ):
            return f"the PostgreSQL database cannot be reached or written now ({type(exc).__name__})"
        return None

    # ---- appending -------------------------------------------------------------------------

    async def append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        return await self._group_commit.submit(requests)

    async def append_then(self, request: Append, then: Callable[[AppendResult | Exception], T]) -> T:
        return await self._group_commit.submit_then(request, then)

    async def _write_group(self, requests: list[Append]) -> list[AppendResult | Exception]:
        try:
            results = await self._append_retrying(requests)
        except Exception:
            if len(requests) == 1:
                raise
            # Not a conflict but a failure of the transaction (a bad row, a lost connection): each
            # request is tried alone, so that only the one at fault fails.
            results = []
            for r in requests:
                try:
                    results += await self._append_retrying([r])
                except Exception as exc:  # noqa: BLE001 - handed to that request's caller
                    results.append(exc)
        # What this process's own commits tell its caches, before any caller hears of them: a revocation
        # stops its tokens at once here, and the new heads need no read.
        if any(r.revoke for r in requests):
            self.caches.drop_tokens()
        for r in results:
            if isinstance(r, AppendResult) and r.events:
                self.caches.heard(r.events[-1].stream, r.events[-1].seq)
        if any(isinstance(r, AppendResult) and not r.duplicate and r.events for r in results):
            for listener in list(self._commit_listeners):
                listener()
        return results

    async def _one_trip(self, requests: list[Append]) -> list[AppendResult | Exception] | None:
        """The batch in one statement, one round trip, when every request is a plain command decided on a
        known head (events/store/postgres_one_trip.py); None when it is not, or when the database's heads,
        commands or tokens are not what the plan assumed (nothing was written: the full path decides)."""
        plan = one_trip_plan(requests, self.clock)
        if plan is None:
            return None
        args = [*self._write_arguments(plan), *one_trip_arguments(requests, plan)]
        try:
            async with self._pool.acquire() as conn:
                if self.before_commit is None:
                    written = await conn.fetch(ONE_TRIP_CHECKS + self._WRITE_EVENTS, *args)
                else:
                    async with conn.transaction():
                        written = await conn.fetch(ONE_TRIP_CHECKS + self._WRITE_EVENTS, *args)
                        if written:
                            await self.before_commit(requests)
        except (asyncpg.DeadlockDetectedError, asyncpg.UniqueViolationError):
            return None  # nothing of it was kept: the full path's checks see what won
        return plan.results if written else None  # type: ignore[return-value]  # a one-trip plan has no Resend

    async def _append_retrying(self, requests: list[Append]) -> list[AppendResult | Exception]:
        one_trip = await self._one_trip(requests)
        if one_trip is not None:
            return one_trip
        for attempt in range(_DEADLOCK_RETRIES):
            try:
                async with self._pool.acquire() as conn:
                    return await self._append_batch(conn, requests)
            except (asyncpg.DeadlockDetectedError, asyncpg.UniqueViolationError):
                # PostgreSQL aborted this transaction to break a lock cycle, or because a concurrent
                # transaction committed the same creation command_id first (the checks cannot see an
                # uncommitted row): nothing of it was kept, and the next try's checks see what won.
                if attempt == _DEADLOCK_RETRIES - 1:
                    raise
        raise AssertionError("unreachable")

    async def _append_batch(
        self, conn: asyncpg.Connection, requests: list[Append]
    ) -> list[AppendResult | Exception]:
        """One transaction for the batch, in a fixed number of round trips whatever its size.

        Every stream of the batch is locked first (`FOR UPDATE`, in one order so that two batches
        never wait on each other in a cycle): that row lock is what serializes appends to one
        encounter across processes, and with it held the heads and earlier commands read next cannot
        change under us. The one plan (events/store/sealing.py) then checks and seals the requests;
        the writes go last, in bulk. A creation racing another process's for the same stream or
        creation command_id meets the unique key at its insert: the transaction is tried again, and
        the next plan sees what won.
        """
        async with conn.transaction():
            streams = sorted({r.stream for r in requests})
            rows = await conn.fetch(
                "SELECT id, seq, hash FROM streams WHERE id = ANY($1::text[]) ORDER BY id FOR UPDATE", streams
            )
            heads: dict[str, tuple[int, str]] = {r["id"]: (r["seq"], r["hash"]) for r in rows}
            priors = await self._commands(conn, [(r.stream, r.command_id) for r in requests])
            create_keys = sorted(
                {r.create_key for r in requests if r.create is not None and r.create_key is not None}
            )
            taken = (
                {
                    r["command_id"]
                    for r in await conn.fetch(
                        "SELECT command_id FROM creations WHERE command_id = ANY($1::text[])", create_keys
                    )
                }
                if create_keys
                else set()
            )
            plan = plan_batch(
                requests, heads, priors, taken, self.clock, await self._live_tokens(conn, requests)
            )
            if plan.accepted:
                await self._write(conn, plan)
            results = [
                AppendResult(await self._range(conn, *r), duplicate=True) if isinstance(r, Resend) else r
                for r in plan.results
            ]
            if self.before_commit is not None:
                await self.before_commit(requests)
        return results

    @staticmethod
    async def _live_tokens(
        conn: asyncpg.Connection, requests: list[Append]
    ) -> dict[str, tuple[str, TokenRow]]:
        hashes = sorted({r.token_hash for r in requests if r.token_hash is not None})
        if not hashes:
            return {}
        rows = await conn.fetch(
            "SELECT token_hash, stream, role, seat, token_id FROM tokens"
            " WHERE token_hash = ANY($1::text[]) AND NOT revoked",
            hashes,
        )
        return {
            r["token_hash"]: (r["stream"], TokenRow(r["token_hash"], r["role"], r["seat"], r["token_id"]))
            for r in rows
        }

    async def _commands(
        self, conn: asyncpg.Connection, keys: list[tuple[str, str]]
    ) -> dict[tuple[str, str], Prior]:
        rows = await conn.fetch(
            "SELECT c.stream, c.command_id, c.identity, c.actor, c.first_seq, c.last_seq FROM commands AS c"
            " JOIN unnest($1::text[], $2::text[]) AS k(stream, command_id) USING (stream, command_id)",
            [k[0] for k in keys],
            [k[1] for k in keys],
        )
        return {
            (r["stream"], r["command_id"]): Prior(r["identity"], r["actor"], r["first_seq"], r["last_seq"])
            for r in rows
        }

    async def _write(self, conn: asyncpg.Connection, plan: Plan) -> None:
        if plan.created:
            await conn.executemany(
                "INSERT INTO streams (id, name, ruleset, public, seq, hash, closed) VALUES ($1, $2, $3, $4, 0, $5, FALSE)",
                [(i.id, i.name, i.ruleset, i.public, ZERO_HASH) for i in plan.created],
            )
        for req in plan.accepted:  # the side rows: seeds and tokens (creations, rotations, seats)
            if req.create is not None and req.create_key is not None:
                await conn.execute(
                    "INSERT INTO creations (command_id, stream, identity) VALUES ($1, $2, $3)",
                    req.create_key,
                    req.stream,
                    req.identity,
                )
            for s in req.seeds:
                await conn.execute(
                    "INSERT INTO dice_seeds (stream, commitment, seed) VALUES ($1, $2, $3)",
                    req.stream,
                    s.commitment,
                    self._key.seal(req.stream, s.commitment, s.seed),
                )
            for c in req.reveal:
                await conn.execute(
                    "UPDATE dice_seeds SET revealed = TRUE WHERE stream = $1 AND commitment = $2",
                    req.stream,
                    c,
                )
            # Revocations first: a rotation revokes the old tokens and then adds the new one.
            for r in req.revoke:
                if r.token_id is not None:
                    await conn.execute(
                        "UPDATE tokens SET revoked = TRUE WHERE stream = $1 AND token_id = $2",
                        req.stream,
                        r.token_id,
                    )
                else:
                    await conn.execute(
                        "UPDATE tokens SET revoked = TRUE WHERE stream = $1 AND role = $2 AND seat IS NOT DISTINCT FROM $3",
                        req.stream,
                        r.role,
                        r.seat,
                    )
            for t in req.tokens:
                await conn.execute(
                    "INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES ($1, $2, $3, $4, $5)",
                    t.token_hash,
                    req.stream,
                    t.role,
                    t.seat,
                    t.token_id,
                )
            if req.webhooks or req.webhook_changes or req.outbox:
                await write_webhook_rows(conn, req, self._key)
            if req.clear_deadlines:
                await conn.execute(
                    "DELETE FROM reaction_deadlines WHERE stream = $1 AND reaction = ANY($2::text[])",
                    req.stream,
                    req.clear_deadlines,
                )
            for d in req.deadlines:
                await conn.execute(
                    "INSERT INTO reaction_deadlines (stream, reaction, due) VALUES ($1, $2, $3)"
                    " ON CONFLICT (stream, reaction) DO UPDATE SET due = EXCLUDED.due",
                    req.stream,
                    d.reaction,
                    d.due,
                )
        await self._write_events(conn, plan)

    async def _write_events(self, conn: asyncpg.Connection, plan: Plan) -> None:
        """In one statement: the commands, the new heads, the events with their positions, the wake-ups.

        Positions come from one counter row, updated here in the append transaction. Why not a
        sequence: a sequence value is drawn at insert but becomes visible at commit, so a writer that
        draws 7 and commits after the writer that drew 8 lets a reader bookmark 8 and skip 7 for ever.
        Updating this one row instead locks it until the transaction ends: the next writer's UPDATE
        waits for that commit (or rollback) and then reads the final value, so positions are handed
        out in commit order, and a rollback gives its numbers back, so they are dense. The price is
        that appends, across all encounters and processes, commit one transaction at a time from this
        statement on; it comes last in the transaction (after the locks, the checks, the hashing and
        the side rows, which other transactions may run meanwhile) to keep that window short, and
        group commit (`append`) shares it among the commands that arrived meanwhile.

        The NOTIFY ("stream X has new events up to seq N; positions up to P are committed") is
        delivered at commit, in commit order, and never if the transaction rolls back; listeners
        only wake up on it and read the events themselves from the table.
        """
        await conn.execute(
            "WITH checks AS (SELECT TRUE AS ok)," + self._WRITE_EVENTS, *self._write_arguments(plan)
        )

    # Every write reads `checks.ok`: TRUE on the full path, the one-trip checks' verdict on the one-trip
    # path (events/store/postgres_one_trip.py), where a failed check writes nothing, not even positions.
    _WRITE_EVENTS = (
        " counter AS (UPDATE event_positions SET last = last + $1 WHERE (SELECT ok FROM checks) RETURNING last),"
        " command AS ("
        "   INSERT INTO commands (stream, command_id, identity, actor, first_seq, last_seq)"
        "   SELECT * FROM unnest($2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])"
        "   WHERE (SELECT ok FROM checks)),"
        " head AS ("
        "   UPDATE streams SET seq = u.seq, hash = u.hash, closed = streams.closed OR u.closes"
        "   FROM unnest($8::text[], $9::bigint[], $10::text[], $11::boolean[]) AS u(id, seq, hash, closes)"
        "   WHERE streams.id = u.id AND (SELECT ok FROM checks)),"
        " stored AS ("
        f"   INSERT INTO events (position, {_EVENT_COLUMNS})"
        "   SELECT counter.last - $1 + e.n, e.stream, e.seq, e.type, e.data, e.actor, e.command_id, e.ts,"
        "          e.prev_hash, e.hash"
        "   FROM counter, unnest($12::text[], $13::bigint[], $14::text[], $15::text[], $16::text[], $17::text[],"
        "                        $18::text[], $19::text[], $20::text[])"
        "        WITH ORDINALITY AS e(stream, seq, type, data, actor, command_id, ts, prev_hash, hash, n))"
        " SELECT pg_notify($21, json_build_object('stream', h.stream, 'seq', h.seq, 'position', counter.last,"
        "                                         'tokens', h.tokens)::text)"
        " FROM counter, unnest($22::text[], $23::bigint[], $24::boolean[]) AS h(stream, seq, tokens)"
    )

    def _write_arguments(self, plan: Plan) -> list[Any]:
        """$1-$24 of _WRITE_EVENTS; `tokens` in a notification: a command of that stream revoked some."""
        events = plan.events
        cmds = plan.commands
        touched = sorted(plan.heads)
        last_seq: dict[str, int] = {}
        for e in events:
            last_seq[e.stream] = e.seq
        revoked = {r.stream for r in plan.accepted if r.revoke}
        return [
            len(events),
            [c.stream for c in cmds],
            [c.command_id for c in cmds],
            [c.identity for c in cmds],
            [c.actor for c in cmds],
            [c.first_seq for c in cmds],
            [c.last_seq for c in cmds],
            touched,
            [plan.heads[s].seq for s in touched],
            [plan.heads[s].hash for s in touched],
            [plan.heads[s].closes for s in touched],
            [e.stream for e in events],
            [e.seq for e in events],
            [e.type for e in events],
            plan.data_texts,
            [e.actor for e in events],
            [e.command_id for e in events],
            [e.ts for e in events],
            [e.prev_hash for e in events],
            [e.hash for e in events],
            self.channel,
            list(last_seq),
            list(last_seq.values()),
            [s in revoked for s in last_seq],
        ]

    # ---- reading ---------------------------------------------------------------------------

    async def _range(
        self, conn: asyncpg.Connection | asyncpg.Pool, stream: str, first: int, last: int
    ) -> list[Event]:
        rows = await conn.fetch(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = $1 AND seq BETWEEN $2 AND $3 ORDER BY seq",
            stream,
            first,
            last,
        )
        return [_event(r) for r in rows]

    async def read(self, stream: str, from_seq: int = 1, limit: int | None = None) -> list[Event]:
        rows = await self._pool.fetch(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = $1 AND seq >= $2 ORDER BY seq LIMIT $3",
            stream,
            from_seq,
            limit,
        )
        return [_event(r) for r in rows]

    async def read_all(self, after_position: int, limit: int = 1000) -> list[tuple[int, Event]]:
        rows = await self._pool.fetch(
            f"SELECT position, {_EVENT_COLUMNS} FROM events WHERE position > $1 ORDER BY position LIMIT $2",
            after_position,
            limit,
        )
        return [(r["position"], _event(r)) for r in rows]

    async def last_position(self) -> int:
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
            for table in stream_tables(self.migrations):
                await conn.execute(f"DELETE FROM {table} WHERE stream = $1", stream)
            # Other processes drop their cached tokens and head of it (events/store/notified_caches.py).
            await conn.execute(
                "SELECT pg_notify($1, json_build_object('stream', $2::text, 'deleted', TRUE)::text)",
                self.channel,
                stream,
            )
        self.caches.heard(stream, None, deleted=True)
        return found

    async def find_command(self, stream: str, command_id: str) -> StoredCommand | None:
        r = await self._pool.fetchrow(
            "SELECT identity, actor, first_seq, last_seq FROM commands WHERE stream = $1 AND command_id = $2",
            stream,
            command_id,
        )
        if not r:
            return None
        return StoredCommand(
            r["identity"], r["actor"], await self._range(self._pool, stream, r["first_seq"], r["last_seq"])
        )

    async def seed(self, stream: str, commitment: str) -> bytes | None:
        seed = await self._pool.fetchval(
            "SELECT seed FROM dice_seeds WHERE stream = $1 AND commitment = $2", stream, commitment
        )
        return self._key.open(stream, commitment, bytes(seed)) if seed is not None else None

    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        rows = await self._pool.fetch(
            "SELECT commitment, seed FROM dice_seeds WHERE stream = $1 AND revealed", stream
        )
        return {
            r["commitment"]: self._key.open(stream, r["commitment"], bytes(r["seed"])).hex() for r in rows
        }

    async def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        cached = self.caches.token(token_hash)
        if cached is not None:
            return cached
        generation = self.caches.token_generation()
        r = await self._pool.fetchrow(
            "SELECT stream, role, seat, token_id FROM tokens WHERE token_hash = $1 AND NOT revoked",
            token_hash,
        )
        if r is None:
            return None  # unknown tokens are not cached: anyone can send any number of them
        found = (r["stream"], TokenRow(token_hash, r["role"], r["seat"], r["token_id"]))
        self.caches.keep_token(token_hash, found, generation)
        return found

    # ---- the caches (events/store/notified_caches.py) -----------------------------------------

    def head_known(self, stream: str, seq: int) -> bool:
        return self.caches.head_known(stream, seq)

    def head_generation(self) -> int:
        return self.caches.generation

    def saw_head(self, stream: str, seq: int, generation: int) -> None:
        self.caches.saw_head(stream, seq, generation)

    def notified(self, payload: dict[str, Any]) -> None:
        stream, seq = payload.get("stream"), payload.get("seq")
        self.caches.heard(
            stream if isinstance(stream, str) else None,
            seq if isinstance(seq, int) else None,
            tokens=payload.get("tokens") is True,
            deleted=payload.get("deleted") is True,
        )

    async def stream_tokens(self, stream: str) -> list[TokenRow]:
        rows = await self._pool.fetch(
            "SELECT token_hash, role, seat, token_id FROM tokens WHERE stream = $1 AND NOT revoked"
            ' ORDER BY token_hash COLLATE "C"',
            stream,
        )
        return [TokenRow(r["token_hash"], r["role"], r["seat"], r["token_id"]) for r in rows]

    # ---- server-level tokens (events/store/server_tokens.py) ----------------------------------

    async def add_server_token(self, row: TokenRow) -> None:
        await self._pool.execute(
            "INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES ($1, $2, $3, $4, $5)",
            row.token_hash,
            SERVER_STREAM,
            row.role,
            row.seat,
            row.token_id,
        )

    async def revoke_server_token(self, token_id: str) -> bool:
        async with self._pool.acquire() as conn, conn.transaction():
            found = (
                await conn.fetchval(
                    "UPDATE tokens SET revoked = TRUE WHERE stream = $1 AND token_id = $2 AND NOT revoked"
                    " RETURNING token_id",
                    SERVER_STREAM,
                    token_id,
                )
                is not None
            )
            # Other processes drop their cached tokens (events/store/notified_caches.py).
            await conn.execute("SELECT pg_notify($1, json_build_object('tokens', TRUE)::text)", self.channel)
        self.caches.drop_tokens()
        return found

    async def server_tokens(self) -> list[TokenRow]:
        rows = await self._pool.fetch(
            "SELECT token_hash, role, seat, token_id FROM tokens WHERE stream = $1 AND NOT revoked"
            ' ORDER BY token_id COLLATE "C"',
            SERVER_STREAM,
        )
        return [TokenRow(r["token_hash"], r["role"], r["seat"], r["token_id"]) for r in rows]

    async def granted_streams(self, token_id: str) -> list[str]:
        rows = await self._pool.fetch(
            "SELECT stream FROM tokens WHERE role = $1 AND token_id = $2 AND NOT revoked",
            FIREHOSE_GRANT,
            token_id,
        )
        return [r["stream"] for r in rows]

    async def find_creation(self, command_id: str) -> Creation | None:
        r = await self._pool.fetchrow(
            "SELECT stream, identity FROM creations WHERE command_id = $1", command_id
        )
        return Creation(r["stream"], r["identity"]) if r else None

    async def due_deadlines(self, now: str, limit: int = 100) -> list[Deadline]:
        rows = await self._pool.fetch(
            'SELECT stream, reaction, due FROM reaction_deadlines WHERE due <= $1 COLLATE "C"'
            ' ORDER BY due COLLATE "C" LIMIT $2',
            now,
            limit,
        )
        return [Deadline(r["stream"], r["reaction"], r["due"]) for r in rows]

    async def clear_deadline(self, stream: str, reaction: str) -> None:
        await self._pool.execute(
            "DELETE FROM reaction_deadlines WHERE stream = $1 AND reaction = $2", stream, reaction
        )


__all__ = ["PostgresStore", "NoSchema", "channel_for"]
