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
        app.router.add_post("/{tail:.*}", self._handle)
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
