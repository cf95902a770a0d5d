"""The deliveries a command's events cause, computed before its append and written in its transaction.

Pure: the state the command was decided on (its `webhooks` are the live subscriptions), the new
events, and the ruleset. The seqs are known before the append (the store refuses it unless the head
is still `state["seq"]`), so each row is keyed by its seq; only the hash and time of an event are
not, and a delivery of the event itself is rendered from the stored event when it is sent.

Rows for one webhook are numbered by `part` in the order written, so (seq, part) is the order of
delivery: the events, then the log entries, then the notices of the command.
"""

from __future__ import annotations

import datetime as dt
import hashlib
from collections.abc import Callable
from typing import Any

import msgspec

from events.envelope import Event, NewEvent
from events.store.outbox import OutboxRow
from projections.log import actor_name, sentence
from rules.state import evolve
from server.webhooks.discord import escape, log_line, split_content, split_leaving_room, username
from server.webhooks.notices import acting_notices, event_notices

_encode = msgspec.json.encode


def outbox_rows(
    state: dict[str, Any],
    new: list[NewEvent],
    actor: str,
    command_id: str,
    ruleset: Any,
    now: dt.datetime | None = None,
    on_error: Callable[[BaseException], None] | None = None,
    states: list[dict[str, Any]] | None = None,
) -> list[OutboxRow]:
    """The rows of the command's events; `states[i]`, where the decider gave them, is the state after
    `new[i]` (folded once, by the decider)."""
    hooks = state["webhooks"]
    if not hooks:
        return []
    now = now or dt.datetime.now(dt.UTC)
    wants = {k for w in hooks.values() for k in w["deliver"]}
    texts = "log" in wants or any(w["format"] == "discord" for w in hooks.values())
    entries: list[dict[str, Any]] = []
    notices: list[dict[str, Any]] = []
    s = state
    for i, ne in enumerate(new):
        e = Event(state["stream"], state["seq"] + 1 + i, ne.type, ne.data, actor, command_id, "", "", "")
        text = sentence(ruleset, s, e, {}) if texts else ""
        if "notices" in wants:
            notices += [
                {**n, "seq": e.seq, "to_name": _addressee(s, n["to"])} for n in event_notices(s, e, now)
            ]
        s = states[i] if states is not None else evolve(s, e, ruleset)
        entries.append({"seq": e.seq, "turn": s["turn"], "type": e.type, "actor": actor, "text": text})
    last = state["seq"] + len(new)
    if "notices" in wants:
        # Over the whole command: a question asked and answered within it (a standing order) asks nobody.
        notices += [
            {**n, "seq": last, "to_name": _addressee(s, n["to"])}
            for n in acting_notices(state, s, ruleset, now, on_error)
        ]
    rows: list[OutboxRow] = []
    for wid, w in hooks.items():
        owed: list[tuple[int, str, Any]] = []  # (seq, kind, body) in delivery order
        discord = w["format"] == "discord"
        if "events" in w["deliver"] and not discord:
            owed += [(x["seq"], "event", {}) for x in entries]
        if "log" in w["deliver"] or ("events" in w["deliver"] and discord):
            if discord:
                who = username(_speaker(s, _combatant_of(new), actor_name(s, actor)))
                owed += [
                    (last, "log", {"content": c, "username": who})
                    for c in split_content([log_line(x["seq"], x["text"]) for x in entries])
                ]
            else:
                owed.append((last, "log", {"entries": entries}))
        if "notices" in w["deliver"]:
            mine = [n for n in notices if w["seat"] is None or w["seat"] == n["to"]]
            owed += (
                [p for n in mine for p in _discord_notice(s, n)]
                if discord
                else [(n["seq"], "notice", n) for n in mine]
            )
        rows += [
            OutboxRow(f"{wid}.{seq}.{part}", wid, seq, part, kind, _encode(body).decode())
            for part, (seq, kind, body) in enumerate(owed)
        ]
    return rows


# A reminder's parts, after those of every command at its seq (and before a test delivery's).
REMINDER_PART = 500_000


def reminder_rows(state: dict[str, Any], n: dict[str, Any]) -> list[OutboxRow]:
    """A reminder notice's deliveries, to the notice webhooks of its seat (and the GM's unseated ones).
    Their ids are made from the reaction and its deadline: the same reminder written again is one delivery."""
    n = {**n, "seq": state["seq"], "to_name": _addressee(state, n["to"])}
    key = hashlib.sha256(f"{n['reaction']}|{n['deadline']}".encode()).hexdigest()[:16]
    rows = []
    for wid, w in state["webhooks"].items():
        if "notices" not in w["deliver"] or (w["seat"] is not None and w["seat"] != n["to"]):
            continue
        parts = _discord_notice(state, n) if w["format"] == "discord" else [(n["seq"], "notice", n)]
        rows += [
            OutboxRow(f"{wid}.remind.{key}.{i}", wid, seq, REMINDER_PART + i, kind, _encode(body).decode())
            for i, (seq, kind, body) in enumerate(parts)
        ]
    return rows


def _discord_notice(state: dict[str, Any], n: dict[str, Any]) -> list[tuple[int, str, Any]]:
    """A notice as Discord messages: escaped, split between words, the page link whole at the end
    (`link: true` asks the dispatcher to add it), posted under the name of whom it concerns."""
    text = f"**{escape(n['to_name'])}**: {escape(n['text'])}"
    parts = split_leaving_room(text)
    who = username(_speaker(state, n.get("combatant"), n["to_name"]))
    return [
        (n["seq"], "notice", {"content": part, "username": who, "link": i == len(parts) - 1})
        for i, part in enumerate(parts)
    ]


def _combatant_of(new: list[NewEvent]) -> str | None:
    """The one combatant a command's events are about, if there is one."""
    named = {ne.data["combatant"] for ne in new if isinstance(ne.data.get("combatant"), str)}
    return named.pop() if len(named) == 1 else None


def _speaker(state: dict[str, Any], combatant: str | None, who: str) -> str:
    """ "Simeth (Alice)": the character a message concerns and the seat (or the GM) it is for or from."""
    c = state["combatants"].get(combatant or "")
    return f"{c.get('name') or combatant} ({who})" if c else who


def _addressee(state: dict[str, Any], to: str) -> str:
    if to == "gm":
        return "the GM"
    return state["seats"].get(to, {}).get("name", to)
