"""Notices: short messages a person acts on, each addressed to one seat or to the GM.

Computed from the state before an event and the event itself (pure): "your reaction timed out …",
"the fight is closed …", "a webhook was disabled …"; and, over a whole command, "it is your turn …"
and "you are asked …" from the ruleset's `acting_now` before and after it: one notice per
(combatant, slot) a seat — or the GM — gains with the command (rules/acting.py `gained`). The GM's
own steps (start the next phase, draw a card) are told too: in play-by-post the GM waits for the
players as they wait for the GM (docs/notifications.md "When you are told").
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Callable
from typing import Any

from events.envelope import Event, timestamp
from projections.log import name_of
from rules.acting import gained
from rules.wording import answer_words

GM = "gm"


def notice(to: str, kind: str, text: str) -> dict[str, str]:
    return {"to": to, "kind": kind, "text": text}


def _due(state: dict[str, Any], now: dt.datetime) -> dt.datetime | None:
    """When a reaction asked `now` is answered by default: the deadline the store keeps
    (server/encounters/reaction_deadlines.py counts it from the same clock reading)."""
    timeout = state["options"].get("reaction_timeout_s")
    return now + dt.timedelta(seconds=timeout) if timeout else None


def _deadline(state: dict[str, Any], now: dt.datetime) -> str:
    due = _due(state, now)
    return "" if due is None else " by " + due.strftime("%Y-%m-%d %H:%M:%S UTC")


def _everyone(state: dict[str, Any]) -> list[str]:
    return [GM] + [s for s, seat in state["seats"].items() if not seat.get("revoked")]


def event_notices(state: dict[str, Any], e: Event, now: dt.datetime) -> list[dict[str, str]]:
    """The notices one event causes, given the state before it."""
    d = e.data
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


def _question(state: dict[str, Any], p: dict[str, Any], offered: list[Any] | None = None) -> str:
    # Whom it is for comes first: a ruleset's question is often whole sentences, ending in a full stop.
    about = f" (for {name_of(state, p['combatant'])})" if p.get("combatant") else ""
    question = p.get("question") or str(p["kind"]).replace("_", " ")
    choices = offered or p["options"]
    return f"you are asked{about}: {question} — choose {' or '.join(answer_words(o) for o in choices)}"


def offered_answers(state: dict[str, Any], ruleset: Any, p: dict[str, Any]) -> list[Any]:
    """The answers the page offers for a pending reaction (its offers, held to the rules): a question's
    options may hold one its rules refuse now (ap-grapple's "in place" with no barrier there)."""
    key = GM if p.get("asked_of", GM) == GM else p.get("combatant") or GM
    offers = ruleset.offers(state, key)
    return list(dict.fromkeys(o["fields"]["choice"] for o in offers if o.get("reaction") == p["id"]))


def _asked_text(state: dict[str, Any], p: dict[str, Any], now: dt.datetime, offered: list[Any]) -> str:
    return f"{_question(state, p, offered)}{_deadline(state, now)} (default: {answer_words(p['default'])})"


def _timestamp_or_none(when: dt.datetime | None) -> str | None:
    return None if when is None else timestamp(when)


def reminder_notice(state: dict[str, Any], p: dict[str, Any], deadline: dt.datetime) -> dict[str, Any]:
    """The reminder (`reminder_before_s`) to the seat a pending reaction waits on, before its deadline."""
    when = deadline.strftime("%Y-%m-%d %H:%M:%S UTC")
    text = (
        f"reminder: {_question(state, p)} by {when}, or the default ({answer_words(p['default'])}) is applied"
    )
    return {
        **notice(p["asked_of"], "reminder", text),
        "reaction": p["id"],
        "combatant": p.get("combatant"),
        "deadline": timestamp(deadline),
    }


def _turn_text(state: dict[str, Any], a: dict[str, Any]) -> str:
    s = a["slot"]
    where = [name_of(state, a["combatant"])] if a["combatant"] else []
    if s["turn"]:
        where.append(f"turn {s['turn']}")
    if s["phase"]:
        where.append(f"{str(s['phase']).replace('_', ' ')} phase")
    head = "it is your turn" if a["combatant"] else "the table waits for you"
    text = f"{head} ({', '.join(where)})" if where else head
    return f"{text}: {without_command_names(a['why'])}" if a.get("why") else text


# A command's API name in a ruleset's sentence, "(gurps.choose_maneuver)", "(start_phase action)": a
# reader has the offers' buttons for it, so a notice leaves it out, as the page does (view.js).
_COMMAND_NAME = r"(?:[a-z][a-z-]*\.[a-z_]+|[a-z]+_[a-z_]+)(?: [a-z_]+)?"
_NAME_ALONE = re.compile(rf"\s*\({_COMMAND_NAME}\)")
_NAME_FIRST = re.compile(rf"\({_COMMAND_NAME}, ")


def without_command_names(text: str) -> str:
    """ "… the GM starts the next turn (start_turn)" -> "… the GM starts the next turn"."""
    return _NAME_FIRST.sub("(", _NAME_ALONE.sub("", text))


def acting_notices(
    before: dict[str, Any],
    after: dict[str, Any],
    ruleset: Any,
    now: dt.datetime,
    on_error: Callable[[BaseException], None] | None = None,
) -> list[dict[str, str]]:
    """ "It is your turn" (or "you are asked", for a reaction) for each (combatant, slot) that
    `ruleset.acting_now` opens to a seat or the GM with this command, to whoever sends its commands."""
    if after["closed"]:
        return []
    try:
        new = gained(ruleset.acting_now(before), ruleset.acting_now(after))
    except Exception as exc:  # noqa: BLE001 - a ruleset bug must not refuse the command it is telling of
        if on_error is not None:
            on_error(exc)  # logged and counted (server/encounters/survived.py)
        return []
    pending = {p["id"]: p for p in after["pending"]}
    out = []
    for a in new:
        p = pending.get(a.get("reaction"))
        told = (
            {
                **notice(
                    a["asked_of"], "asked", _asked_text(after, p, now, _offered(after, ruleset, p, on_error))
                ),
                "reaction": p["id"],
                "deadline": _timestamp_or_none(_due(after, now)),
            }
            if p is not None
            else notice(a["asked_of"], "your_turn", _turn_text(after, a))
        )
        out.append({**told, "combatant": a["combatant"], "slot": a["slot"]})
    return out


def _offered(
    state: dict[str, Any], ruleset: Any, p: dict[str, Any], on_error: Callable[[BaseException], None] | None
) -> list[Any]:
    """`offered_answers`, or none (the question's own options) should the ruleset fail at it."""
    try:
        return offered_answers(state, ruleset, p)
    except Exception as exc:  # noqa: BLE001 - a ruleset bug must not refuse the command it is telling of
        if on_error is not None:
            on_error(exc)  # logged and counted (server/encounters/survived.py)
        return []
