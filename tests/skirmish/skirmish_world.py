"""A pure, in-memory skirmish encounter (tests/support/pure_world.py), plus the figures and test charts of
spec section 5."""

from __future__ import annotations

from typing import Any

from events.envelope import Event
from rules.skirmish import ruleset
from rules.state import evolve, initial_state
from tests.support.bodies import mods  # noqa: F401 - the tests import them from here
from tests.support.pure_world import PureWorld, of_type, types  # noqa: F401 - the tests import them from here

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
HALE = {
    "id": "hale",
    "name": "Sgt Hale",
    "side": "a",
    "position": [-500, 0],
    "facing": 0,
    "stats": {"street_fighter": True, "hth_weapon": "sword", "morale": 60, "move_in": 6},
    "items": [{"id": "sword", "kind": "regular_weapon", "name": "sword"}],
}
VOSS = {
    "id": "voss",
    "name": "Pvt Voss",
    "side": "b",
    "position": [0, 0],
    "facing": 0,
    "stats": {"hth_weapon": "rifle_bayonet", "speedy": True, "move_in": 6},
    "items": [
        {"id": "rifle", "kind": "regular_weapon", "name": "rifle and bayonet"},
        {"id": "grenade", "kind": "grenade", "name": "grenade"},
    ],
}
KURT = {
    "id": "kurt",
    "name": "Cpl Kurt",
    "side": "a",
    "position": [0, 300],
    "facing": 270,
    "stats": {"hth_weapon": "other", "move_in": 6},
}


class World(PureWorld):
    """One skirmish encounter: `send` runs a command as the engine would and appends its events."""

    def __init__(self, **options: Any):
        super().__init__(ruleset, **options)

    def add(self, figure: dict[str, Any], **changes: Any) -> None:
        fig = {**figure, **changes}
        self.send("add_combatant", combatant=fig)

    def draw(self, place: int) -> list[Event]:
        """Draw the card at `place` among the undrawn ones (the last card is turned up with no dice)."""
        if len(self.rules["undrawn"]) == 1:
            return self.send("skirmish.draw_card")
        return self.send("skirmish.draw_card", dice=[[place]])

    def draw_card_of(self, cid: str) -> list[Event]:
        """Draw the card that activates `cid` (its place among the undrawn cards)."""
        card = next(c["card"] for c in self.rules["deck"] if cid in c["combatants"])
        return self.draw(self.rules["undrawn"].index(card) + 1)

    def pending(self, kind: str) -> dict[str, Any]:
        return next(p for p in self.state["pending"] if p["kind"] == kind)

    def e3_grapple(self) -> list[Event]:
        """E3 (spec 5): Hale's card is drawn and he grapples Voss (blow 22, fall 71, morale 45 passed)."""
        self.draw_card_of("hale")
        return self.send("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71], [45]])

    def sentences(self) -> list[str]:
        """The log's sentences, each event described against the state before it (events without one left out)."""
        return [s for s in self.describe_all() if s]

    def describe_all(self) -> list[str | None]:
        """Every event's sentence, each described against the state before it."""
        state = {**initial_state(), "rules": ruleset.initial_state(self.options)}
        out = []
        for e in self.log:
            out.append(ruleset.describe(state, e))
            state = evolve(state, e, ruleset)
        return out


def hale_and_voss(**options: Any) -> World:
    w = World(**options)
    w.add(HALE)
    w.add(VOSS)
    return w


def rolls(events: list[Event]) -> list[dict[str, Any]]:
    return of_type(events, "DieRolled")
