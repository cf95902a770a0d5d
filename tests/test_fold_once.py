"""Fold once (issue 26 item 3): each new event of a command is folded exactly once in the server, by
the decider, and that state is what the state cache, the webhook outbox and the websocket hubs (state
and log followers) take. Counted on a real server over a real SQLite file with every consumer of a
command's events at work: a webhook with events, log and notices to a real receiver, and websocket
subscribers of the events, the state and the log."""

from __future__ import annotations

from collections import Counter
from typing import Any

import aiohttp

from rules.offer_checks import PROBE
from rules.registry import Registry
from rules.tft import Tft
from tests.support import ws
from tests.support.client import RunningServer, TussleClient
from tests.support.receivers import Receiver
from tests.test_webhooks import FAST
from tests.tft.helpers import BROADSWORD, fig


class CountingTft(Tft):
    """TFT, counting each fold of its own part of the state by the command that appended the event."""

    def __init__(self) -> None:
        super().__init__()
        self.folds: Counter[tuple[str, int]] = Counter()

    def evolve(self, rules_state: dict[str, Any], event: Any) -> dict[str, Any]:  # type: ignore[override]
        self.folds[(event.command_id, event.seq)] += 1
        return super().evolve(rules_state, event)


async def test_each_event_of_a_command_is_folded_once(tmp_path):
    counting = CountingTft()
    registry = Registry([counting, *(rs for rs in Registry.discover().rulesets.values() if rs.id != "tft")])
    rx = await Receiver().start()
    server = await RunningServer(
        str(tmp_path / "fold.db"),
        registry=registry,
        webhook_allow_private=True,
        webhooks=FAST,
        rate_commands=0,
        rate_reads=0,
    ).start()
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(server.base_url, session, server.db_path)
            enc = await client.create(ruleset="tft")
            r = await client.request(
                "POST",
                f"{enc.path}/webhooks",
                {"url": rx.url, "deliver": ["events", "log", "notices"]},
                token=enc.gm_token,
            )
            assert r.status == 201, r.body
            subscribers = [
                await ws.subscribe(enc, "events"),
                await ws.subscribe(enc, "state"),
                await ws.subscribe(enc, "log"),
            ]
            for sub in subscribers:
                await ws.until(sub, "caught_up")
            commands: list[dict[str, Any]] = [
                {"type": "add_combatant", "combatant": fig("ann", "a", 12, 12, [0, 0], items=[BROADSWORD])},
                {"type": "add_combatant", "combatant": fig("bo", "b", 12, 12, [1, 0], facing=3)},
                {"type": "start_turn", "turn": 1},
                {"type": "start_phase", "phase": "movement"},
                {"type": "start_phase", "phase": "action"},
                {"type": "note", "text": "a note"},
            ]
            for body in commands:
                r = await enc.command(body.pop("type"), **body)
                assert r.status == 201, r.body
                for sub in subscribers:  # every follower has taken the command's events in
                    while (await ws.frame(sub)).get("seq", 0) < r.body["events"][-1]["seq"]:
                        pass
            await rx.until(lambda: len(rx.processed) > 0, "a delivery")
            counting.folds.clear()  # the reads above folded nothing new; count from fresh commands
            counted: dict[tuple[str, int], int] = {}
            for body in [
                {"type": "start_turn", "turn": 2},
                {"type": "start_phase", "phase": "movement"},
                {"type": "start_phase", "phase": "action"},  # several events: the first to act is asked
            ]:
                r = await enc.command(body.pop("type"), **body)
                assert r.status == 201, r.body
                last = r.body["events"][-1]["seq"]
                for sub in subscribers:
                    while (await ws.frame(sub)).get("seq", 0) < last:
                        pass
                counted |= {(e["command_id"], e["seq"]): 1 for e in r.body["events"]}
            assert len(counted) > 3
            # Offers are checked by deciding each variant (rules/offer_checks.py): those trial events,
            # under the probe's command_id, are never appended and are not counted here.
            real = {key: n for key, n in counting.folds.items() if key[0] != PROBE}
            assert real == counted
            for sub in subscribers:
                await sub.close()
    finally:
        await server.stop()
        await rx.stop()
