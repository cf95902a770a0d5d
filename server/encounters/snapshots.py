"""Loading an encounter's state from its nearest snapshot and the events after it (issue 19 item 3).

A snapshot (events/store/snapshots.py) holds what a replay up to its seq computes: the state, the
commitments published so far (GET /encounters/{id} lists them) and when each reaction still pending
was asked (its deadline). So a cold load, or the state as of `?at=N`, reads at most about
`every` events instead of the whole stream.

A snapshot at seq S stands for `replay(events, at=S)`, which skips only what voids up to S void. A
later void naming a seq <= S makes it wrong for any state past that void: the load then starts from
a snapshot before the earliest seq such voids name (or from the start). A snapshot is discarded
when its ruleset's version or the fold's version (`rules.state.FOLD_VERSION`) is not the running
code's, or when its hash is not the stored event's at its seq; the replay that follows saves new ones.

Whole-stream work here runs in pieces of at most FOLD_PIECE events, yielding to the event loop between
them, so a long replay never holds the loop for long.
"""

from __future__ import annotations

import asyncio
from typing import Any

import msgspec

from events.envelope import Event
from events.store.port import EventStore
from events.store.snapshots import SnapshotRow, SnapshotStore
from rules.state import FOLD_VERSION, fold_onto, initial_state, voided_seqs
from server.encounters.survived import SNAPSHOT_SAVE, Survived

# A snapshot every this many events: a cold load reads at most this many (and one row).
SNAPSHOT_EVERY = 1000

# Events read from the store in one page, between yields to the loop (decoding one takes a few µs).
READ_PAGE = 250

# Events folded between yields to the loop.
FOLD_PIECE = 250


class Loaded(msgspec.Struct):
    """What a replay (from a snapshot or the start) computes of an encounter."""

    state: dict[str, Any]
    commitments: list[str]  # every commitment published, in order
    asked: dict[str, str]  # pending reaction id -> ts of its ReactionRequested
    skipped: list[int] = []  # the seqs that voids up to this state's seq void (what replay skips)


def note(loaded: Loaded, e: Event) -> None:
    """Track the commitments and the pending reactions' asking times through one event."""
    if e.type in ("EncounterCreated", "DiceSeedRotated"):
        if e.data.get("commitment"):
            loaded.commitments.append(e.data["commitment"])
    elif e.type == "ReactionRequested":
        loaded.asked[e.data["id"]] = e.ts
    elif e.type in ("ReactionAnswered", "ReactionCancelled"):
        loaded.asked.pop(e.data["id"], None)
    elif e.type == "EventVoided":
        loaded.skipped = sorted({*loaded.skipped, *e.data["seqs"]})


async def read_range(store: EventStore, stream: str, first: int, last: int | None) -> list[Event]:
    """Events first..last (to the head when None), page by page, yielding to the loop between pages."""
    out: list[Event] = []
    seq = first
    while last is None or seq <= last:
        n = READ_PAGE if last is None else min(READ_PAGE, last - seq + 1)
        page = await store.read(stream, seq, n)
        out += page
        if len(page) < n:
            break
        seq = page[-1].seq + 1
        await asyncio.sleep(0)
    return out


class Snapshots:
    """Saves and uses an encounter's snapshots for the encounter service."""

    def __init__(
        self,
        store: SnapshotStore,
        events: EventStore,
        registry: Any,
        every: int = SNAPSHOT_EVERY,
        writes: bool = True,
        survived: Survived | None = None,
    ):
        self.store = store
        self.events = events  # the stream read past a snapshot
        self.survived = survived or Survived()
        self.writes = writes  # False for a reader beside the server (tussle export): it only reads them
        self.registry = registry
        self.every = every
        self.saving: set[asyncio.Task[None]] = set()

    def current(self, row: SnapshotRow) -> bool:
        """Made by the running code: the same ruleset version and fold version."""
        ruleset = self.registry.get(row.ruleset)
        return (
            ruleset is not None
            and ruleset.version == row.ruleset_version
            and row.state_version == FOLD_VERSION
        )

    def row(self, loaded: Loaded) -> SnapshotRow:
        s = loaded.state
        ruleset = self.registry.get(s["ruleset"])
        data = msgspec.json.encode(loaded)
        return SnapshotRow(
            s["stream"],
            s["seq"],
            s["turn"],
            s["hash"],
            s["ruleset"],
            ruleset.version if ruleset is not None else "",
            FOLD_VERSION,
            data,
        )

    @staticmethod
    def restore(row: SnapshotRow) -> Loaded:
        return msgspec.json.decode(row.data, type=Loaded)

    def due(self, before_seq: int, state: dict[str, Any]) -> bool:
        """Whether a state that moved from `before_seq` to its seq has crossed a snapshot point."""
        return state["seq"] // self.every > before_seq // self.every and state["stream"] is not None

    def save_later(self, rows: list[SnapshotRow]) -> None:
        """Save in the background: a snapshot is a cache, and a command does not wait for it."""
        task = asyncio.ensure_future(self._save(rows))
        self.saving.add(task)
        task.add_done_callback(self.saving.discard)

    async def _save(self, rows: list[SnapshotRow]) -> None:
        try:
            await self.store.save_snapshots(rows)
        except Exception as exc:  # noqa: BLE001 - a snapshot not saved is made again by a later replay
            self.survived.record(SNAPSHOT_SAVE, exc, rows[0].stream if rows else None)

    async def settled(self) -> None:
        """Wait for the background saves (tests, shutdown)."""
        while self.saving:
            await asyncio.gather(*list(self.saving), return_exceptions=True)

    async def load(self, stream: str, at: int | None = None, skip: set[int] | None = None) -> Loaded | None:
        """The encounter as of seq `at` (the head when None), or None when it has no events.

        `skip`: fold skipping these seqs instead of what the voids up to `at` void (the log of a longer
        range reads its first events skipping what later voids void too)."""
        row = await self.store.nearest_snapshot(stream, at)
        while True:
            if row is not None and not self.current(row):
                await self._drop(stream)
                row = None
            tail = await read_range(self.events, stream, row.seq if row is not None else 1, at)
            if row is None:
                if not tail:
                    return None
                loaded = Loaded(initial_state(), [], {})
                skipping = skip if skip is not None else voided_seqs(tail, at)
                break
            if not tail or tail[0].seq != row.seq or tail[0].hash != row.hash:
                await self._drop(stream)  # not this chain's: the stream was rewritten
                row = None
                continue
            tail = tail[1:]
            loaded = self.restore(row)
            skipping = skip if skip is not None else set(loaded.skipped) | voided_seqs(tail, at)
            # The snapshot skipped what the voids up to its seq void; a later void (or `skip`) may
            # want more skipped before it: then start from a snapshot before the first such seq.
            wrong = {v for v in skipping if v <= row.seq} ^ set(loaded.skipped)
            if not wrong:
                break
            row = await self.store.nearest_snapshot(stream, min(wrong) - 1)
        rows = await self.fold(loaded, tail, at, row.seq if row is not None else 0, skipping)
        if rows and self.writes:
            await self.store.save_snapshots(rows)
        return loaded

    async def fold(
        self, loaded: Loaded, tail: list[Event], at: int | None, start: int, skipping: set[int]
    ) -> list[SnapshotRow]:
        """Fold `tail` onto `loaded`, skipping `skipping`, in pieces ending at snapshot points, yielding
        between them; the snapshots to save at the points past `start` where the fold skipped exactly
        what a replay up to that point skips."""
        ruleset_for = self._ruleset_for
        rows: list[SnapshotRow] = []
        piece: list[Event] = []
        for e in tail:
            piece.append(e)
            note(loaded, e)
            if e.seq % self.every and e is not tail[-1] and len(piece) < FOLD_PIECE:
                continue
            state = loaded.state
            loaded.state = fold_onto(
                state,
                self.registry.get(state["ruleset"]) if state["ruleset"] else None,
                piece,
                ruleset_for,
                skipping,
                at,
            )
            piece = []
            seq = loaded.state["seq"]
            if (
                seq % self.every == 0
                and seq > start
                and {v for v in skipping if v <= seq} == set(loaded.skipped)
            ):
                rows.append(self.row(loaded))
            await asyncio.sleep(0)
        return rows

    async def _drop(self, stream: str) -> None:
        if self.writes:
            await self.store.drop_snapshots(stream)

    def _ruleset_for(self, e: Event) -> Any:
        return self.registry.get(e.data["ruleset"])
