"""Rule-checked movement `tft.move` (4.15) and the limits on the plain `move` (4.0)."""

from __future__ import annotations

from typing import Any

from events.common import FacingChanged, Moved
from events.dice import Dice
from rules.hexes import adjacent, label
from rules.interface import BadCommand, RuleError
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.commands import TftMove
from rules.tft.events import TftMoveCounted
from rules.tft.options import option
from rules.tft.turn_sequence import wrong_phase

JUDO2_CRAWL_HEXES = 3  # §Judo-2: prone people with Judo 2 crawl 3 hexes


def ways_in(state: dict[str, Any], c: dict[str, Any]) -> str:
    """The entry commands that take this figure: a dive only while standing in the movement phase (4.3)."""
    if (
        state.get("phase") == "movement"
        and c.get("posture") == "standing"
        and option(state, "diving_for_legs")
    ):
        return "use dive_for_legs, or enter_hth from the next hex at your action"
    return "use enter_hth from the next hex at your action"


def _blocked(state: dict[str, Any], cid: str, to: Any) -> str | None:
    """Why a figure may not step into this hex outside the HTH commands (4.0 DECISION), or None."""
    me = state["combatants"][cid]
    for other in F.occupants(state, to, but=(cid,)):
        o = state["combatants"][other]
        # Point only to a command that takes this figure now or at its action (issue 17).
        group = F.group_of(state, other)
        if group:
            if F.group_standing(state, group) and F.is_down(me):
                return (
                    f"{label(to)} holds a brawl on its feet: a fallen figure gets in with enter_hth at its "
                    "own action (§Standing)"
                )
            return f"{label(to)} holds an HTH brawl: use join_hth"
        if F.enemies(me, o):
            return f"{label(to)} holds {o['name']}, an enemy: {ways_in(state, me)}"
    return None


def refuse_plain_move(state: dict[str, Any], cid: str, to: Any) -> None:
    """The plain `move` is a position correction, but never a way into an enemy's or a brawl's hex."""
    if cid in state["combatants"] and to is not None:
        why = _blocked(state, cid, to)
        if why:
            raise RuleError(f"{F.name(state, cid)} may not be moved there: {why}.")


def move_limit(state: dict[str, Any], c: dict[str, Any]) -> int:
    if c.get("posture") != "standing":
        return JUDO2_CRAWL_HEXES if F.judo(c) >= 2 else int(option(state, "prone_crawl_hexes"))
    return int(F.stat(c, "ma", 10))


def tft_move(state: dict[str, Any], cmd: TftMove, dice: Dice) -> list[Any]:
    """Step along a path of adjacent hexes in the movement phase, within MA (or the crawl limit)."""
    c = F.get(state, cmd.combatant)
    if not cmd.path:
        raise BadCommand("path needs at least one hex", "path")
    if any(not (isinstance(h, list) and len(h) == 2) for h in cmd.path):
        raise BadCommand("each hex of path is [q, r]", "path")
    if cmd.facing is not None and not 0 <= cmd.facing <= 5:
        raise BadCommand("facing must be 0-5", "facing")
    rec = F.tft_record(state, c["id"])
    problems = []
    not_now = wrong_phase(state, "movement", "figures move")
    if not_now:
        problems.append(not_now)
    if c.get("group"):
        problems.append(
            f"{c['name']} is in HTH: only disengage, an action (not on the turn of getting in), takes "
            "a figure out"
        )
    if rec["movement_ended"]:
        problems.append(f"{c['name']}'s movement has ended this turn")
    if F.action_spent(state, c["id"]):
        problems.append(f"{c['name']} has lost this turn's action and may not move")
    if not F.conscious(c):
        problems.append(f"{c['name']} is not conscious")
    limit = move_limit(state, c)
    total = rec["hexes_moved"] + len(cmd.path)
    if total > limit:
        what = "MA" if c.get("posture") == "standing" else "crawl limit on the ground"
        problems.append(f"{c['name']} would move {total} hexes this turn, more than their {what} ({limit})")
    here = c.get("position")
    for step in cmd.path:
        if not adjacent(here, step):
            problems.append(f"{label(step)} is not next to {label(here)}")
            break
        why = _blocked(state, c["id"], step)
        if why:
            problems.append(why)
            break
        here = step
    refuse(problems, f"{c['name']} may not move so")
    events: list[Any] = []
    here = c.get("position")
    for step in cmd.path:
        events.append(Moved(c["id"], list(step), "move", None, list(here)))
        here = step
    if cmd.facing is not None:
        events.append(FacingChanged(c["id"], cmd.facing))
    return events + [TftMoveCounted(c["id"], [list(s) for s in cmd.path], total)]
