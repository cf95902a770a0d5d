"""Verify benchmark: GET /verify's whole check of a 100,000-event encounter against its incremental one.

    python bench/verify.py                  # 100,000 events, best of 5 runs
    python bench/verify.py --events 20000 --runs 3

Builds the freeform encounter of bench/replay.py in a temporary SQLite file, opens it as the server
does and makes /verify's report the way its route does (server/audit/whole_stream.py `verified`: the
worker process reads and checks, and keeps the checkpoint): first the whole check (`?full=1`), then,
after 10 more events appended through the server's own store handle (a `note` each), the check resumed
from the checkpoint the last one left. It prints both times, their ratio and the ceiling of the
incremental check: the whole check's cost per event times 10, measured in the same run. And the split
of the incremental check, in this process: resuming over the new events, and making the report, which
states the whole verdict and so lists every problem however old (bench/replay.py's rolls are not keyed
as the server keys them: each fails the draw check, some 38,000 problems at 100,000 events).
"""

from __future__ import annotations

import asyncio
import os
import sys
import time

import msgspec

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from bench.replay import big_encounter  # noqa: E402
from events.store.sqlite import SqliteStore, SqliteStreamReader  # noqa: E402
from rules.registry import Registry  # noqa: E402
from server.audit.verified_prefixes import VerifiedPrefixes  # noqa: E402
from server.audit.whole_stream import verified, verify_report  # noqa: E402
from server.encounters.service import Encounters  # noqa: E402
from server.encounters.tokens import Principal  # noqa: E402

APPENDED = 10


async def check(
    store: SqliteStore, prefixes: VerifiedPrefixes, stream: str, full: bool
) -> tuple[float, bytes]:
    """Seconds for one /verify report as the route makes it, and the report."""
    info = await store.stream_info(stream)
    assert info is not None
    t0 = time.perf_counter()
    marker = await store.external_writes_marker()  # the route reads it first, on the writer connection
    body = await verified(store, prefixes, marker, full, stream, (info.seq, info.hash), [])
    return time.perf_counter() - t0, body


async def measure(path: str, stream: str, runs: int) -> dict[str, list[float]]:
    store = SqliteStore(path)
    await store.open()
    try:
        enc = Encounters(store, Registry.discover())
        gm = Principal("gm", stream)
        prefixes = VerifiedPrefixes()  # the app's: the worker keeps the checkpoints under its name
        await check(store, prefixes, stream, True)  # starts the worker, as a server's first report does
        times: dict[str, list[float]] = {"full": [], "incremental": [], "events": [], "problems": []}
        for _ in range(runs):  # interleaved, so that both see the same machine
            full_s, body = await check(store, prefixes, stream, True)
            report = msgspec.json.decode(body)
            assert report["checked"] == "full"
            for i in range(APPENDED):
                await enc.execute(stream, gm, {"type": "note", "text": f"bench note {i}"})
            resumed_s, body = await check(store, prefixes, stream, False)
            resumed = msgspec.json.decode(body)
            assert resumed["checked"] == "incremental" and resumed["from_seq"] == report["head"]["seq"] + 1
            assert resumed["events_checked"] == report["events_checked"] + APPENDED
            times["full"].append(full_s)
            times["incremental"].append(resumed_s)
            times["events"].append(float(report["events_checked"]))
            times["problems"].append(float(len(resumed["problems"])))
        times.update(split(store.whole_stream_reader(), stream, runs))
        return times
    finally:
        await store.close()


def split(read: SqliteStreamReader, stream: str, runs: int) -> dict[str, list[float]]:
    """The incremental check's own parts, in this process: resuming over the new events, and making the
    report of the whole verdict (it lists every problem, however old)."""
    times: dict[str, list[float]] = {"resume": [], "report": []}
    events = read(stream, 0)
    for _ in range(runs):
        _, checkpoint = verify_report(
            events[:-APPENDED], (events[-APPENDED - 1].seq, events[-APPENDED - 1].hash)
        )
        t0 = time.perf_counter()
        checkpoint.resume(events[-APPENDED:])
        t1 = time.perf_counter()
        checkpoint.report([], [])
        times["resume"].append(t1 - t0)
        times["report"].append(time.perf_counter() - t1)
    return times


def main() -> None:
    with big_encounter(__doc__.split("\n\n")[0], "verify") as (args, path, stream):
        times = asyncio.run(measure(path, stream, args.runs))
    # Best of the runs (as timeit does): on a shared machine the slow runs measure the neighbours.
    full_s, resumed_s = min(times["full"]), min(times["incremental"])
    n = int(max(times["events"]))
    ceiling_s = full_s / n * APPENDED
    print(
        f"whole check ({n:,} events)            {full_s * 1000:9.1f} ms  ({full_s / n * 1e6:.1f} µs an event)"
    )
    print(f"incremental check ({APPENDED} new events)     {resumed_s * 1000:9.1f} ms")
    print(
        f"ratio: the incremental check takes {resumed_s / full_s:.4f} of the whole check ({full_s / resumed_s:,.0f}x faster)"
    )
    print(
        f"ceiling: {APPENDED} events at the whole check's cost per event, {ceiling_s * 1000:.2f} ms; the incremental "
        f"check takes {resumed_s / ceiling_s:.1f}x that (its fixed costs: the marker read, the worker round "
        "trip, the read of the new rows and the report)"
    )
    print(
        f"  of which resuming over the {APPENDED} new events {min(times['resume']) * 1000:.2f} ms, making the report "
        f"of the whole verdict ({int(max(times['problems'])):,} problems listed) {min(times['report']) * 1000:.1f} ms"
    )


if __name__ == "__main__":
    main()
