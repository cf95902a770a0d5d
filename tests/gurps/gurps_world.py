"""A pure test world for the gurps ruleset: the engine's own decide pipeline and reducer, manual
dice, no server. Also the figures of the spec's worked examples."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import EncounterCreated
from events.dice import Dice
from events.envelope import Event
from projections.state import evolve, initial_state, replay
from rules.common import commands as common
from rules.common.deciding import Context
from rules.gurps import ruleset
from rules.gurps.options import DEFAULTS
from rules.interface import geometry_hex
from server.deciding import decide_command

KNIFE = {"name": "knife", "kind": "melee", "reach": ["C", "1"], "parry": 8, "damage": "1d-1", "skill": "Knife"}
HAND = {"name": "hand", "kind": "melee", "reach": ["C"], "parry": 7, "damage": "1d-2", "unarmed": True}
BROADSWORD = {"name": "broadsword", "kind": "melee", "reach": ["1"], "parry": 9, "damage": "1d+2"}
PISTOL = {"name": "pistol", "kind": "ranged", "bulk": -2, "damage": "2d", "skill": "Guns"}


def fig(cid: str, side: str, pos: list[int], *, facing: int = 0, posture: str = "standing", st: int = 10,
        dx: int = 10, move: int = 5, dodge: int = 8, **stats: Any) -> dict[str, Any]:
    """A combatant for add_combatant."""
    extra = {k: v for k, v in stats.items() if k not in ("items", "reactions", "controller")}
    out = {"id": cid, "name": cid.capitalize(), "side": side, "position": pos, "facing": facing, "posture": posture,
           "stats": {"ST": st, "DX": dx, "basic_move": move, "dodge": dodge, **extra}}
    for k in ("items", "reactions", "controller"):
        if k in stats:
            out[k] = stats[k]
    return out


class World:
    """An encounter folded in memory; `run` sends a command as the GM with manual dice."""

    def __init__(self, **options: Any):
        self.state = initial_state()
        self.log: list[Event] = []
        self.count = 0
        opts = {**DEFAULTS, **options}
        created = EncounterCreated("t", "gurps", "1", opts, geometry_hex(), None, "manual")
        self.state = dict(self.state, rules=ruleset.initial_state(opts))
        self._append(type(created).__name__, msgspec.to_builtins(created))

    def _append(self, type_: str, data: dict[str, Any]) -> Event:
        e = Event("s", len(self.log) + 1, type_, data, "gm", f"c{self.count}", "", "", "")
        self.log.append(e)
        self.state = evolve(self.state, e, ruleset)
        return e

    def run(self, cmd: Any, dice: list[list[int]] | None = None) -> list[dict[str, Any]]:
        """Decide and append one command; the appended events as {type, **data}."""
        self.count += 1
        ctx = Context(stream="s", actor="gm", command_id=f"c{self.count}")
        d = Dice(stream="s", command_id=f"c{self.count}", supplied=dice or [])
        new = decide_command(self.state, ruleset, cmd, ctx, d)
        return [{"type": ne.type, **self._append(ne.type, ne.data).data} for ne in new]

    def fact(self, *structs: Any) -> None:
        """Append events directly (a set-up shortcut for states the commands reach the long way)."""
        for st in structs:
            self._append(type(st).__name__, msgspec.to_builtins(st))

    def add(self, combatant: dict[str, Any]) -> None:
        self.run(common.AddCombatant(combatant=combatant))

    def turn(self, n: int) -> list[dict[str, Any]]:
        return self.run(common.StartTurn(turn=n))

    def respond(self, choice: str, dice: list[list[int]] | None = None, **params: Any) -> list[dict[str, Any]]:
        rid = self.state["pending"][-1]["id"]
        return self.run(common.Respond(reaction=rid, choice=choice, params=params), dice)

    def c(self, cid: str) -> dict[str, Any]:
        return self.state["combatants"][cid]

    @property
    def rules(self) -> dict[str, Any]:
        return self.state["rules"]

    def replayed(self) -> dict[str, Any]:
        return replay(self.log, lambda e: ruleset)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def of_type(events: list[dict[str, Any]], t: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == t]


def one(events: list[dict[str, Any]], t: str) -> dict[str, Any]:
    found = of_type(events, t)
    assert len(found) == 1, (t, types(events))
    return found[0]
