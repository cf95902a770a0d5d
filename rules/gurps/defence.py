"""Defence in close combat (spec section 4.5, §Defense in Close Combat): the answer to reaction
`defence`. Dodge as normal; parry only with an empty hand or a reach-C weapon; never block;
retreat (not while grappled, once per turn) into one of the three hexes on his side."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import CloseCombatLeft, Moved, ReactionCancelled
from events.dice import Dice, Modifier
from rules.gurps.combatant_stats import is_unarmed, stats, weapon_named, weapons, worn_shield
from rules.gurps.events import Grappled
from rules.gurps.hex_sharing import rules_of, seat_of, shared_hex
from rules.gurps.leaving import exits_for, releases_on_leaving
from rules.gurps.options import option
from rules.gurps.situational_modifiers import fighter, is_grappled
from rules.gurps.success_rolls import success_roll
from rules.gurps.weapons import damage_roll, may_parry_with, reach_words
from rules.hexes import as_hex, direction_to, label
from rules.interface import Answer, BadCommand, RuleError
from rules.refusals import refuse

DEFENCE_PARAMS = frozenset({"weapon", "retreat", "to"})


def parry_weapon(t: dict[str, Any], wanted: Any) -> dict[str, Any]:
    """The weapon he parries with: the one named, else his best legal parry."""
    if wanted is not None:
        if not isinstance(wanted, str):
            raise BadCommand("weapon must be the name of one of his weapons", "weapon")
        w = weapon_named(t, wanted)
        if w is None:
            raise RuleError(f"{t['name']} has no weapon named {wanted!r}")
        if not may_parry_with(w):
            why = "it has no parry value" if w.get("parry") is None else f"its {reach_words(w)} lacks C"
            raise RuleError(f"{t['name']} cannot parry with the {w['name']} in close combat: {why}. "
                            "He may dodge, or parry with an empty hand or a reach-C weapon")
        return w
    legal = [w for w in weapons(t) if may_parry_with(w)]
    if not legal:
        raise RuleError(f"{t['name']} has no empty hand or reach-C weapon to parry with: he may only dodge")
    return max(legal, key=lambda w: int(w["parry"]))


def retreat_events(state: dict[str, Any], cid: str, to: Any) -> list[msgspec.Struct]:
    """He steps back out of close combat into a hex on his side (checked)."""
    t = state["combatants"][cid]
    problems = []
    if is_grappled(state, cid):
        problems.append(f"{t['name']} cannot retreat while he is grappled")
    if fighter(state, cid)["retreat_turn"] == rules_of(state).get("turn"):
        problems.append(f"{t['name']} has already retreated this turn")
    if not (isinstance(to, list) and len(to) == 2 and all(isinstance(v, int) for v in to)):
        raise BadCommand("a retreat needs to: [q, r], a hex on his side of the close-combat hex", "to")
    dest = as_hex(to)
    seat = seat_of(state, cid)
    if seat is not None and not seat["declared_adjacent"]:
        if dest not in exits_for(state, cid):
            sides = ", ".join(str(list(x)) for x in exits_for(state, cid))
            problems.append(f"{list(dest)} is not one of the three hexes on {t['name']}'s side ({sides})")
    elif t.get("position") is None or direction_to(t["position"], dest) is None:
        problems.append(f"{list(dest)} is not next to {t['name']}")
    refuse(problems, details={"combatant": cid})
    events: list[msgspec.Struct] = [*releases_on_leaving(state, cid), Moved(cid, list(dest), "disengage", None, list(t["position"]))]
    if shared_hex(state, cid) is not None:
        events.append(CloseCombatLeft(t.get("group") or f"cc:{label(t['position'])}", cid, "retreat"))
    return events


def resume_defence(state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice) -> list[msgspec.Struct]:
    """Roll the chosen defence; on a failure roll the weapon's damage or apply the grapple."""
    p = pending["resume"]
    unknown = set(answer.params) - DEFENCE_PARAMS
    if unknown:
        raise BadCommand(f"a defence takes weapon, retreat and to, not {sorted(unknown)}", sorted(unknown)[0])
    choice = answer.choice
    if choice == "block":
        raise RuleError("no block in close combat: dodge, or parry with an empty hand or a reach-C weapon")
    if choice not in ("dodge", "parry"):
        raise RuleError(f"{choice!r} is not a defence: dodge or parry")
    attacker, target = p["attacker"], p["target"]
    if attacker not in state["combatants"] or target not in state["combatants"]:
        return [ReactionCancelled(pending["id"], "a figure of the attack is gone")]
    t = state["combatants"][target]
    retreat = bool(answer.params.get("retreat"))
    mods: list[Modifier] = []
    events: list[msgspec.Struct] = []
    if choice == "dodge":
        base, base_name = int(stats(t)["dodge"]), "Dodge"
        weapon = None
    else:
        weapon = parry_weapon(t, answer.params.get("weapon"))
        base, base_name = int(weapon["parry"]), f"Parry ({weapon['name']})"
    shield = worn_shield(t)
    if shield:
        mods.append(Modifier(int(shield["db"]), f"{shield.get('name', 'shield')} DB"))
    if retreat:
        events += retreat_events(state, target, answer.params.get("to"))
        bonus = option(state, "retreat_bonus")
        if choice == "dodge":
            mods.append(Modifier(int(bonus["dodge"]), "retreat"))
        elif weapon is not None and (is_unarmed(weapon) or weapon.get("fencing")):
            mods.append(Modifier(int(bonus["parry_fencing_or_unarmed"]), "retreat (fencing or unarmed parry)"))
        else:
            mods.append(Modifier(int(bonus["parry"]), "retreat"))
    roll = success_roll(dice, combatant=target, purpose=choice, base=base, base_name=base_name, modifiers=mods)
    events.append(roll.event)
    if roll.success:
        return events
    if p["attack"] == "grapple":
        events.append(Grappled(attacker, target))
        return events
    a = state["combatants"][attacker]
    w = weapon_named(a, p["weapon"]) or {"name": p["weapon"], "damage": p.get("damage")}
    dmg = damage_roll(dice, w, attacker)
    if dmg is not None:
        events.append(dmg)
    return events
