"""The stores' schema: one ordered list of migrations, run at open by both stores.

A database records in `schema_migrations` every migration applied to it, by version (its 1-based
position in `MIGRATIONS`) and name. Opening a store applies the missing ones in order, in one
transaction together with their `schema_migrations` rows, so a database is always at a version the
list names, never between two. PostgreSQL runs them under an advisory lock: of several processes
starting at once, one migrates and the others wait, then find nothing left to do.

To add a table (or an index, a column): append one `Migration` at the END of `MIGRATIONS`, with its
statements for both stores (`sqlite`, `postgres`), and name in `stream_tables` every new table keyed by
a `stream` column, so that deleting an encounter deletes its rows too. Never edit, reorder or remove a
migration that has been pushed: databases out there have run it as it was. A change to an existing
table is a new migration (`ALTER TABLE ...`). Put `IF NOT EXISTS` only where a database written before
versions existed may already have the object (migration 1).

A database whose history is not a prefix of this list (a newer release's, or another branch's) is
refused at open with `SchemaMismatch`: running old code on it could write what the newer code cannot
read.
"""

from __future__ import annotations

import msgspec


class Migration(msgspec.Struct, frozen=True):
    """One step of the schema: the same change for each store, in its dialect."""

    name: str
    sqlite: str
    postgres: str
    stream_tables: tuple[str, ...] = ()  # new tables with a `stream` column, emptied with their encounter
    # After its statements, the store seals every dice seed still stored plain under the server's seed
    # key (events/store/seed_key.py): a step SQL alone cannot take, since the key never enters the database.
    seal_seeds: bool = False
    # The same for every webhook's URL and signing secret (events/store/outbox.py).
    seal_webhooks: bool = False


class SchemaMismatch(Exception):
    """The database's applied migrations are not a prefix of this server's list."""


# The table that records which migrations a database has run (created before any of them).
VERSION_TABLE = {
    "sqlite": "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version INTEGER PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
    "postgres": "CREATE TABLE IF NOT EXISTS schema_migrations ("
    " version BIGINT PRIMARY KEY, name TEXT NOT NULL, applied_at TEXT NOT NULL)",
}


MIGRATIONS: list[Migration] = [
    # 1: the schema as it was before versions, so a database written then is at version 1 as it stands.
    Migration(
        "baseline",
        sqlite="""
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
""",
        postgres="""
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
""",
        stream_tables=("events", "commands", "dice_seeds", "tokens"),
    ),
    # 2: webhooks and the outbox of their deliveries (events/store/outbox.py).
    Migration(
        "webhooks",
        sqlite="""
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY, stream TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, seat TEXT,
    deliver TEXT NOT NULL, format TEXT NOT NULL, base_url TEXT NOT NULL, created_at REAL NOT NULL,
    status TEXT NOT NULL DEFAULT 'active', next_at REAL NOT NULL DEFAULT 0, failing_since REAL,
    last_error TEXT, lease_until REAL NOT NULL DEFAULT 0
);
CREATE INDEX webhooks_by_stream ON webhooks (stream);
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY, webhook TEXT NOT NULL, stream TEXT NOT NULL, seq INTEGER NOT NULL,
    part INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0, created_at REAL NOT NULL, next_at REAL NOT NULL,
    last_error TEXT, last_status INTEGER, delivered_at REAL
);
CREATE INDEX deliveries_in_order ON deliveries (webhook, status, seq, part);
""",
        postgres="""
CREATE TABLE webhooks (
    id TEXT PRIMARY KEY, stream TEXT NOT NULL, url TEXT NOT NULL, secret TEXT NOT NULL, seat TEXT,
    deliver TEXT NOT NULL, format TEXT NOT NULL, base_url TEXT NOT NULL, created_at DOUBLE PRECISION NOT NULL,
    status TEXT NOT NULL DEFAULT 'active', next_at DOUBLE PRECISION NOT NULL DEFAULT 0,
    failing_since DOUBLE PRECISION, last_error TEXT, lease_until DOUBLE PRECISION NOT NULL DEFAULT 0
);
CREATE INDEX webhooks_by_stream ON webhooks (stream);
CREATE TABLE deliveries (
    id TEXT PRIMARY KEY, webhook TEXT NOT NULL, stream TEXT NOT NULL, seq BIGINT NOT NULL,
    part INTEGER NOT NULL, kind TEXT NOT NULL, body TEXT NOT NULL, status TEXT NOT NULL DEFAULT 'pending',
    attempts INTEGER NOT NULL DEFAULT 0, created_at DOUBLE PRECISION NOT NULL, next_at DOUBLE PRECISION NOT NULL,
    last_error TEXT, last_status INTEGER, delivered_at DOUBLE PRECISION
);
CREATE INDEX deliveries_in_order ON deliveries (webhook, status, seq, part);
""",
        stream_tables=("webhooks", "deliveries"),
    ),
    # 3: reaction deadlines (`reaction_timeout_s`), written with the ReactionRequested, polled by every process.
    Migration(
        "reaction_deadlines",
        sqlite="""
CREATE TABLE reaction_deadlines (
    stream TEXT NOT NULL, reaction TEXT NOT NULL, due TEXT NOT NULL, PRIMARY KEY (stream, reaction)
);
CREATE INDEX reaction_deadlines_by_due ON reaction_deadlines (due);
""",
        postgres="""
CREATE TABLE reaction_deadlines (
    stream TEXT NOT NULL, reaction TEXT NOT NULL, due TEXT NOT NULL, PRIMARY KEY (stream, reaction)
);
CREATE INDEX reaction_deadlines_by_due ON reaction_deadlines (due COLLATE "C");
""",
        stream_tables=("reaction_deadlines",),
    ),
    # 4: which encounter each creation's command_id made, for resends (ids are random, not derived from it).
    Migration(
        "encounter_creations",
        sqlite="CREATE TABLE creations (command_id TEXT PRIMARY KEY, stream TEXT NOT NULL, identity TEXT NOT NULL)",
        postgres="CREATE TABLE creations (command_id TEXT PRIMARY KEY, stream TEXT NOT NULL, identity TEXT NOT NULL)",
        stream_tables=("creations",),
    ),
    # 5: snapshots of folded states, a rebuildable cache beside the chain (events/store/snapshots.py).
    Migration(
        "snapshots",
        sqlite="""
CREATE TABLE snapshots (
    stream TEXT NOT NULL, seq INTEGER NOT NULL, turn INTEGER NOT NULL, hash TEXT NOT NULL,
    ruleset TEXT NOT NULL, ruleset_version TEXT NOT NULL, state_version INTEGER NOT NULL, data BLOB NOT NULL,
    PRIMARY KEY (stream, seq)
);
""",
        postgres="""
CREATE TABLE snapshots (
    stream TEXT NOT NULL, seq BIGINT NOT NULL, turn BIGINT NOT NULL, hash TEXT NOT NULL,
    ruleset TEXT NOT NULL, ruleset_version TEXT NOT NULL, state_version INTEGER NOT NULL, data BYTEA NOT NULL,
    PRIMARY KEY (stream, seq)
);
""",
        stream_tables=("snapshots",),
    ),
    # 6: dice seeds sealed at rest (events/store/seed_key.py): the key's fingerprint, one row, checked at
    # every open; the seeds stored plain until now are sealed in the same transaction.
    Migration(
        "seed_key",
        sqlite="CREATE TABLE seed_key (only_row INTEGER PRIMARY KEY CHECK (only_row = 1), fingerprint TEXT NOT NULL)",
        postgres="CREATE TABLE seed_key (only_row BOOLEAN PRIMARY KEY DEFAULT TRUE CHECK (only_row),"
        " fingerprint TEXT NOT NULL)",
        seal_seeds=True,
    ),
    # 7: a webhook's optional avatar for Discord messages (https), shown beside each message it posts.
    Migration(
        "webhook_avatar",
        sqlite="ALTER TABLE webhooks ADD COLUMN avatar_url TEXT",
        postgres="ALTER TABLE webhooks ADD COLUMN avatar_url TEXT",
    ),
    # 8: webhook URLs and secrets sealed at rest under the seed key, as the seeds are (issue 33 item 9):
    # no statement, only the step that seals the rows stored plain until now, in the same transaction.
    Migration("webhook_secrets", sqlite="", postgres="", seal_webhooks=True),
    # 9: what the Discord interactions keep (events/store/discord_rows.py): codes, bound channels, links.
    Migration(
        "discord",
        sqlite="CREATE TABLE discord (key TEXT PRIMARY KEY, stream TEXT NOT NULL, kind TEXT NOT NULL,"
        " data TEXT NOT NULL, expires REAL); CREATE INDEX discord_by_stream ON discord (stream, kind)",
        postgres="CREATE TABLE discord (key TEXT PRIMARY KEY, stream TEXT NOT NULL, kind TEXT NOT NULL,"
        " data TEXT NOT NULL, expires DOUBLE PRECISION); CREATE INDEX discord_by_stream ON discord (stream, kind)",
        stream_tables=("discord",),
    ),
]


def stream_tables(migrations: list[Migration]) -> list[str]:
    """Every table whose rows belong to one encounter (its `stream` column), in creation order."""
    return [t for m in migrations for t in m.stream_tables]


def seals_seeds(migrations: list[Migration]) -> bool:
    """Whether a database at the end of `migrations` keeps its seed key's fingerprint (table `seed_key`)."""
    return any(m.seal_seeds for m in migrations)


def pending(applied: list[tuple[int, str]], migrations: list[Migration]) -> list[tuple[int, Migration]]:
    """The (version, migration) pairs still to run on a database that ran `applied` (version, name)
    in version order; SchemaMismatch when that history is not a prefix of `migrations`."""
    for at, (version, name) in enumerate(applied):
        if version != at + 1 or at >= len(migrations) or migrations[at].name != name:
            known = f"{len(migrations)} ({migrations[-1].name})" if migrations else "0"
            raise SchemaMismatch(
                f"the database's schema is at version {applied[-1][0]} ({applied[-1][1]}), which this server "
                f"does not know (it knows versions up to {known}): run the release that wrote it, or a newer one"
            )
    return list(enumerate(migrations, start=1))[len(applied) :]


__all__ = [
    "MIGRATIONS",
    "Migration",
    "SchemaMismatch",
    "VERSION_TABLE",
    "pending",
    "seals_seeds",
    "stream_tables",
]
