"""Out of HTH on the ground (§Standing, BASE): standing up and picking up a dropped weapon, each the
figure's action at its slot in the action phase (NOTES.md: the seed is silent on both)."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, ActionSpent, ItemPickedUp, ItemReadied, PostureChanged
from events.dice import Dice
from rules.hexes import adjacent, label
from rules.interface import BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.commands import PickUp, StandUp
from rules.tft.initiative import slot_problems


def _out_of_hth_problems(state: dict[str, Any], c: dict[str, Any], actor: str) -> list[str]:
    out = slot_problems(state, c["id"], actor)
    if c.get("group"):
        out.append(f"{c['name']} is in HTH (disengage gets {c['name']} up and out, §Actions-Disengage)")
    return out


def stand_up(state: dict[str, Any], cmd: StandUp, dice: Dice) -> list[Any]:
    """A fallen figure outside HTH gets to his feet, spending his action."""
    c = F.get(state, cmd.combatant)
    problems = _out_of_hth_problems(state, c, cmd.actor)
    if not F.is_down(c):
        problems.append(f"{c['name']} is already standing")
    refuse(problems, f"{c['name']} may not stand up now")
    turn = state.get("turn", 0)
    return [
        ActionDeclared(c["id"], "stand_up", [], {}),
        PostureChanged(c["id"], "standing"),
        ActionSpent(c["id"], turn, "stand_up"),
    ]


def _lying(state: dict[str, Any], item_id: str) -> dict[str, Any]:
    for owner in state["combatants"].values():
        for item in owner.get("items", []):
            if item.get("id") == item_id:
                return item
    raise BadCommand(f"no item {item_id!r} is in the encounter", "item")


def _in_brawl(state: dict[str, Any], at: Any) -> bool:
    return any(g["at"] == at for g in state["groups"].values())


def within_reach(state: dict[str, Any], c: dict[str, Any]) -> list[str]:
    """Ids of the dropped items this figure could pick up (legal_actions)."""
    return [
        i["id"]
        for o in state["combatants"].values()
        for i in o.get("items", [])
        if i.get("state") == "dropped"
        and not _in_brawl(state, i.get("at"))
        and (i.get("at") == c.get("position") or adjacent(i.get("at"), c.get("position")))
    ]


def pick_up(state: dict[str, Any], cmd: PickUp, dice: Dice) -> list[Any]:
    """Pick up a dropped item from one's own or an adjacent hex; a weapon is readied if none is ready."""
    c = F.get(state, cmd.combatant)
    item = _lying(state, cmd.item)
    name = item.get("name", cmd.item)
    problems = _out_of_hth_problems(state, c, cmd.actor)
    at = item.get("at")
    if item.get("state") != "dropped":
        problems.append(f"the {name} is not lying on the ground (it is {item.get('state')})")
    elif at != c.get("position") and not adjacent(at, c.get("position")):
        problems.append(f"the {name} lies at {label(at)}, not in or next to {c['name']}'s hex")
    elif _in_brawl(state, at):
        problems.append(f"the {name} lies under the brawl at {label(at)}, out of reach while it lasts")
    refuse(problems, f"{c['name']} may not pick up the {name}")
    events: list[Any] = [
        ActionDeclared(c["id"], "pick_up", [], {"item": cmd.item}),
        ItemPickedUp(c["id"], cmd.item),
    ]
    if item.get("kind") == "weapon" and not F.ready_weapons(c):
        events.append(ItemReadied(c["id"], cmd.item))
    return [*events, ActionSpent(c["id"], state.get("turn", 0), "pick_up")]
