"""Notices: short messages a person acts on, each addressed to one seat or to the GM.

Computed from the state before an event and the event itself (pure): "you are asked …", "your
reaction timed out …", "the fight is closed …", "a webhook was disabled …"; and, over a whole
command, "it is your turn …" from the ruleset's `acting_now(state)` before and after it.
"""

from __future__ import annotations

import datetime as dt
from typing import Any

from events.envelope import Event
from projections.log import name_of

GM = "gm"


def notice(to: str, kind: str, text: str) -> dict[str, str]:
    return {"to": to, "kind": kind, "text": text}


def _deadline(state: dict[str, Any], now: dt.datetime) -> str:
    timeout = state["options"].get("reaction_timeout_s")
    if not timeout:
        return ""
    return " by " + (now + dt.timedelta(seconds=timeout)).strftime("%Y-%m-%d %H:%M UTC")


def _everyone(state: dict[str, Any]) -> list[str]:
    return [GM] + [s for s, seat in state["seats"].items() if not seat.get("revoked")]


def event_notices(state: dict[str, Any], e: Event, now: dt.datetime) -> list[dict[str, str]]:
    """The notices one event causes, given the state before it."""
    d = e.data
    if e.type == "ReactionRequested":
        about = f" for {name_of(state, d['combatant'])}" if d.get("combatant") else ""
        question = d.get("question") or d["kind"].replace("_", " ")
        asked = notice(
            d["asked_of"],
            "asked",
            f"you are asked: {question}{about} — choose "
            f"{' or '.join(map(str, d['options']))}{_deadline(state, now)} (default: {d['default']})",
        )
        return [{**asked, "reaction": d["id"]}]
    if e.type == "ReactionAnswered" and e.actor == "system":
        asked = next((p for p in state["pending"] if p["id"] == d["id"]), None)
        if asked is None:
            return []
        return [
            notice(
                asked["asked_of"],
                "timed_out",
                f"your reaction timed out; the default was applied "
                f"({asked['kind'].replace('_', ' ')}: {d['choice']})",
            )
        ]
    if e.type == "EncounterClosed":
        return [
            notice(to, "closed", "the fight is closed; the seed is revealed — verify")
            for to in _everyone(state)
        ]
    if e.type == "WebhookDisabled":
        host = state["webhooks"].get(d["webhook"], {}).get("host", "its endpoint")
        return [notice(GM, "webhook_disabled", f"your webhook to {host} was disabled: {d['reason']}")]
    return []


def turn_notices(before: dict[str, Any], after: dict[str, Any], ruleset: Any) -> list[dict[str, str]]:
    """ "It is your turn" for each combatant whose slot `ruleset.acting_now` opens with this command, to
    whoever sends its commands. Reactions are their own notice ("you are asked"); the GM's own steps
    (no combatant) are the GM running the table, not news to the GM."""
    if after["closed"]:
        return []
    try:
        was = {(a["combatant"], a["asked_of"]) for a in ruleset.acting_now(before)}
        now = ruleset.acting_now(after)
    except Exception:  # noqa: BLE001 - a ruleset bug must not refuse the command it is telling of
        return []
    out = []
    for a in now:
        if a["combatant"] is None or a.get("reaction") is not None or (a["combatant"], a["asked_of"]) in was:
            continue
        where = [name_of(after, a["combatant"]), f"turn {after['turn']}"]
        if after.get("phase"):
            where.append(f"{str(after['phase']).replace('_', ' ')} phase")
        text = f"it is your turn ({', '.join(where)})"
        if a.get("why"):
            text += f": {a['why']}"
        out.append(notice(a["asked_of"], "your_turn", text))
    return out
