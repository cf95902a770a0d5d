"""The embedded default store: one SQLite file in WAL mode with synchronous=FULL.

One server process owns a database file at a time: `ExclusiveLock` holds `<db>.lock` with flock and
writes the owner's pid into it, so a second `tussle serve` is refused with a message naming it.
SQLite serializes writers, so the rowid of `events` is the commit-ordered `position`.
"""

from __future__ import annotations

import asyncio
import errno
import fcntl
import os
import sqlite3
from collections.abc import Awaitable, Callable
from typing import Any

import aiosqlite
import msgspec

from events.envelope import ZERO_HASH, Event, timestamp
from events.gc_pause import gc_paused
from events.store import receipt_key
from events.store.group_commit import GroupCommit
from events.store.migrations import MIGRATIONS, VERSION_TABLE, Migration, pending, seals_seeds, stream_tables
from events.store.port import (
    Append,
    AppendResult,
    Creation,
    Deadline,
    SeqConflict,
    Store,
    StoredCommand,
    StreamInfo,
    T,
    TokenRow,
)
from events.store.receipt_key import ReceiptKeys
from events.store.sealing import Plan, Prior, Resend, plan_batch
from events.store.seed_key import SeedKey, for_sqlite
from events.store.server_tokens import FIREHOSE_GRANT, SERVER_STREAM
from events.store.sqlite_discord import SqliteDiscord
from events.store.sqlite_snapshots import SqliteSnapshots
from events.store.sqlite_webhooks import SqliteWebhooks, seal_plain_webhooks, write_webhook_rows
from events.store.token_cache import TokenCache
from events.store.writer_thread import WriterThread

# How long a connection waits for a lock another connection holds.
BUSY_TIMEOUT_MS = 5000


# What a write meets when the disk or the file cannot take it (full, read-only, failing, busy past the
# timeout): a transaction rolled back whole, worth trying again later.
_UNAVAILABLE = frozenset(
    {
        sqlite3.SQLITE_FULL,
        sqlite3.SQLITE_IOERR,
        sqlite3.SQLITE_READONLY,
        sqlite3.SQLITE_CANTOPEN,
        sqlite3.SQLITE_BUSY,
    }
)


# The database holds unrevealed dice seeds and token hashes: only its owner reads it. SQLite gives
# the -wal and -shm files the mode of the database file, so creating that one so is enough.
PRIVATE_MODE = 0o600


def create_private(path: str) -> None:
    """Create the database file, empty (SQLite starts a new database in it), readable by its owner only."""
    try:
        os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, PRIVATE_MODE))
    except FileExistsError:
        pass


class DatabaseLocked(Exception):
    """Another server process holds the database."""


class ExclusiveLock:
    """An flock on `<path>.lock` naming the process that holds it."""

    def __init__(self, db_path: str):
        self.path = db_path + ".lock"
        self.fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, PRIVATE_MODE)
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            holder = os.read(fd, 100).decode(errors="replace").strip() or "unknown"
            os.close(fd)
            raise DatabaseLocked(
                f"another tussle server (pid {holder}) is using {self.path[:-5]}; "
                "stop it or use another --db (one server process per SQLite file)"
            ) from None
        os.ftruncate(fd, 0)
        os.write(fd, str(os.getpid()).encode())
        os.fsync(fd)
        self.fd = fd

    def release(self) -> None:
        if self.fd is not None:
            fcntl.flock(self.fd, fcntl.LOCK_UN)
            os.close(self.fd)
            self.fd = None


def _statements(script: str) -> list[str]:
    """The statements of a script, one by one (`executescript` would commit the open transaction)."""
    out, buf = [], ""
    for piece in script.split(";"):
        buf += piece + ";"
        if sqlite3.complete_statement(buf):  # a ';' inside a string or a trigger body is not an end
            if buf.strip(" \n\t;"):
                out.append(buf)
            buf = ""
    return out


def _event(row: Any) -> Event:
    stream, seq, type_, data, actor, command_id, ts, prev_hash, hash_ = row
    return Event(stream, seq, type_, msgspec.json.decode(data), actor, command_id, ts, prev_hash, hash_)


_EVENT_COLUMNS = "stream, seq, type, data, actor, command_id, ts, prev_hash, hash"


class SqliteStreamReader(msgspec.Struct, frozen=True):
    """Reads a whole stream from the file through a read-only connection (`whole_stream_reader`)."""

    path: str

    def __call__(self, stream: str, after: int = 0) -> list[Event]:
        db = sqlite3.connect(f"file:{self.path}?mode=ro", uri=True)
        try:
            rows = db.execute(
                f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND seq > ? ORDER BY seq",
                (stream, after),
            ).fetchall()
        finally:
            db.close()
        return [_event(r) for r in rows]


_HEADS = "SELECT id, seq, hash FROM streams WHERE id IN (SELECT value FROM json_each(?))"
_PRIORS = (
    "SELECT c.stream, c.command_id, c.identity, c.actor, c.first_seq, c.last_seq FROM json_each(?) AS k "
    "JOIN commands AS c ON c.stream = json_extract(k.value, '$[0]') AND c.command_id = json_extract(k.value, '$[1]')"
)
_TOKENS = (
    "SELECT token_hash, stream, role, seat, token_id FROM tokens"
    " WHERE token_hash IN (SELECT value FROM json_each(?)) AND revoked = 0"
)
_CREATIONS = "SELECT command_id FROM creations WHERE command_id IN (SELECT value FROM json_each(?))"
_INSERT_STREAM = (
    "INSERT INTO streams (id, name, ruleset, public, seq, hash, closed) VALUES (?, ?, ?, ?, 0, ?, 0)"
)
_INSERT_EVENTS = f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)"
_INSERT_COMMANDS = "INSERT INTO commands (stream, command_id, identity, actor, first_seq, last_seq) VALUES (?, ?, ?, ?, ?, ?)"
_UPDATE_HEAD = "UPDATE streams SET seq = ?, hash = ?, closed = closed OR ? WHERE id = ?"


def _json_list(items: list[Any]) -> str:
    return msgspec.json.encode(items).decode()


def _write_side_rows(db: sqlite3.Connection, req: Append, key: SeedKey) -> None:
    """Creation, seeds, revealed seeds, token changes, webhooks and reaction deadlines of one accepted
    command (most commands have none)."""
    if req.create is not None and req.create_key is not None:
        db.execute(
            "INSERT INTO creations (command_id, stream, identity) VALUES (?, ?, ?)",
            (req.create_key, req.stream, req.identity),
        )
    for s in req.seeds:
        db.execute(
            "INSERT INTO dice_seeds (stream, commitment, seed) VALUES (?, ?, ?)",
            (req.stream, s.commitment, key.seal(req.stream, s.commitment, s.seed)),
        )
    for c in req.reveal:
        db.execute("UPDATE dice_seeds SET revealed = 1 WHERE stream = ? AND commitment = ?", (req.stream, c))
    # Revocations first: a rotation revokes the old tokens and then adds the new one.
    for r in req.revoke:
        if r.token_id is not None:
            db.execute(
                "UPDATE tokens SET revoked = 1 WHERE stream = ? AND token_id = ?", (req.stream, r.token_id)
            )
        else:
            db.execute(
                "UPDATE tokens SET revoked = 1 WHERE stream = ? AND role = ? AND seat IS ?",
                (req.stream, r.role, r.seat),
            )
    for t in req.tokens:
        db.execute(
            "INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES (?, ?, ?, ?, ?)",
            (t.token_hash, req.stream, t.role, t.seat, t.token_id),
        )
    if req.webhooks or req.webhook_changes or req.outbox:
        write_webhook_rows(db, req, key)
    for reaction in req.clear_deadlines:
        db.execute("DELETE FROM reaction_deadlines WHERE stream = ? AND reaction = ?", (req.stream, reaction))
    for d in req.deadlines:
        db.execute(
            "INSERT OR REPLACE INTO reaction_deadlines (stream, reaction, due) VALUES (?, ?, ?)",
            (req.stream, d.reaction, d.due),
        )


def _recorded_fingerprint(path: str) -> str | None:
    """The seed key fingerprint a database file records, or None (no file, no table or no row yet)."""
    if not os.path.exists(path) or os.path.getsize(path) == 0:
        return None
    db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
    try:
        row = db.execute("SELECT fingerprint FROM seed_key").fetchone()
    except sqlite3.OperationalError:  # a database from before migration 6
        return None
    finally:
        db.close()
    return row[0] if row else None


class SqliteStore(SqliteWebhooks, SqliteSnapshots, SqliteDiscord, Store):
    """The SQLite backend. `lock=False` opens a file another process serves (read-only uses: export).

    Writes go through their own connection. Appends that arrive while a transaction is being written
    wait and then share the next one (group commit): the batch is checked in Python and written in
    bulk by the one plan (events/store/sealing.py), each command succeeding or failing alone, and many commands
    share one fsync. A sole writer writes the batch on the event loop and hands only the commit to
    its writer thread; a store beside another writer runs the whole transaction on that thread, where
    it may wait for the other's lock. Reads use the aiosqlite connection, one hop each.
    """

    # Awaited inside every append transaction just before its commit: None but in tests, which hold a
    # writer's transaction open with it while others write and read, or make it fail.
    before_commit: Callable[[list[Append]], Awaitable[None]] | None = None

    def __init__(
        self,
        path: str,
        *,
        lock: bool = True,
        migrations: list[Migration] = MIGRATIONS,
        seed_key: SeedKey | None = None,
    ):
        self.path = path
        self.seed_key = seed_key  # None: TUSSLE_SEED_KEY, else <db>.seed-key, read (or made) at open
        self._sealed_plain = 0  # how many plain rows (seeds, webhooks) this open's migrations sealed
        self.migrations = migrations
        self.lock = ExclusiveLock(path) if lock else None
        self.sole_writer = lock  # the lock file keeps every other server process out
        # A sole writer's writer connection never waits for a lock in SQLite (see _write_on_loop).
        self._writer_busy_timeout = 0 if self.sole_writer else BUSY_TIMEOUT_MS
        self.db: aiosqlite.Connection | None = None
        self._writer: sqlite3.Connection | None = None
        self._writer_thread: WriterThread | None = None
        # One connection holds one transaction at a time: batches and deletions take turns here.
        self._write = asyncio.Lock()
        self._group_commit = GroupCommit(self._write_group)
        # Live tokens by hash, for a sole writer: every request looks its token up, and tokens change
        # only through this store's own appends and deletions, which empty the cache when they revoke
        # (before their caller hears of the commit, so a revocation works at once). A lookup that was
        # in flight across such a write does not fill the cache (the generation moved on).
        self._tokens = TokenCache()

    async def open(self) -> None:
        if self.lock:
            self.lock.acquire()
        try:
            create_private(self.path)
            if self.seed_key is None:
                # A database that already records a key never gets a fresh key file beside it: that
                # file would only be refused (another fingerprint) and hide which key was lost.
                self.seed_key = for_sqlite(self.path, create=_recorded_fingerprint(self.path) is None)
            self.db = await aiosqlite.connect(self.path, isolation_level=None)
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA synchronous=FULL")
            await self.db.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
            self._writer_thread = WriterThread("tussle-sqlite-writer")
            self._writer = await self._on_writer(self._connect_writer)
            await self._on_writer(self._waiting_if_busy, self._migrate)
            if self._sealed_plain:
                await self._on_writer(self._writer_execute, "PRAGMA wal_checkpoint(TRUNCATE)")
            if self.sole_writer:  # leases of a process that died with this file: no other process is left
                await self.db.execute("UPDATE webhooks SET lease_until = 0 WHERE lease_until > 0")
        except Exception:
            await self._close_connections()
            if self.lock:
                self.lock.release()
            raise

    def _migrate(self) -> None:
        """On the writer thread: run the migrations this database lacks (events/store/migrations.py), all in
        one transaction with their `schema_migrations` rows, read under the write lock so that two
        handles opening at once do not both run them."""
        db = self._writer
        assert db is not None
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute(VERSION_TABLE["sqlite"])
            applied = db.execute("SELECT version, name FROM schema_migrations ORDER BY version").fetchall()
            for version, migration in pending(applied, self.migrations):
                for statement in _statements(migration.sqlite):
                    db.execute(statement)
                if migration.seal_seeds:
                    self._seal_plain_seeds(db)
                if migration.seal_webhooks:
                    self._sealed_plain += seal_plain_webhooks(db, self._key)
                db.execute(
                    "INSERT INTO schema_migrations (version, name, applied_at) VALUES (?, ?, ?)",
                    (version, migration.name, timestamp()),
                )
            if seals_seeds(self.migrations):
                self._check_seed_key(db)
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _seal_plain_seeds(self, db: sqlite3.Connection) -> None:
        """The seed_key migration's own step: seal each seed written plain before it. The writer's
        secure_delete overwrites the plain bytes the updates free, and the checkpoint after the commit
        (see open) leaves none in the write-ahead log either."""
        rows = db.execute("SELECT stream, commitment, seed FROM dice_seeds").fetchall()
        for stream, commitment, seed in rows:
            db.execute(
                "UPDATE dice_seeds SET seed = ? WHERE stream = ? AND commitment = ?",
                (self._key.seal(stream, commitment, bytes(seed)), stream, commitment),
            )
        self._sealed_plain += len(rows)

    def _check_seed_key(self, db: sqlite3.Connection) -> None:
        """Record the seed key's fingerprint in a database that has none; refuse another key's."""
        row = db.execute("SELECT fingerprint FROM seed_key").fetchone()
        if row is None:
            db.execute("INSERT INTO seed_key (only_row, fingerprint) VALUES (1, ?)", (self._key.fingerprint,))
        else:
            self._key.check(row[0])

    @property
    def _key(self) -> SeedKey:
        assert self.seed_key is not None, "store is not open"
        return self.seed_key

    def _connect_writer(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, isolation_level=None, check_same_thread=False)
        db.execute("PRAGMA synchronous=FULL")
        db.execute(f"PRAGMA busy_timeout={self._writer_busy_timeout}")
        # Bytes freed by a write are zeroed, not left in the file: the plain seeds the seed_key migration
        # replaces, and the sealed seeds and tokens of a deleted encounter.
        db.execute("PRAGMA secure_delete=ON")
        # Up to 64 MiB of pages (allocated as used) rather than SQLite's 2 MB: a command's row lands at a
        # random place in the commands index (its key is a client's command_id), so a busy file's inserts
        # kept reading pages back that the smaller cache had just dropped (docs/performance.md).
        db.execute("PRAGMA cache_size=-65536")
        return db

    async def close(self) -> None:
        await self._group_commit.drained()
        await self._close_connections()
        if self.lock:
            self.lock.release()

    async def _close_connections(self) -> None:
        if self.db is not None:
            await self.db.close()
            self.db = None
        if self._writer is not None:
            await self._on_writer(self._writer.close)
            self._writer = None
        if self._writer_thread is not None:
            self._writer_thread.stop()
            self._writer_thread = None

    @property
    def _db(self) -> aiosqlite.Connection:
        assert self.db is not None, "store is not open"
        return self.db

    async def _on_writer(self, fn: Any, *args: Any) -> Any:
        assert self._writer_thread is not None, "store is not open"
        return await self._writer_thread.run(fn, *args)

    def receipt_keys(self) -> ReceiptKeys:
        if self.path and self.path != ":memory:" and not self.path.startswith("file:"):
            return receipt_key.for_sqlite(self.path)
        return receipt_key.ephemeral()

    def whole_stream_reader(self) -> SqliteStreamReader:
        return SqliteStreamReader(self.path)

    async def external_writes_marker(self) -> int:
        # SQLite's data_version changes when another connection commits, never for the connection's own
        # commits: read on the writer, through which every write of this server goes, it moves only for
        # someone else's (the readers' would move with every append of ours).
        async with self._write:
            return int(await self._on_writer(self._data_version))

    def _data_version(self) -> int:
        assert self._writer is not None
        return int(self._writer.execute("PRAGMA data_version").fetchone()[0])

    def unavailable(self, exc: BaseException) -> str | None:
        code = getattr(exc, "sqlite_errorcode", None)
        if isinstance(exc, sqlite3.OperationalError) and code is not None and code & 0xFF in _UNAVAILABLE:
            return f"the database file cannot be written now ({exc})"
        if isinstance(exc, OSError) and exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EROFS, errno.EIO):
            return f"the database's disk cannot be written now ({exc.strerror})"
        return None

    # ---- appending ---------------------------------------------------------------------------

    async def append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        return await self._group_commit.submit(requests)

    async def append_then(self, request: Append, then: Callable[[AppendResult | Exception], T]) -> T:
        return await self._group_commit.submit_then(request, then)

    async def _write_group(self, requests: list[Append]) -> list[AppendResult | Exception]:
        async with self._write:
            try:
                return await self._transaction(requests)
            finally:
                if any(r.revoke for r in requests):
                    self._forget_tokens()

    async def _transaction(self, requests: list[Append]) -> list[AppendResult | Exception]:
        if self.sole_writer:
            results = await self._write_on_loop(requests)
        elif self.before_commit is None:
            return await self._on_writer(self._write_batch, requests, True)
        else:
            results = await self._on_writer(self._write_batch, requests, False)
        if self.before_commit is not None:
            try:
                await self.before_commit(requests)
            except BaseException:
                await self._on_writer(self._writer_execute, "ROLLBACK")
                raise
        await self._on_writer(self._commit)
        return results

    async def _write_on_loop(self, requests: list[Append]) -> list[AppendResult | Exception]:
        """A sole writer's batch is checked and written right here on the event loop, and only its
        commit (the fsync) goes to the writer thread. Each statement on that thread let go of the GIL
        and then waited for the busy loop to hand it back, a wait that grew with every statement; here
        the statements cost their few microseconds each, and the thread wakes once per batch.

        Nothing else writes to the file, so BEGIN IMMEDIATE does not wait (the writer's busy timeout
        is zero, and the loop never sleeps in SQLite); should it find the database busy all the same
        (a second writer breaking the rule, as some tests do on purpose), the batch waits on the thread.
        """
        try:
            return self._write_batch(requests, False)
        except sqlite3.OperationalError as exc:
            if exc.sqlite_errorcode & 0xFF != sqlite3.SQLITE_BUSY:
                raise
        return await self._on_writer(self._waiting_if_busy, self._write_batch, requests, False)

    def _waiting_if_busy(self, fn: Any, *args: Any) -> Any:
        """On the writer thread: run `fn` waiting up to BUSY_TIMEOUT_MS for a lock another writer holds."""
        assert self._writer is not None
        self._writer.execute(f"PRAGMA busy_timeout={BUSY_TIMEOUT_MS}")
        try:
            return fn(*args)
        finally:
            self._writer.execute(f"PRAGMA busy_timeout={self._writer_busy_timeout}")

    def _commit(self) -> None:
        """On the writer thread: commit the open transaction (a failed commit leaves none open)."""
        db = self._writer
        assert db is not None
        try:
            db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise

    def _writer_execute(self, sql: str, args: tuple[Any, ...] = ()) -> None:
        """On the writer thread: one statement (outside a transaction, one of its own)."""
        assert self._writer is not None
        self._writer.execute(sql, args)

    def _write_batch(self, requests: list[Append], commit: bool) -> list[AppendResult | Exception]:
        """One transaction for the batch, checked and sealed by the one plan (events/store/sealing.py)
        and written in bulk; committed when `commit`. Should the bulk write meet a constraint the plan
        did not foresee, the batch is written again command by command, each in its own savepoint, so
        that only the command at fault fails."""
        db = self._writer
        assert db is not None
        db.execute("BEGIN IMMEDIATE")
        try:
            db.execute("SAVEPOINT bulk")
            try:
                results = self._plan_and_write(db, requests)
                db.execute("RELEASE bulk")
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK TO bulk")
                db.execute("RELEASE bulk")
                results = self._write_one_by_one(db, requests)
            if commit:
                db.execute("COMMIT")
        except BaseException:
            if db.in_transaction:
                db.execute("ROLLBACK")
            raise
        return results

    def _write_one_by_one(
        self, db: sqlite3.Connection, requests: list[Append]
    ) -> list[AppendResult | Exception]:
        """Inside an open transaction: a savepoint per command, so each succeeds or fails alone."""
        results: list[AppendResult | Exception] = []
        for req in requests:
            db.execute("SAVEPOINT cmd")
            try:
                results += self._plan_and_write(db, [req])
                db.execute("RELEASE cmd")
            except sqlite3.IntegrityError:
                db.execute("ROLLBACK TO cmd")
                db.execute("RELEASE cmd")
                row = db.execute("SELECT seq FROM streams WHERE id = ?", (req.stream,)).fetchone()
                results.append(SeqConflict(req.expected_seq, row[0] if row else 0))
        return results

    def _plan_and_write(
        self, db: sqlite3.Connection, requests: list[Append]
    ) -> list[AppendResult | Exception]:
        """Inside the open transaction: read what the batch depends on in a fixed handful of statements
        (the keys travel as one JSON array through `json_each`, so the statement text is fixed and the
        number of bound variables unlimited), plan it, write it with one prepared statement per table."""
        streams = sorted({r.stream for r in requests})
        heads = {row[0]: (row[1], row[2]) for row in db.execute(_HEADS, (_json_list(streams),))}
        keys = sorted({(r.stream, r.command_id) for r in requests})
        priors = {(row[0], row[1]): Prior(*row[2:]) for row in db.execute(_PRIORS, (_json_list(keys),))}
        create_keys = sorted(
            {r.create_key for r in requests if r.create is not None and r.create_key is not None}
        )
        taken = (
            {row[0] for row in db.execute(_CREATIONS, (_json_list(create_keys),))} if create_keys else set()
        )
        plan = plan_batch(requests, heads, priors, taken, self.clock, self._live_tokens(db, requests))
        self._write_plan(db, plan)
        return [self._stored(db, r) if isinstance(r, Resend) else r for r in plan.results]

    @staticmethod
    def _live_tokens(db: sqlite3.Connection, requests: list[Append]) -> dict[str, tuple[str, TokenRow]]:
        hashes = sorted({r.token_hash for r in requests if r.token_hash is not None})
        if not hashes:
            return {}
        return {
            row[0]: (row[1], TokenRow(row[0], row[2], row[3], row[4]))
            for row in db.execute(_TOKENS, (_json_list(hashes),))
        }

    def _stored(self, db: sqlite3.Connection, resend: Resend) -> AppendResult:
        rows = db.execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            resend,
        ).fetchall()
        return AppendResult([_event(r) for r in rows], duplicate=True)

    def _write_plan(self, db: sqlite3.Connection, plan: Plan) -> None:
        db.executemany(
            _INSERT_STREAM, [(i.id, i.name, i.ruleset, int(i.public), ZERO_HASH) for i in plan.created]
        )
        for req in plan.accepted:
            _write_side_rows(db, req, self._key)
        db.executemany(
            _INSERT_EVENTS,
            [
                (e.stream, e.seq, e.type, data, e.actor, e.command_id, e.ts, e.prev_hash, e.hash)
                for e, data in zip(plan.events, plan.data_texts, strict=True)
            ],
        )
        db.executemany(_INSERT_COMMANDS, plan.commands)
        db.executemany(
            _UPDATE_HEAD, [(h.seq, h.hash, int(h.closes), stream) for stream, h in plan.heads.items()]
        )

    # ---- reading -----------------------------------------------------------------------------

    async def _rows(self, sql: str, args: tuple = ()) -> list[Any]:
        return list(await self._db.execute_fetchall(sql, args))

    async def read(self, stream: str, from_seq: int = 1, limit: int | None = None) -> list[Event]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND seq >= ? ORDER BY seq"
        args: tuple = (stream, from_seq)
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        rows = await self._rows(sql, args)
        with gc_paused():  # a whole encounter can be 100,000 rows of long-lived events
            return [_event(r) for r in rows]

    async def read_all(self, after_position: int, limit: int = 1000) -> list[tuple[int, Event]]:
        rows = await self._rows(
            f"SELECT position, {_EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?",
            (after_position, limit),
        )
        return [(r[0], _event(r[1:])) for r in rows]

    async def stream_info(self, stream: str) -> StreamInfo | None:
        rows = await self._rows(
            "SELECT id, name, ruleset, public, seq, hash, closed FROM streams WHERE id = ?", (stream,)
        )
        return StreamInfo(*rows[0][:3], bool(rows[0][3]), *rows[0][4:6], bool(rows[0][6])) if rows else None

    async def list_streams(self, public_only: bool) -> list[StreamInfo]:
        sql = "SELECT id, name, ruleset, public, seq, hash, closed FROM streams"
        if public_only:
            sql += " WHERE public = 1"
        rows = await self._rows(sql + " ORDER BY rowid")
        return [StreamInfo(r[0], r[1], r[2], bool(r[3]), r[4], r[5], bool(r[6])) for r in rows]

    async def delete_stream(self, stream: str) -> bool:
        try:
            return await self._write_transaction(self._delete_stream, stream)
        finally:
            self._forget_tokens()

    async def _write_transaction(self, fn: Any, *args: Any) -> Any:
        """`fn(writer_connection, *args)` in a transaction of its own, taking turns with the appends."""
        async with self._write:
            return await self._on_writer(self._waiting_if_busy, self._in_transaction, fn, *args)

    def _in_transaction(self, fn: Any, *args: Any) -> Any:
        db = self._writer
        assert db is not None
        db.execute("BEGIN IMMEDIATE")
        try:
            result = fn(db, *args)
            db.execute("COMMIT")
        except BaseException:
            db.execute("ROLLBACK")
            raise
        return result

    def _delete_stream(self, db: sqlite3.Connection, stream: str) -> bool:
        found = db.execute("DELETE FROM streams WHERE id = ?", (stream,)).rowcount > 0
        for table in stream_tables(self.migrations):
            db.execute(f"DELETE FROM {table} WHERE stream = ?", (stream,))
        return found

    async def find_command(self, stream: str, command_id: str) -> StoredCommand | None:
        rows = await self._rows(
            "SELECT identity, actor, first_seq, last_seq FROM commands WHERE stream = ? AND command_id = ?",
            (stream, command_id),
        )
        if not rows:
            return None
        identity, actor, first, last = rows[0]
        events = await self._rows(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (stream, first, last),
        )
        return StoredCommand(identity, actor, [_event(r) for r in events])

    async def seed(self, stream: str, commitment: str) -> bytes | None:
        rows = await self._rows(
            "SELECT seed FROM dice_seeds WHERE stream = ? AND commitment = ?", (stream, commitment)
        )
        return self._key.open(stream, commitment, bytes(rows[0][0])) if rows else None

    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        rows = await self._rows(
            "SELECT commitment, seed FROM dice_seeds WHERE stream = ? AND revealed = 1", (stream,)
        )
        return {r[0]: self._key.open(stream, r[0], bytes(r[1])).hex() for r in rows}

    async def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        cached = self._tokens.get(token_hash)
        if cached is not None:
            return cached
        generation = self._tokens.generation
        rows = await self._rows(
            "SELECT stream, role, seat, token_id FROM tokens WHERE token_hash = ? AND revoked = 0",
            (token_hash,),
        )
        if not rows:
            return None  # unknown tokens are not cached: anyone can send any number of them
        found = (rows[0][0], TokenRow(token_hash, rows[0][1], rows[0][2], rows[0][3]))
        if self.sole_writer:
            self._tokens.keep(token_hash, found, generation)
        return found

    async def stream_tokens(self, stream: str) -> list[TokenRow]:
        rows = await self._rows(
            "SELECT token_hash, role, seat, token_id FROM tokens WHERE stream = ? AND revoked = 0 ORDER BY token_hash",
            (stream,),
        )
        return [TokenRow(*row) for row in rows]

    async def find_creation(self, command_id: str) -> Creation | None:
        rows = await self._rows("SELECT stream, identity FROM creations WHERE command_id = ?", (command_id,))
        return Creation(*rows[0]) if rows else None

    async def due_deadlines(self, now: str, limit: int = 100) -> list[Deadline]:
        rows = await self._rows(
            "SELECT stream, reaction, due FROM reaction_deadlines WHERE due <= ? ORDER BY due LIMIT ?",
            (now, limit),
        )
        return [Deadline(*r) for r in rows]

    async def clear_deadline(self, stream: str, reaction: str) -> None:
        async with self._write:
            await self._on_writer(
                self._waiting_if_busy,
                self._writer_execute,
                "DELETE FROM reaction_deadlines WHERE stream = ? AND reaction = ?",
                (stream, reaction),
            )

    # ---- server-level tokens (events/store/server_tokens.py) ----------------------------------

    async def add_server_token(self, row: TokenRow) -> None:
        await self._write_transaction(
            lambda db: db.execute(
                "INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES (?, ?, ?, ?, ?)",
                (row.token_hash, SERVER_STREAM, row.role, row.seat, row.token_id),
            )
        )

    async def revoke_server_token(self, token_id: str) -> bool:
        try:
            return await self._write_transaction(
                lambda db: (
                    db.execute(
                        "UPDATE tokens SET revoked = 1 WHERE stream = ? AND token_id = ? AND revoked = 0",
                        (SERVER_STREAM, token_id),
                    ).rowcount
                    > 0
                )
            )
        finally:
            self._forget_tokens()

    async def server_tokens(self) -> list[TokenRow]:
        rows = await self._rows(
            "SELECT token_hash, role, seat, token_id FROM tokens WHERE stream = ? AND revoked = 0 ORDER BY rowid",
            (SERVER_STREAM,),
        )
        return [TokenRow(*row) for row in rows]

    async def granted_streams(self, token_id: str) -> list[str]:
        rows = await self._rows(
            "SELECT stream FROM tokens WHERE role = ? AND token_id = ? AND revoked = 0",
            (FIREHOSE_GRANT, token_id),
        )
        return [r[0] for r in rows]

    async def last_position(self) -> int:
        """The last position handed out (committed): a feed that starts now starts after it."""
        rows = await self._rows("SELECT COALESCE(MAX(position), 0) FROM events")
        return int(rows[0][0])

    def _forget_tokens(self) -> None:
        """Tokens were revoked or deleted: drop every cached one, and keep lookups in flight out."""
        self._tokens.drop()
