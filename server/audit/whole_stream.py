"""Reports over a whole stream (`/verify`, `/audit`) made in a worker process (issue 19 item 1).

Hashing and checking 100,000 events takes the better part of a second of pure Python; on the event
loop that is a second in which no other encounter's command is answered, and a thread would still
hold the GIL. So the reports are made by one worker process, which reads the stream itself (a SQLite
file through a read-only connection, PostgreSQL through a connection of its own to the store's
schema): only the stream id goes there and only the report's JSON comes back, and that is written to
the client in pieces, each awaited (handing a whole 10 MB body to the transport at once held the loop
for 30 ms). A store of another kind has its report made here, from pages read with yields between.
"""

from __future__ import annotations

import asyncio
import atexit
import concurrent.futures
import contextlib
import functools
import multiprocessing
import os
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

import msgspec
from aiohttp import web

from events.envelope import Event
from events.store.port import WholeStreamReads
from projections.audit import audit
from rules.registry import Registry
from server.audit.replaying import replay_stream
from server.audit.verified_prefixes import VerifiedPrefixes, past_checkpoint
from server.audit.verifying import Checkpoint, Problem, commitment_problems, known_head_problems
from server.encounters.snapshots import read_range

# Bytes of a report written to the client between awaits.
WRITTEN_BETWEEN_YIELDS = 256 * 1024


def verify_report(
    events: list[Event],
    head: tuple[int, str],
    kept: list[tuple[int, str, str]] | None = None,
    commitment: str | None = None,
    replay: bool = False,
    discord_keys: list[str] | None = None,
    resumed: Checkpoint | None = None,
) -> tuple[dict[str, Any], Checkpoint]:
    """GET /verify's report and the checkpoint it leaves: the stream's checks, the listing's head (a tail
    cut below it is named at the first missing seq), what the client kept (`?head=`, `?commitment=`) and,
    with `?replay=1`, every declared command decided again by the installed rulesets (as `tussle verify
    --replay` would here). `resumed`: the checkpoint of an earlier report, `events` then being only those
    after it (its verified prefix is not read again: a kept head must then be its head or after it)."""
    checkpoint = resumed if resumed is not None else Checkpoint(discord_keys)
    hashes = {checkpoint.seq: checkpoint.hash} if checkpoint.seq else {}
    from_seq = checkpoint.seq + 1
    checkpoint.resume(events)
    hashes.update((e.seq, e.hash) for e in events)
    extra: list[Problem] = []
    heads = list(kept or [])
    seq, hash_ = head
    last = checkpoint.seq
    if seq < last:
        extra.append(
            Problem(
                "head",
                f"the encounter's listing names head seq {seq}, but the stream goes on to seq {last}",
                seq + 1,
            )
        )
    else:
        heads.append((seq, hash_, "the encounter's listing"))
    after = [p for s, h, whose in heads for p in known_head_problems(hashes, last, s, h, whose)]
    if commitment is not None:
        after += commitment_problems(checkpoint.created_commitment, commitment)
    replayed = replay_stream(events, _installed()) if replay else None
    if replayed is not None:
        after += [Problem("replay", d.message, d.seq) for d in replayed.differences]
    report = checkpoint.report(extra, after, replayed.summary() if replayed is not None else None)
    report["checked"] = "incremental" if resumed is not None else "full"
    report["from_seq"] = from_seq
    return report, checkpoint


@functools.cache
def _installed() -> Registry:
    """The installed rulesets, found once per process (the worker cannot be handed the app's)."""
    return Registry.discover()


def audit_report(events: list[Event]) -> dict[str, Any]:
    """GET /audit's report: every roll, the commitments, the one in force and the revealed seeds."""
    report = audit(events)
    in_force = [c["commitment"] for c in report["commitments"] if c["revealed_seed"] is None]
    report["commitment_in_force"] = in_force[-1] if in_force else None
    report["revealed_seeds"] = {
        c["commitment"]: c["revealed_seed"] for c in report["commitments"] if c["revealed_seed"] is not None
    }
    return report


def _in_worker(read: Callable[[str, int], list[Event]], stream: str) -> bytes:
    """The `audit` report as JSON: encoded there, so the loop only passes the bytes on (an audit of
    100,000 events lists every roll: decoding it back into objects here would hold the loop again)."""
    return msgspec.json.encode(audit_report(read(stream, 0)))


def _verified_in_worker(
    read: Callable[[str, int], list[Event]],
    owner: str,
    stream: str,
    marker: int | None,
    full: bool,
    args: tuple[Any, ...],
) -> bytes:
    """The `verify` report as JSON, resumed from the checkpoint this worker kept of the stream: it stays
    here, where the next check runs (pickled to the server and back, the checkpoint of a 100,000-event
    encounter would cost more than checking a few new events)."""
    head, kept, commitment, replay, discord_keys = args
    prefixes = _prefixes_of((read, owner))
    resumed = prefixes.resumable(stream, marker, full, head[0], kept, discord_keys)
    resumed, after, kept = past_checkpoint(
        resumed, read(stream, resumed.seq - 1 if resumed and resumed.seq else 0), kept
    )
    events = after if after is not None else read(stream, 0)
    report, checkpoint = verify_report(events, head, kept, commitment, replay, discord_keys, resumed)
    prefixes.keep(stream, checkpoint, marker)
    return msgspec.json.encode(report)


# In the worker: the verified prefixes of each app of its server process, by (database reader, owner).
_by_source: OrderedDict[Any, VerifiedPrefixes] = OrderedDict()

# How many apps' verified prefixes the worker keeps (a server has one; a test run starts many).
SOURCES_KEPT = 4


def _prefixes_of(source: Any) -> VerifiedPrefixes:
    prefixes = _by_source.pop(source, None) or VerifiedPrefixes()
    _by_source[source] = prefixes
    while len(_by_source) > SOURCES_KEPT:
        _by_source.popitem(last=False)
    return prefixes


_pool: concurrent.futures.ProcessPoolExecutor | None = None

# How much lower the worker's CPU priority is than the server's (nice(2) steps).
WORKER_NICENESS = 10


# How often the worker looks whether the server that started it is still there (seconds).
PARENT_CHECK_S = 0.5


def _behind_the_server() -> None:
    """The worker's reports wait for a core behind the server's commands: on a machine with few cores
    a 100,000-event audit would otherwise take one from the event loop for seconds. And the worker ends
    with the server, however the server ends (kill -9 runs no atexit): an orphan kept ~50 MB and, holding
    its pipe, multiprocessing's resource tracker too (issue 33 item 6)."""
    with contextlib.suppress(OSError):
        os.nice(WORKER_NICENESS)
    parent = os.getppid()

    def watch() -> None:
        while os.getppid() == parent:  # a dead parent's children are handed to init (or a subreaper)
            time.sleep(PARENT_CHECK_S)
        os._exit(0)

    threading.Thread(target=watch, name="tussle-parent-watch", daemon=True).start()


def _worker() -> concurrent.futures.ProcessPoolExecutor:
    """The one worker process, started on first use and shared by every app of this process."""
    global _pool
    if _pool is None:
        # spawn, not fork: the server has threads (the writer, aiosqlite) a fork would copy mid-step.
        _pool = concurrent.futures.ProcessPoolExecutor(
            1, mp_context=multiprocessing.get_context("spawn"), initializer=_behind_the_server
        )
        atexit.register(_pool.shutdown, wait=False, cancel_futures=True)
    return _pool


async def report(store: WholeStreamReads, stream: str) -> bytes:
    """The `audit` report of the stream as JSON, off the event loop where the store allows."""
    source = store.whole_stream_reader()
    if source is not None:
        return await _off_the_loop(_in_worker, source, stream)
    return msgspec.json.encode(audit_report(await read_range(store, stream, 1, None)))


async def verified(
    store: WholeStreamReads,
    prefixes: VerifiedPrefixes,
    marker: int | None,
    full: bool,
    stream: str,
    head: tuple[int, str],
    kept: Any = None,
    commitment: str | None = None,
    replay: bool = False,
    discord_keys: list[str] | None = None,
) -> bytes:
    """The `verify` report of the stream as JSON, off the event loop where the store allows: of only the
    events after the last check's, unless `full` (server/audit/verified_prefixes.py). `marker`: the
    store's external writes marker, read now; `prefixes`: where the checkpoints are kept when the report
    is made here (the worker keeps those of the reports it makes)."""
    source = store.whole_stream_reader()
    if source is not None:
        args = (head, kept, commitment, replay, discord_keys)
        body: bytes = await _off_the_loop(
            _verified_in_worker, source, prefixes.owner, stream, marker, full, args
        )
        return body
    resumed = prefixes.resumable(stream, marker, full, head[0], kept, discord_keys)
    resumed, after, kept = past_checkpoint(
        resumed, await read_range(store, stream, max(resumed.seq, 1) if resumed else 1, None), kept
    )
    events = after if after is not None else await read_range(store, stream, 1, None)
    report, checkpoint = verify_report(events, head, kept, commitment, replay, discord_keys, resumed)
    prefixes.keep(stream, checkpoint, marker)
    return msgspec.json.encode(report)


async def _off_the_loop(fn: Callable[..., Any], *args: Any) -> Any:
    loop = asyncio.get_running_loop()
    try:
        return await loop.run_in_executor(_worker(), fn, *args)
    except concurrent.futures.BrokenExecutor:
        global _pool
        _pool = None  # the worker died (killed, out of memory): the next report starts another
        raise


async def write_report(request: web.Request, body: bytes) -> web.StreamResponse:
    """Answer 200 with a report's JSON, WRITTEN_BETWEEN_YIELDS bytes at a time."""
    resp = web.StreamResponse(headers={"Content-Type": "application/json"})
    resp.content_length = len(body)
    await resp.prepare(request)
    view = memoryview(body)
    for start in range(0, len(body), WRITTEN_BETWEEN_YIELDS):
        await resp.write(view[start : start + WRITTEN_BETWEEN_YIELDS])
        await asyncio.sleep(0)
    await resp.write_eof()
    return resp
