"""The scripted fights of tests/golden/scripts/*.json, played through the real HTTP API.

A script is `{about, create: <POST /encounters body>, steps: [...]}`; a step is one of
`{"command": <body>, "as"?: <seat name>, "expect"?: <status, default 201>}` (the GM's unless `as`
names a seat; a `"$pending"` value stands for the id of the newest pending reaction) or
`{"seat": {name, combatants}}` (the GM makes a seat; its token acts `as` that name).
"""

from __future__ import annotations

import json
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

from tests.support.client import Encounter, TussleClient

SCRIPTS = Path(__file__).parent / "scripts"


def script_names() -> list[str]:
    return sorted(p.stem for p in SCRIPTS.glob("*.json"))


def load(name: str) -> dict[str, Any]:
    return json.loads((SCRIPTS / f"{name}.json").read_text())


async def _filled(enc: Encounter, body: dict[str, Any]) -> dict[str, Any]:
    if "$pending" not in body.values():
        return body
    pending = (await enc.state())["pending"]
    assert pending, f"no reaction is pending for {body}"
    return {k: pending[-1]["id"] if v == "$pending" else v for k, v in body.items()}


async def play(
    client: TussleClient,
    script: dict[str, Any],
    created: Callable[[Encounter], Awaitable[None]] | None = None,
) -> Encounter:
    """Create the encounter and run every step, asserting each answers as the script expects;
    `created` runs once the encounter exists (a test subscribes a webhook there)."""
    r = await client.request("POST", "/encounters", script["create"])
    assert r.status == 201, r.body
    enc = Encounter(client, r.body)
    if created is not None:
        await created(enc)
    tokens: dict[str, str] = {}
    for i, step in enumerate(script["steps"]):
        if "seat" in step:
            tokens[step["seat"]["name"]] = await enc.seat(step["seat"]["name"], step["seat"]["combatants"])
            continue
        body = await _filled(enc, step["command"])
        r = await client.request(
            "POST", f"{enc.path}/commands", body, token=tokens[step["as"]] if "as" in step else enc.gm_token
        )
        assert r.status == step.get("expect", 201), (i, body, r.status, r.body)
    return enc
