"""Attacks in HTH (4.6; §Actions-Attack, §DX-Mods) and the Judo 2 prone punch (§Judo-2)."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, ActionSpent, ItemDropped
from events.dice import Dice, Modifier
from rules.hexes import adjacent
from rules.interface import BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.aftermath import consequences
from rules.tft.commands import Defend, HthAttack, ProneUnarmedAttack
from rules.tft.damage import armor_stops, fist_damage, hth_weapon_damage, roll_damage, wound_events
from rules.tft.dx_in_hth import adj_dx, hth_dx
from rules.tft.initiative import slot_problems
from rules.tft.options import option
from rules.tft.tables import ATTACK_CRITICALS, ATTACK_DICE, DEFENDED_ATTACK_DICE, PRONE_PUNCH_DX

HTH_WEAPON_RULE = "only daggers and the cestus can be used in HTH (§Overview)"


def _unusable_item(state: dict[str, Any], c: dict[str, Any], item: dict[str, Any]) -> str | None:
    """Why a figure in HTH may not attack with one of its items, naming the rule; None if it may."""
    name = item.get("name", item.get("id"))
    group = F.group_of(state, c["id"])
    if item.get("state") == "dropped":
        where = "on entering HTH" if group and item.get("at") == list(group["at"]) else f"at {item.get('at')}"
        rule = (
            HTH_WEAPON_RULE
            if not F.hth_usable(item)
            else "both drop their ready weapons on entering (§Entering)"
        )
        return f"{rule}; the {name} was dropped {where}"
    if not F.hth_usable(item):
        return f"{HTH_WEAPON_RULE}; the {name} is neither"
    if F.is_cestus(item) and not F.on_hand(item):
        return (
            f"a cestus strikes from the hand it is worn on; the {name} is {item.get('state')}, and putting "
            "it on is not an HTH action (state worn: the GM's ruling)"
        )
    if not F.on_hand(item):
        later = F.entry_turn(state, c["id"]) and not option(state, "first_turn_draw")
        return (
            f"a weapon must be ready to attack with it; the {name} is {item.get('state')} (draw_dagger readies "
            f"it{' from next turn' if later else ''})"
        )
    return None


def out_of_hth_attack(t: dict[str, Any]) -> str:
    """The command that attacks a figure who is not in HTH, or that there is none (base TFT melee)."""
    if F.is_down(t):
        return "attack_fallen attacks a fallen figure out of HTH (§Standing)"
    return "an attack on a standing figure out of HTH is base TFT melee, which the GM rules"


def hth_weapon(state: dict[str, Any], c: dict[str, Any], weapon: str) -> dict[str, Any]:
    """The fist, a ready HTH-usable item, or an `hth` natural attack (4.6). A weapon the rules forbid is a
    rule error naming the rule; a name the figure does not have is a BadCommand."""
    if weapon == "fist":
        return {"name": "fist", "damage": fist_damage(state, c), "item": None}
    for item in c.get("items", []):
        if item.get("id") == weapon:
            why = _unusable_item(state, c, item)
            if why:
                refuse([why], f"{c['name']} may not attack with the {item.get('name', weapon)}")
            return {"name": item.get("name", weapon), "damage": hth_weapon_damage(item), "item": item}
    for nat in F.natural_attacks(c):
        if nat.get("name") == weapon:
            if not nat.get("hth"):
                refuse(
                    [f"{HTH_WEAPON_RULE}; {c['name']}'s {weapon} is not a natural attack marked hth"],
                    f"{c['name']} may not attack with their {weapon}",
                )
            return {"name": weapon, "damage": str(nat["damage"]), "item": None}
    raise BadCommand(
        f"{c['name']} has no weapon or natural attack {weapon!r} (use fist, an item id or an attack name)",
        "weapon",
    )


def attack_dice(state: dict[str, Any], target_id: str, unarmed_attack: bool) -> int:
    """4 dice against a prone Judo 2 figure that chose to Defend against an unarmed attack, else 3."""
    t = state["combatants"][target_id]
    defending = state.get("actions_spent", {}).get(target_id) == "defend"
    return (
        DEFENDED_ATTACK_DICE
        if defending and unarmed_attack and F.judo(t) >= 2 and t.get("posture") == "prone"
        else ATTACK_DICE
    )


def attack_roll(
    state: dict[str, Any],
    dice: Dice,
    who: str,
    target: int,
    mods: list[Modifier],
    purpose: str,
    count: int = ATTACK_DICE,
) -> tuple[Any, bool, int, str | None]:
    """3vs(target) (4 against a defender) with the criticals of A3 on 3 dice: (DieRolled, hit, x, fumble)."""
    r = dice.roll(count, 6, purpose, who)
    crit = ATTACK_CRITICALS.get(r.sum) if option(state, "attack_criticals") and count == ATTACK_DICE else None
    if crit:
        outcome, mult, fumble = crit
    else:
        outcome, mult, fumble = ("hit" if r.sum <= target else "miss"), 1, None
    return (
        r.event(modifiers=mods, total=r.sum, target=target, outcome=outcome),
        outcome == "hit",
        mult,
        fumble,
    )


def fumble_events(c: dict[str, Any], weapon: dict[str, Any], fumble: str | None) -> list[Any]:
    """17: the ready weapon is dropped; 18: it breaks (dropped, broken); never a fist or natural attack."""
    item = weapon.get("item")
    if not fumble or item is None or F.is_cestus(item):  # a cestus is worn on the hand: it is not let go
        return []
    return [ItemDropped(c["id"], item["id"], c.get("position"))]


def hth_attack(state: dict[str, Any], cmd: HthAttack, dice: Dice) -> list[Any]:
    """Attack another member of one's own group (4.6)."""
    a, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    problems = slot_problems(state, a["id"], cmd.actor) + member_problems(state, a["id"])
    if a.get("group") and t.get("group") != a.get("group"):
        problems.append(
            f"{t['name']} is not in HTH with {a['name']}: someone in HTH attacks only those in HTH with them"
        )
    if not a.get("group") and not t.get("group"):
        problems.append(f"{t['name']} is not in HTH either: {out_of_hth_attack(t)}")
    if a["id"] == t["id"]:
        problems.append(f"{a['name']} cannot attack themself")
    refuse(problems, f"{a['name']} may not attack {t['name']}")
    weapon = hth_weapon(state, a, cmd.weapon)
    target, mods = hth_dx(state, a["id"], "attack", weapon["item"])
    events: list[Any] = [ActionDeclared(a["id"], "hth_attack", [t["id"]], {"weapon": cmd.weapon})]
    count = attack_dice(state, t["id"], weapon["item"] is None and cmd.weapon == "fist")
    ev, hit, mult, fumble = attack_roll(state, dice, a["id"], target, mods, "hth_attack", count)
    events.append(ev)
    if hit:
        dmg_ev, dmg = roll_damage(dice, weapon["damage"], "damage", a["id"], weapon["name"], multiplier=mult)
        events.append(dmg_ev)
        # Shields never stop hits from group members (§Actions-Shield).
        events += wound_events(
            state, t["id"], dmg, armor_stops(t, shield_counts=False), f"{a['name']}'s {weapon['name']}"
        )
    events += fumble_events(a, weapon, fumble)
    events.append(ActionSpent(a["id"], state.get("turn", 0), "hth_attack"))
    return events + consequences(state, events)


def member_problems(state: dict[str, Any], cid: str) -> list[str]:
    """A group member acting with motion: in HTH, not pinned, not holding a pin."""
    c = state["combatants"][cid]
    out = []
    if not c.get("group"):
        out.append(f"{c['name']} is not in HTH")
    if F.pin_on(state, cid):
        out.append(f"{c['name']} is pinned")
    if F.pin_holding(state, cid):
        out.append(f"{c['name']} is holding a pin (release it first)")
    return out


def prone_unarmed_attack(state: dict[str, Any], cmd: ProneUnarmedAttack, dice: Dice) -> list[Any]:
    """Judo 2: a prone figure that moved 0 hexes punches an adjacent figure at -3 DX (§Judo-2)."""
    a, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    slot = slot_problems(state, a["id"], cmd.actor)
    problems = list(slot)
    if F.judo(a) < 2:
        problems.append(f"{a['name']} does not have Judo 2")
    if a.get("posture") != "prone":
        problems.append(f"{a['name']} is not prone")
    if a.get("group"):
        # Sent to hth_attack only when its slot is open (else the slot's problem is what must change first).
        problems.append(f"{a['name']} is in HTH" + ("" if slot else ": use hth_attack"))
    if F.tft_record(state, a["id"])["hexes_moved"]:
        problems.append(f"{a['name']} has moved this turn")
    if not adjacent(a.get("position"), t.get("position")):
        problems.append(f"{t['name']} is not next to {a['name']}")
    refuse(problems, f"{a['name']} may not punch from the ground")
    mods = [Modifier(PRONE_PUNCH_DX, "prone unarmed attack (Judo 2)")]
    target = adj_dx(a) + PRONE_PUNCH_DX
    events: list[Any] = [ActionDeclared(a["id"], "prone_unarmed_attack", [t["id"]], {})]
    ev, hit, mult, _ = attack_roll(
        state, dice, a["id"], target, mods, "prone_unarmed_attack", attack_dice(state, t["id"], True)
    )
    events.append(ev)
    if hit:
        dmg_ev, dmg = roll_damage(dice, fist_damage(state, a), "damage", a["id"], "fist", multiplier=mult)
        events.append(dmg_ev)
        events += wound_events(state, t["id"], dmg, armor_stops(t, shield_counts=True), f"{a['name']}'s fist")
    events.append(ActionSpent(a["id"], state.get("turn", 0), "prone_unarmed_attack"))
    return events + consequences(state, events)


def defend(state: dict[str, Any], cmd: Defend, dice: Dice) -> list[Any]:
    """Judo 2 on the ground: spend the action defending; unarmed attacks on him roll 4 dice (§Judo-2)."""
    c = F.get(state, cmd.combatant)
    problems = slot_problems(state, c["id"], cmd.actor)
    if F.judo(c) < 2:
        problems.append(f"{c['name']} does not have Judo 2")
    if c.get("posture") != "prone":
        problems.append(f"{c['name']} is not on the ground")
    if F.entry_turn(state, c["id"]):
        # Getting into HTH leaves only the attack for that turn (§Actions-Attack, 4.2).
        problems.append(f"{c['name']} may only attack on the turn of entering HTH")
    refuse(problems, f"{c['name']} may not defend")
    return [ActionDeclared(c["id"], "defend", [], {}), ActionSpent(c["id"], state.get("turn", 0), "defend")]
