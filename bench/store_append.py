"""Store benchmark: durable appends per second straight into a store, SQLite and PostgreSQL side by side.

    python bench/store_append.py                      # both stores, K = 1 and 16 writers, 5 s each
    python bench/store_append.py --writers 32 --seconds 10 --pg postgresql://postgres@127.0.0.1/test

Each writer owns one encounter and appends one-event commands to it back to back (expected_seq
pinned, as the server does). The PostgreSQL run uses a fresh schema, dropped afterwards. Both stores
commit durably (SQLite: WAL + synchronous=FULL; PostgreSQL: its defaults, fsync and
synchronous_commit on). No HTTP, no deciding: this is the store's own ceiling.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import secrets
import sys
import tempfile
import time

import asyncpg

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.envelope import NewEvent  # noqa: E402
from events.store.port import Append, StreamInfo  # noqa: E402
from events.store.postgres import PostgresStore  # noqa: E402
from events.store.seed_key import SeedKey  # noqa: E402
from events.store.sqlite import SqliteStore  # noqa: E402


async def run(store, writers: int, seconds: float) -> tuple[int, float]:
    streams = [f"bench-{writers}-{i}" for i in range(writers)]
    for s in streams:
        await store.append(
            Append(
                s,
                0,
                f"create-{s}",
                "b",
                "gm",
                [NewEvent("EncounterCreated", {"name": s})],
                create=StreamInfo(s, s, "freeform", False, 0, "", False),
            )
        )
    done = 0
    stop = time.monotonic() + seconds

    async def writer(stream: str) -> None:
        nonlocal done
        seq = 1
        while time.monotonic() < stop:
            await store.append(
                Append(
                    stream,
                    seq,
                    secrets.token_hex(8),
                    "b",
                    "gm",
                    [NewEvent("DieRolled", {"faces": [3, 4, 5], "total": 12})],
                )
            )
            seq += 1
            done += 1

    start = time.monotonic()
    await asyncio.gather(*(writer(s) for s in streams))
    return done, time.monotonic() - start


async def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument(
        "--pg", default=os.environ.get("TUSSLE_PG_DSN", "postgresql://postgres@127.0.0.1:5432/test")
    )
    p.add_argument("--writers", type=int, nargs="*", default=[1, 16])
    p.add_argument("--seconds", type=float, default=5.0)
    p.add_argument("--only", choices=["sqlite", "postgres"], default=None)
    args = p.parse_args()
    print(f"{os.cpu_count()} CPUs, {args.seconds:g} s per run, one-event commands, durable commits")
    if args.only != "postgres":
        with tempfile.TemporaryDirectory() as d:
            for k in args.writers:
                store = SqliteStore(os.path.join(d, f"bench-{k}.db"))
                async with store:
                    n, t = await run(store, k, args.seconds)
                print(f"sqlite    K={k:<3} {n / t:8.0f} appends/s")
    if args.only != "sqlite":
        schema = f"bench_{secrets.token_hex(4)}"
        admin = await asyncpg.connect(args.pg)
        await admin.execute(f"CREATE SCHEMA {schema}")
        try:
            sep = "&" if "?" in args.pg else "?"
            for k in args.writers:
                store = PostgresStore(
                    f"{args.pg}{sep}search_path={schema}",
                    max_size=max(10, k),
                    seed_key=SeedKey(secrets.token_bytes(32), "the bench's own key"),
                )
                async with store:
                    n, t = await run(store, k, args.seconds)
                print(f"postgres  K={k:<3} {n / t:8.0f} appends/s")
        finally:
            await admin.execute(f"DROP SCHEMA {schema} CASCADE")
            await admin.close()


if __name__ == "__main__":
    asyncio.run(main())
