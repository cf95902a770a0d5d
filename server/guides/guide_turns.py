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
    commands carry a fresh command_id and entropy of their own and the commitment seen, as the README asks."""
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
    for by, note, command in turn.commands:
        if by == "player":
            command = {**command, **PLAYERS_OWN}
        steps.append(Step(note=note, who="player" if by == "player" else "gm", body=command))
    return (*steps, *_log())


# What a player's command carries that no reader may copy (issue 25 item 3): a command_id and entropy
# made fresh for every command, and the commitment the player saw. In a guide these are shell words;
# `sendable` fills them in for a test that plays the steps.
FRESH = "$(fresh)"
COMMITMENT = "$C"
PLAYERS_OWN = {"command_id": FRESH, "entropy": FRESH, "expected_commitment": COMMITMENT}
FRESH_DEFINITION = "fresh() { python3 -c 'import secrets; print(secrets.token_urlsafe(18))'; }"


def sendable(body: dict[str, Any] | None, commitment: str | None, fresh: Any) -> dict[str, Any] | None:
    """A step's body as the shell sends it: each FRESH a new `fresh()`, COMMITMENT the one copied."""
    if body is None:
        return None
    words = {FRESH: fresh, COMMITMENT: lambda: commitment}
    return {k: words[v]() if isinstance(v, str) and v in words else v for k, v in body.items()}


_TOKEN = {"gm": "$GM", "player": "$P"}


def _shell_body(body: dict[str, Any]) -> str:
    """A JSON body in single quotes, each shell word of PLAYERS_OWN spliced in double quotes."""
    text = json.dumps(body).replace("'", "'\\''")
    for word in (FRESH, COMMITMENT):
        text = text.replace(f'"{word}"', f'"\'"{word}"\'"')
    return "-d '" + text + "'"


def curl_lines(steps: tuple[Step, ...] | list[Step]) -> list[str]:
    """The steps as a shell session ($B the server, $ID, $GM, $C and $P copied from the answers; `fresh`
    prints a new random id or entropy each time it runs)."""
    out = ["B=http://127.0.0.1:8080", f"{FRESH_DEFINITION}  # a new random id or entropy each time"]
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
            parts.append(_shell_body(s.body))
        out.append(" ".join(parts))
        if s.keeps == "encounter":
            out.append('ID=...; GM=...; C=...  # copy "id", "gm_token" and "commitment" from the answer')
        elif s.keeps == "seat":
            out.append('P=...                 # copy "token" from the answer')
    return out
