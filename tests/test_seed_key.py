"""Dice seeds sealed at rest (issue 16 item 6): a copy of the database shows no unrevealed seed.

Real parts: a real server over a real SQLite file (its bytes read as a thief would read a copy), `tussle
serve` in a subprocess for the startup refusals, the suite's PostgreSQL for its half. The suite sets
TUSSLE_SEED_KEY for every store it opens (tests/conftest.py); the SQLite tests here unset it, so the
key file beside the database is made and used as on a fresh install.
"""

from __future__ import annotations

import asyncio
import os
import shutil
import sqlite3
import stat
import subprocess
import sys
from collections.abc import AsyncIterator

import aiohttp
import asyncpg
import pytest

from events.dice import commitment_of
from events.store.migrations import MIGRATIONS
from events.store.port import SeedRow
from events.store.postgres import PostgresStore
from events.store.seed_key import ENV, KEY_FILE_SUFFIX, SeedKey, SeedKeyError
from events.store.sqlite import SqliteStore
from tests.support.appends import created
from tests.support.client import RunningServer, TussleClient

DATA = os.path.join(os.path.dirname(__file__), "data")


@pytest.fixture
def no_env_key(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv(ENV, raising=False)


def file_bytes(db_path: str) -> bytes:
    """The database as a copy or a backup would hold it: the file and its write-ahead log."""
    out = b""
    for path in (db_path, db_path + "-wal"):
        if os.path.exists(path):
            with open(path, "rb") as f:
                out += f.read()
    return out


def assert_absent(seed: bytes, raw: bytes) -> None:
    assert seed not in raw, "the seed's raw bytes are in the database file"
    for text in (seed.hex(), seed.hex().upper()):
        assert text.encode() not in raw, "the seed's hex is in the database file"
        assert text.encode("utf-16-le") not in raw


async def seeds_of(db_path: str, stream: str, commitments: list[str]) -> dict[str, bytes]:
    """What the operator (who holds the key) reads back through the store."""
    store = SqliteStore(db_path, lock=False)
    await store.open()
    try:
        return {c: seed for c in commitments if (seed := await store.seed(stream, c)) is not None}
    finally:
        await store.close()


def serve(db: str, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`tussle serve` that is expected to refuse to start (it would otherwise run until the timeout)."""
    return subprocess.run(
        [sys.executable, "-m", "server", "serve", "--db", db, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )


@pytest.fixture
async def served(tmp_path, no_env_key) -> AsyncIterator[tuple[RunningServer, TussleClient]]:
    server = await RunningServer(str(tmp_path / "tussle.db")).start()
    try:
        async with aiohttp.ClientSession() as session:
            yield server, TussleClient(server.base_url, session, server.db_path)
    finally:
        await server.stop()


async def test_the_database_file_holds_no_unrevealed_seed(served):
    server, client = served
    enc = await client.create("freeform")
    for _ in range(3):
        await enc.ok("roll", expression="3d6")
    await enc.ok("rotate_seed")
    await enc.ok("roll", expression="1d20")
    other = await client.create("freeform")
    await other.ok("roll", expression="2d6")
    events = await enc.events()
    first, current = events[0]["data"]["commitment"], events[-2]["data"]["commitment"]
    hidden = events[0]["data"]["hidden_commitment"]  # the seed behind the GM's hidden rolls
    revealed = next(e for e in events if e["type"] == "DiceSeedRotated")["data"]["revealed_seed"]
    other_commitment = (await other.events())[0]["data"]["commitment"]
    await server.stop()

    key_file = server.db_path + KEY_FILE_SUFFIX
    assert stat.S_IMODE(os.stat(key_file).st_mode) == 0o600, "the key file is its owner's only"
    seeds = await seeds_of(server.db_path, enc.id, [first, current, hidden])
    (other_seed,) = (await seeds_of(server.db_path, other.id, [other_commitment])).values()
    assert commitment_of(seeds[current]) == current and commitment_of(other_seed) == other_commitment
    assert seeds[first].hex() == revealed, "a revealed seed reads back as the chain shows it"
    raw = file_bytes(server.db_path)
    assert revealed.encode() in raw, "the revealed seed is in the chain, as before"
    assert_absent(seeds[current], raw)
    assert_absent(seeds[hidden], raw)
    assert_absent(other_seed, raw)
    with open(key_file, "rb") as f:
        assert f.read().strip() not in raw, "the key is not in the database"


async def test_a_sealed_seed_moved_to_another_row_does_not_open(tmp_path, no_env_key):
    path = str(tmp_path / "moved.db")
    store = SqliteStore(path)
    await store.open()
    seed_a, seed_b = os.urandom(32), os.urandom(32)
    await created(store, "a", seeds=[SeedRow(commitment_of(seed_a), seed_a)])
    await created(store, "b", seeds=[SeedRow(commitment_of(seed_b), seed_b)])
    await store.close()
    con = sqlite3.connect(path)
    with con:  # b's sealed seed copied over a's row: the thief's key-less swap
        (sealed_b,) = con.execute("SELECT seed FROM dice_seeds WHERE stream = 'b'").fetchone()
        con.execute("UPDATE dice_seeds SET seed = ? WHERE stream = 'a'", (sealed_b,))
    con.close()
    store = SqliteStore(path)
    await store.open()
    try:
        with pytest.raises(SeedKeyError, match="does not open"):
            await store.seed("a", commitment_of(seed_a))
        assert await store.seed("b", commitment_of(seed_b)) == seed_b
    finally:
        await store.close()


def test_a_server_with_another_key_refuses_to_start(tmp_path, no_env_key):
    db = str(tmp_path / "keyed.db")
    env = {k: v for k, v in os.environ.items() if k not in (ENV, "TUSSLE_ADMIN_TOKEN")}
    with sqlite3.connect(db):
        pass  # an empty file: the first start below makes the schema, the key file and the fingerprint
    asyncio.run(_open_and_close(SqliteStore(db)))
    key_file = db + KEY_FILE_SUFFIX
    fingerprint = SeedKey(bytes.fromhex(open(key_file).read()), "the key file").fingerprint

    wrong = serve(db, {**env, ENV: os.urandom(32).hex()})
    assert wrong.returncode == 2, wrong.stderr
    assert "seed key fingerprint mismatch" in wrong.stderr and fingerprint[:16] in wrong.stderr
    assert ENV in wrong.stderr.splitlines()[-1]

    os.replace(key_file, key_file + ".lost")
    lost = serve(db, env)  # the database records a key: none is made beside it, the lost one is asked for
    assert lost.returncode == 2, lost.stderr
    assert "there is no seed key" in lost.stderr and key_file in lost.stderr, lost.stderr
    assert not os.path.exists(key_file), "a fresh key file beside a sealed database hides which key was lost"
    os.replace(key_file + ".lost", key_file)
    os.chmod(key_file, 0o644)  # a key file others can read protects nothing
    loose = serve(db, env)
    assert loose.returncode == 2 and "can be read by others (mode 0644)" in loose.stderr, loose.stderr
    os.chmod(key_file, 0o600)
    malformed = serve(db, {**env, ENV: "not-a-key"})
    assert malformed.returncode == 2 and "not hex" in malformed.stderr, malformed.stderr
    # Issue 33 item 7: no refused start said it was serving (a waiter for that line was misled).
    for refused in (wrong, lost, loose, malformed):
        assert "tussle: serving" not in refused.stderr, refused.stderr


async def _open_and_close(store: SqliteStore) -> None:
    await store.open()
    await store.close()


async def test_an_old_database_with_plain_seeds_is_sealed_on_upgrade(tmp_path, no_env_key):
    path = str(tmp_path / "old.db")
    shutil.copy(os.path.join(DATA, "schema_v0.db"), path)
    con = sqlite3.connect(path)
    plain = {
        (s, c): bytes(seed)
        for s, c, seed, revealed in con.execute("SELECT stream, commitment, seed, revealed FROM dice_seeds")
        if not revealed
    }
    con.close()
    assert plain and all(commitment_of(seed) == c for (_, c), seed in plain.items()), "the old rows are plain"
    store = SqliteStore(path)
    await store.open()
    try:
        for (stream, commitment), seed in plain.items():
            assert await store.seed(stream, commitment) == seed, "the same seed reads back"
    finally:
        await store.close()
    raw = file_bytes(path)
    for seed in plain.values():
        assert_absent(seed, raw)
    con = sqlite3.connect(path)
    try:
        versions = [r[0] for r in con.execute("SELECT name FROM schema_migrations ORDER BY version")]
        (fingerprint,) = con.execute("SELECT fingerprint FROM seed_key").fetchone()
    finally:
        con.close()
    assert versions == [m.name for m in MIGRATIONS]
    with open(path + KEY_FILE_SUFFIX) as f:
        assert fingerprint == SeedKey(bytes.fromhex(f.read()), "the key file").fingerprint


# ---- PostgreSQL: TUSSLE_SEED_KEY only --------------------------------------------------------------


def test_postgres_without_the_key_refuses_to_start(pg_schema_dsn: str):
    env = {k: v for k, v in os.environ.items() if k not in (ENV, "TUSSLE_ADMIN_TOKEN")}
    run = subprocess.run(
        [sys.executable, "-m", "server", "serve", "--pg", pg_schema_dsn, "--port", "0"],
        capture_output=True,
        text=True,
        timeout=60,
        env=env,
    )
    assert run.returncode == 2, run.stderr
    assert f"{ENV} is not set" in run.stderr
    assert "tussle: serving" not in run.stderr, run.stderr  # issue 33 item 7


async def test_postgres_seals_seeds_and_refuses_another_key(pg_schema_dsn: str):
    seed = os.urandom(32)
    store = PostgresStore(pg_schema_dsn)
    await store.open()
    try:
        await created(store, "pg", seeds=[SeedRow(commitment_of(seed), seed)])
    finally:
        await store.close()
    conn = await asyncpg.connect(pg_schema_dsn)
    try:
        (stored,) = [bytes(r["seed"]) for r in await conn.fetch("SELECT seed FROM dice_seeds")]
    finally:
        await conn.close()
    assert seed not in stored and len(stored) == 12 + 32 + 16, "nonce, sealed seed, tag"
    other = PostgresStore(pg_schema_dsn, seed_key=SeedKey(os.urandom(32), "another key"))
    with pytest.raises(SeedKeyError, match="fingerprint mismatch"):
        await other.open()


async def test_postgres_plain_seeds_are_sealed_by_the_migration(pg_schema_dsn: str):
    seed = os.urandom(32)
    old = PostgresStore(pg_schema_dsn, migrations=MIGRATIONS[:5])  # the schema before the seed key
    await old.open()
    await old.close()
    conn = await asyncpg.connect(pg_schema_dsn)
    try:
        await conn.execute(
            "INSERT INTO dice_seeds (stream, commitment, seed) VALUES ('old', $1, $2)",
            commitment_of(seed),
            seed,
        )
    finally:
        await conn.close()
    store = PostgresStore(pg_schema_dsn)
    await store.open()
    try:
        assert await store.seed("old", commitment_of(seed)) == seed
    finally:
        await store.close()
    conn = await asyncpg.connect(pg_schema_dsn)
    try:
        assert seed not in bytes(await conn.fetchval("SELECT seed FROM dice_seeds"))
    finally:
        await conn.close()
