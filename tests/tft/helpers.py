"""Shared test data for the tft tests: the figures of the spec's test vectors."""

from __future__ import annotations

from typing import Any

from tests.support.bodies import data, types  # noqa: F401 - the tests import them from here


def fig(
    id: str, side: str, st: int, adj_dx: int, pos: list[int], facing: int = 0, **stats: Any
) -> dict[str, Any]:
    """A combatant for add_combatant; extra keyword stats go into `stats`, `items` and `posture` apart."""
    items = stats.pop("items", [])
    posture = stats.pop("posture", "standing")
    reactions = stats.pop("reactions", {})
    return {
        "id": id,
        "name": id.capitalize(),
        "side": side,
        "stats": {"st": st, "adj_dx": adj_dx, **stats},
        "position": pos,
        "facing": facing,
        "posture": posture,
        "items": items,
        "reactions": reactions,
    }


BROADSWORD = {"id": "broadsword", "name": "Broadsword", "kind": "weapon", "damage": "2d6", "state": "ready"}
DAGGER = {
    "id": "dagger",
    "name": "Dagger",
    "kind": "weapon",
    "damage": "1d6-1",
    "hth_damage": "1d6+1",
    "dagger_list": True,
    "state": "carried",
}
CLUB = {"id": "club", "name": "Club", "kind": "weapon", "damage": "1d6+1", "state": "ready"}
BITE = {"name": "bite", "damage": "1d6+2", "hth": True}


def simeth() -> dict[str, Any]:
    return fig("simeth", "a", 13, 15, [2, 0], 3, ma=10, items=[dict(BROADSWORD), dict(DAGGER)])


def troll() -> dict[str, Any]:
    return fig(
        "troll",
        "b",
        35,
        11,
        [0, 0],
        0,
        ma=12,
        back_to_wall=True,
        natural_attacks=[dict(BITE)],
        items=[dict(CLUB)],
    )


def of_type(body: dict[str, Any], t: str) -> list[dict[str, Any]]:
    return data(body, t)


def sentences(envelopes: list[dict[str, Any]]) -> list[str]:
    """Fold stored envelopes and ask the ruleset for each event's sentence (state before the event)."""
    from events.envelope import Event
    from rules.state import evolve, initial_state
    from rules.tft import ruleset

    state = initial_state()
    out = []
    for env in envelopes:
        e = Event(
            **{
                k: env[k]
                for k in ("stream", "seq", "type", "data", "actor", "command_id", "ts", "prev_hash", "hash")
            }
        )
        if e.type == "EncounterCreated":
            state = {**state, "rules": ruleset.initial_state(e.data["options"])}
        text = ruleset.describe(state, e)
        if text:
            out.append(text)
        state = evolve(state, e, ruleset)
    return out


SHIELD = {"id": "shield", "name": "Small shield", "kind": "shield", "stops": 1, "state": "worn"}
SPEAR = {"id": "spear", "name": "Spear", "kind": "weapon", "damage": "1d6+1", "state": "ready"}


async def next_turn(enc: Any, turn: int, phase: str = "action", **fields: Any) -> dict[str, Any]:
    """Start the turn and its movement phase, then (by default) its action phase, sent with `fields` (its
    dice); the last response body."""
    await enc.ok("start_turn", turn=turn)
    body = await enc.ok("start_phase", phase="movement")
    if phase == "action":
        body = await enc.ok("start_phase", phase="action", **fields)
    return body


async def encounter(
    tussle: Any, *figs: dict[str, Any], options: dict[str, Any] | None = None, phase: str = "action"
) -> Any:
    """A manual-dice tft encounter of these figures, in turn 1's action phase (or movement phase)."""
    enc = await tussle.create("tft", dice="manual", options=options or {})
    for f in figs:
        await enc.add(f)
    await next_turn(enc, 1, phase)
    return enc


async def brawl(
    tussle: Any,
    *extra: dict[str, Any],
    a_ma: int = 12,
    a_items: list[dict[str, Any]] | None = None,
    options: dict[str, Any] | None = None,
) -> Any:
    """Turn 1, action phase: a1 (DX 13, MA `a_ma`) has got into HTH with the prone b1 at 0,0."""
    enc = await encounter(
        tussle,
        fig("a1", "a", 12, 13, [1, 0], 3, ma=a_ma, items=a_items or []),
        fig("b1", "b", 12, 11, [0, 0], 0, ma=8, posture="prone"),
        *extra,
        options=options,
    )
    await enc.ok("tft.enter_hth", combatant="a1", target="b1", condition="C2", dice=[[1]])
    return enc


async def refused(
    enc: Any, type_: str, *phrases: str, status: int = 422, token: str | None = None, **fields: Any
) -> str:
    """The command is refused with `status`, its message holding every phrase, and nothing is appended."""
    before = (await enc.state())["seq"]
    r = await enc.command(type_, token=token, **fields)
    assert r.status == status, r.body
    for p in phrases:
        assert p in r.body["error"]["message"], (p, r.body["error"]["message"])
    assert (await enc.state())["seq"] == before
    return r.body["error"]["message"]


async def tv3_dive(tussle: Any) -> Any:
    """TV3 (the dive knocked back) up to the dive: Rolf has run two hexes at Gorm in turn 1's movement phase."""
    enc = await encounter(
        tussle,
        fig("rolf", "a", 12, 12, [3, 0], 3, ma=10, armor_stops=2),
        fig("gorm", "b", 12, 11, [0, 0], 0, ma=8, dive_block=1, items=[dict(BROADSWORD)]),
        phase="movement",
    )
    await enc.ok("tft.move", combatant="rolf", path=[[2, 0], [1, 0]])
    return enc
