"""The `freeform` ruleset: the common commands only, with players allowed to `move`."""

from __future__ import annotations

from typing import Any

import msgspec

from rules.acting import gm_step, name_of, reactions_acting
from rules.interface import FirstTurn, Ruleset, geometry_hex
from rules.json_shapes import ENGINE_RESUME, record

NO_ORDER = "freeform keeps no turn order of its own: the GM says who acts"


class FreeformOptions(msgspec.Struct, forbid_unknown_fields=True):
    """Freeform has no options of its own."""


class Freeform(Ruleset):
    id = "freeform"
    title = "Freeform (common commands only)"
    version = "1"
    Options = FreeformOptions
    geometry = geometry_hex(position_required=False)
    players_may_move = True  # freeform has no movement rules of its own
    rules_shape = record({}, about="freeform keeps no state of its own.")
    resume_shape = ENGINE_RESUME  # it asks nothing of its own: only the engine's `ask`
    first_turn = FirstTurn(
        name="Tavern brawl",
        combatants=(
            {"id": "brenna", "name": "Brenna", "side": "guests", "stats": {"brawl": 3}},
            {"id": "bouncer", "name": "Bouncer", "side": "house", "stats": {"brawl": 2}},
        ),
        plays=("brenna",),
        commands=(
            ("gm", "The GM starts turn 1 ...", {"type": "start_turn", "turn": 1}),
            ("gm", "... and names a phase (freeform takes any).", {"type": "start_phase", "phase": "fight"}),
            (
                "player",
                "Alice rolls for Brenna's brawl.",
                {"type": "roll", "expression": "2d6+3", "purpose": "brawl", "combatant": "brenna"},
            ),
        ),
    )

    def legal_actions(self, state: dict[str, Any], combatant: str) -> list[str]:
        """The plain `move` a seat may send (players_may_move) while nothing waits for an answer, so the
        page offers it and its map takes the click; the rest is the GM's (the common commands)."""
        c = state["combatants"].get(combatant)
        if state.get("closed") or state.get("pending") or c is None:
            return []
        return ["move"]

    def acting_now(self, state: dict[str, Any]) -> list[dict[str, Any]]:
        """Whoever a pending reaction asks; else the GM, who runs the table."""
        if state.get("closed"):
            return []
        if state.get("pending"):
            return reactions_acting(state)
        order = [name_of(state, c) for c in state.get("initiative", []) if c in state["combatants"]]
        return [
            gm_step(
                state,
                NO_ORDER + (f" (the initiative order set: {', '.join(order)})" if order else ""),
                "run the table",
            )
        ]

    def next_slot(self, state: dict[str, Any], combatant: str) -> str | None:
        if combatant not in state["combatants"] or any(
            p.get("combatant") == combatant for p in state["pending"]
        ):
            return None
        who = name_of(state, combatant)
        return f"{who} acts when the GM calls on {who} ({NO_ORDER})"


ruleset = Freeform()
