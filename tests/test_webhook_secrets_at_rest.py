"""Webhook URLs and signing secrets sealed at rest (issue 33 item 9), on SQLite and PostgreSQL.

A Discord webhook URL is itself a credential and a `whsec_` secret forges deliveries: a copied database
or backup must show neither, as it shows no unrevealed dice seed. Real parts: a real server, a real
receiver whose URL path and query are secrets, the database read raw as a thief would (SQLite's file and
write-ahead log, PostgreSQL's rows), and an old database with plain rows upgraded by the migration and
still delivering, signed with the secret it was given before the upgrade.
"""

from __future__ import annotations

import base64
import os
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import asyncpg
import pytest
from standardwebhooks import Webhook

from events.store.migrations import MIGRATIONS, stream_tables
from events.store.outbox import SECRET_COLUMN, URL_COLUMN
from events.store.seed_key import SEALED_TEXT, SeedKeyError, from_env
from events.store.sqlite import SqliteStore
from server.settings import WebhookSettings
from tests.support.client import Encounter, PgServer, RunningServer, TussleClient
from tests.support.receivers import Receiver

FAST = WebhookSettings(
    allow_private=True, retry_base_s=0.05, retry_cap_s=0.2, read_timeout_s=0.5, poll_s=0.05
)


class Db:
    """The database under one server, restartable on the same file or schema, and read raw."""

    def __init__(self, store_dsn: str | None, path: str):
        self.dsn, self.path = store_dsn, path
        settings: dict[str, Any] = {"webhook_allow_private": True, "webhooks": FAST}
        self.server = (
            RunningServer(path, **settings) if store_dsn is None else PgServer(store_dsn, **settings)
        )

    async def raw(self) -> bytes:
        """Everything a copy of the database holds: the SQLite file and its log, or every PostgreSQL row."""
        if self.dsn is None:
            out = b""
            for p in (self.path, self.path + "-wal"):
                if os.path.exists(p):
                    with open(p, "rb") as f:
                        out += f.read()
            return out
        conn = await asyncpg.connect(self.dsn)
        try:
            tables = [
                r[0]
                for r in await conn.fetch(
                    "SELECT tablename FROM pg_tables WHERE schemaname = current_schema()"
                )
            ]
            rows = [
                await conn.fetchval(f"SELECT string_agg(t::text, E'\\n') FROM {t} AS t") or "" for t in tables
            ]
        finally:
            await conn.close()
        return "\n".join(rows).encode()

    async def webhook_rows(self) -> list[tuple[str, str, str]]:
        if self.dsn is None:
            with sqlite3.connect(self.path) as con:
                return con.execute("SELECT id, url, secret FROM webhooks").fetchall()
        conn = await asyncpg.connect(self.dsn)
        try:
            return [tuple(r) for r in await conn.fetch("SELECT id, url, secret FROM webhooks")]
        finally:
            await conn.close()

    async def as_before_the_migration(self) -> None:
        """The database as a server from before migration 8 left it: the same rows, URL and secret plain,
        and no `webhook_secrets` in its history."""
        key = from_env()
        assert key is not None, "the suite gives every store TUSSLE_SEED_KEY (tests/conftest.py)"
        plain = [
            (key.open_text(URL_COLUMN, wid, url), key.open_text(SECRET_COLUMN, wid, secret), wid)
            for wid, url, secret in await self.webhook_rows()
        ]
        # Before migration 8 there were no later ones either: their rows and tables go too, so the
        # history is a prefix the server knows and it runs 8 and what follows again.
        version = next(i for i, m in enumerate(MIGRATIONS, start=1) if m.name == "webhook_secrets")
        later = stream_tables(MIGRATIONS[version:])
        forget = f"DELETE FROM schema_migrations WHERE version >= {version}"
        drops = [f"DROP TABLE IF EXISTS {table}" for table in later]
        if self.dsn is None:
            con = sqlite3.connect(self.path)
            with con:
                con.executemany("UPDATE webhooks SET url = ?, secret = ? WHERE id = ?", plain)
                con.execute(forget)
                for drop in drops:
                    con.execute(drop)
            con.close()
            return
        conn = await asyncpg.connect(self.dsn)
        try:
            async with conn.transaction():
                await conn.executemany("UPDATE webhooks SET url = $1, secret = $2 WHERE id = $3", plain)
                await conn.execute(forget)
                for drop in drops:
                    await conn.execute(drop)
        finally:
            await conn.close()


@pytest.fixture
async def db(store_dsn: str | None, tmp_path) -> AsyncIterator[Db]:
    d = Db(store_dsn, str(tmp_path / "tussle.db"))
    yield d
    await d.server.stop()


@pytest.fixture
async def rx() -> AsyncIterator[Receiver]:
    r = await Receiver().start()
    yield r
    await r.stop()


def secrets_of(rx: Receiver, secret: str) -> list[bytes]:
    """The strings a copy of the database must not hold: the URL's secret path and query, the secret,
    its key bytes (base64 after `whsec_`) and their hex."""
    key = base64.b64decode(secret.removeprefix("whsec_"))
    return [
        rx.path.encode(),
        b"s3cr3t-path",
        secret.encode(),
        secret.removeprefix("whsec_").encode(),
        key,
        key.hex().encode(),
    ]


def assert_absent(raw: bytes, rx: Receiver, *secrets: str) -> None:
    for s in secrets:
        for text in secrets_of(rx, s):
            assert text not in raw, f"{text!r} is in the database as it stands on disk"


async def delivered(rx: Receiver, enc: Encounter, secret: str) -> None:
    """A note, delivered to `rx` signed with `secret`."""
    r = await enc.command("note", text="a note for the hook")
    assert r.status == 201, r.body
    seq = r.body["seq"]

    def got() -> list[Any]:
        return [x for x in rx.processed if x.json["data"]["event"]["seq"] == seq]

    await rx.until(lambda: bool(got()), f"the delivery of seq {seq}")
    (one,) = got()
    assert Webhook(secret).verify(one.body, one.headers)


async def hooked(client: TussleClient, rx: Receiver) -> tuple[Encounter, str, str]:
    enc = await client.create()
    r = await client.request(
        "POST", f"{enc.path}/webhooks", {"url": rx.url, "deliver": ["events"]}, token=enc.gm_token
    )
    assert r.status == 201, r.body
    return enc, r.body["id"], r.body["secret"]


async def test_no_webhook_url_or_secret_is_plain_in_the_database(db: Db, rx: Receiver):
    await db.server.start()
    async with aiohttp.ClientSession() as session:
        client = TussleClient(db.server.base_url, session, db.path)
        enc, wid, first = await hooked(client, rx)
        await delivered(rx, enc, first)
        rotated = await client.request("POST", f"{enc.path}/webhooks/{wid}/secret", token=enc.gm_token)
        assert rotated.status == 201, rotated.body
        await delivered(rx, enc, rotated.body["secret"])
    await db.server.stop()
    raw = await db.raw()
    assert_absent(raw, rx, first, rotated.body["secret"])
    ((_, url, secret),) = await db.webhook_rows()
    assert url.startswith(SEALED_TEXT) and secret.startswith(SEALED_TEXT), "both stored sealed"


async def test_an_old_database_with_plain_webhooks_is_sealed_on_upgrade_and_still_delivers(
    db: Db, rx: Receiver
):
    await db.server.start()
    async with aiohttp.ClientSession() as session:
        client = TussleClient(db.server.base_url, session, db.path)
        enc, wid, secret = await hooked(client, rx)
        await db.server.stop()
        await db.as_before_the_migration()
        assert rx.path.encode() in await db.raw() and secret.encode() in await db.raw(), (
            "the old rows are plain"
        )

        await db.server.start()  # the same port: the client goes on
        await delivered(rx, enc, secret)
        assert (await enc.get("/webhooks")).body["webhooks"][0]["host"] == "127.0.0.1"
    await db.server.stop()
    assert_absent(await db.raw(), rx, secret)
    ((_, url, stored),) = await db.webhook_rows()
    assert url.startswith(SEALED_TEXT) and stored.startswith(SEALED_TEXT)


async def test_a_sealed_url_moved_to_another_webhook_does_not_open(tmp_path):
    path = str(tmp_path / "moved.db")
    db = Db(None, path)
    rx_a, rx_b = await Receiver().start(), await Receiver().start()
    try:
        await db.server.start()
        async with aiohttp.ClientSession() as session:
            client = TussleClient(db.server.base_url, session, path)
            _, a, _ = await hooked(client, rx_a)
            _, b, _ = await hooked(client, rx_b)
        await db.server.stop()
    finally:
        await rx_a.stop()
        await rx_b.stop()
    con = sqlite3.connect(path)
    with con:  # b's sealed URL copied over a's: a key-less thief's swap, to make a's deliveries go to b
        (url_b,) = con.execute("SELECT url FROM webhooks WHERE id = ?", (b,)).fetchone()
        con.execute("UPDATE webhooks SET url = ? WHERE id = ?", (url_b, a))
    con.close()
    store = SqliteStore(path)
    await store.open()
    try:
        with pytest.raises(SeedKeyError, match="does not open"):
            await store.webhook(a)
        assert (await store.webhook(b)).url == rx_b.url
    finally:
        await store.close()
