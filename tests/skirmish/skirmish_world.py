"""A pure, in-memory skirmish encounter: the engine's own command pipeline (server.deciding) with manual dice,
folding events with projections.state.evolve, plus the figures and test charts of spec section 5."""

from __future__ import annotations

from typing import Any

from events.common import EncounterCreated
from events.dice import Dice
from events.envelope import Event, NewEvent
from projections.state import evolve, initial_state, replay
from rules.common.deciding import Context
from rules.common.options import resolve_options
from rules.registry import Registry
from rules.skirmish import ruleset
from server.deciding import decide_command, to_new_event

REGISTRY = Registry([ruleset])

# Spec section 5, TEST CHARTS (fictional test data, NOT the seed's).
DAMAGE_CHART = [
    {"max": 50, "result": "no_effect"},
    {"min": 51, "max": 80, "result": "light"},
    {"min": 81, "max": 100, "result": "serious"},
    {"min": 101, "max": 120, "result": "critical"},
    {"min": 121, "result": "mortal"},
]
FALL_CHART = [{"max": 60, "result": "no_effect"}, {"min": 61, "result": "light"}]
TEST_CHARTS = {"damage_chart": DAMAGE_CHART, "fall_chart": FALL_CHART}

# Spec section 5 figures. Voss faces +x at the origin; Hale starts 5" behind him (on -x), so when Hale closes
# in, Voss faces the wrong way. One move is 6".
HALE = {"id": "hale", "name": "Sgt Hale", "side": "a", "position": [-500, 0], "facing": 0,
        "stats": {"street_fighter": True, "hth_weapon": "sword", "morale": 60, "move_in": 6},
        "items": [{"id": "sword", "kind": "regular_weapon", "name": "sword"}]}
VOSS = {"id": "voss", "name": "Pvt Voss", "side": "b", "position": [0, 0], "facing": 0,
        "stats": {"hth_weapon": "rifle_bayonet", "speedy": True, "move_in": 6},
        "items": [{"id": "rifle", "kind": "regular_weapon", "name": "rifle and bayonet"},
                  {"id": "grenade", "kind": "grenade", "name": "grenade"}]}
KURT = {"id": "kurt", "name": "Cpl Kurt", "side": "a", "position": [0, 300], "facing": 270,
        "stats": {"hth_weapon": "other", "move_in": 6}}


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

    def add(self, figure: dict[str, Any], **changes: Any) -> None:
        fig = {**figure, **changes}
        self.send("add_combatant", combatant=fig)

    def draw(self, place: int) -> list[Event]:
        return self.send("skirmish.draw_card", dice=[[place]])

    def draw_card_of(self, cid: str) -> list[Event]:
        """Draw the card that activates `cid` (its place among the undrawn cards)."""
        card = next(c["card"] for c in self.rules["deck"] if cid in c["combatants"])
        return self.draw(self.rules["undrawn"].index(card) + 1)

    def pending(self, kind: str) -> dict[str, Any]:
        return next(p for p in self.state["pending"] if p["kind"] == kind)

    def replayed(self) -> dict[str, Any]:
        return replay(self.log, lambda e: ruleset)

    def describe_all(self) -> list[str | None]:
        """Every event's sentence, each described against the state before it."""
        state = {**initial_state(), "rules": ruleset.initial_state(self.options)}
        out = []
        for e in self.log:
            out.append(ruleset.describe(state, e))
            state = evolve(state, e, ruleset)
        return out

    @property
    def rules(self) -> dict[str, Any]:
        return self.state["rules"]

    def combatant(self, cid: str) -> dict[str, Any]:
        return self.state["combatants"][cid]


def hale_and_voss(**options: Any) -> World:
    w = World(**options)
    w.add(HALE)
    w.add(VOSS)
    return w


def types(events: list[Event]) -> list[str]:
    return [e.type for e in events]


def of_type(events: list[Event], name: str) -> list[dict[str, Any]]:
    return [e.data for e in events if e.type == name]


def rolls(events: list[Event]) -> list[dict[str, Any]]:
    return of_type(events, "DieRolled")


def mods(roll: dict[str, Any]) -> list[tuple[int, str]]:
    return [(m["value"], m["reason"]) for m in roll["modifiers"]]
