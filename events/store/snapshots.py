"""Snapshots: an encounter's folded state saved every so many events, in a table of their own.

A snapshot is a cache, never part of the chain: it can be deleted at any time and is made again by
the next replay. Each row is tagged with what made its state — the ruleset and its version, and the
engine's fold version — and names the chain hash at its seq; a reader discards a row whose tag is
not the running code's, or whose hash is not the stored event's (server/encounters/snapshots.py).
The table is the migration "snapshots" (events/store/migrations.py).
"""

from __future__ import annotations

import abc

import msgspec


class SnapshotRow(msgspec.Struct, frozen=True):
    """The folded state of `stream` as of `seq` (the JSON `data`), with what it was made by."""

    stream: str
    seq: int
    turn: int  # the state's turn at seq: turn excerpts find their range of seqs by it
    hash: str  # the chain hash of event `seq`
    ruleset: str
    ruleset_version: str
    state_version: int
    data: bytes


SNAPSHOT_COLUMNS = "stream, seq, turn, hash, ruleset, ruleset_version, state_version, data"


class SnapshotStore(abc.ABC):
    """What a store keeps of snapshots (both backends)."""

    @abc.abstractmethod
    async def save_snapshots(self, rows: list[SnapshotRow]) -> None:
        """Store the rows, replacing any of the same (stream, seq)."""

    @abc.abstractmethod
    async def nearest_snapshot(self, stream: str, at_most: int | None = None) -> SnapshotRow | None:
        """The stream's snapshot with the highest seq <= at_most (any seq when None)."""

    @abc.abstractmethod
    async def drop_snapshots(self, stream: str) -> None:
        """Forget every snapshot of the stream (they are made again by the next replay)."""

    @abc.abstractmethod
    async def turn_bounds(self, stream: str, turn: int) -> tuple[int, int | None]:
        """Seqs that bracket a turn by the snapshots: (the seq of the last snapshot before the turn,
        or 0; the seq of the first snapshot after it, or None). The turn's events lie between."""
