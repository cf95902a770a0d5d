"""The other HTH actions: cast a spell at -6, draw a dagger, drop a shield (4.7, 4.8; §Actions)."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, ActionSpent, ItemDropped, ItemReadied
from events.dice import Dice, Modifier
from rules.interface import BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.attacking import member_problems
from rules.tft.commands import CastSpellInHth, DrawDagger, DropShield
from rules.tft.dx_in_hth import hth_dx
from rules.tft.initiative import slot_problems
from rules.tft.options import option

ENTRY_TURN_RULE = "{name} may only attack on the turn of entering HTH"


def entry_turn_problems(
    state: dict[str, Any], cid: str, allowed_by_first_turn_draw: bool = False
) -> list[str]:
    """On the turn a figure enters or joins HTH it may only attack (§Actions-Attack; §Notes option)."""
    if F.entry_turn(state, cid) and not (allowed_by_first_turn_draw and option(state, "first_turn_draw")):
        return [ENTRY_TURN_RULE.format(name=F.name(state, cid))]
    return []


def _three_vs(
    dice: Dice, who: str, purpose: str, target: int, mods: list[Modifier], count: int = 3
) -> tuple[Any, bool]:
    r = dice.roll(count, 6, purpose, who)
    ok = r.sum <= target
    return r.event(modifiers=mods, total=r.sum, target=target, outcome="success" if ok else "failure"), ok


def cast_spell_in_hth(state: dict[str, Any], cmd: CastSpellInHth, dice: Dice) -> list[Any]:
    """3vs(HTH DX - 6 + the spell's own modifiers); effect and ST cost are the GM's (4.7)."""
    c = F.get(state, cmd.combatant)
    problems = slot_problems(state, c["id"], cmd.actor) + entry_turn_problems(state, c["id"])
    if not c.get("group"):
        problems.append(f"{c['name']} is not in HTH")
    pin = F.pin_on(state, c["id"])
    if pin and cmd.motion:
        problems.append(
            f"{c['name']} is pinned and may cast only a spell without hand motions (motion: false)"
        )
    if F.pin_holding(state, c["id"]):
        problems.append(f"{c['name']} is holding a pin (release it first)")
    refuse(problems, f"{c['name']} may not cast a spell")
    target, mods = hth_dx(state, c["id"], "spell")
    given = [Modifier(m.value, m.reason) for m in cmd.modifiers]
    target += sum(m.value for m in given)
    ev, _ = _three_vs(dice, c["id"], "cast_spell", target, mods + given)
    return [
        ActionDeclared(c["id"], "cast_spell_in_hth", [], {"spell": cmd.spell, "motion": cmd.motion}),
        ev,
        ActionSpent(c["id"], state.get("turn", 0), "cast_spell_in_hth"),
    ]


def draw_dagger(state: dict[str, Any], cmd: DrawDagger, dice: Dice) -> list[Any]:
    """3vs(HTH DX) to ready a carried dagger-list item (§Actions-Dagger)."""
    c = F.get(state, cmd.combatant)
    problems = slot_problems(state, c["id"], cmd.actor) + entry_turn_problems(state, c["id"], True)
    problems += member_problems(state, c["id"])
    daggers = F.carried_daggers(c)
    if cmd.item is not None:
        daggers = [d for d in daggers if d["id"] == cmd.item]
    if not daggers:
        problems.append(f"{c['name']} carries no dagger-list weapon" + (f" {cmd.item!r}" if cmd.item else ""))
    if any(F.hth_usable(w) for w in F.ready_weapons(c)):
        problems.append(f"{c['name']} already has a weapon ready for HTH")
    refuse(problems, f"{c['name']} may not draw a dagger")
    target, mods = hth_dx(state, c["id"], "draw")
    ev, ok = _three_vs(dice, c["id"], "draw_dagger", target, mods)
    events: list[Any] = [ActionDeclared(c["id"], "draw_dagger", [], {"item": daggers[0]["id"]}), ev]
    if ok:
        events.append(ItemReadied(c["id"], daggers[0]["id"]))
    return [*events, ActionSpent(c["id"], state.get("turn", 0), "draw_dagger")]


def drop_shield(state: dict[str, Any], cmd: DropShield, dice: Dice) -> list[Any]:
    """3vs(HTH DX, the shield's own penalty included) to wiggle free of a shield (§Actions-Shield)."""
    c = F.get(state, cmd.combatant)
    problems = (
        slot_problems(state, c["id"], cmd.actor)
        + entry_turn_problems(state, c["id"])
        + member_problems(state, c["id"])
    )
    shield = F.worn_shield(c)
    named = next((i for i in c.get("items", []) if i.get("id") == cmd.item), None)
    if cmd.item is not None and named is None:
        raise BadCommand(f"{c['name']} has no item {cmd.item!r}", "item")
    if shield is None:
        problems.append(f"{c['name']} wears no shield")
    elif named is not None and named["id"] != shield["id"]:
        # §Actions-Shield: "To wiggle your arm free of a shield": the one strapped to the arm, no other item.
        problems.append(
            f"one wiggles free only of the shield one wears (§Actions-Shield): {c['name']} wears the "
            f"{shield.get('name', shield['id'])}, and the {named.get('name', named['id'])} is "
            f"{'not a shield' if named.get('kind') != 'shield' else named.get('state', 'not worn')}"
        )
    refuse(problems, f"{c['name']} may not drop a shield")
    target, mods = hth_dx(state, c["id"], "general")
    ev, ok = _three_vs(dice, c["id"], "drop_shield", target, mods)
    group = F.group_of(state, c["id"])
    events: list[Any] = [ActionDeclared(c["id"], "drop_shield", [], {"item": shield["id"]}), ev]
    if ok:
        events.append(ItemDropped(c["id"], shield["id"], list(group["at"]) if group else c.get("position")))
    return [*events, ActionSpent(c["id"], state.get("turn", 0), "drop_shield")]
