"""Snapshots in SQLite (the port: events/store/snapshots.py)."""

from __future__ import annotations

import sqlite3
from typing import Any

from events.store.snapshots import SNAPSHOT_COLUMNS, SnapshotRow, SnapshotStore


def _row(r: Any) -> SnapshotRow:
    return SnapshotRow(r[0], r[1], r[2], r[3], r[4], r[5], r[6], bytes(r[7]))


class SqliteSnapshots(SnapshotStore):
    """Reads on the store's reading connection; writes in short transactions taking turns with appends."""

    _rows: Any
    _write_transaction: Any

    async def save_snapshots(self, rows: list[SnapshotRow]) -> None:
        if rows:
            await self._write_transaction(self._save_snapshots, rows)

    @staticmethod
    def _save_snapshots(db: sqlite3.Connection, rows: list[SnapshotRow]) -> None:
        db.executemany(
            f"INSERT OR REPLACE INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
            [
                (r.stream, r.seq, r.turn, r.hash, r.ruleset, r.ruleset_version, r.state_version, r.data)
                for r in rows
            ],
        )

    async def nearest_snapshot(self, stream: str, at_most: int | None = None) -> SnapshotRow | None:
        rows = await self._rows(
            f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE stream = ? AND seq <= ? "
            "ORDER BY seq DESC LIMIT 1",
            (stream, at_most if at_most is not None else 2**62),
        )
        return _row(rows[0]) if rows else None

    async def drop_snapshots(self, stream: str) -> None:
        await self._write_transaction(
            lambda db: db.execute("DELETE FROM snapshots WHERE stream = ?", (stream,))
        )

    async def turn_bounds(self, stream: str, turn: int) -> tuple[int, int | None]:
        before = await self._rows(
            "SELECT max(seq) FROM snapshots WHERE stream = ? AND turn < ?", (stream, turn)
        )
        after = await self._rows(
            "SELECT min(seq) FROM snapshots WHERE stream = ? AND turn > ?", (stream, turn)
        )
        return before[0][0] or 0, after[0][0]
