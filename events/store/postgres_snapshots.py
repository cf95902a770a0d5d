"""Snapshots in PostgreSQL (the port: events/store/snapshots.py). Several processes may save the same
snapshot: the same state, so the last write wins."""

from __future__ import annotations

from typing import Any

from events.store.snapshots import SNAPSHOT_COLUMNS, SnapshotRow, SnapshotStore


def _row(r: Any) -> SnapshotRow:
    return SnapshotRow(*r.values())


class PostgresSnapshots(SnapshotStore):
    _pool: Any

    async def save_snapshots(self, rows: list[SnapshotRow]) -> None:
        if rows:
            await self._pool.executemany(
                f"INSERT INTO snapshots ({SNAPSHOT_COLUMNS}) VALUES ($1, $2, $3, $4, $5, $6, $7, $8) "
                "ON CONFLICT (stream, seq) DO UPDATE SET turn = EXCLUDED.turn, hash = EXCLUDED.hash, "
                "ruleset = EXCLUDED.ruleset, ruleset_version = EXCLUDED.ruleset_version, "
                "state_version = EXCLUDED.state_version, data = EXCLUDED.data",
                [
                    (r.stream, r.seq, r.turn, r.hash, r.ruleset, r.ruleset_version, r.state_version, r.data)
                    for r in rows
                ],
            )

    async def nearest_snapshot(self, stream: str, at_most: int | None = None) -> SnapshotRow | None:
        r = await self._pool.fetchrow(
            f"SELECT {SNAPSHOT_COLUMNS} FROM snapshots WHERE stream = $1 AND seq <= $2 "
            "ORDER BY seq DESC LIMIT 1",
            stream,
            at_most if at_most is not None else 2**62,
        )
        return _row(r) if r is not None else None

    async def drop_snapshots(self, stream: str) -> None:
        await self._pool.execute("DELETE FROM snapshots WHERE stream = $1", stream)

    async def turn_bounds(self, stream: str, turn: int) -> tuple[int, int | None]:
        r = await self._pool.fetchrow(
            "SELECT (SELECT max(seq) FROM snapshots WHERE stream = $1 AND turn < $2) AS before, "
            "(SELECT min(seq) FROM snapshots WHERE stream = $1 AND turn > $2) AS after",
            stream,
            turn,
        )
        return r["before"] or 0, r["after"]
