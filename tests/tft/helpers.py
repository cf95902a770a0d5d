"""Shared test data for the tft tests: the figures of the spec's test vectors."""

from __future__ import annotations

from typing import Any

from tests.support.bodies import data, types  # noqa: F401 - the tests import them from here


def fig(id: str, side: str, st: int, adj_dx: int, pos: list[int], facing: int = 0, **stats: Any) -> dict[str, Any]:
    """A combatant for add_combatant; extra keyword stats go into `stats`, `items` and `posture` apart."""
    items = stats.pop("items", [])
    posture = stats.pop("posture", "standing")
    reactions = stats.pop("reactions", {})
    return {"id": id, "name": id.capitalize(), "side": side, "stats": {"st": st, "adj_dx": adj_dx, **stats},
            "position": pos, "facing": facing, "posture": posture, "items": items, "reactions": reactions}


BROADSWORD = {"id": "broadsword", "name": "Broadsword", "kind": "weapon", "damage": "2d6", "state": "ready"}
DAGGER = {"id": "dagger", "name": "Dagger", "kind": "weapon", "damage": "1d6-1", "hth_damage": "1d6+1",
          "dagger_list": True, "state": "carried"}
CLUB = {"id": "club", "name": "Club", "kind": "weapon", "damage": "1d6+1", "state": "ready"}
BITE = {"name": "bite", "damage": "1d6+2", "hth": True}


def simeth() -> dict[str, Any]:
    return fig("simeth", "a", 13, 15, [2, 0], 3, ma=10, items=[dict(BROADSWORD), dict(DAGGER)])


def troll() -> dict[str, Any]:
    return fig("troll", "b", 35, 11, [0, 0], 0, ma=12, back_to_wall=True, natural_attacks=[dict(BITE)],
               items=[dict(CLUB)])


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
        e = Event(**{k: env[k] for k in ("stream", "seq", "type", "data", "actor", "command_id", "ts",
                                         "prev_hash", "hash")})
        if e.type == "EncounterCreated":
            state = {**state, "rules": ruleset.initial_state(e.data["options"])}
        text = ruleset.describe(state, e)
        if text:
            out.append(text)
        state = evolve(state, e, ruleset)
    return out
