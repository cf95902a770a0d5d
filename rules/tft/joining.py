"""Way 4: joining an HTH brawl of two or more, no roll (spec 4.4; seed §Options 4, §Multiple)."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, CloseCombatJoined, Moved, PostureChanged
from events.dice import Dice
from rules.hexes import adjacent
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.commands import JoinHth
from rules.tft.entering import dropped_on_entry
from rules.tft.events import HthFirstTurn
from rules.tft.initiative import reordered, slot_problems
from rules.tft.movement import ways_in
from rules.tft.state import evolve_rules
from rules.working import folded


def join_hth(state: dict[str, Any], cmd: JoinHth, dice: Dice) -> list[Any]:
    """Step into a group's hex and join it, in the movement phase (the step counts) or at one's action."""
    j, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    problems = []
    group = F.group_of(state, t["id"])
    rec = F.tft_record(state, j["id"])
    if group is None:
        problems.append(f"{t['name']} is not in HTH: {ways_in(state, j)}")
    else:
        members = [state["combatants"][m] for m in group["combatants"] if m in state["combatants"]]
        if not any(F.enemies(j, m) and F.conscious(m) for m in members):
            problems.append(f"no enemy of {j['name']} is in that brawl")
        if F.group_standing(state, group) and j.get("posture") != "standing":
            problems.append(
                f"{j['name']} is not standing and the brawl is on its feet "
                "(a fallen figure gets in with enter_hth at its own action, §Standing)"
            )
    if j.get("group"):
        problems.append(f"{j['name']} is already in HTH")
    if not F.conscious(j):
        problems.append(f"{j['name']} is not conscious")
    if not adjacent(j.get("position"), t.get("position")):
        problems.append(f"{j['name']} is not next to the brawl")
    if state.get("phase") == "movement":
        if rec["movement_ended"]:
            problems.append(f"{j['name']}'s movement has ended this turn")
        if rec["hexes_moved"] + 1 > F.half_move(j):
            problems.append(
                f"with this step {j['name']} would move {rec['hexes_moved'] + 1} hexes, more than half "
                f"their MA ({F.half_move(j)})"
            )
    else:
        problems += slot_problems(state, j["id"], cmd.actor)
        if rec["hexes_moved"] > F.half_move(j):
            problems.append(
                f"{j['name']} moved {rec['hexes_moved']} hexes, more than half their MA ({F.half_move(j)})"
            )
    refuse(problems, f"{j['name']} may not join the brawl")
    at = list(group["at"])
    events: list[Any] = [
        ActionDeclared(j["id"], "join_hth", [t["id"]], {"group": group["group"]}),
        Moved(j["id"], at, "charge", None, list(j["position"])),
    ]
    events += dropped_on_entry(state, j["id"], at)
    standing = F.group_standing(state, group)
    events.append(CloseCombatJoined(group["group"], [j["id"]], at, standing))
    if not standing and j.get("posture") != "prone":
        events.append(PostureChanged(j["id"], "prone"))
    events.append(HthFirstTurn(j["id"], state.get("turn", 0)))
    order = reordered(folded(state, events, evolve_rules))
    return events + ([order] if order else [])
