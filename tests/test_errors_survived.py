"""No error vanishes (issue 26 item 6): each place that survives an error logs it with structlog (event,
encounter, exception) and counts it in /metrics; each test makes that place fail for real (a table taken
away under the running server, a ruleset whose `acting_now` raises, a webhook given up on after the
encounter closed) and looks for both. And the background tasks have ended when the app has."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import msgspec
import pytest
from structlog.testing import capture_logs

from rules.freeform import Freeform
from rules.registry import Registry
from server.encounters.survived import ACTING_NOTICES, REACTION_SWEEP, SNAPSHOT_SAVE, WEBHOOK_DISABLE
from server.settings import WebhookSettings
from tests.support.client import RunningServer, TussleClient
from tests.support.receivers import Answer, Receiver

WAIT_S = 30.0  # only how long a broken build takes to fail


def count_in(metrics: str, where: str) -> int:
    prefix = f'tussle_errors_survived_total{{where="{where}"}} '
    (line,) = [x for x in metrics.splitlines() if x.startswith(prefix)]
    return int(line.removeprefix(prefix))


@pytest.fixture
async def started() -> AsyncIterator[list[Any]]:
    made: list[Any] = []
    yield made
    for thing in reversed(made):
        await thing.stop()


async def client_of(made: list[Any], srv: RunningServer) -> TussleClient:
    await srv.start()
    made.append(srv)
    session = aiohttp.ClientSession()

    class Closing:
        async def stop(self) -> None:
            await session.close()

    made.append(Closing())
    return TussleClient(srv.base_url, session, srv.db_path)


async def counted(client: TussleClient, where: str) -> int:
    """GET /metrics until it counts an error survived at `where` (it shows 0 before)."""
    deadline = asyncio.get_running_loop().time() + WAIT_S
    while True:
        n = count_in((await client.request("GET", "/metrics")).body, where)
        if n > 0 or asyncio.get_running_loop().time() > deadline:
            assert n > 0, f"/metrics counts no {where}"
            return n
        await asyncio.sleep(0.05)


def logged(logs: list[dict[str, Any]], event: str) -> dict[str, Any]:
    found = [e for e in logs if e["event"] == event]
    assert found, [e["event"] for e in logs]
    assert found[0]["log_level"] == "error" and found[0]["exc_info"] is not None
    return found[0]


def take_table(db: str, table: str) -> None:
    """Rename a table under the running server (its next statement on it fails: no such table)."""
    with sqlite3.connect(db) as conn:
        conn.execute(f"ALTER TABLE {table} RENAME TO {table}_gone")


async def test_a_failed_reaction_sweep_is_logged_and_counted(tmp_path, started):
    client = await client_of(started, RunningServer(str(tmp_path / "t.db"), timeout_poll_s=0.05))
    take_table(client.db_path, "reaction_deadlines")
    with capture_logs() as logs:
        await counted(client, REACTION_SWEEP)
    assert "no such table" in repr(logged(logs, REACTION_SWEEP)["exc_info"])


async def test_a_failed_snapshot_save_is_logged_and_counted(tmp_path, started):
    client = await client_of(started, RunningServer(str(tmp_path / "t.db"), snapshot_every=2))
    enc = await client.create()
    with sqlite3.connect(client.db_path) as conn:  # the database refuses every snapshot written from now on
        conn.execute(
            "CREATE TRIGGER no_snapshots BEFORE INSERT ON snapshots BEGIN SELECT RAISE(ABORT, 'no room'); END"
        )
    with capture_logs() as logs:
        for i in range(3):
            assert (await enc.command("note", text=f"note {i}")).status == 201
        await counted(client, SNAPSHOT_SAVE)
    found = logged(logs, SNAPSHOT_SAVE)
    assert found["encounter"] == enc.id and "no room" in repr(found["exc_info"])


class BrokenActing(Freeform):
    """Freeform whose `acting_now` has a bug: telling whose turn it is raises."""

    def acting_now(self, state: dict[str, Any]) -> Any:
        raise RuntimeError("acting_now is broken in this ruleset")


FAST = WebhookSettings(
    allow_private=True, retry_base_s=0.05, retry_cap_s=0.2, read_timeout_s=0.5, poll_s=0.05
)


async def test_a_rulesets_failing_acting_now_is_logged_and_counted_and_the_command_lands(tmp_path, started):
    srv = RunningServer(
        str(tmp_path / "t.db"), Registry([BrokenActing()]), webhook_allow_private=True, webhooks=FAST
    )
    client = await client_of(started, srv)
    rx = await Receiver().start()
    started.append(rx)
    enc = await client.create()
    r = await enc.client.request(
        "POST", f"{enc.path}/webhooks", {"url": rx.url, "deliver": ["notices"]}, token=enc.gm_token
    )
    assert r.status == 201, r.body
    with capture_logs() as logs:
        assert (await enc.command("note", text="still lands")).status == 201
        await counted(client, ACTING_NOTICES)
    found = logged(logs, ACTING_NOTICES)
    assert found["encounter"] == enc.id and "acting_now is broken" in repr(found["exc_info"])


async def test_a_webhook_given_up_on_after_the_encounter_closed_is_logged_and_counted(tmp_path, started):
    quick = msgspec.structs.replace(FAST, give_up_s=0.5)
    srv = RunningServer(str(tmp_path / "t.db"), webhook_allow_private=True, webhooks=quick)
    client = await client_of(started, srv)
    broken = await Receiver(lambda n: Answer(500)).start()
    started.append(broken)
    enc = await client.create()
    r = await enc.client.request(
        "POST", f"{enc.path}/webhooks", {"url": broken.url, "deliver": ["events"]}, token=enc.gm_token
    )
    assert r.status == 201, r.body
    with capture_logs() as logs:
        await enc.ok(
            "close"
        )  # its delivery fails until given up on; the closed stream takes no WebhookDisabled
        await counted(client, WEBHOOK_DISABLE)
    assert logged(logs, WEBHOOK_DISABLE)["encounter"] == enc.id


OURS = {"tussle-reaction-timeouts", "tussle-webhook-dispatcher"}


async def test_the_background_tasks_have_ended_when_the_app_has(tmp_path):
    srv = await RunningServer(str(tmp_path / "t.db")).start()
    running = {t.get_name() for t in asyncio.all_tasks() if not t.done()}
    assert OURS <= running
    await srv.stop()
    assert not [t.get_name() for t in asyncio.all_tasks() if t.get_name() in OURS and not t.done()]
