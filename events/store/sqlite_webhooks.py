"""Webhooks and their outbox in SQLite (the port: events/store/outbox.py).

The tables are the migration "webhooks" (events/store/migrations.py).
Writes outside an append (a delivery's outcome, a lease) are short transactions on the store's
writer connection, taking turns with the appends.
"""

from __future__ import annotations

import sqlite3
import time
from typing import TYPE_CHECKING, Any

from events.store.outbox import (
    ACTIVE,
    CANCELLED,
    DELIVERED,
    DELIVERY_COLUMNS,
    DISABLED,
    PENDING,
    URL_COLUMN,
    WEBHOOK_COLUMNS,
    Attempt,
    Delivery,
    OutboxRow,
    WebhookRow,
    sealed_secret,
    webhook_from,
    webhook_values,
)

if TYPE_CHECKING:
    from events.store.port import Append
    from events.store.seed_key import SeedKey


def delivery_of(row: Any) -> Delivery:
    return Delivery(*row)


def write_webhook_rows(db: sqlite3.Connection, req: Append, key: SeedKey) -> None:
    """Inside an append's transaction: the webhooks it creates, the deliveries it causes, then the changes
    (last, so that a webhook this append stops is owed none of its events either)."""
    now = time.time()
    for w in req.webhooks:
        db.execute(
            f"INSERT INTO webhooks ({WEBHOOK_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)",
            webhook_values(w, key),
        )
    if req.outbox:
        db.executemany(
            "INSERT INTO deliveries (id, webhook, stream, seq, part, kind, body, created_at, next_at)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
            [(o.id, o.webhook, req.stream, o.seq, o.part, o.kind, o.body, now, now) for o in req.outbox],
        )
    for c in req.webhook_changes:
        if c.secret is not None:
            db.execute(
                "UPDATE webhooks SET secret = ? WHERE id = ?", (sealed_secret(c.id, c.secret, key), c.id)
            )
        if c.status is not None:
            db.execute("UPDATE webhooks SET status = ? WHERE id = ?", (c.status, c.id))
            if c.status != ACTIVE:
                db.execute(
                    "UPDATE deliveries SET status = ? WHERE webhook = ? AND status = ?",
                    (CANCELLED, c.id, PENDING),
                )


def seal_plain_webhooks(db: sqlite3.Connection, key: SeedKey) -> int:
    """The webhook_secrets migration's own step: seal each URL and secret written plain before it."""
    rows = db.execute("SELECT id, url, secret FROM webhooks").fetchall()
    db.executemany(
        "UPDATE webhooks SET url = ?, secret = ? WHERE id = ?",
        [
            (key.seal_text(URL_COLUMN, wid, url), sealed_secret(wid, secret, key), wid)
            for wid, url, secret in rows
        ],
    )
    return len(rows)


def claim(db: sqlite3.Connection, key: SeedKey, now: float, lease_s: float, limit: int) -> list[WebhookRow]:
    rows = db.execute(
        f"UPDATE webhooks SET lease_until = ? WHERE id IN ("
        f" SELECT w.id FROM webhooks AS w WHERE w.status = ? AND w.next_at <= ? AND w.lease_until <= ?"
        f" AND EXISTS (SELECT 1 FROM deliveries AS d WHERE d.webhook = w.id AND d.status = ?)"
        f" ORDER BY w.next_at LIMIT ?) RETURNING {WEBHOOK_COLUMNS}",
        (now + lease_s, ACTIVE, now, now, PENDING, limit),
    ).fetchall()
    return [webhook_from(r, key) for r in rows]


def record(db: sqlite3.Connection, attempts: list[Attempt]) -> None:
    for a in attempts:
        _record(db, a)


def _record(db: sqlite3.Connection, a: Attempt) -> None:
    lease_until = a.at + a.lease_s if a.lease_s else 0.0
    if a.ok:
        db.execute(
            "UPDATE deliveries SET status = ?, attempts = attempts + 1, delivered_at = ?, last_status = ?,"
            " last_error = NULL WHERE id = ? AND status = ?",
            (DELIVERED, a.at, a.status, a.delivery, PENDING),
        )
        db.execute(
            "UPDATE webhooks SET failing_since = NULL, last_error = NULL, next_at = 0, lease_until = ?"
            " WHERE id = ?",
            (lease_until, a.webhook),
        )
        return
    db.execute(
        "UPDATE deliveries SET attempts = attempts + 1, next_at = ?, last_status = ?, last_error = ?"
        " WHERE id = ? AND status = ?",
        (a.retry_at, a.status, a.error, a.delivery, PENDING),
    )
    db.execute(
        "UPDATE webhooks SET failing_since = COALESCE(failing_since, ?), last_error = ?, next_at = ?,"
        " lease_until = ?, status = CASE WHEN ? THEN ? ELSE status END WHERE id = ?",
        (a.at, a.error, a.retry_at, lease_until, a.disable, DISABLED, a.webhook),
    )


class SqliteWebhooks:
    """The WebhookStore methods of SqliteStore (which provides `_rows`, `_write_transaction` and `_key`)."""

    _rows: Any
    _write_transaction: Any
    _key: Any

    async def webhooks(self, stream: str) -> list[WebhookRow]:
        rows = await self._rows(
            f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE stream = ? AND status != 'deleted'"
            " ORDER BY created_at, id",
            (stream,),
        )
        return [webhook_from(r, self._key) for r in rows]

    async def webhook(self, webhook_id: str) -> WebhookRow | None:
        rows = await self._rows(f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = ?", (webhook_id,))
        return webhook_from(rows[0], self._key) if rows else None

    async def deliveries(self, webhook_id: str, limit: int = 100) -> list[Delivery]:
        rows = await self._rows(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE webhook = ?"
            " ORDER BY seq DESC, part DESC LIMIT ?",
            (webhook_id, limit),
        )
        return [delivery_of(r) for r in rows]

    async def pending(self, webhook_id: str, limit: int) -> list[Delivery]:
        rows = await self._rows(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE webhook = ? AND status = ?"
            " ORDER BY seq, part LIMIT ?",
            (webhook_id, PENDING, limit),
        )
        return [delivery_of(r) for r in rows]

    async def claim_endpoints(self, now: float, lease_s: float, limit: int) -> list[WebhookRow]:
        return await self._write_transaction(claim, self._key, now, lease_s, limit)

    async def record_attempts(self, attempts: list[Attempt]) -> None:
        await self._write_transaction(record, attempts)

    async def release_endpoint(self, webhook_id: str) -> None:
        await self._write_transaction(
            lambda db: db.execute("UPDATE webhooks SET lease_until = 0 WHERE id = ?", (webhook_id,))
        )

    async def redeliver(self, webhook_id: str, now: float) -> int:
        def run(db: sqlite3.Connection) -> int:
            n = db.execute(
                "UPDATE deliveries SET status = ?, next_at = ? WHERE webhook = ? AND status IN (?, ?)",
                (PENDING, now, webhook_id, PENDING, CANCELLED),
            ).rowcount
            db.execute("UPDATE webhooks SET next_at = 0, failing_since = NULL WHERE id = ?", (webhook_id,))
            return n

        return await self._write_transaction(run)

    async def add_delivery(self, stream: str, row: OutboxRow, now: float) -> None:
        await self._write_transaction(
            lambda db: db.execute(
                "INSERT INTO deliveries (id, webhook, stream, seq, part, kind, body, created_at, next_at)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO NOTHING",
                (row.id, row.webhook, stream, row.seq, row.part, row.kind, row.body, now, now),
            )
        )

    async def outbox_depth(self) -> int:
        rows = await self._rows(
            "SELECT count(*) FROM deliveries AS d JOIN webhooks AS w ON w.id = d.webhook"
            " WHERE d.status = ? AND w.status = ?",
            (PENDING, ACTIVE),
        )
        return rows[0][0]
