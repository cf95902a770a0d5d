"""Shared models and helpers for the rogue-trader tests (spec §6 "Common models")."""

from __future__ import annotations

from typing import Any

from tests.support.bodies import mods  # noqa: F401 - the tests import them from here

CHAINSWORD = {"id": "chainsword", "name": "chainsword", "type": "C", "S": 4}
LASPISTOL = {"id": "laspistol", "name": "laspistol", "type": "C", "S": 3, "range": 800}


def inch(x: float) -> int:
    """Inches to the API's hundredths."""
    return round(x * 100)


def at(x: float, y: float) -> list[int]:
    return [inch(x), inch(y)]


def marine(
    cid: str, x: float, y: float, *, side: str = "red", unit: str | None = None, facing: int = 0, **stats: Any
) -> dict[str, Any]:
    """`m*`: M4 WS4 BS4 S4 T4 W1 I4 A1 Ld8, save 4+, chainsword."""
    base = {
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
        "weapons": [dict(CHAINSWORD)],
        "unit": unit or cid,
    }
    base.update(stats)
    return {
        "id": cid,
        "name": cid.upper(),
        "side": side,
        "stats": base,
        "position": at(x, y),
        "facing": facing,
    }


def cultist(
    cid: str,
    x: float,
    y: float,
    *,
    side: str = "blue",
    unit: str | None = None,
    facing: int = 180,
    reactions: dict[str, str] | None = None,
    **stats: Any,
) -> dict[str, Any]:
    """`c*`: M4 WS3 BS3 S3 T3 W1 I3 A1 Ld7, no save, laspistol."""
    base = {
        "M": 4,
        "WS": 3,
        "BS": 3,
        "S": 3,
        "T": 3,
        "W": 1,
        "I": 3,
        "A": 1,
        "Ld": 7,
        "save": None,
        "weapons": [dict(LASPISTOL)],
        "unit": unit or cid,
    }
    base.update(stats)
    out = {
        "id": cid,
        "name": cid.upper(),
        "side": side,
        "stats": base,
        "position": at(x, y),
        "facing": facing,
    }
    out["reactions"] = reactions if reactions is not None else {"charged": "hold"}
    return out


async def encounter(
    tussle: Any,
    models: list[dict[str, Any]],
    *,
    options: dict[str, Any] | None = None,
    turn: int = 1,
    phase: str = "movement",
) -> Any:
    """A manual-dice encounter with the models added, at the given turn and phase."""
    opts = {"turn_order": ["red", "blue"]}
    opts.update(options or {})
    enc = await tussle.create("rogue-trader", options=opts, dice="manual")
    for m in models:
        await enc.add(m)
    await enc.ok("start_turn", turn=turn)
    await enc.ok("start_phase", phase=phase)
    return enc


def of_type(events: list[dict[str, Any]], type_: str, **match: Any) -> list[dict[str, Any]]:
    """The events of a type whose data has the given field values."""
    return [e for e in events if e["type"] == type_ and all(e["data"].get(k) == v for k, v in match.items())]


def rolls(events: list[dict[str, Any]], purpose: str) -> list[dict[str, Any]]:
    return [e["data"] for e in events if e["type"] == "DieRolled" and e["data"]["purpose"] == purpose]


async def red_charges_blue(
    tussle: Any, *extra: dict[str, Any], options: dict[str, Any] | None = None, **stats: dict[str, Any]
) -> Any:
    """E7's opening, turn 3: unit R (m1 at 8,10 and m2 at 8,12) charges unit B (c1 at 11,10 and c2 at 11,12),
    each model the one across from it; `stats` by model id (m1=..., c1=...), `extra` models join after."""
    enc = await encounter(
        tussle,
        [
            marine("m1", 8, 10, unit="R", **stats.get("m1", {})),
            marine("m2", 8, 12, unit="R", **stats.get("m2", {})),
            cultist("c1", 11, 10, unit="B", **stats.get("c1", {})),
            cultist("c2", 11, 12, unit="B", **stats.get("c2", {})),
            *extra,
        ],
        turn=3,
        options=options,
    )
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("rogue-trader.charge", combatant="m2", target="c2")
    return enc


async def e6_second_round(tussle: Any, options: dict[str, Any] | None = None) -> Any:
    """E6: m4 charged e1 (WS4 I4 T4) in turn 1; turn 2's close-combat phase has begun."""
    enc = await encounter(tussle, [marine("m4", 0, 0), cultist("e1", 3, 0, WS=4, I=4, T=4)], options=options)
    await enc.ok("rogue-trader.charge", combatant="m4", target="e1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    return enc
