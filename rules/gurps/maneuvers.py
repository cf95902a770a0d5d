"""Maneuvers and the figure's own turn (spec section 1; BASE maneuvers).

DECISION (spec section 1): a figure's own turn ends with `ActionSpent` when the next figure's
`ManeuverChosen` is appended, at the next `TurnStarted`, or where a rule ends it.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionSpent, PinHeld, TurnStarted
from rules.gurps.combatant_stats import name, stats
from rules.gurps.events import ManeuverChosen
from rules.gurps.hex_sharing import rules_of
from rules.gurps.situational_modifiers import fighter, pins_on
from rules.gurps.tables import MANEUVERS
from rules.interface import RuleError
from rules.refusals import refuse


def normalized(maneuver: str) -> str:
    """ "Move and Attack" / "move-and-attack" -> "move_and_attack"."""
    return maneuver.strip().lower().replace("-", "_").replace(" ", "_")


def movement_allowance(c: dict[str, Any], maneuver: str) -> int:
    """Hexes the maneuver lets him move this turn."""
    kind = MANEUVERS[maneuver]["movement"]
    basic = int(stats(c)["basic_move"])
    return {"full": basic, "half": max(1, basic // 2), "step": 1, "none": 0}[kind]


def current_maneuver(state: dict[str, Any], cid: str) -> str | None:
    """His maneuver, if his own turn is running now."""
    f = fighter(state, cid)
    if (
        rules_of(state).get("current") == cid
        and f["maneuver_turn"] == state.get("turn")
        and not f["turn_over"]
    ):
        return f["maneuver"]
    return None


def own_turn_or_error(state: dict[str, Any], cid: str, needs: str = "") -> str:
    """His maneuver now, or a RuleError saying it is not his turn (and what he needs)."""
    m = current_maneuver(state, cid)
    if m is None:
        raise RuleError(
            f"it is not {name(state, cid)}'s own turn: {_before_a_maneuver(state, cid, needs)}",
            {"combatant": cid},
        )
    return m


def _before_a_maneuver(state: dict[str, Any], cid: str, needs: str) -> str:
    """What comes before his turn: choosing a maneuver, when choose_maneuver could be accepted now; else
    what must change first (a refusal points only to what could be accepted)."""
    what = f" {needs}" if needs else ""
    if state.get("turn", 0) < 1:
        return f"no turn has started yet: the GM starts one (start_turn), then {name(state, cid)} chooses a maneuver{what}"
    if cid in state.get("actions_spent", {}):
        return (
            f"{name(state, cid)} has already had a turn this second ({state['actions_spent'][cid]}); the next "
            f"comes once the GM starts turn {int(state['turn']) + 1} (start_turn)"
        )
    if pins_on(state, cid):
        return f"{name(state, cid)} is pinned: only an Attack may be chosen, to break free (gurps.choose_maneuver attack)"
    return f"choose a maneuver first (gurps.choose_maneuver){what}"


def ending_current_turn(state: dict[str, Any], why: str = "turn over") -> list[msgspec.Struct]:
    """`ActionSpent` for the figure whose own turn is still running, if any."""
    cur = rules_of(state).get("current")
    if cur and cur in state["combatants"] and not fighter(state, cur)["turn_over"]:
        return [ActionSpent(cur, int(fighter(state, cur)["maneuver_turn"] or state["turn"]), why)]
    return []


def choose(state: dict[str, Any], cid: str, maneuver: str) -> list[msgspec.Struct]:
    """Events of `gurps.choose_maneuver`, or a RuleError naming each failed condition."""
    c = state["combatants"][cid]
    m = normalized(maneuver)
    problems = []
    if m not in MANEUVERS:
        problems.append(f"{maneuver!r} is not a maneuver (one of {', '.join(MANEUVERS)})")
    if state.get("turn", 0) < 1:
        problems.append("no turn has started yet (start_turn)")
    if cid in state.get("actions_spent", {}):
        problems.append(f"{c['name']} has already had a turn this second ({state['actions_spent'][cid]})")
    if current_maneuver(state, cid) is not None:
        problems.append(f"{c['name']} has already chosen {current_maneuver(state, cid)} this turn")
    if pins_on(state, cid) and m != "attack":
        problems.append(
            f"{c['name']} is pinned: only an Attack, to break free, is allowed (the Attack maneuver, then "
            "gurps.break_free)"
        )
    refuse(problems, details={"combatant": cid, "maneuver": maneuver})
    return [*ending_current_turn(state), ManeuverChosen(cid, m, int(state["turn"]), movement_allowance(c, m))]


def decide_choose(state: dict[str, Any], cmd: Any, dice: Any) -> list[msgspec.Struct]:
    """`gurps.choose_maneuver`."""
    return choose(state, cmd.combatant, cmd.maneuver)


def turn_start_extras(
    state: dict[str, Any], new_turn: int
) -> tuple[list[msgspec.Struct], list[msgspec.Struct]]:
    """(events before TurnStarted, events after it): the running turn ends; pins are held another
    second; helpers owing this turn spend it (spec sections 1, 4.9)."""
    before = ending_current_turn(state)
    after: list[msgspec.Struct] = [PinHeld(p["holder"], p["pinned"], new_turn) for p in state.get("pins", [])]
    for a in rules_of(state).get("assists", []):
        if a["owed_turn"] == new_turn and a["helper"] in state["combatants"]:
            after.append(
                ActionSpent(
                    a["helper"],
                    new_turn,
                    f"helping {name(state, a['lead'])}'s {a['action']} on {name(state, a['target'])}",
                )
            )
    return before, after


def with_turn_start(state: dict[str, Any], events: list[msgspec.Struct]) -> list[msgspec.Struct]:
    """`start_turn`'s events with the running turn's end before `TurnStarted` and the held pins and
    owed helpers' turns after it."""
    at = next((i for i, e in enumerate(events) if isinstance(e, TurnStarted)), None)
    if at is None:
        return events
    before, after = turn_start_extras(state, events[at].turn)  # type: ignore[attr-defined]
    return [*events[:at], *before, events[at], *after, *events[at + 1 :]]
