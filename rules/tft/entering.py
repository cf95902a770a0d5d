"""Getting into HTH, ways 1-3 (spec 4.2, 4.3, 4.5; seed §Options 1-3, §Entering, §Judo, §Dive-Block)."""

from __future__ import annotations

from typing import Any

from events.common import (
    ActionDeclared,
    ActionSpent,
    CloseCombatJoined,
    ItemDropped,
    ItemReadied,
    Moved,
    PostureChanged,
    ReactionCancelled,
    ReactionRequested,
)
from events.dice import Dice, Modifier
from rules.acting import asked_of
from rules.hexes import adjacent, label, neighbours, parse_label
from rules.interface import Answer, BadCommand
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.aftermath import consequences
from rules.tft.commands import DiveForLegs, EnterHth
from rules.tft.damage import armor_stops, fist_damage, roll_damage, wound_events
from rules.tft.defense_table import DefenseContext, defense_modifiers, may_throw, result_for
from rules.tft.entry_conditions import choose_condition, from_rear
from rules.tft.events import HthEntryResolved, HthFirstTurn
from rules.tft.initiative import reordered, slot_problems
from rules.tft.options import option
from rules.tft.standing import standing_check
from rules.tft.state import evolve_rules
from rules.tft.tables import REAR_REROLL_FACE, THROW_BONUS
from rules.tft.turn_sequence import wrong_phase
from rules.working import folded

WAY_ENTER = "enter_hth"
WAY_DIVE = "dive_for_legs"


def pulls_down(state: dict[str, Any], e: dict[str, Any], d: dict[str, Any]) -> bool:
    """A fallen figure may initiate HTH with a member of a standing brawl, who gets the defense roll
    (§Standing: "the fallen figure on his action can initiate HTH ... and pull the standing figure down");
    it may not join that brawl without the roll (join_hth: all stand or all fall)."""
    group = F.group_of(state, d["id"])
    return bool(group) and F.group_standing(state, group) and F.is_down(e)


def common_entry_problems(state: dict[str, Any], e: dict[str, Any], d: dict[str, Any]) -> list[str]:
    """4.1 "Also": an enemy alone in its hex and not in HTH; an adjacent entrant not in HTH."""
    out = []
    if e["id"] == d["id"]:
        return [f"{e['name']} cannot enter HTH with {e['name']}"]
    if not F.enemies(e, d):
        out.append(f"{d['name']} is not an enemy of {e['name']}")
    if not F.conscious(e):
        out.append(f"{e['name']} is not conscious")
    if e.get("group"):
        out.append(f"{e['name']} is already in HTH")
    if d.get("group"):
        if not pulls_down(state, e, d):
            # join_hth only for one not in a brawl already (a refusal points only to what could be accepted).
            out.append(
                f"{d['name']} is already in HTH"
                + ("" if e.get("group") else ": use join_hth to join the brawl")
            )
    elif len(F.occupants(state, d.get("position"), but=(d["id"],))) > 0:
        out.append(f"{d['name']} is not alone in its hex")
    if not adjacent(e.get("position"), d.get("position")):
        out.append(f"{e['name']} is not next to {d['name']}")
    return out


def _judo2_shift(e: dict[str, Any], shift: int | None) -> int | None:
    """The Judo 2 entrant's extra point (§Judo-2), default in his favour (I7); None for any other entrant."""
    if F.judo(e) < 2:
        if shift not in (None, 0):
            refuse(
                [
                    f"only a Judo 2 figure may shift the HTH defense roll by an extra point (§Judo-2); "
                    f"{e['name']} has Judo {F.judo(e)}"
                ],
                f"{e['name']} may not use judo2_shift",
            )
        return None
    return -1 if shift is None else shift


def enter_hth(state: dict[str, Any], cmd: EnterHth, dice: Dice) -> list[Any]:
    """Way 1 and 2: the action-phase attempt from an adjacent hex (4.2)."""
    e, d = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    shift = _judo2_shift(e, cmd.judo2_shift)
    problems = slot_problems(state, e["id"], cmd.actor) + common_entry_problems(state, e, d)
    rec = F.tft_record(state, e["id"])
    if rec["hexes_moved"] > F.half_move(e):
        problems.append(
            f"{e['name']} moved {rec['hexes_moved']} hexes, more than half their MA ({F.half_move(e)})"
        )
    condition, why, failed = choose_condition(state, e, d, e.get("position"), cmd.condition)
    problems += failed
    refuse(problems, f"{e['name']} may not try to get into HTH with {d['name']}")
    return _attempt(state, e, d, WAY_ENTER, condition or "", why, shift, dice)


def dive_for_legs(state: dict[str, Any], cmd: DiveForLegs, dice: Dice) -> list[Any]:
    """Way 3: diving for the legs as the last step of the entrant's move (4.3)."""
    e, d = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    shift = _judo2_shift(e, cmd.judo2_shift)
    problems = []
    if not option(state, "diving_for_legs"):
        problems.append("diving for the legs is not used in this encounter (option diving_for_legs)")
    not_now = wrong_phase(state, "movement", "a dive is made")
    if not_now:
        problems.append(not_now)
    if e.get("posture") != "standing":
        problems.append(f"{e['name']} is not standing")
    rec = F.tft_record(state, e["id"])
    if rec["movement_ended"]:
        problems.append(f"{e['name']}'s movement has ended this turn")
    if F.action_spent(state, e["id"]):
        problems.append(f"{e['name']} has already lost this turn's action")
    if rec["hexes_moved"] + 1 > F.half_move(e):
        problems.append(
            f"with the dive {e['name']} would move {rec['hexes_moved'] + 1} hexes, more than half "
            f"their MA ({F.half_move(e)})"
        )
    problems += common_entry_problems(state, e, d)
    condition, why = "", "diving for the legs"
    if option(state, "dive_is_entry_condition") and cmd.condition is None:
        # A25 toggle: the dive itself is the condition, unless the defender is twice as fast.
        if int(F.stat(d, "ma", 10)) >= 2 * int(F.stat(e, "ma", 10)):
            problems.append(f"{d['name']}'s MA is at least twice {e['name']}'s")
    else:
        condition, why, failed = choose_condition(state, e, d, e.get("position"), cmd.condition)
        problems += failed
    refuse(problems, f"{e['name']} may not dive for {d['name']}'s legs")
    return _attempt(state, e, d, WAY_DIVE, condition, why, shift, dice)


def _attempt(
    state: dict[str, Any],
    e: dict[str, Any],
    d: dict[str, Any],
    way: str,
    condition: str,
    why: str,
    shift: int | None,
    dice: Dice,
) -> list[Any]:
    from_hex = list(e["position"])
    at = list(d["position"])
    events: list[Any] = [
        ActionDeclared(
            e["id"],
            way,
            [d["id"]],
            {"condition": condition, "allowed": why} | ({} if shift is None else {"judo2_shift": shift}),
        ),
        Moved(e["id"], at, "charge", None, from_hex),
    ]
    dive = way == WAY_DIVE
    ctx = DefenseContext(
        state, e, d, dive, shift or 0, F.prefs(state, d["id"]), bool(option(state, "diving_for_legs"))
    )
    rear = from_rear(d, from_hex)
    purpose = "hth_defense"
    while True:
        roll = dice.roll(1, 6, purpose, d["id"])
        if rear and roll.sum == REAR_REROLL_FACE:
            events.append(roll.event(total=roll.sum, target=None, outcome="reroll"))
            purpose = "hth_defense_reroll"
            continue
        mods = defense_modifiers(ctx)
        total = roll.sum + sum(m.value for m in mods)
        result = result_for(total)
        throw = may_throw(total, e, d) and bool(_empty_hexes(folded(state, events, evolve_rules), at))
        events.append(
            roll.event(
                modifiers=mods,
                total=total,
                target=None,
                outcome="judo_throw_or_free_hit" if throw else result,
            )
        )
        break
    base = {
        "engine": "tft",
        "entrant": e["id"],
        "defender": d["id"],
        "way": way,
        "from": from_hex,
        "at": at,
        "total": total,
    }
    if throw:
        s = folded(state, events, evolve_rules)
        options = [label(h) for h in _empty_hexes(s, at)] + ["no_throw"]
        return events + [
            ReactionRequested(
                "",
                "judo_throw",
                d["id"],
                asked_of(state, d["id"]),
                options,
                "no_throw",
                [],
                {**base, "step": "judo_throw"},
                f"{d['name']} may throw {e['name']} into an empty hex next to {label(at)}, or not",
            )
        ]
    if result.startswith("knocked_back"):
        return events + knockback_events(folded(state, events, evolve_rules), base, result, dice)
    events.append(HthEntryResolved(e["id"], d["id"], way, total, result))
    if pulls_down(state, e, d):
        events += pull_group_down(folded(state, events, evolve_rules), e["id"], d["id"], at)
    else:
        standing = (
            option(state, "standing_in_hth")
            and not dive
            and e.get("posture") == "standing"
            and d.get("posture") == "standing"
        )
        events += join_new_group(folded(state, events, evolve_rules), [e["id"], d["id"]], at, standing, dice)
    s = folded(state, events, evolve_rules)
    order = reordered(s)
    if order:
        events.append(order)
    if result == "enter_may_draw" and F.carried_daggers(s["combatants"][d["id"]]):
        events.append(
            ReactionRequested(
                "",
                "entry_dagger",
                d["id"],
                asked_of(state, d["id"]),
                ["dagger", "none"],
                "none",
                [],
                {**base, "step": "entry_dagger"},
                f"{d['name']} may ready a dagger, free",
            )
        )
    return events


def dropped_on_entry(state: dict[str, Any], cid: str, at: Any) -> list[Any]:
    """Ready weapons dropped on getting into HTH: all of them (§Entering, A5), or only those unusable in
    HTH with `keep_hth_weapons_on_entry`. Never a cestus: it is worn on the hand, not held (§Overview)."""
    keep = option(state, "keep_hth_weapons_on_entry")
    return [
        ItemDropped(cid, w["id"], list(at))
        for w in F.ready_weapons(state["combatants"][cid])
        if not (keep and F.hth_usable(w)) and not F.is_cestus(w)
    ]


def new_group_id(state: dict[str, Any]) -> str:
    n = state.get("rules", {}).get("groups_formed", 0) + 1
    while f"g{n}" in state["groups"]:
        n += 1
    return f"g{n}"


def join_new_group(
    state: dict[str, Any], members: list[str], at: Any, standing: bool, dice: Dice
) -> list[Any]:
    """The join events of 4.5: drops, CloseCombatJoined, postures (or the standing check), HthFirstTurn."""
    events: list[Any] = []
    for cid in members:
        events += dropped_on_entry(state, cid, at)
    gid = new_group_id(state)
    events.append(CloseCombatJoined(gid, list(members), list(at), standing))
    if not standing:
        events += [
            PostureChanged(m, "prone") for m in members if state["combatants"][m].get("posture") != "prone"
        ]
    events.append(HthFirstTurn(members[0], state.get("turn", 0)))
    if standing:
        events += standing_check(folded(state, events, evolve_rules), gid, dice)
    return events


def pull_group_down(state: dict[str, Any], entrant: str, defender: str, at: Any) -> list[Any]:
    """The fallen entrant got in: he joins the brawl, which falls (§Standing: all stand or all fall)."""
    group = F.group_of(state, defender)
    gid = group["group"]
    events: list[Any] = dropped_on_entry(state, entrant, at)
    events.append(CloseCombatJoined(gid, [entrant], list(at), False))
    events += [
        PostureChanged(m, "prone")
        for m in [*group["combatants"], entrant]
        if m in state["combatants"] and state["combatants"][m].get("posture") != "prone"
    ]
    events.append(HthFirstTurn(entrant, state.get("turn", 0)))
    return events


def _empty_hexes(state: dict[str, Any], at: Any) -> list[list[int]]:
    return [h for h in neighbours(list(at)) if not F.occupants(state, h)]


def free_hit_weapon(d: dict[str, Any]) -> tuple[str, str]:
    """(name, damage) of the free hit: first ready weapon at normal damage, else natural attack, else fist."""
    ready = F.ready_weapons(d)
    if ready:
        return ready[0].get("name", ready[0]["id"]), str(ready[0].get("damage", "1d6"))
    nat = F.natural_attacks(d)
    if nat:
        return nat[0].get("name", "natural attack"), str(nat[0]["damage"])
    return "fist", ""


def knockback_events(state: dict[str, Any], p: dict[str, Any], result: str, dice: Dice) -> list[Any]:
    """Rows 5 and 6+: back to the hex entered from, prone after a dive, the free hit, action lost."""
    e, d = state["combatants"][p["entrant"]], state["combatants"][p["defender"]]
    dive = p["way"] == WAY_DIVE
    events: list[Any] = [
        HthEntryResolved(e["id"], d["id"], p["way"], p["total"], result),
        Moved(e["id"], list(p["from"]), "knockback", None, list(p["at"])),
    ]
    if dive and e.get("posture") != "prone":
        events.append(PostureChanged(e["id"], "prone"))
    if result == "knocked_back_free_hit":
        weapon, dmg = free_hit_weapon(d)
        dmg = dmg or fist_damage(state, d)
        ev, total = roll_damage(dice, dmg, "free_hit_damage", d["id"], weapon)
        events.append(ev)
        events += wound_events(
            state, e["id"], total, armor_stops(e, shield_counts=True), f"{d['name']}'s free hit"
        )
    events.append(ActionSpent(e["id"], state.get("turn", 0), "dive knocked back" if dive else "knocked back"))
    return events + consequences(state, events)


def resume_entry(state: dict[str, Any], pending: dict[str, Any], answer: Answer, dice: Dice) -> list[Any]:
    """Continue after the defender's judo_throw or entry_dagger answer."""
    p = pending["resume"]
    if p["entrant"] not in state["combatants"] or p["defender"] not in state["combatants"]:
        return [ReactionCancelled(pending["id"], "a figure of this entry has left the encounter")]
    if p["step"] == "entry_dagger":
        return _resume_dagger(state, p, answer)
    if answer.choice == "no_throw":
        return knockback_events(state, p, "knocked_back_free_hit", dice)
    return _throw(state, p, answer, dice)


def _resume_dagger(state: dict[str, Any], p: dict[str, Any], answer: Answer) -> list[Any]:
    if answer.choice != "dagger":
        return []
    d = state["combatants"][p["defender"]]
    daggers = F.carried_daggers(d)
    wanted = answer.params.get("item")
    if wanted is not None:
        named = next((i for i in d.get("items", []) if i.get("id") == wanted), None)
        if named is None:
            raise BadCommand(f"{d['name']} has no item {wanted!r}", "item")
        daggers = [i for i in daggers if i["id"] == wanted]
        if not daggers:
            why = (
                "not on the dagger list"
                if not named.get("dagger_list") and named.get("kind") == "weapon"
                else "not a weapon"
                if named.get("kind") != "weapon"
                else f"{named.get('state')}, not carried"
            )
            refuse(
                [
                    f'on a 3 or 4 the enemy "may draw their dagger" (§Entering): the '
                    f"{named.get('name', wanted)} is {why}"
                ],
                f"{d['name']} may not ready the {named.get('name', wanted)}",
            )
    if not daggers:
        return []
    events: list[Any] = [ItemReadied(d["id"], daggers[0]["id"])]
    # A ready dirk or poniard changes the defender's HTH attack DX, so his place in the order (4.0).
    order = reordered(folded(state, events, evolve_rules))
    return events + ([order] if order else [])


def _throw(state: dict[str, Any], p: dict[str, Any], answer: Answer, dice: Dice) -> list[Any]:
    e, d = state["combatants"][p["entrant"]], state["combatants"][p["defender"]]
    to = parse_label(answer.choice)
    if to is None:
        raise BadCommand(f"{answer.choice} is not a hex written q,r", "choice")
    if to not in _empty_hexes(state, p["at"]):
        held = F.occupants(state, to)
        why = (
            f"holds {', '.join(F.name(state, o) for o in held)}"
            if held
            else f"is not next to {label(p['at'])}"
        )
        refuse(
            [f'the throw is "into an adjacent hex" (§Judo-1), an empty one: {label(to)} {why}'],
            f"{d['name']} may not throw {e['name']} there",
        )
    events: list[Any] = [
        HthEntryResolved(e["id"], d["id"], p["way"], p["total"], "thrown"),
        Moved(e["id"], to, "thrown", None, list(p["at"])),
    ]
    if option(state, "judo_throw_prone") and e.get("posture") != "prone":
        events.append(PostureChanged(e["id"], "prone"))
    bonus = THROW_BONUS[min(2, F.judo(d))]
    ev, total = roll_damage(
        dice,
        fist_damage(state, d),
        "throw_damage",
        d["id"],
        "fist",
        extra=[Modifier(bonus, f"Judo {min(2, F.judo(d))} throw")],
    )
    events.append(ev)
    events += wound_events(
        state, e["id"], total, armor_stops(e, shield_counts=True), f"{d['name']}'s Judo throw"
    )
    events.append(ActionSpent(e["id"], state.get("turn", 0), "thrown"))
    return events + consequences(state, events)
