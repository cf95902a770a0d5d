"""Snapshot benchmark: cold load and `?at=` of a 100,000-event encounter, before and after snapshots.

    python bench/snapshots.py                 # 100,999 events (the worst tail after a snapshot), best of 5
    python bench/snapshots.py --events 20000 --runs 3

Builds the freeform encounter of bench/replay.py, with `every - 1` events past the last snapshot point
(the longest tail a load can meet). Then, interleaved, best of the runs:

- cold load as before snapshots: a fresh service's `state()` with the snapshot table empty (a full
  replay; it saves the snapshots again);
- cold load from snapshots: a fresh service's `state()` (target <= 50 ms);
- `?at=` as before: read events 1..at and replay them; from snapshots: `state_at(at)`, at the
  middle of the stream plus `every - 1` (again the longest tail) (target <= 50 ms);
- the ceiling of a load from a snapshot: a raw sqlite3 read of the snapshot row and of the tail's
  rows, with a msgspec decode of the snapshot and of each row's data.

Each line prints the figure and its ratio to the ceiling measured in the same run.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import shutil
import sqlite3
import sys
import tempfile
import time

import msgspec

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay import build  # noqa: E402
from events.store.sqlite import SqliteStore  # noqa: E402
from rules.registry import Registry  # noqa: E402
from rules.state import replay  # noqa: E402
from server.encounters.service import Encounters  # noqa: E402
from server.encounters.snapshots import SNAPSHOT_EVERY  # noqa: E402


async def timed_load(path: str, stream: str, at: int | None, empty_first: bool) -> float:
    store = SqliteStore(path)
    await store.open()
    try:
        if empty_first:
            await store.drop_snapshots(stream)
        enc = Encounters(store, Registry.discover())
        t0 = time.perf_counter()
        state = await (enc.state(stream) if at is None else enc.state_at(stream, at))
        elapsed = time.perf_counter() - t0
        assert at is None or state["seq"] == at
        return elapsed
    finally:
        await store.close()


async def timed_replay_to(path: str, stream: str, at: int) -> float:
    """`?at=` as it was: every event up to `at` read and replayed."""
    store = SqliteStore(path)
    await store.open()
    try:
        registry = Registry.discover()
        t0 = time.perf_counter()
        events = await store.read(stream, 1, at)
        state = replay(events, lambda e: registry.get(e.data["ruleset"]), at)
        elapsed = time.perf_counter() - t0
        assert state["seq"] == at
        return elapsed
    finally:
        await store.close()


def ceiling(path: str, stream: str, at: int | None) -> float:
    """A raw read and decode of the nearest snapshot and of the events after it."""
    db = sqlite3.connect(path)
    try:
        t0 = time.perf_counter()
        limit = at if at is not None else 2**62
        seq, data = db.execute(
            "SELECT seq, data FROM snapshots WHERE stream = ? AND seq <= ? ORDER BY seq DESC LIMIT 1",
            (stream, limit),
        ).fetchone()
        msgspec.json.decode(data)
        rows = db.execute(
            "SELECT stream, seq, type, data, actor, command_id, ts, prev_hash, hash FROM events "
            "WHERE stream = ? AND seq >= ? AND seq <= ? ORDER BY seq",
            (stream, seq, limit),
        ).fetchall()
        for r in rows:
            msgspec.json.decode(r[3])
        return time.perf_counter() - t0
    finally:
        db.close()


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--events", type=int, default=100_000 + SNAPSHOT_EVERY - 1)
    p.add_argument("--runs", type=int, default=5)
    p.add_argument("--db-dir", default=None)
    args = p.parse_args()
    workdir = tempfile.mkdtemp(prefix="tussle-snapshots-", dir=args.db_dir)
    path = os.path.join(workdir, "snapshots.db")
    at = args.events // 2 // SNAPSHOT_EVERY * SNAPSHOT_EVERY + SNAPSHOT_EVERY - 1
    try:
        t0 = time.perf_counter()
        stream = asyncio.run(build(path, args.events))
        print(
            f"built a {args.events:,}-event freeform encounter in {time.perf_counter() - t0:.1f} s; "
            f"a snapshot every {SNAPSHOT_EVERY} events; {os.cpu_count()} CPUs, Python {sys.version.split()[0]}"
        )
        runs: dict[str, list[float]] = {
            k: [] for k in ("full", "cold", "at_full", "at", "ceil_cold", "ceil_at")
        }
        for _ in range(args.runs):
            runs["full"].append(asyncio.run(timed_load(path, stream, None, empty_first=True)))
            runs["cold"].append(asyncio.run(timed_load(path, stream, None, empty_first=False)))
            runs["at_full"].append(asyncio.run(timed_replay_to(path, stream, at)))
            runs["at"].append(asyncio.run(timed_load(path, stream, at, empty_first=False)))
            runs["ceil_cold"].append(ceiling(path, stream, None))
            runs["ceil_at"].append(ceiling(path, stream, at))
    finally:
        shutil.rmtree(workdir, ignore_errors=True)
    best = {k: min(v) * 1000 for k, v in runs.items()}
    print(f"cold load, full replay (before)      {best['full']:8.1f} ms")
    print(
        f"cold load from a snapshot            {best['cold']:8.1f} ms   target <= 50 ms; "
        f"ceiling {best['ceil_cold']:.1f} ms, ratio {best['ceil_cold'] / best['cold']:.2f}; "
        f"{best['full'] / best['cold']:.0f}x faster than the full replay"
    )
    print(f"?at={at:,}, full replay (before)    {best['at_full']:8.1f} ms")
    print(
        f"?at={at:,} from a snapshot          {best['at']:8.1f} ms   target <= 50 ms; "
        f"ceiling {best['ceil_at']:.1f} ms, ratio {best['ceil_at'] / best['at']:.2f}; "
        f"{best['at_full'] / best['at']:.0f}x faster than the full replay"
    )
    print(f"best of {args.runs} runs; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
