"""The client of Discord's API: the interaction's webhook (edit the first answer, follow up) and the
application's commands, at a base URL that is a setting (tests point it at a local receiver).

A 429 is honoured: the request waits the `retry_after` Discord's body gives (or its Retry-After header)
and is sent again, up to `TRIES` times. An interaction's token lasts 15 minutes: a follow-up later than
that is refused by Discord, and the command it tells of stays in the stream all the same.
"""

from __future__ import annotations

import asyncio
from typing import Any

import aiohttp

DEFAULT_API = "https://discord.com/api/v10"
TRIES = 5
LONGEST_WAIT_S = 30.0  # a retry_after longer than this is Discord saying "not now": give up instead
TIMEOUT_S = 10.0


class DiscordApiError(Exception):
    pass


class DiscordApi:
    def __init__(self, base_url: str, application_id: str, session: aiohttp.ClientSession | None = None):
        self.base_url = base_url.rstrip("/")
        self.application_id = application_id
        self._session = session

    async def session(self) -> aiohttp.ClientSession:
        if self._session is None or self._session.closed:
            self._session = aiohttp.ClientSession(timeout=aiohttp.ClientTimeout(total=TIMEOUT_S))
        return self._session

    async def close(self) -> None:
        if self._session is not None:
            await self._session.close()

    async def send(self, method: str, path: str, body: Any, headers: dict[str, str] | None = None) -> Any:
        """One request to the API, sent again after each 429's retry_after; its JSON answer (or None)."""
        session = await self.session()
        for _ in range(TRIES):
            async with session.request(method, self.base_url + path, json=body, headers=headers) as r:
                text = await r.text()
                if r.status == 429:
                    await asyncio.sleep(_retry_after(r.headers, text))
                    continue
                if r.status >= 300:
                    raise DiscordApiError(
                        f"Discord answered {method} {path.split('/')[1]} with {r.status}: {text[:200]}"
                    )
                return _json(text)
        raise DiscordApiError(f"Discord kept answering 429 to {method} {path.split('/')[1]}")

    def _hook(self, token: str) -> str:
        return f"/webhooks/{self.application_id}/{token}"

    async def edit_original(self, token: str, message: dict[str, Any]) -> Any:
        """Replace the interaction's first answer (after a deferral: the answer itself)."""
        return await self.send("PATCH", self._hook(token) + "/messages/@original", message)

    async def follow_up(self, token: str, message: dict[str, Any]) -> Any:
        """A further message of the interaction (in its channel; ephemeral with flags 64)."""
        return await self.send("POST", self._hook(token), message)

    async def overwrite_commands(self, bot_token: str, commands: list[dict[str, Any]]) -> Any:
        """Bulk-overwrite the application's global commands."""
        return await self.send(
            "PUT",
            f"/applications/{self.application_id}/commands",
            commands,
            {"Authorization": f"Bot {bot_token}"},
        )


def _json(text: str) -> Any:
    import json

    try:
        return json.loads(text) if text else None
    except ValueError:
        return None


def _retry_after(headers: Any, text: str) -> float:
    body = _json(text)
    wait = body.get("retry_after") if isinstance(body, dict) else None
    if not isinstance(wait, (int, float)):
        try:
            wait = float(headers.get("Retry-After", "1"))
        except ValueError:
            wait = 1.0
    if wait > LONGEST_WAIT_S:
        raise DiscordApiError(f"Discord asks to wait {wait:g} s")
    return max(0.0, float(wait))
