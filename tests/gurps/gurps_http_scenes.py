"""Shared set-ups for the issue-7 audit tests: encounters built through the HTTP API (the `tussle`
fixture) with manual dice, and small readers of command responses, state and the /log endpoint."""

from __future__ import annotations

from typing import Any

from tests.gurps.gurps_world import HAND, KNIFE, fig
from tests.support.bodies import data, types  # noqa: F401 - the tests import them from here

# Spec section 1: direction d is the neighbour offset below (axial [q, r]).
DIRECTIONS = ((1, 0), (1, -1), (0, -1), (-1, 0), (-1, 1), (0, 1))


def hex_at(d: int, steps: int = 1, origin: tuple[int, int] = (0, 0)) -> list[int]:
    """The hex `steps` hexes from `origin` in direction d."""
    dq, dr = DIRECTIONS[d % 6]
    return [origin[0] + dq * steps, origin[1] + dr * steps]


def of_type(body: dict[str, Any], t: str) -> list[dict[str, Any]]:
    """The data of each appended event of type t."""
    return data(body, t)


def rolls(body: dict[str, Any]) -> list[dict[str, Any]]:
    """The DieRolled data a command appended."""
    return of_type(body, "DieRolled")


def last_request(body: dict[str, Any]) -> dict[str, Any]:
    """The ReactionRequested that ends a command's events."""
    assert body["events"][-1]["type"] == "ReactionRequested", types(body)
    return body["events"][-1]["data"]


async def replay_equals_live(enc: Any) -> None:
    """GET /state equals GET /state?at=<head seq> (replay of the stored stream)."""
    live = await enc.state()
    assert await enc.state(at=live["seq"]) == live


async def log_entries(enc: Any) -> list[dict[str, Any]]:
    """The entries of GET /encounters/{id}/log?format=json."""
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    return r.body["entries"]


async def log_text(enc: Any) -> str:
    """Every log sentence, one a line."""
    return "\n".join(e["text"] for e in await log_entries(enc))


async def refused(enc: Any, type_: str, message: str, status: int = 422, **fields: Any) -> dict[str, Any]:
    """Send a command that must be refused with `status` and a message containing `message`."""
    r = await enc.command(type_, **fields)
    assert r.status == status, (type_, fields, r.status, r.body)
    assert message in r.body["error"]["message"], (type_, message, r.body)
    return r.body


async def encounter(tussle: Any, *figures: dict[str, Any], turn: int | None = 1, **options: Any) -> Any:
    """A manual-dice gurps encounter with these figures, and turn `turn` started (None: no turn)."""
    enc = await tussle.create("gurps", dice="manual", options=options or None)
    for f in figures:
        await enc.add(f)
    if turn is not None:
        await enc.ok("start_turn", turn=turn)
    return enc


async def in_close_combat(
    tussle: Any,
    cai: dict[str, Any] | None = None,
    dun: dict[str, Any] | None = None,
    turns: int = 2,
    **options: Any,
) -> Any:
    """Cai (side a) steps into Dun's hex [0, 0] from [-1, 0] (entry edge 3) on turn 1; Dun (facing 3,
    toward Cai) waits; then `turns` - 1 more turns start. Cai began turn 2 in the hex."""
    cai = cai or fig("cai", "a", [-1, 0], dx=12, move=5, weapons=[KNIFE, HAND], skills={"Knife": 13})
    dun = dun or fig("dun", "b", [0, 0], facing=3, dx=11, weapons=[dict(KNIFE), HAND])
    enc = await encounter(tussle, cai, dun, **options)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await enc.ok("gurps.move", combatant="cai", path=[[0, 0]])
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="wait")
    for t in range(2, turns + 1):
        await enc.ok("start_turn", turn=t)
    return enc


async def grappling(
    tussle: Any,
    dorn_posture: str = "standing",
    ash_st: int = 10,
    bram_posture: str = "standing",
    **options: Any,
) -> Any:
    """The V2/V3 hex: Bram, Cole and Ash walk into Dorn's hex on turn 1; Bram grapples Dorn on turn 2
    (3,3,3 hits; Dorn's dodge 6,6,6 fails); turn 3 starts."""
    enc = await encounter(
        tussle,
        fig("dorn", "b", [0, 0], st=13, dx=11, posture=dorn_posture, weapons=[HAND]),
        fig("bram", "a", [-1, 0], st=12, dx=10, posture=bram_posture, weapons=[HAND]),
        fig("cole", "a", [0, -1], st=11, dx=10, weapons=[HAND]),
        fig("ash", "a", [1, 0], st=ash_st, dx=10, weapons=[HAND]),
        **options,
    )
    for who in ("bram", "cole", "ash"):
        await enc.ok("gurps.choose_maneuver", combatant=who, maneuver="move")
        await enc.ok("gurps.move", combatant=who, path=[[0, 0]])
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="bram", target="dorn", dice=[[3, 3, 3]])
    if options.get("base_grapple_mode") == "gm":
        await enc.ok("respond", reaction=last_request(b)["id"], choice="hit")
    else:
        await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("start_turn", turn=3)
    return enc
