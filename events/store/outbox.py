"""The webhook part of the store port: subscriptions, and the outbox of deliveries owed to them.

A delivery is written in the append transaction of the events that cause it (`Append.outbox`), so a
committed event never lacks its deliveries and a rolled-back one never has any. A dispatcher then
leases endpoints (`claim_endpoints`: one process at a time per endpoint, `FOR UPDATE SKIP LOCKED` on
PostgreSQL), sends each endpoint's pending deliveries in (seq, part) order and records the outcome.

Times are Unix seconds (floats): they are the server's clock, used for scheduling, never hashed.

A webhook's URL and secret are sealed under the seed key at rest (events/store/seed_key.py): both
backends write and read them through `webhook_values`, `sealed_secret` and `webhook_from`, so the
stored columns never hold them plain, and the rest of the server only ever sees them open.
"""

from __future__ import annotations

import abc
from typing import Any, Literal

import msgspec

from events.store.seed_key import SeedKey

ACTIVE = "active"
DISABLED = "disabled"  # failed for too long; the GM was told
REVOKED = "revoked"  # its seat was revoked
DELETED = "deleted"

PENDING = "pending"
DELIVERED = "delivered"
CANCELLED = "cancelled"  # its webhook stopped before it was delivered
# What a delivery carries and where it stands (the API's DeliveryView says the same words).
DeliveryKind = Literal["event", "log", "notice", "test"]
DeliveryStatus = Literal["pending", "delivered", "cancelled"]


# The stored columns, in the field order of WebhookRow and Delivery (both backends select these).
WEBHOOK_COLUMNS = (
    "id, stream, url, secret, seat, deliver, format, base_url, created_at, status, next_at, "
    "failing_since, last_error, avatar_url"
)
DELIVERY_COLUMNS = (
    "id, webhook, stream, seq, part, kind, body, status, attempts, created_at, next_at, "
    "last_error, last_status, delivered_at"
)


class WebhookRow(msgspec.Struct, frozen=True):
    """A subscription as stored: the URL and secret are secrets, kept here and never in the stream."""

    id: str
    stream: str
    url: str
    secret: str
    seat: str | None
    deliver: list[str]
    format: str
    base_url: str
    created_at: float
    status: str = ACTIVE
    next_at: float = 0.0  # the endpoint is not tried before this (backoff, Retry-After)
    failing_since: float | None = None
    last_error: str | None = None
    avatar_url: str | None = None  # Discord shows it beside each message (https only)


class WebhookChange(msgspec.Struct, frozen=True):
    """A change to a stored webhook, written in the append of the event recording it."""

    id: str
    status: str | None = None
    secret: str | None = None


class OutboxRow(msgspec.Struct, frozen=True):
    """A delivery owed: `body` is the JSON the dispatcher renders the request from (kind-specific)."""

    id: str  # stable: the `webhook-id` receivers deduplicate on
    webhook: str
    seq: int
    part: int
    kind: str  # event | log | notice
    body: str


class Delivery(msgspec.Struct, frozen=True):
    """A delivery with its progress."""

    id: str
    webhook: str
    stream: str
    seq: int
    part: int
    kind: DeliveryKind
    body: str
    status: DeliveryStatus
    attempts: int
    created_at: float
    next_at: float
    last_error: str | None
    last_status: int | None
    delivered_at: float | None


class Attempt(msgspec.Struct, frozen=True):
    """The outcome of one try of a delivery, recorded on it and on its endpoint."""

    delivery: str
    webhook: str
    at: float
    ok: bool
    status: int | None = None
    error: str | None = None
    retry_at: float = 0.0  # when the endpoint may be tried again (failures)
    disable: bool = False  # the endpoint has failed too long: stop it
    lease_s: float = 0.0  # the endpoint's lease is renewed by this long from `at` (0 releases it)


class WebhookStore(abc.ABC):
    """What a store keeps for webhooks (both backends; tests/contract/store_contract.py)."""

    @abc.abstractmethod
    async def webhooks(self, stream: str) -> list[WebhookRow]:
        """The stream's webhooks that were not deleted, in creation order."""

    @abc.abstractmethod
    async def webhook(self, webhook_id: str) -> WebhookRow | None: ...

    @abc.abstractmethod
    async def deliveries(self, webhook_id: str, limit: int = 100) -> list[Delivery]:
        """The webhook's latest deliveries, newest first."""

    @abc.abstractmethod
    async def claim_endpoints(self, now: float, lease_s: float, limit: int) -> list[WebhookRow]:
        """Lease up to `limit` active endpoints that have a pending delivery due now; no other claim gets
        them until the lease runs out or is released."""

    @abc.abstractmethod
    async def pending(self, webhook_id: str, limit: int) -> list[Delivery]:
        """The endpoint's pending deliveries in order (seq, part)."""

    @abc.abstractmethod
    async def record_attempts(self, attempts: list[Attempt]) -> None:
        """Record tries, in one transaction: each delivered, or failed with its endpoint's next try (and
        perhaps disabled); each endpoint's lease renewed or released."""

    @abc.abstractmethod
    async def release_endpoint(self, webhook_id: str) -> None: ...

    @abc.abstractmethod
    async def redeliver(self, webhook_id: str, now: float) -> int:
        """The webhook's undelivered deliveries (waiting, or cancelled when it stopped) due again at `now`,
        in their (seq, part) order, and its backoff cleared; how many."""

    @abc.abstractmethod
    async def add_delivery(self, stream: str, row: OutboxRow, now: float) -> None:
        """A delivery written outside any append (a test delivery, a reminder): it appends nothing to the
        stream. One whose id is stored already is left as it is (a reminder written again is one delivery)."""

    @abc.abstractmethod
    async def outbox_depth(self) -> int:
        """Pending deliveries of active endpoints, over the whole store."""


# The sealed columns, named in the associated data of what they hold (a value moved to the other one,
# or to another webhook's row, does not open).
URL_COLUMN = "webhooks.url"
SECRET_COLUMN = "webhooks.secret"


def webhook_values(w: WebhookRow, key: SeedKey) -> tuple[Any, ...]:
    """The row of WEBHOOK_COLUMNS to store for `w`: its URL and secret sealed, `deliver` as JSON text."""
    return (
        w.id,
        w.stream,
        key.seal_text(URL_COLUMN, w.id, w.url),
        sealed_secret(w.id, w.secret, key),
        w.seat,
        msgspec.json.encode(w.deliver).decode(),
        w.format,
        w.base_url,
        w.created_at,
        w.status,
        w.next_at,
        w.failing_since,
        w.last_error,
        w.avatar_url,
    )


def sealed_secret(webhook_id: str, secret: str, key: SeedKey) -> str:
    """The stored form of a webhook's (new) signing secret."""
    return key.seal_text(SECRET_COLUMN, webhook_id, secret)


def webhook_from(values: Any, key: SeedKey) -> WebhookRow:
    """A WebhookRow from a stored row of WEBHOOK_COLUMNS, its URL and secret opened."""
    values = list(values)
    wid = values[0]
    values[2] = key.open_text(URL_COLUMN, wid, values[2])
    values[3] = key.open_text(SECRET_COLUMN, wid, values[3])
    values[5] = msgspec.json.decode(values[5])
    return WebhookRow(*values)
