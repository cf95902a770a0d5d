"""The embedded default store: one SQLite file in WAL mode with synchronous=FULL.

One server process owns a database file at a time: `ExclusiveLock` holds `<db>.lock` with flock and
writes the owner's pid into it, so a second `tussle serve` is refused with a message naming it.
SQLite serializes writers, so the rowid of `events` is the commit-ordered `position`.
"""

from __future__ import annotations

import asyncio
import fcntl
import os
import sqlite3
from typing import Any

import aiosqlite
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
    id TEXT PRIMARY KEY, name TEXT NOT NULL, ruleset TEXT NOT NULL, public INTEGER NOT NULL,
    seq INTEGER NOT NULL, hash TEXT NOT NULL, closed INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS events (
    position INTEGER PRIMARY KEY AUTOINCREMENT,
    stream TEXT NOT NULL, seq INTEGER NOT NULL, type TEXT NOT NULL, data TEXT NOT NULL,
    actor TEXT NOT NULL, command_id TEXT NOT NULL, ts TEXT NOT NULL,
    prev_hash TEXT NOT NULL, hash TEXT NOT NULL,
    UNIQUE (stream, seq)
);
CREATE TABLE IF NOT EXISTS commands (
    stream TEXT NOT NULL, command_id TEXT NOT NULL, identity TEXT NOT NULL, actor TEXT NOT NULL,
    first_seq INTEGER NOT NULL, last_seq INTEGER NOT NULL,
    PRIMARY KEY (stream, command_id)
);
CREATE TABLE IF NOT EXISTS dice_seeds (
    stream TEXT NOT NULL, commitment TEXT NOT NULL, seed BLOB NOT NULL, revealed INTEGER NOT NULL DEFAULT 0,
    PRIMARY KEY (stream, commitment)
);
CREATE TABLE IF NOT EXISTS tokens (
    token_hash TEXT PRIMARY KEY, stream TEXT NOT NULL, role TEXT NOT NULL, seat TEXT, token_id TEXT,
    revoked INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX IF NOT EXISTS tokens_by_stream ON tokens (stream, role, seat);
"""


class DatabaseLocked(Exception):
    """Another server process holds the database."""


class ExclusiveLock:
    """An flock on `<path>.lock` naming the process that holds it."""

    def __init__(self, db_path: str):
        self.path = db_path + ".lock"
        self.fd: int | None = None

    def acquire(self) -> None:
        fd = os.open(self.path, os.O_RDWR | os.O_CREAT, 0o644)
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


def _event(row: Any) -> Event:
    stream, seq, type_, data, actor, command_id, ts, prev_hash, hash_ = row
    return Event(stream, seq, type_, msgspec.json.decode(data), actor, command_id, ts, prev_hash, hash_)


_EVENT_COLUMNS = "stream, seq, type, data, actor, command_id, ts, prev_hash, hash"


class SqliteStore(Store):
    """The SQLite backend. `lock=False` opens a file another process serves (read-only uses: export)."""

    def __init__(self, path: str, *, lock: bool = True):
        self.path = path
        self.lock = ExclusiveLock(path) if lock else None
        self.db: aiosqlite.Connection | None = None
        # One connection holds one transaction at a time: concurrent appends (different encounters
        # of one server) take turns here instead of failing on a nested BEGIN.
        self._write = asyncio.Lock()

    async def open(self) -> None:
        if self.lock:
            self.lock.acquire()
        try:
            self.db = await aiosqlite.connect(self.path, isolation_level=None)
            await self.db.execute("PRAGMA journal_mode=WAL")
            await self.db.execute("PRAGMA synchronous=FULL")
            await self.db.execute("PRAGMA busy_timeout=5000")
            await self.db.executescript(SCHEMA)
        except Exception:
            if self.lock:
                self.lock.release()
            raise

    async def close(self) -> None:
        if self.db is not None:
            await self.db.close()
            self.db = None
        if self.lock:
            self.lock.release()

    @property
    def _db(self) -> aiosqlite.Connection:
        assert self.db is not None, "store is not open"
        return self.db

    async def append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        async with self._write:
            return await self._append_many(requests)

    async def _append_many(self, requests: list[Append]) -> list[AppendResult | Exception]:
        db = self._db
        results: list[AppendResult | Exception] = []
        await db.execute("BEGIN IMMEDIATE")
        try:
            for req in requests:
                await db.execute("SAVEPOINT cmd")
                try:
                    results.append(await self._append_one(db, req))
                    await db.execute("RELEASE cmd")
                except (SeqConflict, CommandIdReused, StreamExists) as exc:
                    await db.execute("ROLLBACK TO cmd")
                    await db.execute("RELEASE cmd")
                    results.append(exc)
                except sqlite3.IntegrityError:
                    await db.execute("ROLLBACK TO cmd")
                    await db.execute("RELEASE cmd")
                    head = await self._head(db, req.stream)
                    results.append(SeqConflict(req.expected_seq, head[0] if head else 0))
            if self.before_commit is not None:
                await self.before_commit(requests)
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        return results

    async def _head(self, db: aiosqlite.Connection, stream: str) -> tuple[int, str] | None:
        async with db.execute("SELECT seq, hash FROM streams WHERE id = ?", (stream,)) as cur:
            row = await cur.fetchone()
        return (row[0], row[1]) if row else None

    async def _append_one(self, db: aiosqlite.Connection, req: Append) -> AppendResult:
        async with db.execute(
            "SELECT identity, actor, first_seq, last_seq FROM commands WHERE stream = ? AND command_id = ?",
            (req.stream, req.command_id),
        ) as cur:
            prior = await cur.fetchone()
        if prior:
            if prior[0] != req.identity or prior[1] != req.actor:
                raise CommandIdReused(req.command_id)
            return AppendResult(await self._range(db, req.stream, prior[2], prior[3]), duplicate=True)
        head = await self._head(db, req.stream)
        if req.create is not None:
            if head is not None:
                raise StreamExists(req.stream)
            info = req.create
            await db.execute(
                "INSERT INTO streams (id, name, ruleset, public, seq, hash, closed) VALUES (?, ?, ?, ?, 0, ?, 0)",
                (info.id, info.name, info.ruleset, int(info.public), ZERO_HASH),
            )
            head = (0, ZERO_HASH)
        if head is None:
            raise SeqConflict(req.expected_seq, 0)
        seq, prev = head
        if seq != req.expected_seq:
            raise SeqConflict(req.expected_seq, seq)
        ts = timestamp()
        sealed: list[Event] = []
        rows = []
        for new in req.events:
            seq += 1
            ev = seal(req.stream, seq, new, req.actor, req.command_id, ts, prev)
            prev = ev.hash
            sealed.append(ev)
            rows.append((ev.stream, ev.seq, ev.type, canonical(ev.data).decode(), ev.actor, ev.command_id,
                         ev.ts, ev.prev_hash, ev.hash))
        await db.executemany(f"INSERT INTO events ({_EVENT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
        if sealed:
            await db.execute(
                "INSERT INTO commands (stream, command_id, identity, actor, first_seq, last_seq) VALUES (?, ?, ?, ?, ?, ?)",
                (req.stream, req.command_id, req.identity, req.actor, sealed[0].seq, sealed[-1].seq),
            )
        await db.execute(
            "UPDATE streams SET seq = ?, hash = ?, closed = closed OR ? WHERE id = ?",
            (seq, prev, int(req.closes), req.stream),
        )
        for s in req.seeds:
            await db.execute("INSERT INTO dice_seeds (stream, commitment, seed) VALUES (?, ?, ?)",
                             (req.stream, s.commitment, s.seed))
        for c in req.reveal:
            await db.execute("UPDATE dice_seeds SET revealed = 1 WHERE stream = ? AND commitment = ?",
                             (req.stream, c))
        # Revocations first: a rotation revokes the old tokens and then adds the new one.
        for r in req.revoke:
            if r.token_id is not None:
                await db.execute("UPDATE tokens SET revoked = 1 WHERE stream = ? AND token_id = ?",
                                 (req.stream, r.token_id))
            else:
                await db.execute("UPDATE tokens SET revoked = 1 WHERE stream = ? AND role = ? AND seat IS ?",
                                 (req.stream, r.role, r.seat))
        for t in req.tokens:
            await db.execute(
                "INSERT INTO tokens (token_hash, stream, role, seat, token_id) VALUES (?, ?, ?, ?, ?)",
                (t.token_hash, req.stream, t.role, t.seat, t.token_id),
            )
        return AppendResult(sealed)

    async def _range(self, db: aiosqlite.Connection, stream: str, first: int, last: int) -> list[Event]:
        async with db.execute(
            f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND seq BETWEEN ? AND ? ORDER BY seq",
            (stream, first, last),
        ) as cur:
            return [_event(r) for r in await cur.fetchall()]

    async def read(self, stream: str, from_seq: int = 1, limit: int | None = None) -> list[Event]:
        sql = f"SELECT {_EVENT_COLUMNS} FROM events WHERE stream = ? AND seq >= ? ORDER BY seq"
        args: tuple = (stream, from_seq)
        if limit is not None:
            sql += " LIMIT ?"
            args += (limit,)
        async with self._db.execute(sql, args) as cur:
            return [_event(r) for r in await cur.fetchall()]

    async def read_all(self, after_position: int, limit: int = 1000) -> list[tuple[int, Event]]:
        async with self._db.execute(
            f"SELECT position, {_EVENT_COLUMNS} FROM events WHERE position > ? ORDER BY position LIMIT ?",
            (after_position, limit),
        ) as cur:
            return [(r[0], _event(r[1:])) for r in await cur.fetchall()]

    async def stream_info(self, stream: str) -> StreamInfo | None:
        async with self._db.execute(
            "SELECT id, name, ruleset, public, seq, hash, closed FROM streams WHERE id = ?", (stream,)
        ) as cur:
            r = await cur.fetchone()
        return StreamInfo(r[0], r[1], r[2], bool(r[3]), r[4], r[5], bool(r[6])) if r else None

    async def list_streams(self, public_only: bool) -> list[StreamInfo]:
        sql = "SELECT id, name, ruleset, public, seq, hash, closed FROM streams"
        if public_only:
            sql += " WHERE public = 1"
        async with self._db.execute(sql + " ORDER BY rowid") as cur:
            return [StreamInfo(r[0], r[1], r[2], bool(r[3]), r[4], r[5], bool(r[6])) for r in await cur.fetchall()]

    async def delete_stream(self, stream: str) -> bool:
        async with self._write:
            return await self._delete_stream(stream)

    async def _delete_stream(self, stream: str) -> bool:
        db = self._db
        await db.execute("BEGIN IMMEDIATE")
        try:
            cur = await db.execute("DELETE FROM streams WHERE id = ?", (stream,))
            found = cur.rowcount > 0
            for table in ("events", "commands", "dice_seeds", "tokens"):
                await db.execute(f"DELETE FROM {table} WHERE stream = ?", (stream,))
            await db.execute("COMMIT")
        except BaseException:
            await db.execute("ROLLBACK")
            raise
        return found

    async def find_command(self, stream: str, command_id: str) -> StoredCommand | None:
        async with self._db.execute(
            "SELECT identity, actor, first_seq, last_seq FROM commands WHERE stream = ? AND command_id = ?",
            (stream, command_id),
        ) as cur:
            r = await cur.fetchone()
        if not r:
            return None
        return StoredCommand(r[0], r[1], await self._range(self._db, stream, r[2], r[3]))

    async def seed(self, stream: str, commitment: str) -> bytes | None:
        async with self._db.execute(
            "SELECT seed FROM dice_seeds WHERE stream = ? AND commitment = ?", (stream, commitment)
        ) as cur:
            r = await cur.fetchone()
        return bytes(r[0]) if r else None

    async def revealed_seeds(self, stream: str) -> dict[str, str]:
        async with self._db.execute(
            "SELECT commitment, seed FROM dice_seeds WHERE stream = ? AND revealed = 1", (stream,)
        ) as cur:
            return {r[0]: bytes(r[1]).hex() for r in await cur.fetchall()}

    async def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        async with self._db.execute(
            "SELECT stream, role, seat, token_id FROM tokens WHERE token_hash = ? AND revoked = 0", (token_hash,)
        ) as cur:
            r = await cur.fetchone()
        return (r[0], TokenRow(token_hash, r[1], r[2], r[3])) if r else None
