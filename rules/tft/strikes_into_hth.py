"""Striking or shooting into an HTH brawl from outside (4.13; §Multiple; A19, A20)."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, ActionSpent
from events.dice import Dice, Modifier
from rules.hexes import distance
from rules.interface import BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.aftermath import consequences
from rules.tft.attacking import attack_dice, attack_roll, fumble_events, out_of_hth_attack
from rules.tft.commands import MissileIntoHthFar, StrikeIntoHth
from rules.tft.damage import armor_stops, fist_damage, roll_damage, wound_events
from rules.tft.dx_in_hth import adj_dx
from rules.tft.initiative import slot_problems

NEAR_MISSILE_HEXES = 3  # thrown or missile weapons from 3 hexes or less count as striking in (§Multiple)


def outside_weapon(state: dict[str, Any], c: dict[str, Any], weapon: str) -> tuple[str, str]:
    """(name, damage) of a ready weapon at normal damage, a natural attack, or the fist: a figure outside HTH."""
    if weapon == "fist":
        return "fist", fist_damage(state, c)
    for item in c.get("items", []):
        if item.get("id") == weapon:
            if not F.on_hand(item):
                refuse(
                    [
                        f"a weapon must be ready to strike with it; the {item.get('name', weapon)} is "
                        f"{item.get('state')}"
                    ],
                    f"{c['name']} may not strike with the {item.get('name', weapon)}",
                )
            return item.get("name", weapon), str(item.get("damage", "1d6"))
    for nat in F.natural_attacks(c):
        if nat.get("name") == weapon:
            return weapon, str(nat["damage"])
    raise BadCommand(f"{c['name']} has no weapon {weapon!r}", "weapon")


def _outsider_problems(state: dict[str, Any], c: dict[str, Any], t: dict[str, Any], actor: str) -> list[str]:
    out = slot_problems(state, c["id"], actor)
    if c.get("group"):
        out.append(f"{c['name']} is in HTH and attacks only those in HTH with them (§Actions-Attack)")
    if not t.get("group"):
        out.append(f"{t['name']} is not in HTH: {out_of_hth_attack(t)}")
    return out


def ready_item(c: dict[str, Any], weapon: str) -> dict[str, Any]:
    """The item struck with, for a fumble (a 17 or 18 drops it; never a fist or natural attack)."""
    item = next((i for i in c.get("items", []) if i.get("id") == weapon), None)
    return {"item": item}


def _damage(
    state: dict[str, Any],
    dice: Dice,
    c: dict[str, Any],
    victim: str,
    weapon: tuple[str, str],
    multiplier: int = 1,
) -> list[Any]:
    group = F.group_of(state, victim)
    # A standing brawl's shields work against outsiders; a fallen one's do not (§Actions-Shield, A13).
    shields = bool(group) and F.group_standing(state, group)
    ev, dmg = roll_damage(dice, weapon[1], "damage", c["id"], weapon[0], multiplier=multiplier)
    v = state["combatants"][victim]
    return [
        ev,
        *wound_events(
            state, victim, dmg, armor_stops(v, shield_counts=shields), f"{c['name']}'s {weapon[0]}"
        ),
    ]


def strike_into_hth(state: dict[str, Any], cmd: StrikeIntoHth, dice: Dice) -> list[Any]:
    """Roll at the chosen figure; on a miss at each other enemy in turn; with no other enemy, "to miss" each
    friend in turn (4.13)."""
    c, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    problems = _outsider_problems(state, c, t, cmd.actor)
    d = distance(c["position"], t["position"]) if c.get("position") and t.get("position") else 99
    if cmd.attack == "melee" and d != 1:
        problems.append(f"{c['name']} is not next to the brawl (a melee strike needs an adjacent hex)")
    if cmd.attack != "melee" and d > NEAR_MISSILE_HEXES:
        problems.append(
            f"the brawl is {d} hexes away: from more than {NEAR_MISSILE_HEXES} use missile_into_hth_far"
        )
    refuse(problems, f"{c['name']} may not strike into the brawl")
    weapon = outside_weapon(state, c, cmd.weapon)
    mods = [Modifier(m.value, m.reason) for m in cmd.modifiers]
    target = adj_dx(c) + sum(m.value for m in mods)
    group = F.group_of(state, t["id"])
    members = [m for m in group["combatants"] if m in state["combatants"]]
    others = [m for m in members if m != t["id"]]
    enemies = [m for m in others if F.enemies(c, state["combatants"][m])]
    friends = [m for m in others if not F.enemies(c, state["combatants"][m])]
    sequence = (
        [(t["id"], False)]
        + [(m, False) for m in enemies]
        + ([(m, True) for m in friends] if not enemies else [])
    )
    # The figures the rolls are against, in roll order (the rolls stop at the first hit): the log names them.
    events: list[Any] = [
        ActionDeclared(
            c["id"],
            "strike_into_hth",
            [t["id"]],
            {"weapon": cmd.weapon, "attack": cmd.attack, "roll_order": [v for v, _ in sequence]},
        )
    ]
    hit_victim, mult, fumble = None, 1, None
    for victim, to_miss in sequence:
        if to_miss:
            # "To miss" a friend: a total above DX hits him (A19); not an attack roll, so no criticals.
            r = dice.roll(3, 6, "strike_into_hth_to_miss", c["id"])
            hit = r.sum > target
            events.append(
                r.event(modifiers=mods, total=r.sum, target=target, outcome="hit" if hit else "miss")
            )
        else:
            # A roll to hit is an attack: the criticals of A3 apply (OPTION attack_criticals).
            # §Judo-2: a prone defending Judo 2 victim rolls 4 dice against a fist, whoever it was aimed at.
            count = attack_dice(state, victim, cmd.weapon == "fist")
            ev, hit, mult, fumble = attack_roll(state, dice, c["id"], target, mods, "strike_into_hth", count)
            events.append(ev)
        if hit:
            hit_victim = victim
            break
        if fumble:
            break  # a 17 or 18 drops the weapon: the strike ends there (DECISION, NOTES.md)
    if hit_victim:
        events += _damage(state, dice, c, hit_victim, weapon, mult)
    events += fumble_events(c, ready_item(c, cmd.weapon), fumble)
    events.append(ActionSpent(c["id"], state.get("turn", 0), "strike_into_hth"))
    return events + consequences(state, events)


def missile_into_hth_far(state: dict[str, Any], cmd: MissileIntoHthFar, dice: Dice) -> list[Any]:
    """From more than 3 hexes: 3vsDX; a hit strikes a random member, friends included (A20)."""
    c, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    problems = _outsider_problems(state, c, t, cmd.actor)
    d = distance(c["position"], t["position"]) if c.get("position") and t.get("position") else 0
    if d <= NEAR_MISSILE_HEXES:
        problems.append(f"the brawl is only {d} hexes away: use strike_into_hth (attack: missile or thrown)")
    refuse(problems, f"{c['name']} may not shoot into the brawl")
    weapon = outside_weapon(state, c, cmd.weapon)
    mods = [Modifier(m.value, m.reason) for m in cmd.modifiers]
    target = adj_dx(c) + sum(m.value for m in mods)
    members = [m for m in F.group_of(state, t["id"])["combatants"] if m in state["combatants"]]
    events: list[Any] = [ActionDeclared(c["id"], "missile_into_hth_far", [t["id"]], {"weapon": cmd.weapon})]
    ev, hit, mult, fumble = attack_roll(state, dice, c["id"], target, mods, "missile_into_hth")
    events.append(ev)
    if hit:
        pick = dice.roll(1, len(members), "random_victim", c["id"])
        victim = members[pick.sum - 1]
        events.append(pick.event(total=pick.sum, target=None, outcome=F.name(state, victim)))
        events += _damage(state, dice, c, victim, weapon, mult)
    events += fumble_events(c, ready_item(c, cmd.weapon), fumble)
    events.append(ActionSpent(c["id"], state.get("turn", 0), "missile_into_hth_far"))
    return events + consequences(state, events)
