"""A pure test world for the gurps ruleset: the engine's own decide pipeline and reducer, manual
dice, no server. Also the figures of the spec's worked examples."""

from __future__ import annotations

from typing import Any

from events.dice import Dice
from rules.common import commands as common
from rules.gurps import ruleset
from rules.pipeline import Context, decide_command, to_new_event
from tests.support.bodies import decided
from tests.support.pure_world import PureWorld

KNIFE = {
    "name": "knife",
    "kind": "melee",
    "reach": ["C", "1"],
    "parry": 8,
    "damage": "1d-1",
    "skill": "Knife",
}
HAND = {"name": "hand", "kind": "melee", "reach": ["C"], "parry": 7, "damage": "1d-2", "unarmed": True}
BROADSWORD = {"name": "broadsword", "kind": "melee", "reach": ["1"], "parry": 9, "damage": "1d+2"}
PISTOL = {"name": "pistol", "kind": "ranged", "bulk": -2, "damage": "2d", "skill": "Guns"}


def fig(
    cid: str,
    side: str,
    pos: list[int],
    *,
    facing: int = 0,
    posture: str = "standing",
    st: int = 10,
    dx: int = 10,
    move: int = 5,
    dodge: int = 8,
    **stats: Any,
) -> dict[str, Any]:
    """A combatant for add_combatant."""
    extra = {k: v for k, v in stats.items() if k not in ("items", "reactions", "controller")}
    out = {
        "id": cid,
        "name": cid.capitalize(),
        "side": side,
        "position": pos,
        "facing": facing,
        "posture": posture,
        "stats": {"ST": st, "DX": dx, "basic_move": move, "dodge": dodge, **extra},
    }
    for k in ("items", "reactions", "controller"):
        if k in stats:
            out[k] = stats[k]
    return out


class World(PureWorld):
    """A gurps encounter folded in memory; `run` sends a command Struct as the GM with manual dice."""

    def __init__(self, **options: Any):
        super().__init__(ruleset, **options)

    def run(self, cmd: Any, dice: list[list[int]] | None = None) -> list[dict[str, Any]]:
        """Decide and append one command; the appended events as {type, **data}."""
        self.commands += 1
        command_id = f"c{self.commands}"
        ctx = Context(stream="s", actor="gm", command_id=command_id)
        d = Dice(stream="s", command_id=command_id, supplied=dice or [])
        appended = self._append(decide_command(self.state, ruleset, cmd, ctx, d), "gm", command_id)
        return [{"type": e.type, **decided(e.data)} for e in appended]

    def fact(self, *structs: Any) -> None:
        """Append events directly (a set-up shortcut for states the commands reach the long way)."""
        self._append([to_new_event(st) for st in structs], "gm", f"c{self.commands}")

    def add(self, combatant: dict[str, Any]) -> None:
        self.run(common.AddCombatant(combatant=combatant))

    def turn(self, n: int) -> list[dict[str, Any]]:
        return self.run(common.StartTurn(turn=n))

    def respond(
        self, choice: str, dice: list[list[int]] | None = None, **params: Any
    ) -> list[dict[str, Any]]:
        rid = self.state["pending"][-1]["id"]
        return self.run(common.Respond(reaction=rid, choice=choice, params=params), dice)

    def c(self, cid: str) -> dict[str, Any]:
        return self.combatant(cid)


def types(events: list[dict[str, Any]]) -> list[str]:
    return [e["type"] for e in events]


def of_type(events: list[dict[str, Any]], t: str) -> list[dict[str, Any]]:
    return [e for e in events if e["type"] == t]


def one(events: list[dict[str, Any]], t: str) -> dict[str, Any]:
    found = of_type(events, t)
    assert len(found) == 1, (t, types(events))
    return found[0]
