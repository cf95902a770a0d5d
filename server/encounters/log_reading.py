"""The narrative log of a range of seqs, reading only that range (issue 19 item 2).

A page of `GET /log` (`from`, `limit`) or a turn excerpt (`turn=`) starts from the state just
before its first seq, loaded from the nearest snapshot (server/encounters/snapshots.py) skipping what every void
up to the log's end voids, exactly as `projections.log.build_log` over the whole stream would; then
it describes the range's events, yielding to the loop between pieces. A void in the range that
names an event before it has that event's sentence made from the state before it, as the whole log
would have it.
"""

from __future__ import annotations

import asyncio
from typing import Any

from events.envelope import Event
from projections.audit import commitment_timeline
from projections.log import NarrativeLog, sentence
from rules.state import initial_state
from server.encounters.service_errors import NotFound
from server.encounters.snapshots import READ_PAGE, Loaded, read_range

# Events of a log page when `limit` is not given (as for /events).
DEFAULT_LIMIT = 1000

# Events described between yields to the event loop (a few milliseconds of describing).
DESCRIBED_BETWEEN_YIELDS = 100


class LogRange:
    """The log's entries for seqs first..last, and what a forum export of them needs."""

    def __init__(
        self, end: Loaded, log: NarrativeLog, events: list[Event], first: int, last: int, earlier: list[str]
    ):
        self.end = end  # the encounter as of the log's end (`at`)
        self.earlier = earlier  # the commitments published before `first`
        self.log = log
        self.events = events
        self.first = first
        self.last = last


async def log_range(enc: Any, stream: str, first: int, last: int, at: int) -> LogRange:
    """Entries of seqs first..last (last <= at) of the log as of `at`."""
    snapshots = enc.snapshots
    end = await snapshots.load(stream, at)
    if end is None:
        raise NotFound(f"there is no encounter {stream!r}")
    skip = set(end.skipped)
    log = NarrativeLog(lambda e: enc.registry.get(e.data["ruleset"]), skip)
    earlier: list[str] = []
    if first > 1:
        before = await snapshots.load(stream, first - 1, skip)
        log.state = before.state
        log.ruleset = enc.registry.get(before.state["ruleset"]) if before.state["ruleset"] else None
        earlier = before.commitments
    events = await read_range(enc.store, stream, first, last)
    for e in events:
        if e.type == "EventVoided":
            for target in e.data["seqs"]:
                if target < first and target not in log.voided_texts:
                    log.voided_texts[target] = await _sentence_of(enc, stream, target, skip)
    for n, e in enumerate(events, start=1):
        log.apply(e)
        if n % DESCRIBED_BETWEEN_YIELDS == 0:
            await asyncio.sleep(0)
    return LogRange(end, log, events, first, last, earlier)


async def whole_log(enc: Any, stream: str, at: int) -> NarrativeLog:
    """The whole log as of `at` (the websocket's `log` snapshot), read and described page by page: only
    the entries are kept, never the whole stream's events, whose hundreds of thousands of objects made
    each pass of the cyclic garbage collector hold the loop 50-130 ms."""
    end = await enc.snapshots.load(stream, at)
    if end is None:
        raise NotFound(f"there is no encounter {stream!r}")
    log = NarrativeLog(lambda e: enc.registry.get(e.data["ruleset"]), set(end.skipped))
    seq = 1
    while seq <= at:
        page = await enc.store.read(stream, seq, min(READ_PAGE, at - seq + 1))
        for n, e in enumerate(page, start=1):
            log.apply(e)
            if n % DESCRIBED_BETWEEN_YIELDS == 0:
                await asyncio.sleep(0)
        if not page:
            break
        seq = page[-1].seq + 1
        await asyncio.sleep(0)
    return log


async def _sentence_of(enc: Any, stream: str, seq: int, skip: set[int]) -> str:
    """An earlier event's sentence, described against the state before it."""
    (event,) = await enc.store.read(stream, seq, 1)
    state = (await enc.snapshots.load(stream, seq - 1, skip)).state if seq > 1 else initial_state()
    ruleset = enc.registry.get(state["ruleset"]) if state["ruleset"] else None
    return sentence(ruleset, state, event, {})


async def turn_range(enc: Any, stream: str, turn: int, at: int) -> tuple[int, int]:
    """The seqs first..last that hold the turn's events as of `at`, by the snapshots' turns; empty
    (at + 1, at) when the turn begins after `at` (a snapshot of an earlier turn lies at or after it)."""
    await enc.snapshots.load(stream, at)  # saves the snapshots a stream without them lacks
    before, after = await enc.store.turn_bounds(stream, turn)
    return min(before, at) + 1, min(after, at) if after is not None else at


def timeline(r: LogRange, revealed: dict[str, str]) -> list[dict[str, Any]]:
    """`commitment_timeline` of the stream up to the range's end, from the range's events and the
    commitments published before it (all but the last of them replaced, so revealed, before it)."""
    earlier = r.earlier
    out = [
        {
            "commitment": c,
            "published_at_seq": 0,
            "replaced_at_seq": 0,
            "revealed_seed": revealed.get(c),
            "revealed_at_seq": 0,
            "seed_matches": None,
        }
        for c in earlier[:-1]
    ]
    if not earlier:
        return commitment_timeline(r.events)
    # The one in force when the range starts, as if published just before it.
    current = Event(
        r.end.state["stream"], 0, "EncounterCreated", {"commitment": earlier[-1]}, "", "", "", "", ""
    )
    return out + commitment_timeline([current, *r.events])
