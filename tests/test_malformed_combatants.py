"""A combatant whose stats have the wrong shape is a 400 naming the field, never a 500, in every ruleset.

Found by sending add_combatant bodies that are valid JSON but hold a number, a bool or null where the
ruleset iterates a list or reads a name (API.md "Errors": a field of the wrong type is a 400).
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

GURPS = {
    "id": "ana",
    "name": "Ana",
    "side": "a",
    "position": [0, 0],
    "facing": 0,
    "stats": {
        "ST": 10,
        "DX": 12,
        "basic_move": 5,
        "dodge": 8,
        "weapons": [{"name": "knife", "kind": "melee", "reach": ["C", "1"], "parry": 8, "damage": "1d-1"}],
    },
}
TFT = {
    "id": "troll",
    "name": "Troll",
    "side": "b",
    "position": [0, 0],
    "facing": 0,
    "stats": {"st": 35, "adj_dx": 11, "ma": 12, "natural_attacks": [{"name": "bite", "damage": "1d6+2"}]},
}
MARINE = {
    "id": "m1",
    "name": "M1",
    "side": "red",
    "position": [0, 0],
    "facing": 0,
    "stats": {
        "M": 4,
        "WS": 4,
        "BS": 4,
        "S": 4,
        "T": 4,
        "W": 1,
        "I": 4,
        "A": 1,
        "Ld": 8,
        "save": 4,
        "weapons": [{"id": "chainsword", "type": "C", "S": 4}],
    },
}
DEVIL = {
    "id": "dv",
    "name": "Devil",
    "side": "red",
    "position": [0, 0],
    "facing": 90,
    "stats": {"creature": "catachan_devil", "size": "small"},
}


def _with(figure: dict[str, Any], path: tuple[str, ...], value: Any) -> dict[str, Any]:
    """A copy of `figure` with the value at `path` (keys, then list indices as ints) replaced."""
    out = copy.deepcopy(figure)
    at: Any = out
    for key in path[:-1]:
        at = at[key]
    at[path[-1]] = value
    return out


CASES = [
    ("gurps", _with(GURPS, ("stats", "weapons"), 0), "combatant.stats.weapons"),
    ("gurps", _with(GURPS, ("stats", "weapons"), None), "combatant.stats.weapons"),
    ("gurps", _with(GURPS, ("stats", "weapons", 0, "name"), 7), "combatant.stats.weapons[0]"),
    ("gurps", _with(GURPS, ("stats", "weapons", 0, "name"), ["knife"]), "combatant.stats.weapons[0]"),
    ("gurps", _with(GURPS, ("stats", "traits"), True), "combatant.stats.traits"),
    ("tft", _with(TFT, ("stats", "natural_attacks"), True), "combatant.stats.natural_attacks"),
    ("tft", _with(TFT, ("stats", "natural_attacks"), 3), "combatant.stats.natural_attacks"),
    ("tft", _with(TFT, ("talents",), {"judo": "black belt"}), "combatant.stats.judo"),
    ("rogue-trader", _with(MARINE, ("stats", "weapons"), True), "stats.weapons"),
    ("rogue-trader", _with(MARINE, ("stats", "unit"), ["squad"]), "stats.unit"),
    ("rogue-trader", _with(MARINE, ("stats", "unit"), 5), "stats.unit"),
    ("rogue-trader", _with(MARINE, ("stats", "special_attacks"), 1), "stats.special_attacks"),
    (
        "rogue-trader",
        _with(DEVIL, ("stats", "special_attacks"), [{"kind": "bite", "count": "two"}]),
        "stats.special_attacks[0].count",
    ),
]


@pytest.mark.parametrize(
    ("ruleset", "combatant", "field"), CASES, ids=[f"{r}-{f}-{i}" for i, (r, _, f) in enumerate(CASES)]
)
async def test_wrongly_shaped_stats_are_a_400_naming_the_field(tussle, ruleset, combatant, field):
    enc = await tussle.create(ruleset)
    r = await enc.command("add_combatant", combatant=combatant)
    assert r.status == 400, r.body
    assert r.body["error"]["code"] == "bad_request"
    assert r.body["error"]["details"]["field"] == field
    assert (await enc.state())["combatants"] == {}


async def test_a_unit_named_by_a_string_still_joins(tussle):
    """The unit check refuses only what cannot be a name: a string unit, or none, joins as before."""
    enc = await tussle.create("rogue-trader")
    await enc.add(_with(MARINE, ("stats", "unit"), "squad"))
    await enc.add(_with(_with(MARINE, ("id",), "m2"), ("stats", "unit"), None))
    models = (await enc.state())["rules"]["models"]
    assert (models["m1"]["unit"], models["m2"]["unit"]) == ("squad", "m2")
