"""Attacking a fallen figure from outside HTH (§Standing: "If you have a standing figure and an enemy fallen,
they are not in HTH, and the standing figure can trample or attack the fallen one")."""

from __future__ import annotations

from typing import Any

from events.common import ActionDeclared, ActionSpent
from events.dice import Dice, Modifier
from rules.hexes import adjacent
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.aftermath import consequences
from rules.tft.attacking import attack_dice, attack_roll, fumble_events
from rules.tft.commands import AttackFallen
from rules.tft.damage import armor_stops, roll_damage, wound_events
from rules.tft.dx_in_hth import adj_dx
from rules.tft.initiative import slot_problems
from rules.tft.strikes_into_hth import outside_weapon, ready_item

STANDING_RULE = "§Standing: a standing figure out of HTH may attack a fallen enemy who is not in HTH"


def target_problems(state: dict[str, Any], c: dict[str, Any], t: dict[str, Any]) -> list[str]:
    """Why `t` is not a fallen enemy `c` can reach, in the seed's words (empty when it is)."""
    out = []
    if t["id"] == c["id"]:
        out.append(f"{c['name']} cannot attack themself")
    elif not F.enemies(c, t):
        out.append(f"{t['name']} is on {c['name']}'s side")
    if not F.is_down(t):
        out.append(f"{t['name']} is {t.get('posture', 'standing')}, not fallen ({STANDING_RULE})")
    if t.get("group"):
        # strike_into_hth is for one outside the brawl; one inside it is told of hth_attack already.
        out.append(
            f"{t['name']} is in HTH" + ("" if c.get("group") else ": strike_into_hth attacks into a brawl")
        )
    if not adjacent(c.get("position"), t.get("position")):
        out.append(f"{t['name']} is not in a hex next to {c['name']}")
    return out


def attacker_problems(state: dict[str, Any], c: dict[str, Any], actor: str = "") -> list[str]:
    """Why `c` may not attack a fallen figure now: its slot in the action phase, on its feet, out of HTH."""
    out = slot_problems(state, c["id"], actor)
    if c.get("group"):
        out.append(f"{c['name']} is in HTH and attacks only those in HTH with them (hth_attack)")
    if F.is_down(c):
        # Standing up or pulling the foe in are for a figure out of HTH; one in it attacks in the brawl.
        how = "" if c.get("group") else " (stand_up first, or enter_hth to pull them in)"
        out.append(f"{c['name']} is down: {STANDING_RULE}{how}")
    return out


def attack_fallen_problems(state: dict[str, Any], cmd: AttackFallen) -> list[str]:
    """Every reason this attack is refused (legal.py asks the same)."""
    c, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    return attacker_problems(state, c, cmd.actor) + target_problems(state, c, t)


def attack_fallen(state: dict[str, Any], cmd: AttackFallen, dice: Dice) -> list[Any]:
    """3vs adjusted DX (+ the given modifiers) with the weapon's normal damage; criticals as any attack (A3).
    DECISION (NOTES.md): the fallen figure's shield does not count, as on the ground in HTH (§Actions-Shield)."""
    c, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    refuse(attack_fallen_problems(state, cmd), f"{c['name']} may not attack {t['name']}")
    weapon = outside_weapon(state, c, cmd.weapon)
    mods = [Modifier(m.value, m.reason) for m in cmd.modifiers]
    target = adj_dx(c) + sum(m.value for m in mods)
    events: list[Any] = [ActionDeclared(c["id"], "attack_fallen", [t["id"]], {"weapon": cmd.weapon})]
    # §Judo-2: a prone Judo 2 figure who defends does so against every unarmed attack, from outside HTH too.
    count = attack_dice(state, t["id"], cmd.weapon == "fist")
    ev, hit, mult, fumble = attack_roll(state, dice, c["id"], target, mods, "attack_fallen", count)
    events.append(ev)
    if hit:
        dmg_ev, dmg = roll_damage(dice, weapon[1], "damage", c["id"], weapon[0], multiplier=mult)
        events.append(dmg_ev)
        events += wound_events(
            state, t["id"], dmg, armor_stops(t, shield_counts=False), f"{c['name']}'s {weapon[0]}"
        )
    events += fumble_events(c, ready_item(c, cmd.weapon), fumble)
    events.append(ActionSpent(c["id"], state.get("turn", 0), "attack_fallen"))
    return events + consequences(state, events)
