"""A ruleset's worked first turn (server/guides/guide_turns.py) played against a live server, as its curl lines are."""

from __future__ import annotations

import secrets
from collections.abc import Awaitable, Callable

from server.guides.guide_turns import Step, sendable
from tests.support.client import Encounter, TussleClient


async def play_steps(
    tussle: TussleClient,
    steps: tuple[Step, ...],
    created: Callable[[Encounter], Awaitable[None]] | None = None,
) -> list[tuple[Step, int, object]]:
    """Send each step as its curl line would, with the ids, tokens and commitment the earlier answers handed
    on and a fresh id and entropy where the line runs `fresh`; `created` runs once the encounter exists."""
    ids: dict[str, str] = {}
    tokens = {"anyone": None}
    answers = []
    for step in steps:
        path = step.path.replace("{id}", ids.get("id", "{id}"))
        body = sendable(step.body, ids.get("commitment"), fresh)
        r = await tussle.request(step.method, path, body, token=tokens.get(step.who))
        answers.append((step, r.status, r.body))
        assert r.status in (200, 201), (step.note, r.status, r.body)
        if step.keeps == "encounter":
            ids["id"], tokens["gm"], ids["commitment"] = (
                r.body["id"],
                r.body["gm_token"],
                r.body["commitment"],
            )
            if created is not None:
                await created(Encounter(tussle, r.body))
        elif step.keeps == "seat":
            tokens["player"] = r.body["token"]
    return answers


def fresh() -> str:
    """What the guides' `fresh` shell function prints."""
    return secrets.token_urlsafe(18)
