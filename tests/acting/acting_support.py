"""Reading `acting_now` and `/me` through HTTP, for the whose-turn tests of every ruleset."""

from __future__ import annotations

from typing import Any

from tests.support.client import Encounter


async def acting(enc: Encounter) -> list[dict[str, Any]]:
    """`acting_now` of GET /state, each entry checked for the documented shape."""
    entries = (await enc.state())["acting_now"]
    for e in entries:
        assert set(e) == {"combatant", "asked_of", "why", "until", "reaction", "slot"}, e
        assert set(e["slot"]) == {"turn", "phase", "id"} and isinstance(e["slot"]["id"], str), e
        assert isinstance(e["why"], str) and e["why"], e
        if e["until"] is not None:
            assert e["until"]["kind"] in ("reaction", "action", "phase", "turn", "round", "card"), e
            assert isinstance(e["until"]["text"], str), e
    return entries


async def who_acts(enc: Encounter) -> list[str | None]:
    """The combatants acting now (None for the GM's own step), in the ruleset's order."""
    return [e["combatant"] for e in await acting(enc)]


async def me(enc: Encounter, token: str) -> dict[str, Any]:
    r = await enc.get("/me", token=token)
    assert r.status == 200, r.body
    assert {
        "role",
        "seat",
        "combatants",
        "reactions",
        "legal_actions",
        "your_turn",
        "acting_now",
        "next_slot",
    } <= set(r.body)
    return r.body
