"""Issue 28 item 1: "it is your turn" and "you are asked" by one rule (docs/notifications.md "When you
are told"): after each command, a seat (or the GM) is told once for each (combatant, slot) of
`acting_now` it did not have before. Checked against a real receiver over every golden script and
every ruleset's guide fight, command by command, with the gains computed here from the stream."""

from __future__ import annotations

import asyncio
from collections import Counter
from collections.abc import AsyncIterator
from typing import Any

import msgspec
import pytest

from events.envelope import Event
from rules.registry import Registry
from rules.state import evolve, replay
from server.guides.guide import published
from server.guides.guide_turns import first_turn_steps
from tests.golden.scripts import load, play, script_names
from tests.support.client import Encounter, TussleClient, serving
from tests.support.guide_play import play_steps
from tests.support.receivers import EVENTUALLY_S, Receiver
from tests.test_webhooks import FAST

REGISTRY = Registry.discover()
TOLD = ("your_turn", "asked")


@pytest.fixture
async def hooked(tmp_path) -> AsyncIterator[TussleClient]:
    async with serving(str(tmp_path / "tussle.db"), webhook_allow_private=True, webhooks=FAST) as client:
        yield client


@pytest.fixture
async def rx() -> AsyncIterator[Receiver]:
    r = await Receiver().start()
    yield r
    await r.stop()


def _key(to: str, combatant: str | None, slot: dict[str, Any]) -> tuple[Any, ...]:
    return (to, combatant, slot["turn"], slot["phase"], slot["id"])


def expected_gains(events: list[dict[str, Any]], since: int) -> Counter[tuple[Any, ...]]:
    """(seq of the command's last event, kind, seat, combatant, slot) for every entry of `acting_now`
    a command opens, over the commands after seq `since`: computed from the stream alone."""
    stream = [msgspec.convert(e, Event) for e in events]
    ruleset = REGISTRY.get(stream[0].data["ruleset"])
    commands: list[list[Event]] = []
    for e in stream:
        if commands and commands[-1][-1].command_id == e.command_id:
            commands[-1].append(e)
        else:
            commands.append([e])
    out: Counter[tuple[Any, ...]] = Counter()
    state = replay(commands[0], lambda e: ruleset)
    done = len(commands[0])
    for cmd in commands[1:]:
        done += len(cmd)
        if any(e.type == "EventVoided" for e in cmd):
            after = replay(stream[:done], lambda e: ruleset)  # a void folds as a replay without it
        else:
            after = state
            for e in cmd:
                after = evolve(after, e, ruleset)
        if cmd[0].seq > since and not after["closed"]:
            had = {_key(a["asked_of"], a["combatant"], a["slot"]) for a in ruleset.acting_now(state)}
            for a in ruleset.acting_now(after):
                key = _key(a["asked_of"], a["combatant"], a["slot"])
                if key not in had:
                    out[(cmd[-1].seq, "asked" if a["reaction"] else "your_turn", *key)] += 1
        state = after
    return out


async def _all_delivered(enc: Encounter, wid: str, rx: Receiver) -> None:
    deadline = asyncio.get_running_loop().time() + EVENTUALLY_S
    while True:
        page = (await enc.get(f"/webhooks/{wid}/deliveries?limit=1000")).body["deliveries"]
        if all(d["status"] == "delivered" for d in page) and len(rx.processed) == len(page):
            return
        assert asyncio.get_running_loop().time() < deadline, "deliveries still owed"
        await asyncio.sleep(0.05)


async def _check(enc: Encounter, made: dict[str, Any], rx: Receiver) -> None:
    await _all_delivered(enc, made["id"], rx)
    events = await enc.events()
    since = next(e["seq"] for e in events if e["type"] == "WebhookCreated")
    want = expected_gains(events, since)
    got = Counter(
        (n["seq"], n["kind"], *_key(n["to"], n["combatant"], n["slot"]))
        for n in (r.json["data"] for r in rx.processed)
        if n["kind"] in TOLD
    )
    assert got == want, {"missed": want - got, "not owed": got - want}
    assert sum(want.values()) > 0


def _subscriber(rx: Receiver, made: dict[str, Any]):
    async def subscribe(enc: Encounter) -> None:
        r = await enc.client.request(
            "POST", f"{enc.path}/webhooks", {"url": rx.url, "deliver": ["notices"]}, token=enc.gm_token
        )
        assert r.status == 201, r.body
        made.update(r.body, enc=enc)

    return subscribe


@pytest.mark.parametrize("name", script_names())
async def test_every_golden_script_tells_each_seat_each_gain_once(hooked, rx, name):
    made: dict[str, Any] = {}
    enc = await play(hooked, load(name), _subscriber(rx, made))
    await _check(enc, made, rx)


@pytest.mark.parametrize("rid", sorted(published().rulesets))
async def test_every_guide_fight_tells_each_seat_each_gain_once(hooked, rx, rid):
    made: dict[str, Any] = {}
    await play_steps(hooked, first_turn_steps(published().rulesets[rid]), _subscriber(rx, made))
    await _check(made["enc"], made, rx)


async def test_tft_tells_the_seat_at_each_phase_that_opens_to_its_figure(hooked, rx):
    """The case of issue 28: told at turn 1's movement, again when the action phase makes Simeth first,
    at turn 2's movement and action phases, and never "action phase" before a phase has started."""
    from tests.tft.helpers import simeth, troll

    enc = await hooked.create("tft", dice="manual")
    await enc.add(simeth())
    await enc.add(troll())
    alice = await enc.seat_full("Alice", ["simeth"])
    bob = await enc.seat("Bob", ["troll"])
    r = await hooked.request("POST", f"{enc.path}/webhooks", {"url": rx.url}, token=alice["token"])
    assert r.status == 201, r.body
    told_at: dict[int, str] = {}

    async def step(type: str, token: str | None = None, **fields: Any) -> None:
        r = await enc.command(type, token=token, **fields)
        assert r.status == 201, r.body
        told_at[r.body["seq"]] = type + str(fields.get("phase", fields.get("turn", "")))

    await step("start_turn", turn=1)
    await step("start_phase", phase="movement")
    await step("start_phase", phase="action")
    await step("tft.pass", token=alice["token"], combatant="simeth")
    await step("tft.pass", token=bob, combatant="troll")
    await step("start_turn", turn=2)
    await step("start_phase", phase="movement")
    await step("start_phase", phase="action")
    await _all_delivered(enc, r.body["id"], rx)
    got = [x.json["data"] for x in rx.processed]
    assert [(told_at[n["seq"]], n["kind"], n["to"], n["text"].split(":")[0]) for n in got] == [
        (
            "start_phasemovement",
            "your_turn",
            alice["seat"],
            "it is your turn (Simeth, turn 1, movement phase)",
        ),
        ("start_phaseaction", "your_turn", alice["seat"], "it is your turn (Simeth, turn 1, action phase)"),
        (
            "start_phasemovement",
            "your_turn",
            alice["seat"],
            "it is your turn (Simeth, turn 2, movement phase)",
        ),
        ("start_phaseaction", "your_turn", alice["seat"], "it is your turn (Simeth, turn 2, action phase)"),
    ]
    assert got[1]["text"].endswith("(4.0: one figure at a time, by DX)")
    assert [n["slot"]["id"] for n in got] == ["movement", "action: head of the order"] * 2
