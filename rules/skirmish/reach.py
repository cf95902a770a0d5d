"""Reach and movement on the open table (§Flow "Can the attacking player reach the defender?"; spec 4.2, 4.6 and
6 rows 7 and 10). Where positions are not recorded the player's claim stands and the GM may void it."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules.interface import BadCommand, RuleError
from rules.plane import (
    crosses,
    distance,
    facing_toward,
    inches,
    is_point,
    path_length,
    round_half_up,
    rounded,
    step_away,
    step_toward,
)
from rules.refusals import refuse
from rules.skirmish.figures import move_reach
from rules.skirmish.options import option


def _apart(a: list[int], b: list[int]) -> int:
    """Centre to centre, in whole hundredths: what the reach checks compare and the events carry."""
    return round_half_up(distance(a, b))


def check_path(path: Any, field: str = "path") -> None:
    """A path is a non-empty list of [x, y] points in hundredths of an inch."""
    if not isinstance(path, list) or not path or not all(is_point(p) for p in path):
        raise BadCommand(f"{field} must be a list of [x, y] points in hundredths of an inch", field)


@dataclass(frozen=True)
class Approach:
    """How the attacker comes to touch: where he ends (None: he does not move), his facing, and whether he can."""

    reachable: bool
    to: list[int] | None = None
    facing: int | None = None
    distance: int | None = None
    reach: int | None = None


def approach(state: dict[str, Any], attacker: str, defender: str, path: list[list[int]] | None) -> Approach:
    """Whether the attacker reaches the defender in one move, and the point he ends on.

    DECISIONs (NOTES.md): touching means centres at most `contact_distance` apart; without a path he moves
    straight at the defender and stops in contact; he turns to face the defender as he strikes."""
    a, d = state["combatants"][attacker], state["combatants"][defender]
    start, target = a.get("position"), d.get("position")
    reach = move_reach(a)
    contact = option(state, "contact_distance")
    if path is not None:
        check_path(path)
        end = path[-1]
        if is_point(target) and _apart(end, target) > contact:
            raise RuleError(
                f"the path must end touching {d['name']} (§Flow: the attacker moves to touch the defender): its "
                f"last point is {inches(_apart(end, target))} from {d['name']} (touch is "
                f"{inches(contact)} between centres: option contact_distance)"
            )
        length = round_half_up(path_length([start, *path] if is_point(start) else path))
        facing = facing_toward(end, target) if is_point(target) else None
        if reach is not None and length > reach:
            return Approach(False, end, facing, length, reach)
        return Approach(True, end, facing, length, reach)
    if not (is_point(start) and is_point(target)):
        return Approach(True)  # the claim stands
    gap = max(0, _apart(start, target) - contact)
    facing = facing_toward(start, target)
    if reach is not None and gap > reach:
        return Approach(False, None, facing, gap, reach)
    to = rounded(step_toward(start, target, gap)) if gap > 0 else None
    return Approach(True, to, facing, gap, reach)


def evade_destination(
    state: dict[str, Any], defender: str, attacker: str, to: Any, facing: Any
) -> tuple[list[int] | None, int | None]:
    """Where a winning evader goes and which way he faces (spec 4.3, 4.6): the named point, checked against one
    move and other figures; without one, a full move straight away from the attacker, facing him."""
    d, a = state["combatants"][defender], state["combatants"][attacker]
    if facing is not None and (
        not isinstance(facing, int) or isinstance(facing, bool) or not 0 <= facing <= 359
    ):
        raise BadCommand("facing must be a whole number of degrees from 0 to 359", "facing")
    here, there = d.get("position"), a.get("position")
    reach = move_reach(d)
    if to is None:
        if not (is_point(here) and is_point(there)) or reach is None:
            return None, facing
        # Straight away from the attacker; from the very same point there is no "away": along +x.
        to = rounded(step_away(here, there, reach)) if here != there else [here[0] + reach, here[1]]
        return to, facing if facing is not None else facing_toward(to, there)
    if not is_point(to):
        raise BadCommand("to must be a point [x, y] in hundredths of an inch", "to")
    if is_point(here):
        problems = []
        if reach is not None and _apart(here, to) > reach:
            problems.append(
                f"{d['name']} can evade at most one move ({inches(reach)}; §EVADE: he is moved one move away), "
                f"and that point is {inches(_apart(here, to))} away"
            )
        others = [
            c["position"]
            for cid, c in state["combatants"].items()
            if cid != defender and is_point(c.get("position")) and _apart(c["position"], here) > 0
        ]
        if crosses(here, to, others, option(state, "contact_distance") // 2):
            problems.append(
                "the straight line to that point passes through another figure (an evade goes round figures, "
                "not through them: NOTES.md)"
            )
        refuse(problems, "that evade move is not allowed")
    if facing is None and is_point(there):
        facing = facing_toward(to, there)
    return to, facing
