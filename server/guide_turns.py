"""Each ruleset's worked first turn, kept as data: the guides render it as curl lines and
tests/test_guides.py plays it against a live server, so a guide's example cannot stop working."""

from __future__ import annotations

import json
from typing import Any, Literal

import msgspec

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


def _create(ruleset: str, name: str, options: dict[str, Any] | None = None) -> Step:
    body: dict[str, Any] = {"name": name, "ruleset": ruleset}
    if options:
        body["options"] = options
    return Step(note="Create the encounter: the answer holds its id, the GM token and the dice commitment.",
                path="/encounters", who="anyone", body=body, keeps="encounter")


def _add(combatant: dict[str, Any]) -> Step:
    return Step(note=f"{combatant['name']} joins, with its stats.", body={"type": "add_combatant",
                                                                         "combatant": combatant})


def _seat(name: str, combatants: list[str]) -> Step:
    return Step(note=f"A seat for {name}, who plays {', '.join(combatants)}: the answer holds the seat's token.",
                path="/encounters/{id}/seats", body={"name": name, "combatants": combatants}, keeps="seat")


def _turn(phases: tuple[str, ...]) -> list[Step]:
    steps = [Step(note="The GM starts turn 1.", body={"type": "start_turn", "turn": 1})]
    steps += [Step(note=f"... and its {p} phase.", body={"type": "start_phase", "phase": p}) for p in phases]
    return steps


def _log() -> list[Step]:
    return [Step(note="Whose turn is it now, and what is asked of Alice's seat?", method="GET",
                 path="/encounters/{id}/me", who="player"),
            Step(note="The log, ready for a forum post (format=bbcode also; turn=1 for one turn).", method="GET",
                 path="/encounters/{id}/log?format=markdown", who="gm")]


FIRST_TURNS: dict[str, tuple[Step, ...]] = {
    "tft": (
        _create("tft", "Troll bridge"),
        _add({"id": "simeth", "name": "Simeth", "side": "heroes", "position": [0, 0], "facing": 0,
              "stats": {"st": 12, "dx": 12, "iq": 10, "adj_dx": 12, "ma": 12}}),
        _add({"id": "troll", "name": "Troll", "side": "monsters", "position": [1, 0], "facing": 3,
              "stats": {"st": 30, "dx": 11, "iq": 7, "adj_dx": 11, "ma": 10}}),
        _seat("Alice", ["simeth"]),
        *_turn(("movement", "action")),
        Step(note="Simeth (MA 12, faster than the troll: entry condition C1) tries to get into HTH.", who="player",
             body={"type": "tft.enter_hth", "combatant": "simeth", "target": "troll", "command_id": "alice-0001",
                   "entropy": "k3J9vQ2mXz81LpTa"}),
        *_log(),
    ),
    "freeform": (
        _create("freeform", "Tavern brawl"),
        _add({"id": "brenna", "name": "Brenna", "side": "guests", "stats": {"brawl": 3}}),
        _add({"id": "bouncer", "name": "Bouncer", "side": "house", "stats": {"brawl": 2}}),
        _seat("Alice", ["brenna"]),
        *_turn(("fight",)),
        Step(note="Alice rolls for Brenna, with her own command id and entropy.", who="player",
             body={"type": "roll", "expression": "2d6+3", "purpose": "brawl", "combatant": "brenna",
                   "command_id": "alice-0001", "entropy": "k3J9vQ2mXz81LpTa"}),
        *_log(),
    ),
}

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
            parts.append("-d '" + json.dumps(s.body) + "'")
        out.append(" ".join(parts))
        if s.keeps == "encounter":
            out.append('ID=...; GM=...        # copy "id" and "gm_token" from the answer')
        elif s.keeps == "seat":
            out.append('P=...                 # copy "token" from the answer')
    return out
