"""A ruleset's worked first turn (its `first_turn` data) as HTTP requests: the guides render them as curl
lines and tests/test_guides.py plays them against a live server, so a guide's example cannot stop working."""

from __future__ import annotations

import json
from typing import Any, Literal

import msgspec

from rules.interface import Ruleset
from rules.wording import names_and

Who = Literal["anyone", "gm", "player"]


class Step(msgspec.Struct, frozen=True, kw_only=True):
    """One request: `path` may name {id}; `who` sends it (its token as Bearer); `note` is the comment
    above it; `keeps` says what the answer hands on (`encounter`: id and GM token, `seat`: a seat token)."""

    note: str
    method: Literal["GET", "POST"] = "POST"
    path: str = "/encounters/{id}/commands"
    who: Who = "gm"
    body: dict[str, Any] | None = None
    keeps: Literal["encounter", "seat"] | None = None


def _log() -> list[Step]:
    return [
        Step(
            note="Whose turn is it now, and what is asked of the player's seat?",
            method="GET",
            path="/encounters/{id}/me",
            who="player",
        ),
        Step(
            note="The log, ready for a forum post (format=bbcode also; turn=1 for one turn).",
            method="GET",
            path="/encounters/{id}/log?format=markdown",
            who="gm",
        ),
    ]


def first_turn_steps(rs: Ruleset) -> tuple[Step, ...]:
    """The ruleset's worked first turn (`Ruleset.first_turn`) as requests; () when it has none. The player's
    commands carry their own command_id and entropy, as the README asks."""
    turn = rs.first_turn
    if turn is None:
        return ()
    body: dict[str, Any] = {
        "name": turn.name,
        "ruleset": rs.id,
        **({"options": turn.options} if turn.options else {}),
    }
    steps = [
        Step(
            note="Create the encounter: the answer holds its id, the GM token and the dice commitment.",
            path="/encounters",
            who="anyone",
            body=body,
            keeps="encounter",
        )
    ]
    joining = names_and([c["name"] for c in turn.combatants])
    steps.append(
        Step(
            note=f"{joining} join in one command (add_combatants), each with the stats {rs.id} reads.",
            body={"type": "add_combatants", "combatants": list(turn.combatants)},
        )
    )
    names = ", ".join(c["name"] for c in turn.combatants if c["id"] in turn.plays)
    steps.append(
        Step(
            note=f"A seat for {turn.player}, who plays {names}: the answer holds the seat's token.",
            path="/encounters/{id}/seats",
            body={"name": turn.player, "combatants": list(turn.plays)},
            keeps="seat",
        )
    )
    sent = 0
    for by, note, command in turn.commands:
        if by == "player":
            sent += 1
            command = {
                **command,
                "command_id": f"{turn.player.lower()}-{sent:04d}",
                "entropy": _ENTROPY[sent % 4],
            }
        steps.append(Step(note=note, who="player" if by == "player" else "gm", body=command))
    return (*steps, *_log())


# Sixteen random characters each, as a player's client would send (README "Dice").
_ENTROPY = ("p8Qw2LzN5vR1mXc7", "k3J9vQ2mXz81LpTa", "Zt4nW8yB1qH6sD0f", "e7Lr3KcV9aM2uJ5x")

_TOKEN = {"gm": "$GM", "player": "$P"}


def curl_lines(steps: tuple[Step, ...] | list[Step]) -> list[str]:
    """The steps as a shell session ($B the server, $ID, $GM and $P copied from the answers)."""
    out = ["B=http://127.0.0.1:8080"]
    for s in steps:
        out.append(f"# {s.note}")
        url = "$B" + s.path.replace("{id}", "$ID")
        parts = ["curl -s"]
        if s.method != "GET":
            parts.append(f"-X{s.method}")
        parts.append(f'"{url}"' if "?" in url else url)
        if s.who in _TOKEN:
            parts.append(f'-H "Authorization: Bearer {_TOKEN[s.who]}"')
        if s.body is not None:
            parts.append("-d '" + json.dumps(s.body).replace("'", "'\\''") + "'")
        out.append(" ".join(parts))
        if s.keeps == "encounter":
            out.append('ID=...; GM=...        # copy "id" and "gm_token" from the answer')
        elif s.keeps == "seat":
            out.append('P=...                 # copy "token" from the answer')
    return out
