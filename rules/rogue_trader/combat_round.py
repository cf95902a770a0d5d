"""One round of close combat for one combat group (spec 4.5-4.9; §Procedure For Hand-To-Hand Combat,
§Order of Attack, §Close Combat Results)."""

from __future__ import annotations

from collections import defaultdict
from typing import Any

import msgspec

from events.common import ActionSpent, CombatantRemoved, ConditionChanged, FacingChanged, InitiativeSet, Moved
from events.dice import Dice
from rules.interface import RuleError
from rules.plane import centroid, facing_toward, rounded, step_away
from rules.refusals import refuse
from rules.rogue_trader import allocation
from rules.rogue_trader.attacks import resolve_blow
from rules.rogue_trader.authority import gm_only
from rules.rogue_trader.commands import AllocateAttacks, ResolveRound
from rules.rogue_trader.contact import leave, slay
from rules.rogue_trader.events import (
    RtAttackResolved,
    RtAttacksAllocated,
    RtCombatRoundResolved,
    RtFollowUpOwed,
    RtPushBackOwed,
    RtStrikeStepStarted,
)
from rules.rogue_trader.models import (
    contacts_of,
    disadvantaged,
    group_named,
    is_dead,
    model,
    phase,
    rules_model,
    stat,
    turn,
    unit_leadership,
    unit_members,
    unit_of,
)
from rules.rogue_trader.options import option
from rules.working import Working

State = dict[str, Any]


def decide_allocate(state: State, cmd: AllocateAttacks, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """4.4: the model's attacks this round, after an optional free turn to face (A20)."""
    c = model(state, cmd.combatant)
    problems = []
    if cmd.round != turn(state):
        problems.append(f"this is round {turn(state)}, not round {cmd.round}")
    if not contacts_of(state, c["id"]):
        problems.append(f"{c['name']} is not in base contact with any enemy")
    if disadvantaged(c):
        problems.append(f"{c['name']} is {', '.join(disadvantaged(c))} and makes no attacks")
    if rules_model(state, c["id"]).get("resolved_round") == turn(state):
        problems.append(f"{c['name']}'s combat has already been fought this round")
    refuse(problems, details={"combatant": c["id"]})
    t = Working(state, ruleset.evolve)
    facing = None
    if cmd.turn_to_face is not None:
        enemy = cmd.turn_to_face
        why = []
        if not option(state, "turn_to_face_in_round"):
            why.append("turning to face during a round is not used in this encounter")
        if enemy not in contacts_of(state, c["id"]):
            why.append(f"{enemy} is not in base contact with {c['name']}")
        if allocation.front_enemies(state, c):
            why.append(f"{c['name']} already has an enemy in its front arc")
        refuse(why, details={"combatant": c["id"]})
        facing = facing_toward(c["position"], state["combatants"][enemy]["position"])
        t.emit(FacingChanged(combatant=c["id"], facing=facing))
    entries = allocation.validate(t.state, t.state["combatants"][c["id"]], cmd.allocations)
    t.emit(RtAttacksAllocated(combatant=c["id"], round=cmd.round, allocations=entries))
    return t.events


def _round_allocations(t: Working, members: list[str], force: bool) -> dict[str, list[dict[str, Any]]]:
    """Each striker's allocation: its own, else the default (with the free turn to face when that is
    the only way to strike); several legal targets without an allocation block the round."""
    s = t.state
    out: dict[str, list[dict[str, Any]]] = {}
    missing = []
    for m in members:
        c = s["combatants"][m]
        if disadvantaged(c) or not contacts_of(s, m):
            continue
        given = s["rules"]["allocations"].get(m)
        if given and given.get("round") == turn(s):
            out[m] = list(given["allocations"])
            continue
        enemies = contacts_of(s, m)
        if (
            option(s, "turn_to_face_in_round")
            and not allocation.front_enemies(s, c)
            and not rules_model(s, m).get("special_attacks")
            and not c["stats"].get("special_attacks")
            and (len(enemies) == 1 or force)
        ):
            t.emit(
                FacingChanged(
                    combatant=m, facing=facing_toward(c["position"], s["combatants"][enemies[0]]["position"])
                )
            )
            s = t.state
            c = s["combatants"][m]
        entries = allocation.default_allocation(s, c, force)
        if entries is None:
            missing.append(
                f"{c['name']} (enemies in contact: {', '.join(s['combatants'][e]['name'] for e in enemies)})"
            )
            continue
        if entries:
            t.emit(RtAttacksAllocated(combatant=m, round=turn(s), allocations=entries))
            s = t.state
        out[m] = entries
    if missing:
        raise RuleError(
            "these models must allocate their attacks first (several legal targets), or the GM "
            "may resolve with force_defaults: " + "; ".join(missing),
            {"missing": missing},
        )
    return out


def _waves(t: Working, dice: Dice, strikers: list[str]) -> tuple[str, list[list[str]]]:
    """§Order of Attack for one initiative step: who strikes first among equals."""
    s = t.state
    sides = sorted({s["combatants"][m]["side"] for m in strikers})
    if len(sides) < 2:
        return "single", [sorted(strikers)]
    chargers = [m for m in strikers if rules_model(s, m).get("charged_turn") == turn(s)]
    if len({s["combatants"][m]["side"] for m in chargers}) == 1:
        rest = [m for m in strikers if m not in chargers]
        return "charger_first", [sorted(chargers), sorted(rest)]
    if option(s, "initiative_ties") == "simultaneous":
        return "simultaneous", [sorted(strikers)]
    ranking = _roll_off(t, dice, sides)
    by_side = [sorted(m for m in strikers if s["combatants"][m]["side"] == side) for side in ranking]
    return "roll_off", [w for w in by_side if w]


def _roll_off(t: Working, dice: Dice, sides: list[str], reroll: bool = False) -> list[str]:
    """Each side rolls a D6 (ascending side id), higher strikes first; equal sides roll again (A4)."""
    rolls = {}
    for side in sides:
        roll = dice.roll(1, 6, "initiative_roll_off")
        rolls[side] = roll.faces[0]
        t.emit(roll.event(outcome=f"side {side}" + (" (re-roll)" if reroll else "")))
    ranking: list[str] = []
    for value in sorted(set(rolls.values()), reverse=True):
        tied = [x for x in sides if rolls[x] == value]
        ranking += tied if len(tied) == 1 else _roll_off(t, dice, tied, reroll=True)
    return ranking


def decide_resolve(state: State, cmd: ResolveRound, dice: Dice, ruleset: Any) -> list[msgspec.Struct]:
    """4.5-4.9: strike steps by descending I, every attack, the tally, rout tests of the losers."""
    if cmd.force_defaults:
        # 4.4: a missing allocation blocks the round "until the GM forces the default".
        gm_only(cmd, "force default allocations (force_defaults)")
    groups = state["rules"].get("groups", {})
    gid = group_named(state, cmd.group)
    problems = []
    if phase(state) != "close_combat":
        problems.append(
            f"close combat rounds are fought in the close_combat phase (now: {phase(state) or 'none'})"
        )
    if gid is None:
        problems.append(
            f"{cmd.group!r} is neither a combat group nor a model in one (groups: "
            f"{'; '.join(', '.join(ms) for _, ms in sorted(groups.items())) or 'none'})"
        )
    refuse(problems, details={"group": cmd.group})
    assert gid is not None  # refused above otherwise
    members = list(groups[gid])
    rnd = turn(state)
    if any(rules_model(state, m).get("resolved_round") == rnd for m in members):
        raise RuleError(
            f"the combat of {', '.join(members)} has already fought round {rnd}", {"group": cmd.group}
        )
    t = Working(state, ruleset.evolve)
    alloc = _round_allocations(t, members, cmd.force_defaults)
    s = t.state
    start_contacts = {m: contacts_of(s, m) for m in members}
    unit = {m: unit_of(s, m) for m in members}
    t.emit(InitiativeSet(order=sorted(members, key=lambda m: (-stat(s["combatants"][m], "I"), m))))
    tally: dict[tuple[str, str], int] = defaultdict(int)
    slain: list[str] = []
    strikers = [m for m in members if alloc.get(m)]
    for ini in sorted({stat(s["combatants"][m], "I") for m in strikers}, reverse=True):
        step = [
            m
            for m in strikers
            if stat(s["combatants"][m], "I") == ini
            and m in t.state["combatants"]
            and not is_dead(t.state["combatants"][m])
        ]
        if not step:
            continue
        basis, waves = _waves(t, dice, step)
        t.emit(
            RtStrikeStepStarted(
                round=rnd,
                group=gid,
                initiative=ini,
                strikers=[m for w in waves for m in w],
                basis=basis,
                waves=waves,
            )
        )
        step_slain: list[str] = []
        for wave in waves:
            dead_before = set(step_slain)
            for m in wave:
                if m in dead_before:
                    continue
                _strike(t, dice, m, alloc[m], unit, tally, step_slain)
        for m in step_slain:
            t.emit(CombatantRemoved(combatant=m))
        slain += step_slain
    _tally(t, dice, gid, members, unit, start_contacts, tally, slain)
    return t.events


def _strike(
    t: Working,
    dice: Dice,
    m: str,
    entries: list[dict[str, Any]],
    unit: dict[str, str],
    tally: dict[tuple[str, str], int],
    step_slain: list[str],
) -> None:
    """All of one model's attacks, in allocation order (they happen at once, §Order of Attack)."""
    in_use = allocation.weapons_in_use(entries)
    opts = {k: option(t.state, k) for k in ("high_to_hit", "wound_chart", "strength_save_mods")}
    for i, e in enumerate(entries):
        s = t.state
        attacker = s["combatants"][m]
        target = s["combatants"].get(e["target"])
        if target is None or is_dead(target):
            t.emit(
                RtAttackResolved(
                    attacker=m,
                    target=e["target"],
                    attack=i,
                    kind=e["attack"],
                    outcome="target_already_slain",
                    wounds=0,
                    weapon=e.get("weapon"),
                )
            )
            continue
        slot = {**allocation.slot_for(s, attacker, e), "hand": e.get("hand")}
        blow = allocation.build_blow(s, attacker, target, slot, weapons_in_use=in_use, in_round=True)
        remaining = max(0, stat(target, "W") - target.get("wounds", 0))
        result = resolve_blow(dice, blow, target, opts)
        t.extend(result.events)
        counted = result.wounds if option(s, "count_overkill") else min(result.wounds, remaining)
        tally[(unit[m], unit.get(e["target"], e["target"]))] += counted
        t.emit(
            RtAttackResolved(
                attacker=m,
                target=e["target"],
                attack=i,
                kind=e["attack"],
                outcome=result.outcome,
                wounds=result.wounds,
                weapon=e.get("weapon"),
                counted=counted,
                hit_from=blow.table_from,
                wound_from=result.wound_from,
            )
        )
        if result.wounds and is_dead(t.state["combatants"][e["target"]]) and e["target"] not in step_slain:
            step_slain.append(e["target"])
            slay(t, e["target"], remove_now=False)


def unit_result(pair_results: list[str]) -> str:
    """4.9 / A6: a win and a loss make a messy draw; else any loss loses, any win wins, else draw."""
    if "win" in pair_results and "loss" in pair_results:
        return "messy_draw"
    if "loss" in pair_results:
        return "lost"
    if "win" in pair_results:
        return "won"
    return "draw"


def _tally(
    t: Working,
    dice: Dice,
    gid: str,
    members: list[str],
    unit: dict[str, str],
    start_contacts: dict[str, list[str]],
    tally: dict[tuple[str, str], int],
    slain: list[str],
) -> None:
    """§Close Combat Results per ordered pair of opposing units, then rout tests and what follows."""
    opposing = sorted({(unit[a], unit[b]) for a, es in start_contacts.items() for b in es if b in unit})
    pairs = []
    per_unit: dict[str, list[str]] = defaultdict(list)
    for u, v in opposing:
        caused, received = tally.get((u, v), 0), tally.get((v, u), 0)
        result = "win" if caused > received else "loss" if caused < received else "draw"
        pairs.append({"unit": u, "vs": v, "caused": caused, "received": received, "result": result})
        per_unit[u].append(result)
    results = {u: unit_result(r) for u, r in sorted(per_unit.items())}
    t.emit(
        RtCombatRoundResolved(round=turn(t.state), group=gid, models=members, pairs=pairs, results=results)
    )
    s = t.state
    for m in members:
        if m in slain or m not in s["combatants"]:
            continue
        was = start_contacts.get(m, [])
        if was and all(e in slain for e in was):
            t.emit(ActionSpent(combatant=m, turn=turn(s), why="opponents_slain"))
    for u in sorted(x for x, r in results.items() if r == "lost"):
        _after_loss(t, dice, u, results)


def _after_loss(t: Working, dice: Dice, u: str, results: dict[str, str]) -> None:
    """A8: the losing unit tests for rout first; pass -> push-back owed; fail -> it flees and the
    winners pursue as a follow-up (spec 4.9)."""
    s = t.state
    alive = unit_members(s, u)
    if not alive:
        return
    engaged = [m for m in alive if contacts_of(s, m)]
    if option(s, "rout_test_on_loss"):
        ld = unit_leadership(s, u)
        roll = dice.roll(2, 6, "rout_test", alive[0])
        passed = roll.sum <= ld
        t.emit(roll.event(target=ld, outcome="pass" if passed else "fail"))
        if not passed:
            _rout(t, u, alive, results)
            return
    if engaged:
        t.emit(RtPushBackOwed(unit=u, round=turn(s), models=engaged))


def _rout(t: Working, u: str, alive: list[str], results: dict[str, str]) -> None:
    """A failed rout test after a lost round: routed, immediate flight of `rout_flee_in` inches."""
    s = t.state
    contacts = {m: contacts_of(s, m) for m in alive}
    enemies = sorted({e for es in contacts.values() for e in es})
    followers = owed_followers(s, contacts, results)
    flee = option(s, "rout_flee_in") * 100
    all_enemy_points = [s["combatants"][e]["position"] for e in enemies]
    for m in alive:
        c = t.state["combatants"][m]
        t.emit(ConditionChanged(combatant=m, condition="routed", on=True))
        points = [t.state["combatants"][e]["position"] for e in contacts[m]] or all_enemy_points
        leave(t, m, "rout")
        if points:
            to = rounded(step_away(c["position"], centroid(points), flee))
            t.emit(Moved(combatant=m, to=to, reason="run_away", from_=list(c["position"])))
    emit_follow_ups(t, followers)


def owed_followers(
    s: State, contacts: dict[str, list[str]], results: dict[str, str]
) -> dict[str, dict[str, list[str]]]:
    """Winning units' models that were in contact with the retreating models: {unit: {model: [enemies]}}."""
    out: dict[str, dict[str, list[str]]] = defaultdict(lambda: defaultdict(list))
    for loser, enemies in contacts.items():
        for e in enemies:
            ue = unit_of(s, e)
            if results.get(ue) == "won" or (
                ue not in results and s["rules"]["results"].get(ue, {}).get("result") == "won"
            ):
                out[ue][e].append(loser)
    return {u: {m: sorted(v) for m, v in sorted(ms.items())} for u, ms in sorted(out.items())}


def emit_follow_ups(t: Working, followers: dict[str, dict[str, list[str]]]) -> None:
    """`RtFollowUpOwed` per winning unit (A13: obstacle or prepared-position holders may hold untested)."""
    for u, ms in followers.items():
        free = all(
            rules_model(t.state, m).get("behind_obstacle") or rules_model(t.state, m).get("prepared_position")
            for m in ms
        )
        t.emit(RtFollowUpOwed(unit=u, round=turn(t.state), followers=ms, may_hold_without_test=bool(free)))
