"""A thin real-HTTP client for tests: a live server on a free port, a real SQLite file."""

from __future__ import annotations

import contextlib
import socket
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import aiohttp
from aiohttp import web

from events.store.sqlite import SqliteStore
from rules.registry import Registry
from server.app import make_app


def free_port() -> int:
    """A port free now. Prefer binding port 0 (`listen`): another process may take this one before it is bound."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


async def listen(runner: web.AppRunner, port: int = 0) -> int:
    """Serve the set-up `runner` on 127.0.0.1 at `port`, or at one the system picks, and return the port."""
    await web.TCPSite(runner, "127.0.0.1", port).start()
    return runner.addresses[-1][1]


@dataclass
class Resp:
    status: int
    body: Any
    headers: Any = None


class Encounter:
    """One encounter seen through the API, acting as its GM unless a token is given."""

    def __init__(self, client: TussleClient, created: dict[str, Any]):
        self.client = client
        self.created = created
        self.id: str = created["id"]
        self.gm_token: str = created["gm_token"]

    @property
    def path(self) -> str:
        return f"/encounters/{self.id}"

    async def command(self, type: str, *, token: str | None = None, **fields: Any) -> Resp:
        """POST a command; as the GM unless `token` is given."""
        return await self.client.request(
            "POST", f"{self.path}/commands", {"type": type, **fields}, token=token or self.gm_token
        )

    async def ok(self, type: str, **fields: Any) -> dict[str, Any]:
        """A command that must succeed (201); its response body."""
        r = await self.command(type, **fields)
        assert r.status in (200, 201), (type, r.status, r.body)
        return r.body

    async def add(self, combatant: dict[str, Any], token: str | None = None) -> Resp:
        r = await self.command("add_combatant", token=token, combatant=combatant)
        assert r.status == 201, r.body
        return r

    async def seat(self, name: str, combatants: list[str]) -> str:
        r = await self.client.request(
            "POST", f"{self.path}/seats", {"name": name, "combatants": combatants}, token=self.gm_token
        )
        assert r.status == 201, r.body
        return r.body["token"]

    async def seat_full(self, name: str, combatants: list[str]) -> dict[str, Any]:
        r = await self.client.request(
            "POST", f"{self.path}/seats", {"name": name, "combatants": combatants}, token=self.gm_token
        )
        assert r.status == 201, r.body
        return r.body

    async def state(self, at: int | None = None, token: str | None = None) -> dict[str, Any]:
        q = f"?at={at}" if at is not None else ""
        r = await self.client.request("GET", f"{self.path}/state{q}", token=token or self.gm_token)
        assert r.status == 200, r.body
        return r.body

    async def events(self, token: str | None = None) -> list[dict[str, Any]]:
        out: list[dict[str, Any]] = []
        start = 1
        while True:
            r = await self.client.request(
                "GET", f"{self.path}/events?from={start}&limit=10000", token=token or self.gm_token
            )
            assert r.status == 200, r.body
            out += r.body["events"]
            if not r.body["events"] or out[-1]["seq"] >= r.body["head"]["seq"]:
                return out
            start = r.body["next_from"]

    async def get(self, suffix: str = "", token: str | None = None) -> Resp:
        return await self.client.request("GET", f"{self.path}{suffix}", token=token or self.gm_token)

    async def replay_matches_live(self) -> None:
        """Assert that replaying the stored stream gives the live state."""
        live = await self.state()
        replayed = await self.state(at=live["seq"])
        assert replayed == live


class TussleClient:
    """The test's view of one running server."""

    def __init__(self, base_url: str, session: aiohttp.ClientSession, db_path: str):
        self.base_url = base_url
        self.session = session
        self.db_path = db_path

    async def request(
        self,
        method: str,
        path: str,
        body: Any = None,
        *,
        token: str | None = None,
        headers: dict[str, str] | None = None,
        raw: bytes | None = None,
    ) -> Resp:
        h = dict(headers or {})
        if token:
            h["Authorization"] = f"Bearer {token}"
        kwargs: dict[str, Any] = {"headers": h}
        if raw is not None:
            kwargs["data"] = raw
        elif body is not None:
            kwargs["json"] = body
        async with self.session.request(method, self.base_url + path, **kwargs) as r:
            text = await r.text()
            try:
                import json

                data = json.loads(text) if text else None
            except ValueError:
                data = text
            return Resp(r.status, data, r.headers)

    async def create(
        self,
        ruleset: str = "freeform",
        *,
        options: dict[str, Any] | None = None,
        dice: str = "server",
        name: str = "Test fight",
        public: bool = False,
        token: str | None = None,
        **extra: Any,
    ) -> Encounter:
        body = {"name": name, "ruleset": ruleset, "dice": dice, "public": public, **extra}
        if options is not None:
            body["options"] = options
        r = await self.request("POST", "/encounters", body, token=token)
        assert r.status == 201, r.body
        return Encounter(self, r.body)


class RunningServer:
    """The real aiohttp app on a real TCP port over a real SQLite file."""

    def __init__(self, db_path: str, registry: Registry | None = None, **settings: Any):
        self.db_path = db_path
        self.registry = registry  # the installed rulesets unless a test brings its own
        self.settings = settings
        self.port = 0  # picked on the first start; a restart keeps it
        self.runner: web.AppRunner | None = None
        self.app: web.Application | None = None

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def make_app(self) -> web.Application:
        return make_app(SqliteStore(self.db_path), self.registry or Registry.discover(), **self.settings)

    async def start(self) -> RunningServer:
        self.app = self.make_app()
        self.runner = web.AppRunner(self.app, access_log=None)
        try:
            await self.runner.setup()
            self.port = await listen(self.runner, self.port)
        except BaseException:
            with contextlib.suppress(Exception):
                await self.stop()  # nothing of a failed start outlives it
            raise
        return self

    async def stop(self) -> None:
        if self.runner:
            await self.runner.cleanup()
            self.runner = None


class PgServer(RunningServer):
    """The same server over a PostgreSQL schema, its feed listener attached as `tussle serve --pg` does."""

    def __init__(self, dsn: str, **settings: Any):
        super().__init__("", **settings)
        self.dsn = dsn

    def make_app(self) -> web.Application:
        from events.store.postgres import PostgresStore

        store = PostgresStore(self.dsn)
        app = make_app(store, Registry.discover(), **self.settings)
        return app


@contextlib.asynccontextmanager
async def serving(db_path: str, **settings: Any) -> AsyncIterator[TussleClient]:
    """A running server with these `make_app` settings and a client of it, for a test's own fixture."""
    srv = await RunningServer(db_path, **settings).start()
    try:
        async with aiohttp.ClientSession() as session:
            yield TussleClient(srv.base_url, session, srv.db_path)
    finally:
        await srv.stop()
