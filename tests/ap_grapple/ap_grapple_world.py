"""A pure, in-memory encounter for the ap-grapple tests (tests/support/pure_world.py) and the figures of
spec section 5."""

from __future__ import annotations

from typing import Any

from events.envelope import Event
from rules.ap_grapple import ruleset
from tests.support.pure_world import PureWorld, of_type, types  # noqa: F401 - the tests import them from here

# Spec section 5: Aldo 170 lb, ST 14, THAC0 16, AP 5; Berk 180 lb, ST 12, AC 6, 9 hp; Cade 250 lb, THAC0 17.
ALDO = {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "ap_per_round": 5, "hp": 10}
BERK = {"weight_lb": 180, "strength": 12, "thac0": 18, "ac": 6, "hp": 9}
CADE = {"weight_lb": 250, "strength": 16, "thac0": 17, "ac": 4, "hp": 12}

# Aldo at the origin looking along direction 0 at Berk: left = A + dir(1), right = A + dir(5).
ALDO_HEX, BERK_HEX, CADE_HEX = [0, 0], [1, 0], [4, 0]
LEFT_HEX, RIGHT_HEX = [1, -1], [0, 1]


class World(PureWorld):
    """One ap-grapple encounter: `send` runs a command as the engine would and appends its events."""

    def __init__(self, **options: Any):
        super().__init__(ruleset, **options)

    def add(
        self, cid: str, name: str, side: str, position: list[int], stats: dict[str, Any], **extra: Any
    ) -> None:
        self.send(
            "add_combatant",
            combatant={
                "id": cid,
                "name": name,
                "side": side,
                "position": position,
                "facing": 0,
                "stats": dict(stats),
                **extra,
            },
        )


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
