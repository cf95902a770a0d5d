"""DX in HTH as a modifier table (spec section 5; seed §DX-Mods, §Judo-1, §Judo-2, §Actions-Shield).

HTH DX = `adj_dx` + the general rows; an attack adds the attack rows, a spell the spell row (A12).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any, NamedTuple

from events.dice import Modifier
from rules.tft import figures as F
from rules.tft.tables import NAMED_WEAPON_HTH_DX


class DxContext(NamedTuple):
    """What the rows look at: the figure, its group, the roll's use and the weapon it attacks with."""

    state: dict[str, Any]
    fig: dict[str, Any]
    use: str  # general | attack | spell | draw
    weapon: dict[str, Any] | None
    strongest: str | None


class DxRow(NamedTuple):
    reason: str
    uses: frozenset[str]  # the rolls this row touches
    value: Callable[[DxContext], int]
    source: str


ALL_USES = frozenset({"general", "attack", "spell", "draw"})


def _weapon_penalty(ctx: DxContext) -> int:
    w = ctx.weapon
    if not w:
        return 0
    if w.get("hth_dx_mod") is not None:
        return int(w["hth_dx_mod"])
    return NAMED_WEAPON_HTH_DX.get(str(w.get("name", "")).lower(), 0)


def _entered_this_turn(ctx: DxContext) -> int:
    if not F.entry_turn(ctx.state, ctx.fig["id"]):
        return 0
    # The -4 touches the entry turn's attack, and its draw_dagger under `first_turn_draw` (§Notes).
    return -4


# The literal table of section 5, in the order the log lists the modifiers.
HTH_DX_TABLE: tuple[DxRow, ...] = (
    DxRow("shield", ALL_USES, lambda c: -F.shield_stops(c.fig), "§DX-Mods, §Actions-Shield"),
    DxRow("strongest figure in HTH", ALL_USES, lambda c: 2 if c.strongest == c.fig["id"] else 0, "§DX-Mods"),
    DxRow("Judo 1", ALL_USES, lambda c: 2 if F.judo(c.fig) >= 1 else 0, "§Judo-1"),
    DxRow("Judo 2", ALL_USES, lambda c: 2 if F.judo(c.fig) >= 2 else 0, "§Judo-2"),
    DxRow(
        "Judo, unarmed",
        ALL_USES,
        lambda c: 2 if F.judo(c.fig) >= 1 and F.unarmed(c.fig) else 0,
        "§Judo-1, §Judo-2 example",
    ),
    DxRow(
        "entered HTH this turn",
        frozenset({"attack", "draw"}),
        _entered_this_turn,
        "§DX-Mods, §Multiple, §Notes",
    ),
    DxRow("weapon in HTH", frozenset({"attack"}), _weapon_penalty, "§DX-Mods (dirk -2, poniard -4)"),
    DxRow("casting a spell in HTH", frozenset({"spell"}), lambda c: -6, "§DX-Mods, §Actions-Spell"),
)


def strongest_member(state: dict[str, Any], group: dict[str, Any] | None) -> str | None:
    """The single conscious member with the highest HTH ST; a tie gives nobody the bonus (A11)."""
    if not group:
        return None
    scored = [
        (F.hth_st(state, state["combatants"][m]), m)
        for m in group["combatants"]
        if m in state["combatants"] and F.conscious(state["combatants"][m])
    ]
    if not scored:
        return None
    best = max(s for s, _ in scored)
    top = [m for s, m in scored if s == best]
    return top[0] if len(top) == 1 else None


def _shield_reason(fig: dict[str, Any]) -> str:
    s = F.worn_shield(fig)
    return f"{s.get('name', 'shield')} worn (stops {s.get('stops', 0)})" if s else "shield"


def _weapon_reason(weapon: dict[str, Any] | None) -> str:
    return f"{weapon.get('name', 'weapon')} in HTH" if weapon else "weapon in HTH"


def hth_modifiers(
    state: dict[str, Any], cid: str, use: str = "general", weapon: dict[str, Any] | None = None
) -> list[Modifier]:
    """The non-zero rows of the table for this figure and roll, each with its reason."""
    fig = state["combatants"][cid]
    ctx = DxContext(state, fig, use, weapon, strongest_member(state, F.group_of(state, cid)))
    out = []
    for row in HTH_DX_TABLE:
        if use not in row.uses:
            continue
        v = row.value(ctx)
        if v:
            reason = row.reason
            if row.reason == "shield":
                reason = _shield_reason(fig)
            elif row.reason == "weapon in HTH":
                reason = _weapon_reason(weapon)
            out.append(Modifier(v, reason))
    return out


def adj_dx(fig: dict[str, Any]) -> int:
    """Adjusted DX outside HTH (GM computed; falls back to base DX)."""
    return int(F.stat(fig, "adj_dx", F.stat(fig, "dx", 10)))


def hth_dx(
    state: dict[str, Any], cid: str, use: str = "general", weapon: dict[str, Any] | None = None
) -> tuple[int, list[Modifier]]:
    """(target, modifiers): `adj_dx` plus the rows of the table for this use."""
    mods = hth_modifiers(state, cid, use, weapon)
    return adj_dx(state["combatants"][cid]) + sum(m.value for m in mods), mods


def initiative_dx(state: dict[str, Any], cid: str) -> int:
    """The DX that orders a figure's action (4.0): its HTH attack DX in a group, else adj_dx."""
    fig = state["combatants"][cid]
    if not F.group_of(state, cid):
        return adj_dx(fig)
    ready = [w for w in F.ready_weapons(fig) if F.hth_usable(w)]
    return hth_dx(state, cid, "attack", ready[0] if ready else None)[0]
