"""Replay benchmark: rebuild the state of a 100,000-event encounter, against its ceiling.

    python bench/replay.py                  # 100,000 events, best of 5 runs
    python bench/replay.py --events 20000 --runs 3

Builds a freeform encounter in a temporary SQLite file: a few combatants, then rolls, moves, wounds,
posture changes, notes and a new turn every 50 events, appended through the store in large commands
(how they got there does not matter to a replay). Then it times what the server does for an
encounter it has not cached — `Encounters.state()`: read every row through the store, decode it into
envelopes and fold `evolve` over them — and the ceiling: a raw `sqlite3` read of the same rows and a
msgspec decode of each row's data. It prints events/s of both (best of the runs), the split of the
server's time between reading and folding, and the ratio.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import shutil
import sqlite3
import sys
import tempfile
import time
from collections.abc import Iterator

import msgspec

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from events.common import ConditionChanged, Moved, NotePosted, PostureChanged, TurnStarted, Wounded  # noqa: E402
from events.dice import DieRolled, Modifier  # noqa: E402
from events.gc_pause import gc_paused  # noqa: E402
from events.store.port import Append  # noqa: E402
from events.store.sqlite import SqliteStore  # noqa: E402
from rules.pipeline import to_new_event  # noqa: E402
from rules.registry import Registry  # noqa: E402
from rules.state import replay  # noqa: E402
from server.encounters.service import Encounters  # noqa: E402
from server.encounters.tokens import Principal  # noqa: E402

COMBATANTS = ["ann", "bob", "cid", "dee"]
POSTURES = ["standing", "kneeling", "prone", "standing"]


def event_number(i: int, turn: int) -> msgspec.Struct:
    """The i-th generated event: a realistic mix of what fights are made of."""
    who = COMBATANTS[i % len(COMBATANTS)]
    kind = i % 10
    if kind in (0, 1, 2, 3):
        faces = [(i * 7 + k) % 6 + 1 for k in range(3)]
        return DieRolled(
            "to hit",
            "3d6",
            6,
            faces,
            [0, 1, 2],
            [0, 1, 2],
            "bench-entropy-0123456789",
            "client",
            [Modifier(-2, "defender is prone")],
            sum(faces) - 2,
            11,
            "hit" if sum(faces) < 13 else "miss",
            "server",
            who,
        )
    if kind in (4, 5):
        return Moved(who, [i % 9, (i // 9) % 9], "move", i % 6, [(i + 1) % 9, (i // 9) % 9])
    if kind == 6:
        return Wounded(who, 1, "sword")
    if kind == 7:
        return PostureChanged(who, POSTURES[(i // 10) % len(POSTURES)])
    if kind == 8:
        return ConditionChanged(who, "stunned", bool((i // 10) % 2))
    return NotePosted(f"turn {turn}: {who} shouts")


async def build(path: str, total: int, public: bool = False) -> str:
    """A freeform encounter of `total` events; returns its id."""
    store = SqliteStore(path)
    await store.open()
    try:
        enc = Encounters(store, Registry.discover())
        info, gm_token, _ = await enc.create(
            {"name": "Replay bench", "ruleset": "freeform", "public": public}, "gm"
        )
        gm = Principal("gm", info.id)
        for n, cid in enumerate(COMBATANTS):
            await enc.execute(
                info.id,
                gm,
                {
                    "type": "add_combatant",
                    "combatant": {
                        "id": cid,
                        "name": cid.title(),
                        "side": "red" if n % 2 else "blue",
                        "position": [n, 0],
                        "stats": {"st": 12, "dx": 11},
                        "items": [{"id": f"{cid}-sword", "name": "sword"}],
                    },
                },
            )
        seq = (await store.stream_info(info.id)).seq
        turn, batch_no = 0, 0
        while seq < total:
            new = []
            for i in range(seq, min(total, seq + 2000)):
                if i % 50 == 0:
                    turn += 1
                    new.append(to_new_event(TurnStarted(turn)))
                else:
                    new.append(to_new_event(event_number(i, turn)))
            batch_no += 1
            await store.append(Append(info.id, seq, f"bench-{batch_no}", f"bench-{batch_no}", "gm", new))
            seq += len(new)
        return info.id
    finally:
        await store.close()


async def time_server(path: str, stream: str) -> tuple[float, float, int]:
    """(seconds to rebuild the state as the server does, of which reading, events)."""
    store = SqliteStore(path, lock=False)
    await store.open()
    try:
        enc = Encounters(store, Registry.discover())
        t0 = time.perf_counter()
        state = await enc.state(stream)
        elapsed = time.perf_counter() - t0
        t0 = time.perf_counter()
        events = await store.read(stream)
        reading = time.perf_counter() - t0
        assert state["seq"] == len(events)
        assert replay(events, enc._ruleset_for_event) == state  # noqa: SLF001 - the same fold, checked
        return elapsed, reading, len(events)
    finally:
        await store.close()


def time_ceiling(path: str, stream: str, collector_paused: bool = False) -> tuple[float, int]:
    """Seconds for a raw sqlite3 read of the same rows and a msgspec decode of each row's data
    (optionally with the garbage collector paused, as the server pauses it: events/gc_pause.py)."""
    decode = msgspec.json.decode
    db = sqlite3.connect(path)
    try:
        t0 = time.perf_counter()
        rows = db.execute(
            "SELECT stream, seq, type, data, actor, command_id, ts, prev_hash, hash FROM events "
            "WHERE stream = ? AND seq >= ? ORDER BY seq",
            (stream, 1),
        ).fetchall()
        if collector_paused:
            with gc_paused():
                decoded = [decode(r[3]) for r in rows]
        else:
            decoded = [decode(r[3]) for r in rows]
        elapsed = time.perf_counter() - t0
        del decoded
        return elapsed, len(rows)
    finally:
        db.close()


@contextlib.contextmanager
def big_encounter(description: str, name: str) -> Iterator[tuple[argparse.Namespace, str, str]]:
    """The arguments of a bench over this script's encounter (--events, --runs, --db-dir) and the
    encounter, built in a temporary database: (args, the database's path, the encounter's id). The
    database is removed afterwards."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("--events", type=int, default=100_000, help="events in the encounter (100,000)")
    p.add_argument("--runs", type=int, default=5, help="runs of each measurement; the best is shown (5)")
    p.add_argument("--db-dir", default=None, help="where the temporary database goes (default: a temp dir)")
    args = p.parse_args()
    workdir = tempfile.mkdtemp(prefix=f"tussle-{name}-", dir=args.db_dir)
    path = os.path.join(workdir, f"{name}.db")
    try:
        t0 = time.perf_counter()
        stream = asyncio.run(build(path, args.events))
        print(
            f"built a {args.events:,}-event freeform encounter in {time.perf_counter() - t0:.1f} s; "
            f"{os.cpu_count()} CPUs, Python {sys.version.split()[0]}"
        )
        yield args, path, stream
    finally:
        shutil.rmtree(workdir, ignore_errors=True)


def main() -> None:
    with big_encounter(__doc__.split("\n\n")[0], "replay") as (args, path, stream):
        server_runs, ceiling_runs, paused_runs = [], [], []
        for _ in range(args.runs):  # interleaved, so that all three see the same machine
            server_runs.append(asyncio.run(time_server(path, stream)))
            ceiling_runs.append(time_ceiling(path, stream))
            paused_runs.append(time_ceiling(path, stream, collector_paused=True))
    # Best of the runs (as timeit does): on a shared machine the slow runs measure the neighbours.
    n = server_runs[0][2]
    server_s, reading_s, _ = min(server_runs)
    ceiling_s = min(r[0] for r in ceiling_runs)
    paused_s = min(r[0] for r in paused_runs)
    print(
        f"tussle replay (Encounters.state)    {n / server_s:>10,.0f} events/s  {server_s * 1000:8.1f} ms "
        f"(reading and decoding {reading_s * 1000:.1f} ms, folding about {(server_s - reading_s) * 1000:.1f} ms)"
    )
    print(f"raw sqlite3 + msgspec (ceiling)     {n / ceiling_s:>10,.0f} events/s  {ceiling_s * 1000:8.1f} ms")
    print(f"  the same, collector paused        {n / paused_s:>10,.0f} events/s  {paused_s * 1000:8.1f} ms")
    print(
        f"ratio: {ceiling_s / server_s:.3f} of the ceiling (target >= 0.5); "
        f"{paused_s / server_s:.3f} of the collector-paused ceiling"
    )
    print(f"best of {args.runs} runs; load average {' '.join(f'{x:.2f}' for x in os.getloadavg())}")


if __name__ == "__main__":
    main()
