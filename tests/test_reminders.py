"""Reminders (`reminder_before_s`): a seat is told once, before its reaction's deadline, by the same signed
notice webhooks as every notice; never when the option is off or the reaction was answered first.

A real server (its sweep polling every 50 ms), a real receiver on 127.0.0.1, real signatures.
"""

from __future__ import annotations

import datetime as dt
import sqlite3
from collections.abc import AsyncIterator
from typing import Any

import aiohttp
import pytest
from standardwebhooks import Webhook

from tests.support.client import Encounter, RunningServer, TussleClient
from tests.support.receivers import Receiver
from tests.test_webhooks import FAST, receiver, receivers, subscribe

__all__ = ["receivers"]  # the fixture, used by name


@pytest.fixture
async def sweeping(tmp_path: Any) -> AsyncIterator[TussleClient]:
    srv = await RunningServer(
        str(tmp_path / "t.db"), webhook_allow_private=True, webhooks=FAST, timeout_poll_s=0.05
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            yield TussleClient(srv.base_url, session, srv.db_path)
    finally:
        await srv.stop()


async def seated(client: TussleClient, rx: Receiver, **options: Any) -> tuple[Encounter, dict[str, Any], str]:
    """An encounter with one seat (Ana, for Simeth) whose own notice webhook goes to `rx`; its secret."""
    enc = await client.create(options=options)
    await enc.add({"id": "simeth", "name": "Simeth", "side": "a", "stats": {}, "position": [0, 0]})
    seat = await enc.seat_full("Ana", ["simeth"])
    made = await subscribe(enc, rx.url, token=seat["token"])
    return enc, seat, made["secret"]


async def ask(enc: Encounter) -> dict[str, Any]:
    """Ask Simeth's seat to parry or dodge: the pending reaction, with the `deadline` the state shows."""
    await enc.ok(
        "ask", combatant="simeth", kind="parry_or_dodge", options=["parry", "dodge"], default="dodge"
    )
    state = await enc.state()
    p = state["pending"][-1]
    return {
        **p,
        "deadline": next(a["until"]["deadline"] for a in state["acting_now"] if a.get("reaction") == p["id"]),
    }


def kinds(rx: Receiver) -> list[str]:
    return [r.json["data"]["kind"] for r in rx.processed]


async def test_a_seat_is_reminded_once_before_the_deadline_signed_naming_seat_and_deadline(
    sweeping, receivers
):
    rx = await receiver(receivers)
    enc, seat, secret = await seated(sweeping, rx, reaction_timeout_s=3, reminder_before_s=2)
    asked = await ask(enc)
    await rx.until(lambda: "reminder" in kinds(rx), "the reminder")
    # As if the server had died after writing the reminder but before forgetting its row: the sweep
    # writes it again, under the same delivery ids, so it is not sent twice.
    con = sqlite3.connect(sweeping.db_path, isolation_level=None)
    try:
        con.execute(
            "INSERT OR REPLACE INTO reaction_deadlines (stream, reaction, due) VALUES (?, ?, ?)",
            (enc.id, f"remind:{asked['id']}", "2000-01-01T00:00:00.000000Z"),
        )
        # The sweep takes it (writing the same deliveries again must not fail) and forgets it.
        await rx.until(
            lambda: (
                not con.execute("SELECT 1 FROM reaction_deadlines WHERE reaction LIKE 'remind:%'").fetchall()
            ),
            "the sweep to take the reminder's row again",
        )
    finally:
        con.close()
    await rx.until(lambda: "timed_out" in kinds(rx), "the default answer's notice")
    assert kinds(rx) == ["asked", "reminder", "timed_out"]
    got = rx.processed[1]
    assert Webhook(secret).verify(got.body, got.headers)
    n = got.json["data"]
    assert n["to"] == seat["seat"] and n["to_name"] == "Ana" and n["reaction"] == asked["id"]
    assert n["deadline"] == asked["deadline"] and n["combatant"] == "simeth"
    assert n["text"].startswith(
        "reminder: you are asked (for Simeth): parry or dodge — choose parry or dodge by "
    )
    assert n["text"].endswith(" UTC, or the default (dodge) is applied")
    assert asked["deadline"][:19].replace("T", " ") in n["text"]
    # The question's own notice names its deadline too: the one the store answers by default at (the
    # same clock reading as the store's row), never after the one /me shows (counted from the event's
    # ts, sealed a moment later); its text to the second, where it said the minute, which near a
    # minute's end could name a later time than the default's.
    first = rx.processed[0].json["data"]
    assert first["kind"] == "asked" and first["deadline"] is not None
    when = [dt.datetime.strptime(x, "%Y-%m-%dT%H:%M:%S.%fZ") for x in (first["deadline"], asked["deadline"])]
    assert dt.timedelta(0) <= when[1] - when[0] < dt.timedelta(seconds=1), when
    assert f"by {first['deadline'][:19].replace('T', ' ')} UTC" in first["text"]


async def test_no_reminder_when_the_option_is_off(sweeping, receivers):
    rx = await receiver(receivers)
    enc, _, _ = await seated(sweeping, rx, reaction_timeout_s=1)
    assert "reminder_before_s" not in (await enc.state())["options"]  # the default stores what it always did
    await ask(enc)
    await rx.until(lambda: "timed_out" in kinds(rx), "the default answer's notice")
    assert kinds(rx) == ["asked", "timed_out"]


async def test_no_reminder_of_a_reaction_answered_before_it(sweeping, receivers):
    rx = await receiver(receivers)
    enc, seat, _ = await seated(sweeping, rx, reaction_timeout_s=3600, reminder_before_s=3599)
    first = await ask(enc)
    await enc.ok("respond", token=seat["token"], reaction=first["id"], choice="parry")
    second = await ask(enc)  # its reminder falls due after the first's would have
    await rx.until(lambda: "reminder" in kinds(rx), "the second reaction's reminder")
    reminders = [r.json["data"]["reaction"] for r in rx.processed if r.json["data"]["kind"] == "reminder"]
    assert reminders == [second["id"]]


async def test_a_reminder_lead_must_be_a_positive_number_of_seconds(sweeping):
    r = await sweeping.request(
        "POST", "/encounters", {"name": "f", "ruleset": "freeform", "options": {"reminder_before_s": 0}}
    )
    assert r.status == 400 and "reminder_before_s" in str(r.body)
