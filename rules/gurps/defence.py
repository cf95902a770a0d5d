"""Defence in close combat (spec section 4.5, §Defense in Close Combat): the answer to reaction
`defence`. Dodge as normal; parry only with an empty hand or a reach-C weapon; never block;
retreat (not while grappled, once per turn) into one of the three hexes on his side."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import Moved, ReactionCancelled
from events.dice import Dice, Modifier
from rules.gurps.close_combat import arrival
from rules.gurps.combatant_stats import is_lying, is_unarmed, stats, weapon_named, worn_shield
from rules.gurps.events import Grappled
from rules.gurps.hex_sharing import rules_of, seat_of
from rules.gurps.leaving import exits_for, releases_on_leaving
from rules.gurps.options import option
from rules.gurps.parry import block_problems, parry_weapon
from rules.gurps.situational_modifiers import fighter, is_grappled
from rules.gurps.state import evolve_rules
from rules.gurps.success_rolls import success_roll
from rules.gurps.weapons import damage_roll
from rules.hexes import as_hex, direction_to
from rules.interface import Answer, BadCommand, RuleError
from rules.refusals import refuse
from rules.working import folded

DEFENCE_PARAMS = frozenset({"weapon", "retreat", "to"})


def defence_posture_modifiers(state: dict[str, Any], cid: str) -> list[Modifier]:
    """OPTION defence_posture_penalty: a defender kneeling or lying down (version 5)."""
    c = state["combatants"][cid]
    table = option(state, "defence_posture_penalty")
    if is_lying(c):
        return [Modifier(int(table["lying"]), "lying down")]
    if c.get("posture") == "kneeling":
        return [Modifier(int(table["kneeling"]), "kneeling")]
    return []


def retreat_events(state: dict[str, Any], cid: str, to: Any) -> list[msgspec.Struct]:
    """He steps back out of close combat into a hex on his side (checked)."""
    t = state["combatants"][cid]
    problems = []
    if is_grappled(state, cid):
        problems.append(f"{t['name']} cannot retreat while grappled")
    if fighter(state, cid)["retreat_turn"] == rules_of(state).get("turn"):
        problems.append(f"{t['name']} has already retreated this turn")
    if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, int) for v in to)):
        raise BadCommand(
            "a retreat needs to: [q, r], a hex on the retreating figure's side of the close-combat hex", "to"
        )
    dest = as_hex(to)
    seat = seat_of(state, cid)
    if seat is not None and not seat["declared_adjacent"]:
        if dest not in exits_for(state, cid):
            sides = ", ".join(str(list(x)) for x in exits_for(state, cid))
            problems.append(f"{list(dest)} is not one of the three hexes on {t['name']}'s side ({sides})")
    elif t.get("position") is None or direction_to(t["position"], dest) is None:
        problems.append(f"{list(dest)} is not next to {t['name']}")
    refuse(problems, details={"combatant": cid})
    releases = releases_on_leaving(state, cid)
    # A retreat into a hex holding another foe is close combat with him there (close_combat).
    return [
        *releases,
        *arrival(
            folded(state, releases, evolve_rules),
            Moved(cid, list(dest), "disengage", None, list(t["position"])),
            "retreat",
        ),
    ]


def held_back(state: dict[str, Any], cid: str, to: list[int]) -> list[msgspec.Struct]:
    """A failed defence against a grapple: the figure who retreated is caught and pulled back to `to`,
    the hex the retreat left (`Moved {reason: "held"}`, then the close combat that means there)."""
    at = state["combatants"][cid]["position"]
    if at is None or as_hex(at) == as_hex(to):
        return []
    return arrival(state, Moved(cid, list(to), "held", None, list(at)), "held")


def resume_defence(
    state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice
) -> list[msgspec.Struct]:
    """Roll the chosen defence; on a failure roll the weapon's damage or apply the grapple."""
    p = pending["resume"]
    unknown = set(answer.params) - DEFENCE_PARAMS
    if unknown:
        raise BadCommand(f"a defence takes weapon, retreat and to, not {sorted(unknown)}", sorted(unknown)[0])
    choice = answer.choice
    if choice not in ("dodge", "parry", "block"):
        raise RuleError(f"{choice!r} is not a defence: dodge, parry or block")
    attacker, target = p["attacker"], p["target"]
    if attacker not in state["combatants"] or target not in state["combatants"]:
        return [ReactionCancelled(pending["id"], "a figure of the attack is gone")]
    t = state["combatants"][target]
    retreat = bool(answer.params.get("retreat"))
    mods: list[Modifier] = []
    events: list[msgspec.Struct] = []
    weapon = None
    if choice == "dodge":
        base, base_name = int(stats(t)["dodge"]), "Dodge"
    elif choice == "block":
        problems = block_problems(state, target)
        if problems:
            raise RuleError(f"{t['name']} cannot block: {'; '.join(problems)}")
        base, base_name = int(stats(t)["block"]), "Block"
    else:
        weapon = parry_weapon(state, target, answer.params.get("weapon"))
        base, base_name = int(weapon["parry"]), f"Parry ({weapon['name']})"
    shield = worn_shield(t)
    if shield:
        mods.append(Modifier(int(shield["db"]), f"{shield.get('name', 'shield')} DB"))
    mods += defence_posture_modifiers(state, target)
    if retreat:
        events += retreat_events(state, target, answer.params.get("to"))
        bonus = option(state, "retreat_bonus")
        if choice == "dodge":
            mods.append(Modifier(int(bonus["dodge"]), "retreat"))
        elif weapon is not None and (is_unarmed(weapon) or weapon.get("fencing")):
            mods.append(
                Modifier(int(bonus["parry_fencing_or_unarmed"]), "retreat (fencing or unarmed parry)")
            )
        else:
            mods.append(Modifier(int(bonus["parry"]), "retreat"))
    roll = success_roll(
        dice, combatant=target, purpose=choice, base=base, base_name=base_name, modifiers=mods
    )
    events.append(roll.event)
    if roll.success:
        return events
    if p["attack"] == "grapple":
        if retreat:
            # §Defense in Close Combat: the retreat is the step out, taken with the defence and rolled
            # with its bonus, whatever the roll; the grapple still lands. A grappled figure "cannot
            # leave the hex until you break free" (§Leaving a Foe's Hex) and nobody holds across hexes,
            # so the hold pulls the retreating figure back into the hex the step left.
            events += held_back(folded(state, events, evolve_rules), target, list(t["position"]))
        events.append(Grappled(attacker, target))
        return events
    a = state["combatants"][attacker]
    w = weapon_named(a, p["weapon"]) or {"name": p["weapon"], "damage": p.get("damage")}
    dmg = damage_roll(dice, w, attacker)
    if dmg is not None:
        events.append(dmg)
    return events
