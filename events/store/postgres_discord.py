"""The Discord rows in PostgreSQL (the port: events/store/discord_rows.py; the migration "discord")."""

from __future__ import annotations

from typing import Any

from events.store.discord_rows import DISCORD_COLUMNS, DiscordRow, DiscordStore


class PostgresDiscord(DiscordStore):
    _pool: Any

    async def discord_row(self, key: str) -> DiscordRow | None:
        r = await self._pool.fetchrow(f"SELECT {DISCORD_COLUMNS} FROM discord WHERE key = $1", key)
        return DiscordRow(*r.values()) if r is not None else None

    async def put_discord_row(self, row: DiscordRow) -> None:
        await self._pool.execute(
            f"INSERT INTO discord ({DISCORD_COLUMNS}) VALUES ($1, $2, $3, $4, $5) ON CONFLICT (key) DO UPDATE "
            "SET stream = EXCLUDED.stream, kind = EXCLUDED.kind, data = EXCLUDED.data, expires = EXCLUDED.expires",
            row.key,
            row.stream,
            row.kind,
            row.data,
            row.expires,
        )

    async def take_discord_row(self, key: str) -> DiscordRow | None:
        r = await self._pool.fetchrow(f"DELETE FROM discord WHERE key = $1 RETURNING {DISCORD_COLUMNS}", key)
        return DiscordRow(*r.values()) if r is not None else None

    async def discord_rows(self, stream: str, kind: str) -> list[DiscordRow]:
        rows = await self._pool.fetch(
            f'SELECT {DISCORD_COLUMNS} FROM discord WHERE stream = $1 AND kind = $2 ORDER BY key COLLATE "C"',
            stream,
            kind,
        )
        return [DiscordRow(*r.values()) for r in rows]
