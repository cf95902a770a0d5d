"""Remaining standing in HTH and the Take Down contest (spec 4.14; seed §Standing, §Take-Down)."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from events.common import CloseCombatJoined, PostureChanged
from events.dice import Dice, Modifier
from rules.tft import figures as F
from rules.tft.dx_in_hth import hth_dx
from rules.tft.events import StandingCheckResolved, TakeDownResolved
from rules.tft.options import option
from rules.tft.tables import TAKE_DOWN_BASE_OFFSET

# The cases of §Standing, first match wins (n = conscious members, f = those wishing to fall).
# `dissent_contest` (A14 default): any wish to fall short of a majority triggers a Take Down.
# `majority_first`: a standing majority rolls to stay up; only an exact tie goes to a Take Down.
STANDING_CASES: dict[str, tuple[tuple[int, Callable[[int, int], bool], str], ...]] = {
    "dissent_contest": (
        (1, lambda n, f: 2 * f > n, "fall"),
        (2, lambda n, f: f == 0, "stay_standing_rolls"),
        (3, lambda n, f: True, "take_down"),
    ),
    "majority_first": (
        (1, lambda n, f: 2 * f > n, "fall"),
        (2, lambda n, f: 2 * (n - f) > n, "stay_standing_rolls"),
        (3, lambda n, f: True, "take_down"),
    ),
}


def _st_target(state: dict[str, Any], fig: dict[str, Any]) -> tuple[int, list[Modifier]]:
    mods = [Modifier(4 * F.judo(fig), f"Judo {F.judo(fig)} (ST in HTH)")] if F.judo(fig) else []
    base = F.hth_st(state, fig) - 4 * F.judo(fig)
    return base + sum(m.value for m in mods), mods


def representative(state: dict[str, Any], camp: list[str], order: list[str]) -> str:
    """The highest HTH ST of a camp; ties: higher UC, then earlier join (A15)."""
    return min(
        camp,
        key=lambda cid: (
            -F.hth_st(state, state["combatants"][cid]),
            -F.uc(state["combatants"][cid]),
            order.index(cid),
        ),
    )


def take_down_dice(state: dict[str, Any], puller: str, stander: str) -> tuple[int, int]:
    """(puller dice X, stander dice X + offset); X is raised so the stander rolls at least 1 die (A15)."""
    x = max(1, int(F.prefs(state, puller)["take_down_dice"]))
    offset = TAKE_DOWN_BASE_OFFSET + F.uc(state["combatants"][puller]) - F.uc(state["combatants"][stander])
    if x + offset < 1:
        x = 1 - offset
    return x, x + offset


def standing_check(state: dict[str, Any], gid: str, dice: Dice) -> list[Any]:
    """The check of a standing group: dice, TakeDownResolved, StandingCheckResolved, then, if the group
    falls, `CloseCombatJoined` again with `standing: false` (the common flag), and PostureChanged."""
    group = state["groups"][gid]
    members = [
        m for m in group["combatants"] if m in state["combatants"] and F.conscious(state["combatants"][m])
    ]
    fallers = [m for m in members if F.prefs(state, m)["hth_wish"] != "stand"]
    standers = [m for m in members if m not in fallers]
    n, f = len(members), len(fallers)
    case, procedure = next(
        (c, p) for c, test, p in STANDING_CASES[option(state, "standing_vote")] if test(n, f)
    )
    events: list[Any] = []
    if procedure == "fall":
        standing = False
    elif procedure == "stay_standing_rolls":
        standing = True
        for m in standers:
            target, mods = hth_dx(state, m, "general")
            r = dice.roll(3, 6, "stay_standing", m)
            ok = r.sum <= target
            standing = standing and ok
            events.append(
                r.event(modifiers=mods, total=r.sum, target=target, outcome="success" if ok else "failure")
            )
    else:
        puller = representative(state, fallers, group["combatants"])
        stander = representative(state, standers, group["combatants"])
        x, y = take_down_dice(state, puller, stander)
        results = []
        for who, count, purpose in ((puller, x, "take_down_puller"), (stander, y, "take_down_stander")):
            target, mods = _st_target(state, state["combatants"][who])
            r = dice.roll(count, 6, purpose, who)
            ok = r.sum <= target
            results.append(ok)
            events.append(
                r.event(modifiers=mods, total=r.sum, target=target, outcome="success" if ok else "failure")
            )
        taken_down = results[0] and not results[1]
        events.append(TakeDownResolved(gid, puller, stander, x, y, taken_down))
        standing = not taken_down
    events.append(StandingCheckResolved(gid, case, standing))
    if standing != bool(group.get("standing")):
        # The common state keeps the group's standing: re-joining the same members sets the new flag.
        events.append(CloseCombatJoined(gid, list(group["combatants"]), list(group["at"]), standing))
    want = "standing" if standing else "prone"
    events += [PostureChanged(m, want) for m in members if state["combatants"][m].get("posture") != want]
    return events


def standing_groups(state: dict[str, Any]) -> list[str]:
    """Standing groups in formation order (group ids g1, g2 ... are formed in that order)."""
    ids = [gid for gid, g in state["groups"].items() if F.group_standing(state, g)]
    return sorted(ids, key=lambda g: (len(g), g))
