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
    "ap-grapple": (
        _create("ap-grapple", "Wrestling in the mud"),
        _add({"id": "aldo", "name": "Aldo", "side": "heroes", "position": [0, 0], "facing": 0,
              "stats": {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "ap_per_round": 5, "hp": 10}}),
        _add({"id": "berk", "name": "Berk", "side": "bandits", "position": [1, 0], "facing": 3,
              "stats": {"weight_lb": 180, "strength": 12, "thac0": 18, "ac": 6, "hp": 9}}),
        _seat("Alice", ["aldo"]),
        Step(note="The GM starts round 1 (a round is a turn: every combatant gets its AP back).",
             body={"type": "start_turn", "turn": 1}),
        Step(note="Aldo makes a grab at Berk: 3 AP, a to-hit roll, then a d100 to pull him off balance "
                  "(on a pull, Alice is asked where to swing him: answer with ap-grapple.swing_target).",
             who="player", body={"type": "ap-grapple.make_a_grab", "combatant": "aldo", "target": "berk",
                                 "command_id": "alice-0001", "entropy": "k3J9vQ2mXz81LpTa"}),
        *_log(),
    ),
    "gurps": (
        _create("gurps", "Alley fight"),
        _add({"id": "ana", "name": "Ana", "side": "heroes", "position": [-2, 0], "facing": 0,
              "stats": {"ST": 10, "DX": 12, "basic_move": 6, "dodge": 8,
                        "weapons": [{"name": "hand", "kind": "melee", "reach": ["C"], "parry": 7,
                                     "damage": "1d-2", "unarmed": True}]}}),
        _add({"id": "bors", "name": "Bors", "side": "thugs", "position": [0, 0], "facing": 3, "posture": "prone",
              "stats": {"ST": 10, "DX": 11, "basic_move": 5, "dodge": 8}}),
        _seat("Alice", ["ana"]),
        Step(note="The GM starts turn 1 (GURPS has no phases: each figure takes its turn).",
             body={"type": "start_turn", "turn": 1}),
        Step(note="Ana chooses the Move maneuver ...", who="player",
             body={"type": "gurps.choose_maneuver", "combatant": "ana", "maneuver": "Move",
                   "command_id": "alice-0001", "entropy": "k3J9vQ2mXz81LpTa"}),
        Step(note="... and evades through the prone Bors' hex: Bors' side is asked to stop her or let her pass.",
             who="player", body={"type": "gurps.evade", "combatant": "ana", "target": "bors",
                                 "path": [[-1, 0], [0, 0], [1, 0]], "command_id": "alice-0002",
                                 "entropy": "p8Qw2LzN5vR1mXc7"}),
        *_log(),
    ),
    "rogue-trader": (
        _create("rogue-trader", "Hive stair", {"turn_order": ["red", "blue"]}),
        _add({"id": "m1", "name": "Brother Kael", "side": "red", "position": [0, 0], "facing": 0,
              "stats": {"M": 4, "WS": 4, "BS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 8, "save": 4,
                        "unit": "kael", "weapons": [{"id": "chainsword", "name": "chainsword", "type": "C",
                                                     "S": 4}]}}),
        _add({"id": "c1", "name": "Cultist", "side": "blue", "position": [300, 0], "facing": 180,
              "reactions": {"charged": "hold"},
              "stats": {"M": 4, "WS": 3, "BS": 3, "S": 3, "T": 3, "W": 1, "I": 3, "A": 1, "Ld": 7, "save": None,
                        "unit": "cult", "weapons": [{"id": "laspistol", "name": "laspistol", "type": "C",
                                                     "S": 3, "range": 800}]}}),
        _seat("Alice", ["m1"]),
        *_turn(("movement",)),
        Step(note="Brother Kael charges the cultist 3 inches away (the cultist's standing order: hold).",
             who="player", body={"type": "rogue-trader.charge", "combatant": "m1", "target": "c1",
                                 "command_id": "alice-0001", "entropy": "k3J9vQ2mXz81LpTa"}),
        Step(note="On to the close combat phase.", body={"type": "start_phase", "phase": "close_combat"}),
        *_log(),
    ),
    "skirmish": (
        _create("skirmish", "Farmhouse door", {"deck": [{"card": "all", "combatants": ["hale", "voss"]}]}),
        _add({"id": "hale", "name": "Sgt Hale", "side": "allies", "position": [-100, 0], "facing": 0,
              "stats": {"street_fighter": True, "hth_weapon": "sword", "morale": 60, "move_in": 6},
              "items": [{"id": "sword", "kind": "regular_weapon", "name": "sword"}]}),
        _add({"id": "voss", "name": "Pvt Voss", "side": "axis", "position": [0, 0], "facing": 0,
              "stats": {"hth_weapon": "rifle_bayonet", "speedy": True, "move_in": 6},
              "items": [{"id": "rifle", "kind": "regular_weapon", "name": "rifle and bayonet"}]}),
        _seat("Alice", ["hale"]),
        Step(note="The GM starts turn 1 (skirmish has no phases: the deck decides who acts).",
             body={"type": "start_turn", "turn": 1}),
        Step(note="The GM draws the next card: this deck has one, activating both figures.",
             body={"type": "skirmish.draw_card"}),
        Step(note="Sgt Hale strikes at Voss, who faces away: Voss' side is asked to parry or evade.", who="player",
             body={"type": "skirmish.strike", "combatant": "hale", "target": "voss", "command_id": "alice-0001",
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
            parts.append("-d '" + json.dumps(s.body).replace("'", "'\\''") + "'")
        out.append(" ".join(parts))
        if s.keeps == "encounter":
            out.append('ID=...; GM=...        # copy "id" and "gm_token" from the answer')
        elif s.keeps == "seat":
            out.append('P=...                 # copy "token" from the answer')
    return out
