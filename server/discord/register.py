"""`tussle discord register [--dry-run]`: bulk-overwrite the application's global commands with /tussle.

The bot token comes from DISCORD_BOT_TOKEN (never a flag: a flag shows in the process list); with
--dry-run nothing is sent and the request is printed, the token left out.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import sys
from typing import Any

from server.discord.followups import DEFAULT_API, DiscordApi, DiscordApiError

SUB, STRING, INTEGER = 1, 3, 4


def _sub(name: str, description: str, *options: dict[str, Any]) -> dict[str, Any]:
    return {"type": SUB, "name": name, "description": description, "options": list(options)}


def _opt(kind: int, name: str, description: str, required: bool = True, **more: Any) -> dict[str, Any]:
    return {"type": kind, "name": name, "description": description, "required": required, **more}


COMMANDS: list[dict[str, Any]] = [
    {
        "name": "tussle",
        "type": 1,
        "description": "Play this channel's Tussle encounter",
        "options": [
            _sub(
                "bind",
                "GM: bind this channel to an encounter",
                _opt(STRING, "code", "the bind code the GM page made"),
            ),
            _sub(
                "link",
                "Link yourself to your seat",
                _opt(STRING, "code", "the link code your seat's page made"),
            ),
            _sub("unlink", "Undo your link to a seat"),
            _sub("turn", "What is asked of you, and your figures' offers as buttons"),
            _sub(
                "roll",
                "Roll dice, e.g. 3d6 or 2d10+4",
                _opt(STRING, "expression", "the dice, e.g. 3d6", max_length=100),
                _opt(STRING, "purpose", "what the roll is for", required=False, max_length=200),
            ),
            _sub(
                "log",
                "The log of a turn",
                _opt(INTEGER, "turn", "the turn (default: this one)", required=False, min_value=0),
            ),
        ],
    }
]


def main(args: argparse.Namespace, token: str | None) -> int:
    """`token`: DISCORD_BOT_TOKEN, which the CLI reads (no other server module reads the environment)."""
    app_id = args.application_id
    if not app_id:
        print(
            "tussle discord register: give --application-id (or TUSSLE_DISCORD_APPLICATION_ID)",
            file=sys.stderr,
        )
        return 2
    base = (args.api_base or DEFAULT_API).rstrip("/")
    if args.dry_run:
        print(f"PUT {base}/applications/{app_id}/commands")
        print("Authorization: Bot $DISCORD_BOT_TOKEN")
        print(json.dumps(COMMANDS, indent=2))
        return 0
    if not token:
        print(
            "tussle discord register: set DISCORD_BOT_TOKEN to the application's bot token", file=sys.stderr
        )
        return 2

    async def send() -> Any:
        api = DiscordApi(base, app_id)
        try:
            return await api.overwrite_commands(token, COMMANDS)
        finally:
            await api.close()

    try:
        answer = asyncio.run(send())
    except (DiscordApiError, OSError) as exc:
        print(f"tussle discord register: {exc}", file=sys.stderr)
        return 1
    names = [c.get("name") for c in answer] if isinstance(answer, list) else []
    print(
        f"tussle discord register: application {app_id} now has {', '.join('/' + str(n) for n in names) or 'its commands'}"
    )
    return 0
