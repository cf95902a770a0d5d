"""Which store a command line names, opened through one port: the only module that names the backends.

`tussle serve`, `export`, `import`, `firehose-tokens` and the demo ask `backend(db, dsn)` for a Backend
and never import a backend's module: a third backend is one more class here beside its store (and the
ports it implements, tests/contract/). Each backend says where it is (for messages: a DSN may hold a
password, so PostgreSQL is named, never its DSN), what must hold before a server binds its socket, and
what its start-up errors mean in one line.
"""

from __future__ import annotations

import abc
import os
import sqlite3
from typing import Literal

from events.store.migrations import SchemaMismatch
from events.store.port import Store
from events.store.receipt_key import ReceiptKeyError
from events.store.seed_key import SeedKeyError

Use = Literal["serve", "write", "read"]


class Unusable(Exception):
    """The store cannot be served or opened: one line for the operator, and the exit code it means."""

    def __init__(self, message: str, exit_code: int = 2):
        super().__init__(message)
        self.message = message
        self.exit_code = exit_code


class Backend(abc.ABC):
    """A store as a command line names it."""

    where: str  # what messages call it
    where_served: str  # what the line "tussle: serving … on http://…" calls it

    @abc.abstractmethod
    def preflight(self) -> None:
        """Raise Unusable when the store can be told unusable before a server binds its socket."""

    @abc.abstractmethod
    def store(self, use: Use = "serve") -> Store:
        """The store, not yet opened, for a server or for a one-shot command that writes or only reads."""

    @abc.abstractmethod
    def serving_failure(self, exc: BaseException) -> Unusable | None:
        """What an error raised while the server started or served means, or None: not the store's."""


def backend(db: str, dsn: str | None) -> Backend:
    """PostgreSQL where a DSN is given (--pg or TUSSLE_PG_DSN), else the SQLite file `db`."""
    dsn = dsn or os.environ.get("TUSSLE_PG_DSN") or None
    return PostgresBackend(dsn) if dsn else SqliteBackend(db)


class SqliteBackend(Backend):
    """One file, one server: the file's lock says whether another holds it."""

    def __init__(self, path: str):
        self.path = path
        self.where = self.where_served = path

    def preflight(self) -> None:
        # Take the lock before anything else so a second server fails fast with a clear message.
        from events.store.sqlite import DatabaseLocked, ExclusiveLock

        probe = ExclusiveLock(self.path)
        try:
            probe.acquire()
        except DatabaseLocked as exc:
            raise Unusable(str(exc)) from None
        except OSError as exc:
            raise Unusable(unusable_file(self.path, exc), 1) from None
        probe.release()

    def store(self, use: Use = "serve") -> Store:
        from events.store.sqlite import SqliteStore

        # A reader (an export) works beside a running server, WAL readers taking no lock; a writer locks.
        return SqliteStore(self.path, lock=use != "read")

    def serving_failure(self, exc: BaseException) -> Unusable | None:
        from events.store.sqlite import DatabaseLocked

        if isinstance(exc, DatabaseLocked):
            return Unusable(str(exc))
        if isinstance(exc, SchemaMismatch | SeedKeyError | ReceiptKeyError):
            return Unusable(f"{self.path}: {exc}")
        if isinstance(exc, OSError | sqlite3.Error):  # a file this user may not write, a full disk
            return Unusable(unusable_file(self.path, exc), 1)
        return None


class PostgresBackend(Backend):
    """A database any number of server processes share: no lock to take."""

    where = "the PostgreSQL database"
    where_served = "PostgreSQL"

    def __init__(self, dsn: str):
        self.dsn = dsn

    def preflight(self) -> None:
        return None

    def store(self, use: Use = "serve") -> Store:
        from events.store.postgres import PostgresStore

        # A one-shot command beside the servers needs two connections, not a server's pool.
        return PostgresStore(self.dsn) if use == "serve" else PostgresStore(self.dsn, max_size=2)

    def serving_failure(self, exc: BaseException) -> Unusable | None:
        import asyncpg

        from events.store.postgres import NoSchema

        if isinstance(exc, SeedKeyError | ReceiptKeyError):
            return Unusable(f"cannot serve the PostgreSQL database: {exc}")
        if isinstance(exc, OSError | asyncpg.PostgresError | NoSchema | SchemaMismatch):
            return Unusable(f"cannot use the PostgreSQL database: {type(exc).__name__}: {exc}")
        return None


def unusable_file(db: str, exc: BaseException) -> str:
    """One line saying why the database file at `db` cannot be used."""
    folder = os.path.dirname(os.path.abspath(db))
    if not os.path.isdir(folder):
        return f"cannot use the database {db}: the directory {folder} does not exist (create it, or pass another --db)"
    if not os.access(folder, os.W_OK | os.X_OK):
        return (
            f"cannot use the database {db}: the directory {folder} is not writable by this user "
            "(the database, its -wal and -shm and its lock file live there)"
        )
    why = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
    return f"cannot use the database {db}: {why}"
