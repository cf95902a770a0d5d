"""Discord's side of the interactions endpoint, for the tests: an application key pair, and requests
signed exactly as Discord signs them (Ed25519 over X-Signature-Timestamp + the raw body, hex in
X-Signature-Ed25519), each interaction with a fresh snowflake id and token."""

from __future__ import annotations

import contextlib
import itertools
import json
import secrets
import time
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
from cryptography.hazmat.primitives.asymmetric.ed25519 import Ed25519PrivateKey

from tests.support.client import PgServer, RunningServer, TussleClient
from tests.support.receivers import DiscordApiReceiver, discord_answer_problems

APPLICATION_ID = "1100000000000000001"
ALICE, GM_USER = "7000000000000000011", "7000000000000000099"
_snowflakes = itertools.count(1300000000000000000)


class DiscordSide:
    def __init__(self, session: aiohttp.ClientSession, url: str):
        self.key = Ed25519PrivateKey.generate()
        self.session = session
        self.url = url  # the server's base URL
        self.sent: list[dict[str, Any]] = []  # every interaction sent, as Discord made it

    @property
    def public_key(self) -> str:
        return self.key.public_key().public_bytes_raw().hex()

    def signed(
        self, body: bytes, timestamp: str | None = None, key: Ed25519PrivateKey | None = None
    ) -> dict[str, str]:
        ts = timestamp or str(int(time.time()))
        sig = (key or self.key).sign(ts.encode() + body).hex()
        return {"X-Signature-Ed25519": sig, "X-Signature-Timestamp": ts, "Content-Type": "application/json"}

    async def post(self, body: bytes, headers: dict[str, str]) -> tuple[int, Any]:
        async with self.session.post(self.url + "/discord/interactions", data=body, headers=headers) as r:
            text = await r.text()
            return r.status, json.loads(text) if text else None

    def interaction(
        self, kind: int, data: dict[str, Any], user: str, channel: str = "5550001"
    ) -> dict[str, Any]:
        return {
            "id": str(next(_snowflakes)),
            "application_id": APPLICATION_ID,
            "type": kind,
            "token": "aW50ZXJhY3Rpb24" + secrets.token_urlsafe(48),
            "version": 1,
            "guild_id": "4440001",
            "channel_id": channel,
            "member": {
                "user": {"id": user, "username": f"user{user[-2:]}", "global_name": f"Player {user[-2:]}"}
            },
            "data": data,
        }

    async def send(self, interaction: dict[str, Any]) -> tuple[int, Any]:
        self.sent.append(interaction)
        body = json.dumps(interaction, separators=(",", ":")).encode()
        return await self.post(body, self.signed(body))

    async def command(
        self, sub: str, user: str, channel: str = "5550001", **options: Any
    ) -> tuple[dict[str, Any], int, Any]:
        data = {
            "id": "1200000000000000001",
            "name": "tussle",
            "type": 1,
            "options": [
                {
                    "type": 1,
                    "name": sub,
                    "options": [{"name": k, "type": 3, "value": v} for k, v in options.items()],
                }
            ],
        }
        i = self.interaction(2, data, user, channel)
        status, answer = await self.send(i)
        return i, status, answer

    async def click(
        self, custom_id: str, user: str, values: list[str] | None = None, channel: str = "5550001"
    ) -> tuple[dict[str, Any], int, Any]:
        data: dict[str, Any] = {"custom_id": custom_id, "component_type": 3 if values else 2}
        if values:
            data["values"] = values
        i = self.interaction(3, data, user, channel)
        status, answer = await self.send(i)
        return i, status, answer


class Table:
    def __init__(self, side: DiscordSide, api: DiscordApiReceiver, tussle: TussleClient, srv: RunningServer):
        self.side, self.api, self.tussle, self.srv = side, api, tussle, srv
        self.answers: list[Any] = []

    async def command(self, sub: str, user: str = ALICE, **options: Any) -> tuple[dict[str, Any], Any]:
        i, status, answer = await self.side.command(sub, user, **options)
        assert status == 200, answer
        self.answers.append(answer)
        assert discord_answer_problems(answer) == []
        if answer["type"] == 5:  # deferred: done once its answer reached Discord
            await self.api.until(lambda: self.api.to_webhook(i["token"]), "the deferred answer")
        return i, answer

    async def bind_and_link(self, enc: Any, seat: str, user: str = ALICE) -> None:
        """The channel bound to `enc` by the GM's code, and `user` linked to `seat` by the seat's."""
        bind = (await self.tussle.request("POST", enc.path + "/discord/codes", {}, token=enc.gm_token)).body
        await self.command("bind", GM_USER, code=bind["code"])
        link = (await self.tussle.request("POST", enc.path + "/discord/codes", {}, token=seat)).body
        await self.command("link", user, code=link["code"])

    async def click(
        self, custom_id: str, user: str = ALICE, values: list[str] | None = None
    ) -> tuple[dict[str, Any], Any]:
        i, status, answer = await self.side.click(custom_id, user, values)
        assert status == 200, answer
        assert discord_answer_problems(answer) == []
        return i, answer


@contextlib.asynccontextmanager
async def discord_table(
    db_path: str, api: DiscordApiReceiver | None = None, pg_dsn: str | None = None, **settings: Any
) -> AsyncIterator[Table]:
    """A live server (over the SQLite file, or PostgreSQL at `pg_dsn`) whose Discord API is a local
    receiver, and Discord's side of its endpoint; every edit and follow-up the receiver got is within
    Discord's limits when it ends."""
    api = api or DiscordApiReceiver()
    await api.start()
    async with aiohttp.ClientSession() as session:
        side = DiscordSide(session, "")
        settings = {
            "discord_public_key": side.public_key,
            "discord_application_id": APPLICATION_ID,
            "discord_api_base": api.base,
            **settings,
        }
        srv = await (PgServer(pg_dsn, **settings) if pg_dsn else RunningServer(db_path, **settings)).start()
        side.url = srv.base_url
        try:
            yield Table(side, api, TussleClient(srv.base_url, session, srv.db_path), srv)
        finally:
            await srv.stop()
            await api.stop()
    assert api.problems == []
