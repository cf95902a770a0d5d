"""Real webhook receivers for the tests: aiohttp servers on 127.0.0.1, port 0.

A receiver records every request it gets (`requests`) and processes each delivery id once
(`processed`, in arrival order), as a receiver that deduplicates on `webhook-id` does. What it answers
is `answer(n)` for its n-th request (from 0): 204 by default; a test swaps in failures, a 429, or a
hang (an `asyncio.Event` to wait on).
"""

from __future__ import annotations

import asyncio
import json
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from aiohttp import web

# How long a test waits for deliveries that should come: only how long a broken build takes to fail.
EVENTUALLY_S = 30.0


@dataclass
class Received:
    id: str
    headers: dict[str, str]
    body: bytes
    at: float

    @property
    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Answer:
    status: int = 204
    headers: dict[str, str] = field(default_factory=dict)
    hang: asyncio.Event | None = None  # wait for this before answering


class Receiver:
    METHOD = "POST"  # the requests it takes, on any path

    def __init__(self, answer: Callable[[int], Answer] | None = None):
        self.answer = answer or (lambda n: Answer())
        self.requests: list[Received] = []
        self.processed: list[Received] = []  # each delivery id once, in the order first acknowledged
        self._seen: set[str] = set()
        self._runner: web.AppRunner | None = None
        self.port = 0
        self.path = "/hook/s3cr3t-path?token=q5"  # a URL whose path and query are secrets, as Discord's are

    @property
    def url(self) -> str:
        return f"http://127.0.0.1:{self.port}{self.path}"

    async def _handle(self, request: web.Request) -> web.Response:
        body = await request.read()
        got = Received(request.headers.get("webhook-id", ""), dict(request.headers), body, time.time())
        n = len(self.requests)
        self.requests.append(got)
        answer = self.answer(n)
        if answer.hang is not None:
            await answer.hang.wait()
        if 200 <= answer.status < 300 and got.id not in self._seen:
            self._seen.add(got.id)
            self.processed.append(got)
        return web.Response(
            status=answer.status, headers=answer.headers, text="nope" if answer.status >= 300 else ""
        )

    async def start(self, port: int = 0) -> Receiver:
        app = web.Application()
        app.router.add_route(self.METHOD, "/{tail:.*}", self._handle)
        self._runner = web.AppRunner(app, access_log=None, shutdown_timeout=0.1)
        await self._runner.setup()
        await web.TCPSite(self._runner, "127.0.0.1", port or self.port).start()
        self.port = self._runner.addresses[-1][1]
        return self

    async def stop(self) -> None:
        if self._runner is not None:
            await self._runner.cleanup()
            self._runner = None

    async def until(self, check: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + EVENTUALLY_S
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"no {what} within {EVENTUALLY_S:g} s; got {len(self.requests)} requests: "
                    f"{[r.id for r in self.requests][-20:]}"
                )
            await asyncio.sleep(0.02)

    async def until_processed(self, n: int) -> list[Received]:
        await self.until(lambda: len(self.processed) >= n, f"{n} deliveries")
        return self.processed

    def of_type(self, kind: str) -> list[Any]:
        return [r.json for r in self.processed if r.json.get("type") == kind]


# ---- Discord's API, as an interactions endpoint's follow-ups reach it --------------------------------

# Discord's documented limits of a message and its components (developer docs: Message, Components).
DISCORD_CONTENT = 2000
DISCORD_ROWS = 5
DISCORD_BUTTONS_A_ROW = 5
DISCORD_OPTIONS = 25
DISCORD_LABEL = 80
DISCORD_OPTION_TEXT = 100
DISCORD_CUSTOM_ID = 100
DISCORD_PLACEHOLDER = 150


def discord_message_problems(m: Any) -> list[str]:
    """What Discord would refuse in a message body (an interaction's answer data, a follow-up, an edit)."""
    if not isinstance(m, dict):
        return [f"a message is an object, not {m!r}"]
    out = []
    content = m.get("content") or ""
    if len(content) > DISCORD_CONTENT:
        out.append(f"content of {len(content)} characters (at most {DISCORD_CONTENT})")
    if "flags" in m and m["flags"] & ~(64 | 4):
        out.append(f"flags {m['flags']} (only EPHEMERAL and SUPPRESS_EMBEDS may be set)")
    rows = m.get("components") or []
    if len(rows) > DISCORD_ROWS:
        out.append(f"{len(rows)} action rows (at most {DISCORD_ROWS})")
    ids: list[str] = []
    for row in rows:
        if row.get("type") != 1:
            out.append("a top-level component that is not an action row")
            continue
        parts = row.get("components") or []
        selects = [c for c in parts if c.get("type") == 3]
        if not parts:
            out.append("an empty action row")
        if selects and len(parts) > 1:
            out.append("a select menu shares its action row")
        if len(parts) > DISCORD_BUTTONS_A_ROW:
            out.append(f"{len(parts)} buttons in a row (at most {DISCORD_BUTTONS_A_ROW})")
        for c in parts:
            cid = c.get("custom_id") or ""
            ids.append(cid)
            if not 1 <= len(cid) <= DISCORD_CUSTOM_ID:
                out.append(f"custom_id {cid!r} of {len(cid)} characters (1 to {DISCORD_CUSTOM_ID})")
            if c.get("type") == 2 and len(c.get("label") or "") > DISCORD_LABEL:
                out.append(f"button label of {len(c['label'])} characters (at most {DISCORD_LABEL})")
            if c.get("type") == 3:
                opts = c.get("options") or []
                if not 1 <= len(opts) <= DISCORD_OPTIONS:
                    out.append(f"a select menu of {len(opts)} options (1 to {DISCORD_OPTIONS})")
                if len(c.get("placeholder") or "") > DISCORD_PLACEHOLDER:
                    out.append("a placeholder over 150 characters")
                for o in opts:
                    if (
                        not 1 <= len(o.get("label") or "") <= DISCORD_OPTION_TEXT
                        or not 1 <= len(o.get("value") or "") <= DISCORD_OPTION_TEXT
                    ):
                        out.append(f"option {o!r}: label and value are 1 to {DISCORD_OPTION_TEXT} characters")
    if len(ids) != len(set(ids)):
        out.append(f"custom_ids repeat within a message: {ids}")
    return out


def discord_answer_problems(answer: Any) -> list[str]:
    """What Discord would refuse in an interaction's answer (the endpoint's HTTP response body)."""
    if not isinstance(answer, dict) or answer.get("type") not in (1, 4, 5, 6, 7):
        return [
            f"an interaction answer of type {answer.get('type') if isinstance(answer, dict) else answer!r}"
        ]
    if answer["type"] in (4, 7):
        return discord_message_problems(answer.get("data"))
    return []


@dataclass
class DiscordCall:
    method: str
    path: str
    body: Any
    at: float


class DiscordApiReceiver(Receiver):
    """Stands in for Discord's API at a local base URL: records the interaction webhooks' edits and
    follow-ups and the command registrations, checks each message against Discord's limits
    (`problems`), and answers 429 with `retry_after` to the requests `limited(n)` names."""

    METHOD = "*"

    def __init__(self, limited: Callable[[int], float | None] | None = None):
        super().__init__()
        self.calls: list[DiscordCall] = []
        self.problems: list[str] = []
        self.limited = limited or (lambda n: None)
        self._n = 0

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}/api/v10"

    async def _handle(self, request: web.Request) -> web.Response:
        n, self._n = self._n, self._n + 1
        wait = self.limited(n)
        if wait is not None:
            return web.json_response(
                {"message": "You are being rate limited.", "retry_after": wait, "global": False}, status=429
            )
        raw = await request.read()
        body = json.loads(raw) if raw else None
        path = request.path.removeprefix("/api/v10")
        self.calls.append(DiscordCall(request.method, path, body, time.monotonic()))
        if path.startswith("/webhooks/"):
            self.problems += [f"{request.method} {path}: {p}" for p in discord_message_problems(body)]
            return web.json_response({"id": str(n), **(body or {})})
        if path.startswith("/applications/") and request.method == "PUT":
            if request.headers.get("Authorization", "").split(" ")[0] != "Bot":
                return web.json_response({"message": "401: Unauthorized"}, status=401)
            return web.json_response([{**c, "id": str(i)} for i, c in enumerate(body)])
        return web.json_response({"message": "404: Not Found"}, status=404)

    def to_webhook(self, token: str) -> list[DiscordCall]:
        return [c for c in self.calls if c.path.startswith("/webhooks/") and c.path.split("/")[3] == token]

    async def until(self, check: Callable[[], bool], what: str) -> None:
        deadline = time.monotonic() + EVENTUALLY_S
        while not check():
            if time.monotonic() > deadline:
                raise AssertionError(
                    f"no {what} within {EVENTUALLY_S:g} s; got {[(c.method, c.path) for c in self.calls]}"
                )
            await asyncio.sleep(0.02)
