"""examples/bot.py against a live server (issue 30 item 7): run as its README says, it follows the
firehose, posts each finished turn's Markdown to a real local webhook receiver, and answers the reaction
of a manual-dice skirmish fight it holds the GM token for, rolling only what `details.rolls` asks."""

from __future__ import annotations

import asyncio
import json
import sys
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import aiohttp

from tests.support.client import RunningServer, TussleClient
from tests.support.receivers import EVENTUALLY_S, Receiver

ADMIN = "admin-" + "b" * 40
BOT = Path(__file__).resolve().parent.parent / "examples" / "bot.py"
SCRIPT = Path(__file__).resolve().parent / "golden" / "scripts" / "skirmish-manual-e1.json"


async def eventually(check: Callable[[], Awaitable[Any]], what: str) -> Any:
    deadline = time.monotonic() + EVENTUALLY_S
    while not (found := await check()):
        assert time.monotonic() < deadline, f"the bot did not {what}"
        await asyncio.sleep(0.05)
    return found


async def test_the_example_bot_posts_turns_and_rolls_what_dice_needed_asks(tmp_path):
    script = json.loads(SCRIPT.read_text())
    srv = await RunningServer(str(tmp_path / "bot.db"), admin_token=ADMIN).start()
    receiver = await Receiver().start()
    bot = None
    try:
        async with aiohttp.ClientSession() as session:
            client = TussleClient(srv.base_url, session, srv.db_path)
            create = {k: v for k, v in script["create"].items() if k != "command_id"}
            enc = await client.create(**create, public=True, token=ADMIN)
            for step in script["steps"][:2]:  # Hale and Voss
                await enc.ok(**step["command"])
            reader = (await client.request("POST", "/firehose-tokens", token=ADMIN)).body
            bot = await asyncio.create_subprocess_exec(
                sys.executable, str(BOT), "--server", srv.base_url, "--token", reader["token"],
                "--webhook", receiver.url, "--answer", f"{enc.id}={enc.gm_token}",
                "--position-file", str(tmp_path / "bot.position"),
                stderr=asyncio.subprocess.PIPE,
            )  # fmt: skip
            await enc.ok("start_turn")
            await enc.ok("skirmish.draw_card", dice=[[1]])
            struck = await enc.ok("skirmish.strike", combatant="hale", target="voss")
            asked = [e for e in struck["events"] if e["type"] == "ReactionRequested"]
            assert asked, struck

            async def answered() -> list[dict[str, Any]]:
                events = await enc.events()
                return [e for e in events if e["type"] == "ReactionAnswered"] and events

            events = await eventually(answered, "answer the parry")
            reply = next(e for e in events if e["type"] == "ReactionAnswered")
            assert reply["data"]["id"] == asked[0]["data"]["id"]
            assert reply["data"]["choice"] == asked[0]["data"]["default"]
            rolled = [
                e for e in events if e["type"] == "DieRolled" and e["command_id"] == reply["command_id"]
            ]
            assert rolled and all(e["data"]["source"] == "manual" for e in rolled), rolled

            await enc.ok("start_turn")  # turn 1 is over: its Markdown goes to the webhook
            await eventually(lambda: _posts(receiver, 1), "post turn 1")
            log = await client.request(
                "GET", f"{enc.path}/log?format=markdown&turn=1&max_chars=1900",
                token=reader["token"], headers={"Accept": "application/json"},
            )  # fmt: skip
            assert [r.json["content"] for r in receiver.requests] == log.body["posts"]
            assert "Sgt Hale" in receiver.requests[0].json["content"]
            await enc.ok("close")
            turn_2 = await eventually(lambda: _posts(receiver, 2), "post turn 2 at the close")
            assert turn_2[0].headers["webhook-id"] == f"{enc.id}-turn-2-0"
    finally:
        if bot is not None and bot.returncode is None:
            bot.terminate()
            _, err = await bot.communicate()
            print(err.decode())
            assert b"Traceback" not in err, err.decode()
        await receiver.stop()
        await srv.stop()


async def _posts(receiver: Receiver, turn: int) -> list[Any]:
    return [r for r in receiver.requests if f"-turn-{turn}-" in r.headers.get("webhook-id", "")]
