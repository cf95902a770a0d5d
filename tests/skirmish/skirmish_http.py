"""Helpers for the skirmish HTTP tests: an encounter with spec section 5's figures, and event pickers."""

from __future__ import annotations

from typing import Any

from skirmish_world import HALE, TEST_CHARTS, VOSS

from tests.support.bodies import data, mods, types  # noqa: F401 - the tests import them from here

# Voss turned to face Hale (west), so only what a test sets up faces the wrong way.
VOSS_FACING_HALE = {**VOSS, "facing": 180}


async def encounter(
    tussle, *, charts: bool = True, figures: tuple[dict[str, Any], ...] = (HALE, VOSS), **options: Any
):
    """A manual-dice skirmish encounter with the figures joined and turn 1 started (the GM's view)."""
    enc = await tussle.create(
        "skirmish", options={**(TEST_CHARTS if charts else {}), **options}, dice="manual"
    )
    for f in figures:
        await enc.add(f)
    await enc.ok("start_turn")
    return enc


def rolls(body: dict[str, Any], purpose: str) -> list[dict[str, Any]]:
    return [d for d in data(body, "DieRolled") if d["purpose"] == purpose]


async def draw(enc, cid: str) -> dict[str, Any]:
    """Draw the card that activates `cid` (its place among the undrawn cards; the last card needs no dice)."""
    rules = (await enc.state())["rules"]
    card = next(c["card"] for c in rules["deck"] if cid in c["combatants"])
    if rules["undrawn"] == [card]:
        return await enc.ok("skirmish.draw_card")
    return await enc.ok("skirmish.draw_card", dice=[[rules["undrawn"].index(card) + 1]])


async def strike(enc, attacker: str = "hale", defender: str = "voss", **fields: Any) -> dict[str, Any]:
    """Draw the attacker's card and strike; the body of the strike command."""
    await draw(enc, attacker)
    return await enc.ok("skirmish.strike", combatant=attacker, target=defender, **fields)


async def strike_and_answer(
    enc, choice: str, dice: list[list[int]], attacker: str = "hale", defender: str = "voss", **answer: Any
) -> dict[str, Any]:
    """Strike, then answer the defence question as the GM with physical dice; the answer's body."""
    body = await strike(enc, attacker, defender)
    rid = data(body, "ReactionRequested")[0]["id"]
    return await enc.ok("respond", reaction=rid, choice=choice, dice=dice, **answer)


async def set_posture(enc, cid: str, posture: str) -> None:
    await enc.ok("ruling", text=f"{cid} is {posture}", overrides={"combatants": {cid: {"posture": posture}}})


async def log_texts(enc) -> list[str]:
    """Every sentence of the real GET /log."""
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    return [e["text"] for e in r.body["entries"]]
