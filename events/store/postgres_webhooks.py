"""Webhooks and their outbox in PostgreSQL (the port: events/store/outbox.py).

Several server processes dispatch from one database: `claim_endpoints` leases endpoints with
`FOR UPDATE SKIP LOCKED`, so two processes claiming at once take different endpoints and neither
waits for the other; the lease (a time in the row) keeps the endpoint its claimer's while it sends,
after the claiming transaction has committed.
"""

from __future__ import annotations

import time
from typing import TYPE_CHECKING, Any

import asyncpg

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


def delivery_of(r: Any) -> Delivery:
    return Delivery(*r.values())


async def write_webhook_rows(conn: asyncpg.Connection, req: Append, key: SeedKey) -> None:
    """Inside an append's transaction: the webhooks it creates, the deliveries it causes, then the changes
    (last, so that a webhook this append stops is owed none of its events either)."""
    now = time.time()
    for w in req.webhooks:
        await conn.execute(
            f"INSERT INTO webhooks ({WEBHOOK_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, $12, $13, $14)",
            *webhook_values(w, key),
        )
    if req.outbox:
        await conn.execute(
            "INSERT INTO deliveries (id, webhook, stream, seq, part, kind, body, created_at, next_at)"
            " SELECT o.id, o.webhook, $1, o.seq, o.part, o.kind, o.body, $2, $2"
            " FROM unnest($3::text[], $4::text[], $5::bigint[], $6::int[], $7::text[], $8::text[])"
            "   AS o(id, webhook, seq, part, kind, body)",
            req.stream,
            now,
            [o.id for o in req.outbox],
            [o.webhook for o in req.outbox],
            [o.seq for o in req.outbox],
            [o.part for o in req.outbox],
            [o.kind for o in req.outbox],
            [o.body for o in req.outbox],
        )
    for c in req.webhook_changes:
        if c.secret is not None:
            await conn.execute(
                "UPDATE webhooks SET secret = $1 WHERE id = $2", sealed_secret(c.id, c.secret, key), c.id
            )
        if c.status is not None:
            await conn.execute("UPDATE webhooks SET status = $1 WHERE id = $2", c.status, c.id)
            if c.status != ACTIVE:
                await conn.execute(
                    "UPDATE deliveries SET status = $1 WHERE webhook = $2 AND status = $3",
                    CANCELLED,
                    c.id,
                    PENDING,
                )


async def seal_plain_webhooks(conn: asyncpg.Connection, key: SeedKey) -> None:
    """The webhook_secrets migration's own step: seal each URL and secret written plain before it. (The
    old row versions stay until VACUUM reclaims them, as with the seeds: docs/deploy.md.)"""
    rows = await conn.fetch("SELECT id, url, secret FROM webhooks")
    await conn.executemany(
        "UPDATE webhooks SET url = $1, secret = $2 WHERE id = $3",
        [
            (key.seal_text(URL_COLUMN, r["id"], r["url"]), sealed_secret(r["id"], r["secret"], key), r["id"])
            for r in rows
        ],
    )


async def _record(conn: asyncpg.Connection, a: Attempt) -> None:
    lease_until = a.at + a.lease_s if a.lease_s else 0.0
    if a.ok:
        await conn.execute(
            "UPDATE deliveries SET status = $1, attempts = attempts + 1, delivered_at = $2, last_status = $3,"
            " last_error = NULL WHERE id = $4 AND status = $5",
            DELIVERED,
            a.at,
            a.status,
            a.delivery,
            PENDING,
        )
        await conn.execute(
            "UPDATE webhooks SET failing_since = NULL, last_error = NULL, next_at = 0,"
            " lease_until = $1 WHERE id = $2",
            lease_until,
            a.webhook,
        )
        return
    await conn.execute(
        "UPDATE deliveries SET attempts = attempts + 1, next_at = $1, last_status = $2, last_error = $3"
        " WHERE id = $4 AND status = $5",
        a.retry_at,
        a.status,
        a.error,
        a.delivery,
        PENDING,
    )
    await conn.execute(
        "UPDATE webhooks SET failing_since = COALESCE(failing_since, $1), last_error = $2, next_at = $3,"
        " lease_until = $4, status = CASE WHEN $5 THEN $6 ELSE status END WHERE id = $7",
        a.at,
        a.error,
        a.retry_at,
        lease_until,
        a.disable,
        DISABLED,
        a.webhook,
    )


class PostgresWebhooks:
    """The WebhookStore methods of PostgresStore (which provides `_pool` and `_key`)."""

    _pool: Any
    _key: Any

    async def webhooks(self, stream: str) -> list[WebhookRow]:
        rows = await self._pool.fetch(
            f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE stream = $1"
            " AND status != 'deleted' ORDER BY created_at, id",
            stream,
        )
        return [webhook_from(r.values(), self._key) for r in rows]

    async def webhook(self, webhook_id: str) -> WebhookRow | None:
        r = await self._pool.fetchrow(f"SELECT {WEBHOOK_COLUMNS} FROM webhooks WHERE id = $1", webhook_id)
        return webhook_from(r.values(), self._key) if r else None

    async def deliveries(self, webhook_id: str, limit: int = 100) -> list[Delivery]:
        rows = await self._pool.fetch(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE webhook = $1"
            " ORDER BY seq DESC, part DESC LIMIT $2",
            webhook_id,
            limit,
        )
        return [delivery_of(r) for r in rows]

    async def pending(self, webhook_id: str, limit: int) -> list[Delivery]:
        rows = await self._pool.fetch(
            f"SELECT {DELIVERY_COLUMNS} FROM deliveries WHERE webhook = $1"
            " AND status = $2 ORDER BY seq, part LIMIT $3",
            webhook_id,
            PENDING,
            limit,
        )
        return [delivery_of(r) for r in rows]

    async def claim_endpoints(self, now: float, lease_s: float, limit: int) -> list[WebhookRow]:
        rows = await self._pool.fetch(
            f"UPDATE webhooks SET lease_until = $1 WHERE id IN ("
            f" SELECT w.id FROM webhooks AS w WHERE w.status = $2 AND w.next_at <= $3 AND w.lease_until <= $3"
            f" AND EXISTS (SELECT 1 FROM deliveries AS d WHERE d.webhook = w.id AND d.status = $4)"
            f" ORDER BY w.next_at LIMIT $5 FOR UPDATE SKIP LOCKED) RETURNING {WEBHOOK_COLUMNS}",
            now + lease_s,
            ACTIVE,
            now,
            PENDING,
            limit,
        )
        return [webhook_from(r.values(), self._key) for r in rows]

    async def record_attempts(self, attempts: list[Attempt]) -> None:
        async with self._pool.acquire() as conn, conn.transaction():
            for a in attempts:
                await _record(conn, a)

    async def release_endpoint(self, webhook_id: str) -> None:
        await self._pool.execute("UPDATE webhooks SET lease_until = 0 WHERE id = $1", webhook_id)

    async def redeliver(self, webhook_id: str, now: float) -> int:
        async with self._pool.acquire() as conn, conn.transaction():
            done = await conn.execute(
                "UPDATE deliveries SET status = $1, next_at = $2 WHERE webhook = $3 AND status IN ($1, $4)",
                PENDING,
                now,
                webhook_id,
                CANCELLED,
            )
            await conn.execute(
                "UPDATE webhooks SET next_at = 0, failing_since = NULL WHERE id = $1", webhook_id
            )
        return int(done.split()[-1])

    async def add_delivery(self, stream: str, row: OutboxRow, now: float) -> None:
        await self._pool.execute(
            "INSERT INTO deliveries (id, webhook, stream, seq, part, kind, body, created_at, next_at)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $8) ON CONFLICT (id) DO NOTHING",
            row.id,
            row.webhook,
            stream,
            row.seq,
            row.part,
            row.kind,
            row.body,
            now,
        )

    async def outbox_depth(self) -> int:
        return await self._pool.fetchval(
            "SELECT count(*) FROM deliveries AS d JOIN webhooks AS w ON w.id = d.webhook"
            " WHERE d.status = $1 AND w.status = $2",
            PENDING,
            ACTIVE,
        )
