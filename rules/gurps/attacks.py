"""Close-combat attacks (spec section 4.4) and grapples (section 4.9): the attack roll, then the
target's defence as reaction `defence` (GurpsDefenceAwaited)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, ReactionRequested
from events.dice import Dice, Modifier
from rules.acting import asked_of
from rules.gurps.combatant_stats import (
    best_grappling_skill,
    has_empty_hand,
    not_ready_reason,
    stats,
    weapon_is_ready,
    weapon_named,
)
from rules.gurps.commands import CloseCombatAttack, Grapple
from rules.gurps.events import GurpsDefenceAwaited
from rules.gurps.hex_sharing import in_close_combat, in_close_combat_with
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.parry import defence_options, no_parry_reason
from rules.gurps.situational_modifiers import (
    fighter,
    grappled_by_me,
    grappled_modifiers,
    pins_on,
    shield_attack_modifiers,
)
from rules.gurps.success_rolls import SuccessRoll, success_roll
from rules.gurps.tables import GRAPPLE_MANEUVERS, MANEUVERS
from rules.gurps.weapons import (
    bulk_modifiers,
    reach_words,
    usable_in_close_combat,
    weapon_skill,
)
from rules.refusals import refuse


def attack_problems(
    state: dict[str, Any], cid: str, target: str, maneuver: str, allowed: frozenset[str] | None
) -> list[str]:
    """Conditions every close-combat attack shares (empty when all hold)."""
    c = state["combatants"][cid]
    t = state["combatants"][target]
    problems = []
    if allowed is None and not MANEUVERS[maneuver]["attack"]:
        problems.append(f"{maneuver} does not allow an attack")
    if allowed is not None and maneuver not in allowed:
        problems.append(f"{maneuver} is not one of {', '.join(sorted(allowed))}")
    if fighter(state, cid)["attacks_this_maneuver"] >= 1:
        problems.append(f"{c['name']} has already attacked this maneuver")
    if pins_on(state, cid):
        problems.append(f"{c['name']} is pinned: only breaking free is allowed")
    if not in_close_combat_with(state, cid, target):
        problems.append(f"{c['name']} is not in close combat with {t['name']} (enter that hex first)")
    return problems


def defence_request(
    state: dict[str, Any],
    attacker: str,
    target: str,
    attack: str,
    weapon: dict[str, Any] | None,
    roll: SuccessRoll,
) -> list[msgspec.Struct]:
    """GurpsDefenceAwaited and the `defence` reaction of the target's controller."""
    t = state["combatants"][target]
    options = defence_options(state, target)
    wname = weapon["name"] if weapon else "grapple"
    return [
        GurpsDefenceAwaited(attacker, target, attack, wname, options),
        ReactionRequested(
            id="",
            kind="defence",
            combatant=target,
            asked_of=asked_of(state, target),
            options=options,
            default="dodge",
            resume={
                "attacker": attacker,
                "target": target,
                "attack": attack,
                "weapon": wname,
                "damage": (weapon or {}).get("damage"),
                "attack_margin": roll.margin,
            },
            question=f"{state['combatants'][attacker]['name']} hits {t['name']} with a {wname if weapon else 'grapple'}: "
            f"{' or '.join(options)}{' (no block in close combat)' if in_close_combat(state, target) else ''}? "
            "Any of them may be made retreating a hex, for a bonus."
            + ("" if "parry" in options else f" No parry: {no_parry_reason(state, target)}."),
        ),
    ]


def decide_attack(state: dict[str, Any], cmd: CloseCombatAttack, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.close_combat_attack`."""
    cid, target = cmd.combatant, cmd.target
    c = state["combatants"][cid]
    maneuver = own_turn_or_error(state, cid, "with an attack maneuver")
    problems = strike_problems(state, cid, target, cmd.weapon, maneuver)
    refuse(problems, details={"combatant": cid, "target": target, "weapon": cmd.weapon})
    w = weapon_named(c, cmd.weapon)
    assert w is not None
    skill, level = weapon_skill(c, w)
    mods = (
        bulk_modifiers(w)
        + shield_attack_modifiers(state, cid)
        + grappled_modifiers(state, cid)
        + list(cmd.modifiers)
    )
    roll = success_roll(dice, combatant=cid, purpose="attack", base=level, base_name=skill, modifiers=mods)
    events: list[msgspec.Struct] = [
        ActionDeclared(cid, "close_combat_attack", [target], {"weapon": w["name"]}),
        roll.event,
    ]
    if roll.success:
        events += defence_request(state, cid, target, "strike", w, roll)
    return events


def grapple_skill(c: dict[str, Any]) -> tuple[str, int]:
    """DX or his best grappling skill, whichever is higher."""
    best = best_grappling_skill(c)
    dx = int(stats(c)["DX"])
    return best if best is not None and best[1] > dx else ("DX", dx)


def grapple_problems(state: dict[str, Any], cid: str, target: str, maneuver: str) -> list[str]:
    """Why `cid` may not grapple `target` now (section 4.9; empty when he may)."""
    c = state["combatants"][cid]
    problems = attack_problems(state, cid, target, maneuver, GRAPPLE_MANEUVERS)
    if not has_empty_hand(c):
        problems.append(f"{c['name']} has no empty hand")
    if target in grappled_by_me(state, cid):
        problems.append(f"{c['name']} already grapples {state['combatants'][target]['name']}")
    return problems


def strike_problems(state: dict[str, Any], cid: str, target: str, weapon: str, maneuver: str) -> list[str]:
    """Why `cid` may not strike `target` with `weapon` in close combat now (4.4; empty when he may)."""
    c = state["combatants"][cid]
    problems = attack_problems(state, cid, target, maneuver, None)
    w = weapon_named(c, weapon)
    if w is None:
        problems.append(f"{c['name']} has no weapon named {weapon!r}")
    elif not usable_in_close_combat(w):
        problems.append(
            f"{c['name']} cannot attack with the {w['name']} in close combat: its {reach_words(w)} "
            "lacks C (only reach-C melee weapons, empty hands or ranged weapons)"
        )
    elif not weapon_is_ready(c, w):
        problems.append(not_ready_reason(c, w))
    return problems


def grapple_check(state: dict[str, Any], cmd: Grapple) -> None:
    """Refuse a grapple that breaks a condition of section 4.9."""
    maneuver = own_turn_or_error(state, cmd.combatant, "with Attack, All-Out Attack or Move and Attack")
    problems = grapple_problems(state, cmd.combatant, cmd.target, maneuver)
    refuse(problems, details={"combatant": cmd.combatant, "target": cmd.target})


def grapple_roll(state: dict[str, Any], cmd: Grapple, dice: Dice) -> SuccessRoll:
    """The grapple's attack roll: DX or a grappling skill, with the section 4.4 modifiers."""
    c = state["combatants"][cmd.combatant]
    skill, level = grapple_skill(c)
    mods: list[Modifier] = (
        shield_attack_modifiers(state, cmd.combatant)
        + grappled_modifiers(state, cmd.combatant)
        + list(cmd.modifiers)
    )
    return success_roll(
        dice, combatant=cmd.combatant, purpose="grapple", base=level, base_name=skill, modifiers=mods
    )


def decide_grapple(state: dict[str, Any], cmd: Grapple, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.grapple` (minimal mode): a hit asks the target to dodge or parry."""
    grapple_check(state, cmd)
    roll = grapple_roll(state, cmd, dice)
    events: list[msgspec.Struct] = [ActionDeclared(cmd.combatant, "grapple", [cmd.target], {}), roll.event]
    if roll.success:
        events += defence_request(state, cmd.combatant, cmd.target, "grapple", None, roll)
    return events
