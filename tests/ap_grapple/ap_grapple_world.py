"""A pure, in-memory encounter for the ap-grapple tests: the engine's own command pipeline
(server.deciding) with manual dice, folding events with projections.state.evolve."""

from __future__ import annotations

from typing import Any

from events.common import EncounterCreated
from events.dice import Dice
from events.envelope import Event, NewEvent
from projections.state import evolve, initial_state, replay
from rules.ap_grapple import ruleset
from rules.common.deciding import Context
from rules.common.options import resolve_options
from rules.registry import Registry
from server.deciding import decide_command, to_new_event

REGISTRY = Registry([ruleset])

# Spec section 5: Aldo 170 lb, ST 14, THAC0 16, AP 5; Berk 180 lb, ST 12, AC 6, 9 hp; Cade 250 lb, THAC0 17.
ALDO = {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "ap_per_round": 5, "hp": 10}
BERK = {"weight_lb": 180, "strength": 12, "thac0": 18, "ac": 6, "hp": 9}
CADE = {"weight_lb": 250, "strength": 16, "thac0": 17, "ac": 4, "hp": 12}

# Aldo at the origin looking along direction 0 at Berk: left = A + dir(1), right = A + dir(5).
ALDO_HEX, BERK_HEX, CADE_HEX = [0, 0], [1, 0], [4, 0]
LEFT_HEX, RIGHT_HEX = [1, -1], [0, 1]


class World:
    """One encounter: `send` runs a command as the engine would and appends its events."""

    def __init__(self, **options: Any):
        self.options = resolve_options(ruleset, options)
        self.state: dict[str, Any] = {**initial_state(), "rules": ruleset.initial_state(self.options)}
        self.log: list[Event] = []
        self.commands = 0
        created = EncounterCreated("test", ruleset.id, ruleset.version, self.options, dict(ruleset.geometry),
                                   None, "manual")
        self._append([to_new_event(created)], "gm", "create")

    def _append(self, new: list[NewEvent], actor: str, command_id: str) -> list[Event]:
        out = []
        for ne in new:
            e = Event("s", self.state["seq"] + 1, ne.type, ne.data, actor, command_id, "", "", "")
            self.state = evolve(self.state, e, ruleset)
            self.log.append(e)
            out.append(e)
        return out

    def send(self, type: str, *, dice: list[list[int]] | None = None, actor: str = "gm", **fields: Any) -> list[Event]:
        """Decide and append one command (raises RuleError/BadCommand/Forbidden like the server)."""
        cmd = REGISTRY.command(ruleset.id, {"type": type, **fields})
        self.commands += 1
        command_id = f"c{self.commands}"
        ctx = Context(stream="s", actor=actor, command_id=command_id)
        d = Dice(stream="s", command_id=command_id, supplied=list(dice or []))
        return self._append(decide_command(self.state, ruleset, cmd, ctx, d), actor, command_id)

    def add(self, cid: str, name: str, side: str, position: list[int], stats: dict[str, Any],
            **extra: Any) -> None:
        self.send("add_combatant", combatant={"id": cid, "name": name, "side": side, "position": position,
                                              "facing": 0, "stats": dict(stats), **extra})

    def replayed(self) -> dict[str, Any]:
        return replay(self.log, lambda e: ruleset)

    @property
    def rules(self) -> dict[str, Any]:
        return self.state["rules"]

    def combatant(self, cid: str) -> dict[str, Any]:
        return self.state["combatants"][cid]


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: list[Event], name: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == name]


def worked_example_world(with_cade: bool = True, **options: Any) -> World:
    """Aldo next to Berk (Cade four hexes away), round 1 started."""
    w = World(**options)
    w.add("aldo", "Aldo", "a", ALDO_HEX, ALDO)
    w.add("berk", "Berk", "b", BERK_HEX, BERK)
    if with_cade:
        w.add("cade", "Cade", "a", CADE_HEX, CADE)
    w.send("start_turn")
    return w


def grab(w: World, d20: int, d100: int | None = None, **fields: Any) -> list[Event]:
    dice = [[d20]] if d100 is None else [[d20], [d100]]
    return w.send("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=dice, **fields)


def g1(w: World) -> list[Event]:
    """Worked example G1: Aldo grabs Berk, d20 [13], d100 [37]."""
    return grab(w, 13, 37)
