"""Reading a figure's attributes from the state (spec section 2): stats, talents, items, derived values."""

from __future__ import annotations

from typing import Any

from rules.interface import combatant_or_error
from rules.tft.options import option
from rules.tft.state import figure as rules_figure

Fig = dict[str, Any]
DOWN_POSTURES = ("prone", "kneeling", "on_back", "on_stomach")


def get(state: dict[str, Any], cid: str, role: str = "combatant") -> Fig:
    """The combatant, or a rule error naming the unknown id."""
    return combatant_or_error(state, cid, role)


def stat(c: Fig, name: str, default: Any = 0) -> Any:
    """A stat, looked up in `stats` and then in `talents` (talent levels may be given in either)."""
    v = c.get("stats", {}).get(name)
    if v is None:
        v = c.get("talents", {}).get(name)
    return default if v is None else v


def name(state: dict[str, Any], cid: str | None) -> str:
    """The display name of a combatant (its id when gone)."""
    c = state.get("combatants", {}).get(cid or "")
    return c["name"] if c else str(cid)


def judo(c: Fig) -> int:
    return int(stat(c, "judo", 0))


def dive_block(c: Fig) -> int:
    return int(stat(c, "dive_block", 0))


def uc(c: Fig) -> int:
    return int(stat(c, "uc", 0))


def remaining_st(c: Fig) -> int:
    """ST still left: ST is also hits (spec section 1)."""
    return int(stat(c, "st", 0)) - int(c.get("wounds", 0))


def conscious(c: Fig) -> bool:
    return not ({"unconscious", "dead"} & set(c.get("conditions", [])))


def half_move(c: Fig) -> int:
    """max(1, floor(ma / 2)) (spec section 2)."""
    return max(1, int(stat(c, "ma", 10)) // 2)


def hth_st(state: dict[str, Any], c: Fig) -> int:
    """ST in HTH: +4 per Judo level (§Judo-1/2); full ST unless `strongest_uses_remaining_st` (A11)."""
    base = remaining_st(c) if option(state, "strongest_uses_remaining_st") else int(stat(c, "st", 0))
    return base + 4 * judo(c)


def items_of(
    c: Fig, *, kind: str | None = None, states: tuple[str, ...] | None = None
) -> list[dict[str, Any]]:
    """A figure's items, filtered by kind and state."""
    return [
        i
        for i in c.get("items", [])
        if (kind is None or i.get("kind") == kind) and (states is None or i.get("state") in states)
    ]


def is_cestus(item: dict[str, Any]) -> bool:
    """The cestus: the one HTH-usable weapon not on the dagger list (section 2's table, §Overview)."""
    return item.get("kind") == "weapon" and bool(item.get("hth_usable")) and not item.get("dagger_list")


def on_hand(item: dict[str, Any]) -> bool:
    """Ready to strike with: a ready weapon, or a cestus worn on the hand (it needs no drawing)."""
    return item.get("state") == "ready" or (item.get("state") == "worn" and is_cestus(item))


def ready_weapons(c: Fig) -> list[dict[str, Any]]:
    return [i for i in items_of(c, kind="weapon") if on_hand(i)]


def unarmed(c: Fig) -> bool:
    """No weapon item ready; natural attacks and a worn shield do not count (A10)."""
    return not ready_weapons(c)


def hth_usable(item: dict[str, Any]) -> bool:
    """Dagger-list weapons and the cestus (items flagged `hth_usable`) work in HTH (§Overview)."""
    return bool(item.get("dagger_list") or item.get("hth_usable"))


def worn_shield(c: Fig) -> dict[str, Any] | None:
    shields = items_of(c, kind="shield", states=("worn", "ready"))
    return shields[0] if shields else None


def shield_stops(c: Fig) -> int:
    s = worn_shield(c)
    return int(s.get("stops", 0)) if s else 0


def carried_daggers(c: Fig) -> list[dict[str, Any]]:
    return [i for i in items_of(c, kind="weapon", states=("carried",)) if i.get("dagger_list")]


def natural_attacks(c: Fig) -> list[dict[str, Any]]:
    return list(stat(c, "natural_attacks", []) or [])


def enemies(a: Fig, b: Fig) -> bool:
    return a.get("side") != b.get("side")


def is_down(c: Fig) -> bool:
    return c.get("posture") in DOWN_POSTURES


def occupants(state: dict[str, Any], pos: Any, *, but: tuple[str, ...] = ()) -> list[str]:
    """Ids of the figures standing or lying in a hex."""
    return [
        cid
        for cid, c in state["combatants"].items()
        if cid not in but and pos is not None and c.get("position") == list(pos)
    ]


def group_of(state: dict[str, Any], cid: str) -> dict[str, Any] | None:
    gid = state["combatants"].get(cid, {}).get("group")
    return state["groups"].get(gid) if gid else None


def group_standing(state: dict[str, Any], group: dict[str, Any]) -> bool:
    """Whether a group stands: the common flag (a fall re-emits `CloseCombatJoined {standing: false}`).
    A group never rises again (A16), so a fall the tft record saw (StandingCheckResolved, in streams
    written before that re-emit) still counts."""
    rec = state.get("rules", {}).get("groups", {}).get(group["group"]) or {}
    return bool(group.get("standing")) and bool(rec.get("standing", True))


def pin_holding(state: dict[str, Any], cid: str) -> dict[str, Any] | None:
    return next((p for p in state.get("pins", []) if p["holder"] == cid), None)


def pin_on(state: dict[str, Any], cid: str) -> dict[str, Any] | None:
    return next((p for p in state.get("pins", []) if p["pinned"] == cid), None)


def prefs(state: dict[str, Any], cid: str) -> dict[str, Any]:
    return rules_figure(state.get("rules", {}), cid)["prefs"]


def tft_record(state: dict[str, Any], cid: str) -> dict[str, Any]:
    return rules_figure(state.get("rules", {}), cid)


def entry_turn(state: dict[str, Any], cid: str) -> bool:
    """Whether the figure entered or joined HTH this turn (HthFirstTurn)."""
    return tft_record(state, cid)["hth_first_turn"] == state.get("turn")


def action_spent(state: dict[str, Any], cid: str) -> bool:
    return cid in state.get("actions_spent", {})
