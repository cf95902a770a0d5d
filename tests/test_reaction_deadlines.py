"""Reaction deadlines live in the store: a default answer lands after a restart, a void, a killed owner.

Real `tussle serve` processes (SQLite file and PostgreSQL alike), a real client. "Touch nothing" means
no request names the encounter while we wait: the test watches the database itself for the answer,
since any read would load the encounter into the server and hide the bug this guards against.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import signal
import sqlite3
import time
from collections.abc import AsyncIterator, Callable
from typing import Any

import aiohttp
import asyncpg
import pytest

from tests.support.client import Encounter, TussleClient
from tests.support.serving import ServeProcess

# Generous bounds for "eventually": they only decide how long a broken build takes to fail.
EVENTUALLY_S = 30.0
ENTROPY = "deadline-test-entropy-0123"


class Db:
    """Where the servers keep their data, and a plain SQL look at it."""

    def __init__(self, kind: str, where: str):
        self.kind, self.where = kind, where

    def serve(self) -> ServeProcess:
        proc = ServeProcess("--db" if self.kind == "sqlite" else "--pg", self.where)
        assert proc.port is not None, proc.stderr
        return proc

    async def rows(self, sql: str) -> list[tuple[Any, ...]]:
        if self.kind == "sqlite":
            con = sqlite3.connect(self.where, isolation_level=None)
            try:
                return con.execute(sql).fetchall()
            finally:
                con.close()
        conn = await asyncpg.connect(self.where)
        try:
            return [tuple(r) for r in await conn.fetch(sql)]
        finally:
            await conn.close()

    async def answers(self) -> list[dict[str, Any]]:
        rows = await self.rows("SELECT actor, data FROM events WHERE type = 'ReactionAnswered' ORDER BY seq")
        return [{"actor": actor, **json.loads(data)} for actor, data in rows]

    async def deadlines(self) -> list[str]:
        return [r[0] for r in await self.rows("SELECT reaction FROM reaction_deadlines ORDER BY reaction")]

    async def until_answered(self, reaction: str) -> list[dict[str, Any]]:
        deadline = time.monotonic() + EVENTUALLY_S
        while True:
            found = [a for a in await self.answers() if a["id"] == reaction]
            if found:
                return found
            assert time.monotonic() < deadline, f"nobody answered {reaction} by default"
            await asyncio.sleep(0.1)


@pytest.fixture(params=["sqlite", "postgres"])
def db(request: pytest.FixtureRequest, tmp_path: Any) -> Db:
    if request.param == "sqlite":
        return Db("sqlite", str(tmp_path / "deadlines.db"))
    return Db("postgres", request.getfixturevalue("pg_schema_dsn"))


@pytest.fixture
async def connect() -> AsyncIterator[Callable[[ServeProcess], TussleClient]]:
    async with aiohttp.ClientSession() as session:
        yield lambda proc: TussleClient(proc.url, session, "")


async def asked(enc: Encounter, default: str = "dodge") -> str:
    """The GM asks the hero a question; its reaction id."""
    body = await enc.ok(
        "ask",
        combatant="hero",
        kind="dodge_or_parry",
        options=["dodge", "parry"],
        default=default,
        entropy=ENTROPY,
    )
    return body["events"][-1]["data"]["id"]


async def duel(client: TussleClient, timeout_s: int) -> Encounter:
    enc = await client.create("freeform", options={"reaction_timeout_s": timeout_s})
    await enc.add({"id": "hero", "name": "Hero", "side": "a"})
    return enc


@contextlib.asynccontextmanager
async def served_duel(
    db: Db, connect: Callable[[ServeProcess], TussleClient], timeout_s: int
) -> AsyncIterator[Encounter]:
    """A duel on a `tussle serve` process of its own, stopped when the test is done with it."""
    proc = db.serve()
    try:
        yield await duel(connect(proc), timeout_s)
    finally:
        proc.stop()


def kill(proc: ServeProcess) -> None:
    proc.stop(signal.SIGKILL)


async def test_after_a_restart_the_default_lands_with_nobody_touching_the_encounter(db, connect):
    first = db.serve()
    try:
        enc = await duel(connect(first), timeout_s=2)
        rid = await asked(enc)
    finally:
        kill(first)  # at once, long before the deadline: nothing of it can answer
    assert await db.answers() == [] and await db.deadlines() == [rid]
    second = db.serve()
    try:
        (answer,) = await db.until_answered(rid)
        assert answer["actor"] == "system" and answer["choice"] == "dodge"
        enc = Encounter(connect(second), enc.created)
        assert (await enc.state())["pending"] == []
        assert (await enc.get("/verify")).body["ok"]
        assert await db.deadlines() == [], "the answer cleared its deadline"
    finally:
        second.stop()


async def test_a_void_of_another_event_keeps_the_deadline(db, connect):
    async with served_duel(db, connect, timeout_s=1) as enc:
        note = await enc.ok("note", text="The crowd roars.")
        rid = await asked(enc)
        await enc.ok("void", seq=note["seq"], reason="nobody roared")  # the void replays the encounter
        (answer,) = await db.until_answered(rid)
        assert answer["actor"] == "system"
        assert (await enc.state())["pending"] == []


async def test_voiding_the_question_clears_its_deadline_and_no_default_lands(db, connect):
    async with served_duel(db, connect, timeout_s=1) as enc:
        voided = await asked(enc)
        r = await enc.ok("void", target_command_id=voided.split("/")[0], reason="asked by mistake")
        assert r["events"][0]["type"] == "EventVoided"
        assert await db.deadlines() == [], "the void's transaction deleted the deadline"
        assert (await enc.state())["pending"] == []
        # A later question is answered by default when due: by then the voided one would have been too.
        later = await asked(enc, default="parry")
        await db.until_answered(later)
        assert [a["id"] for a in await db.answers()] == [later]


async def test_an_answer_in_time_clears_the_deadline(db, connect):
    async with served_duel(db, connect, timeout_s=3600) as enc:
        rid = await asked(enc)
        assert await db.deadlines() == [rid]
        await enc.ok("respond", reaction=rid, choice="parry")
        assert await db.deadlines() == []


async def test_two_pg_processes_the_owner_killed_the_other_answers_once(pg_schema_dsn, connect):
    db = Db("postgres", pg_schema_dsn)
    owner, other = db.serve(), db.serve()
    try:
        enc = await duel(connect(owner), timeout_s=2)
        rid = await asked(enc)
        kill(owner)
        assert await db.answers() == []
        (answer,) = await db.until_answered(rid)
        assert answer["actor"] == "system"
        enc = Encounter(connect(other), enc.created)
        assert (await enc.state())["pending"] == [] and (await enc.get("/verify")).body["ok"]
    finally:
        kill(owner)
        other.stop()


async def test_two_live_pg_processes_answer_a_deadline_once(pg_schema_dsn, connect):
    db = Db("postgres", pg_schema_dsn)
    procs = [db.serve(), db.serve()]
    try:
        enc = await duel(connect(procs[0]), timeout_s=1)
        first = await asked(enc)
        await db.until_answered(first)
        # Both processes poll the same deadline; a second question lets the slower poller catch up.
        second = await asked(enc, default="parry")
        await db.until_answered(second)
        assert [a["id"] for a in await db.answers()] == [first, second], "each default landed exactly once"
    finally:
        for p in procs:
            p.stop()
