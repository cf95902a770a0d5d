"""What the server adds to a ruleset's `acting_now`: reaction deadlines (its clock), and what
`GET /encounters/{id}/me` says is asked of one token now."""

from __future__ import annotations

import datetime as dt
from typing import Any

from events.envelope import timestamp
from projections.view import acting_now_view
from rules.interface import Ruleset
from server.encounters.tokens import Principal

TS_FORMAT = "%Y-%m-%dT%H:%M:%S.%fZ"


def reaction_deadlines(
    asked_at: dict[tuple[str, str], str], stream: str, state: dict[str, Any]
) -> dict[str, str]:
    """Each pending reaction's deadline (`ts` text): when it was asked plus `reaction_timeout_s`.
    `asked_at` is the server's record of when each reaction was asked (`Encounters.reaction_deadlines`)."""
    timeout = state["options"].get("reaction_timeout_s")
    if not timeout:
        return {}
    out = {}
    for p in state["pending"]:
        asked = asked_at.get((stream, p["id"]))
        if asked is not None:
            at = dt.datetime.strptime(asked, TS_FORMAT).replace(tzinfo=dt.UTC) + dt.timedelta(seconds=timeout)
            out[p["id"]] = timestamp(at)
    return out


def asked_now(
    state: dict[str, Any], ruleset: Ruleset, who: Principal, mine: list[str], deadlines: dict[str, str]
) -> dict[str, Any]:
    """The fields /me adds: `your_turn`, the `acting_now` entries of this token, `next_slot` per combatant.
    A player's are its seat's and its combatants'; the GM's are all of them (the GM may act for anyone),
    and it is the GM's turn when something is asked of the GM."""
    everyone = acting_now_view(state, ruleset, deadlines)
    if who.role == "gm":
        acting = everyone
        your_turn = any(e["asked_of"] == "gm" for e in everyone)
    elif who.role == "player":
        acting = [e for e in everyone if e["asked_of"] == who.seat or e["combatant"] in mine]
        your_turn = bool(acting)
    else:
        acting, your_turn = [], False
    next_slot: dict[str, str | None] = {}
    if ruleset is not None and not state["closed"]:
        for cid in mine:
            next_slot[cid] = ruleset.next_slot(state, cid)
    return {"your_turn": your_turn, "acting_now": acting, "next_slot": next_slot}


def with_deadlines(reactions: list[dict[str, Any]], deadlines: dict[str, str]) -> list[dict[str, Any]]:
    """Pending reactions, each with its `deadline` (None: no `reaction_timeout_s`)."""
    return [{**p, "deadline": deadlines.get(p["id"])} for p in reactions]
