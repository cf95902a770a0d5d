"""The port of what the Discord interactions keep (server/discord/binding.py): one-time codes, the
channels bound to encounters and the Discord users linked to seats, each a row under a unique key.

A row belongs to one encounter (`stream`), so deleting the encounter deletes it. Nothing here is a
token: a link holds the hash of the seat token it was made under, checked live at each use, so rotating
or revoking that token ends the link with it.
"""

from __future__ import annotations

import abc

import msgspec

DISCORD_COLUMNS = "key, stream, kind, data, expires"


class DiscordRow(msgspec.Struct, frozen=True):
    key: str  # code:<sha256 of the code> | channel:<channel id> | link:<stream>:<user id>
    stream: str
    kind: str  # bind_code | link_code | channel | link
    data: str  # JSON of the row's fields
    expires: float | None = None  # unix time after which a code is worth nothing


class DiscordStore(abc.ABC):
    @abc.abstractmethod
    async def discord_row(self, key: str) -> DiscordRow | None:
        """The row under `key`, if any (expired codes included: the caller judges)."""

    @abc.abstractmethod
    async def put_discord_row(self, row: DiscordRow) -> None:
        """Write the row, replacing any under its key."""

    @abc.abstractmethod
    async def take_discord_row(self, key: str) -> DiscordRow | None:
        """Delete the row under `key` and return it: of two takers of one code, one gets it."""

    @abc.abstractmethod
    async def discord_rows(self, stream: str, kind: str) -> list[DiscordRow]:
        """One encounter's rows of a kind, by key."""
