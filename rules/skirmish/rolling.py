"""Rolling a d100 with a modifier table: the Roller view of a figure, and the DieRolled that explains it."""

from __future__ import annotations

from events.dice import DieRolled, Modifier
from rules.skirmish.figures import armed_with, stat, wound_level
from rules.skirmish.tables import Roller, Row, modifiers_for
from rules.working import Working


def roller_for(
    w: Working, x: str, y: str, *, is_defender: bool = False, facing_wrong_way: bool = False
) -> Roller:
    """Figure x as he rolls against y, as the state stands now."""
    cx, cy = w.combatant(x), w.combatant(y)
    return Roller(
        street_fighter=bool(stat(cx, "street_fighter", False)),
        speedy=bool(stat(cx, "speedy", False)),
        posture=cx.get("posture") or "standing",
        opponent_posture=cy.get("posture") or "standing",
        facing_wrong_way=facing_wrong_way,
        wound_level=wound_level(w.state, x),
        opponent_wound_level=wound_level(w.state, y),
        weapon=armed_with(cx),
        is_defender=is_defender,
    )


def opposed(
    w: Working,
    kind: str,
    first: tuple[str, Roller, str],
    second: tuple[str, Roller, str],
    table: tuple[Row, ...],
    *,
    counterstrike: bool = False,
    first_wins_ties: bool = False,
) -> tuple[DieRolled, DieRolled, bool]:
    """An opposed d100 (spec 1: "each side rolls 1d100 and adds its modifiers, and the higher total wins").
    Returns both rolls (already emitted, `first` drawn first) and whether `first` won."""
    (a, ra, pa), (b, rb, pb) = first, second
    roll_a = w.dice.roll(1, 100, pa, combatant=a)
    roll_b = w.dice.roll(1, 100, pb, combatant=b)
    mods_a = [Modifier(v, r) for v, r in modifiers_for(table, ra, counterstrike)]
    mods_b = [Modifier(v, r) for v, r in modifiers_for(table, rb, counterstrike)]
    total_a = roll_a.sum + sum(m.value for m in mods_a)
    total_b = roll_b.sum + sum(m.value for m in mods_b)
    first_won = total_a > total_b or (total_a == total_b and first_wins_ties)
    ev_a = roll_a.event(modifiers=mods_a, outcome=f"{kind}: {'wins' if first_won else 'loses'}")
    ev_b = roll_b.event(modifiers=mods_b, outcome=f"{kind}: {'loses' if first_won else 'wins'}")
    w.emit(ev_a, ev_b)
    return ev_a, ev_b, first_won
