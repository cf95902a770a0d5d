"""A small Tussle bot: it follows the firehose, posts each finished turn's Markdown to a webhook, and in
manual-dice encounters it holds a token for it answers the reactions asked, rolling the dice a
`dice_needed` refusal asks for in `details.rolls`.

    python examples/bot.py --server http://127.0.0.1:8080 --token FIREHOSE_TOKEN \
        --webhook https://discord.com/api/webhooks/ID/SECRET --answer ENCOUNTER=GM_OR_SEAT_TOKEN \
        --position-file bot.position

The firehose token is the admin's to make (POST /firehose-tokens); a private encounter's GM grants it
(POST /encounters/{id}/firehose-grants). The webhook gets Discord's shape, {"content": "..."}, one message
per post (a turn longer than 1,900 characters comes in parts). The last position handled is kept in
--position-file, so a restarted bot resumes where it stopped: nothing posted twice, nothing missed.
Only aiohttp is needed (docs/websocket.md "The firehose").
"""

from __future__ import annotations

import argparse
import asyncio
import hashlib
import json
import random
import sys
from pathlib import Path
from typing import Any

import aiohttp

RETRY_S = 2.0  # between reconnections
MAX_CHARS = 1900  # a Discord message holds 2,000


class Bot:
    def __init__(
        self,
        server: str,
        token: str,
        webhook: str,
        answer: dict[str, str] | None = None,
        position_file: str | None = None,
        dice: random.Random | None = None,
    ):
        self.server = server.rstrip("/")
        self.token = token
        self.webhook = webhook
        self.answer = answer or {}  # encounter -> the token it answers reactions with
        self.position_file = Path(position_file) if position_file else None
        self.position = (
            int(self.position_file.read_text()) if self.position_file and self.position_file.exists() else 0
        )
        self.dice = dice or random.SystemRandom()
        self.turns: dict[str, int] = {}  # encounter -> its current turn, as the events said
        self.http: aiohttp.ClientSession | None = None

    async def run(self) -> None:
        async with aiohttp.ClientSession() as self.http:
            while True:
                try:
                    await self.follow()
                except (aiohttp.ClientError, ConnectionError) as exc:
                    print(f"bot: {exc!r}; reconnecting", file=sys.stderr)
                await asyncio.sleep(RETRY_S)

    async def follow(self) -> None:
        """One firehose connection, from the last position handled, until it ends."""
        assert self.http is not None
        url = f"{self.server}/firehose"
        async with self.http.ws_connect(url, headers=self._auth(self.token), heartbeat=30) as ws:
            await ws.send_json({"op": "subscribe", "after": self.position})
            async for msg in ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                frame = json.loads(msg.data)
                if frame["type"] == "event":
                    await self.on_event(frame["encounter"], frame["event"])
                    self._handled(frame["position"])
                elif frame["type"] == "error":
                    print(f"bot: {frame['code']}: {frame['message']}", file=sys.stderr)

    async def on_event(self, encounter: str, event: dict[str, Any]) -> None:
        kind, data = event["type"], event["data"]
        if kind == "TurnStarted":
            self.turns[encounter] = data["turn"]
            if data["turn"] > 1:
                await self.post_turn(encounter, data["turn"] - 1)
        elif kind == "EncounterClosed":
            turn = self.turns.get(encounter) or (await self._get(f"/encounters/{encounter}/state"))["turn"]
            if turn >= 1:
                await self.post_turn(encounter, turn)
        elif kind == "ReactionRequested" and encounter in self.answer:
            await self.respond(encounter, data)

    async def post_turn(self, encounter: str, turn: int) -> None:
        """The turn's forum posts in Markdown (GET .../log?format=markdown&turn=T), one message each."""
        assert self.http is not None
        log = await self._get(
            f"/encounters/{encounter}/log?format=markdown&turn={turn}&max_chars={MAX_CHARS}",
            {"Accept": "application/json"},
        )
        for i, post in enumerate(log["posts"]):
            # A receiver that deduplicates on webhook-id takes a post resent after a crash once.
            headers = {"webhook-id": f"{encounter}-turn-{turn}-{i}"}
            async with self.http.post(self.webhook, json={"content": post}, headers=headers) as r:
                if r.status >= 300:
                    print(f"bot: the webhook answered {r.status} for turn {turn}", file=sys.stderr)

    async def respond(self, encounter: str, reaction: dict[str, Any]) -> None:
        """Answer a reaction with its default, as a table's autopilot would."""
        body = {
            "type": "respond",
            "reaction": reaction["id"],
            "choice": reaction["default"],
            # The same command_id for the same reaction: a resend after a crash is not a second answer.
            "command_id": "bot-" + hashlib.sha256(reaction["id"].encode()).hexdigest()[:32],
        }
        status, answer = await self.send(encounter, body)
        if status not in (200, 201):  # answered already, or not ours to answer: nothing to do
            print(f"bot: {reaction['id']} not answered: {answer['error']['message']}", file=sys.stderr)

    async def send(self, encounter: str, body: dict[str, Any]) -> tuple[int, Any]:
        """POST a command; while it is refused with dice_needed, roll what `details.rolls` lists (how many
        dice of how many sides, in order) and send it again with those faces."""
        assert self.http is not None
        dice: list[list[int]] = []
        url = f"{self.server}/encounters/{encounter}/commands"
        while True:
            sent = {**body, "dice": dice} if dice else body
            async with self.http.post(url, json=sent, headers=self._auth(self.answer[encounter])) as r:
                answer = await r.json()
            error = answer.get("error", {}) if r.status == 422 else {}
            if error.get("code") != "dice_needed":
                return r.status, answer
            rolls = error["details"]["rolls"]
            if len(rolls) <= len(dice):  # the server asked for nothing new: stop rather than loop
                return r.status, answer
            for wanted in rolls[len(dice) :]:
                dice.append([self.dice.randint(1, wanted["sides"]) for _ in range(wanted["count"])])

    async def _get(self, path: str, headers: dict[str, str] | None = None) -> Any:
        assert self.http is not None
        async with self.http.get(
            self.server + path, headers={**self._auth(self.token), **(headers or {})}
        ) as r:
            r.raise_for_status()
            return await r.json()

    def _handled(self, position: int) -> None:
        self.position = position
        if self.position_file is not None:
            self.position_file.write_text(str(position))

    @staticmethod
    def _auth(token: str) -> dict[str, str]:
        return {"Authorization": f"Bearer {token}"}


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    p.add_argument("--server", required=True, help="the Tussle server, e.g. http://127.0.0.1:8080")
    p.add_argument("--token", required=True, help="a firehose token (the admin makes it)")
    p.add_argument("--webhook", required=True, help="where each finished turn's Markdown is posted")
    p.add_argument(
        "--answer",
        action="append",
        default=[],
        metavar="ENCOUNTER=TOKEN",
        help="answer this encounter's reactions with this GM or seat token (repeatable)",
    )
    p.add_argument("--position-file", default=None, help="keeps the last position handled across restarts")
    args = p.parse_args()
    answer = dict(a.split("=", 1) for a in args.answer)
    asyncio.run(Bot(args.server, args.token, args.webhook, answer, args.position_file).run())


if __name__ == "__main__":
    main()
