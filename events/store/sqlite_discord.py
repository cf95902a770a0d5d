"""The Discord rows in SQLite (the port: events/store/discord_rows.py; the migration "discord")."""

from __future__ import annotations

import sqlite3
from typing import Any

from events.store.discord_rows import DISCORD_COLUMNS, DiscordRow, DiscordStore


class SqliteDiscord(DiscordStore):
    _rows: Any
    _write_transaction: Any

    async def discord_row(self, key: str) -> DiscordRow | None:
        rows = await self._rows(f"SELECT {DISCORD_COLUMNS} FROM discord WHERE key = ?", (key,))
        return DiscordRow(*rows[0]) if rows else None

    async def put_discord_row(self, row: DiscordRow) -> None:
        await self._write_transaction(
            lambda db: db.execute(
                f"INSERT OR REPLACE INTO discord ({DISCORD_COLUMNS}) VALUES (?, ?, ?, ?, ?)",
                (row.key, row.stream, row.kind, row.data, row.expires),
            )
        )

    async def take_discord_row(self, key: str) -> DiscordRow | None:
        def take(db: sqlite3.Connection) -> DiscordRow | None:
            found = db.execute(
                f"DELETE FROM discord WHERE key = ? RETURNING {DISCORD_COLUMNS}", (key,)
            ).fetchall()
            return DiscordRow(*found[0]) if found else None

        return await self._write_transaction(take)

    async def discord_rows(self, stream: str, kind: str) -> list[DiscordRow]:
        rows = await self._rows(
            f"SELECT {DISCORD_COLUMNS} FROM discord WHERE stream = ? AND kind = ? ORDER BY key",
            (stream, kind),
        )
        return [DiscordRow(*r) for r in rows]
