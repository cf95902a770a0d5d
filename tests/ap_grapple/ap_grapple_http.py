"""Helpers for the ap-grapple HTTP tests: spec section 5's combatants on the map, and event pickers."""

from __future__ import annotations

from typing import Any

from ap_grapple_world import ALDO, ALDO_HEX, BERK, BERK_HEX, CADE, CADE_HEX

from tests.support.bodies import data, types  # noqa: F401 - the tests import them from here


def fighter(
    cid: str, side: str, stats: dict[str, Any], position: list[int], facing: int = 0
) -> dict[str, Any]:
    return {
        "id": cid,
        "name": cid.title(),
        "side": side,
        "stats": stats,
        "position": position,
        "facing": facing,
    }


ALDO_FIGHTER = fighter("aldo", "a", ALDO, ALDO_HEX, 0)
BERK_FIGHTER = fighter("berk", "b", BERK, BERK_HEX, 3)
CADE_FIGHTER = fighter("cade", "a", CADE, CADE_HEX, 3)


async def encounter(
    tussle,
    *,
    figures: tuple[dict[str, Any], ...] = (ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER),
    start: bool = True,
    **options: Any,
):
    """A manual-dice ap-grapple encounter with the figures joined and round 1 started (the GM's view)."""
    enc = await tussle.create("ap-grapple", options=options, dice="manual")
    for f in figures:
        await enc.add(f)
    if start:
        await enc.ok("start_turn")
    return enc


async def g1(enc) -> dict[str, Any]:
    """Worked example G1: Aldo grabs Berk, d20 [13], d100 [37]."""
    return await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])


async def log_texts(enc) -> list[str]:
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    return [e["text"] for e in r.body["entries"]]
