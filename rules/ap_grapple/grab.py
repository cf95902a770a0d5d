"""Make a Grab (§Make a Grab; spec section 4.2): 3 AP, a grip on a hit, a d100 pull off balance."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionDeclared, ConditionChanged, ReactionRequested
from events.dice import Dice
from rules.acting import asked_of
from rules.ap_grapple.action_points import actor_problems, ap_left, spend
from rules.ap_grapple.combatants import name_of, position, stat, stun_until
from rules.ap_grapple.commands import MakeAGrab, SwingTarget
from rules.ap_grapple.events import GripLost, GripTaken, PullChance, PulledOffBalance
from rules.ap_grapple.options import option
from rules.ap_grapple.swing import DEFAULT_SWING, SWING_REACTION, destinations
from rules.ap_grapple.tables import GRAB_COST, STRENGTH_LB
from rules.ap_grapple.targets import opponent_problems
from rules.ap_grapple.to_hit import check_gm_target_field, roll_to_hit, target_problems, to_hit_target
from rules.hexes import distance
from rules.interface import combatant_or_error
from rules.refusals import refuse
from rules.wording import answer_words

GRAB_TO_HIT = "grab to-hit (d20 + mods >= target)"
PULL_OFF_BALANCE = "pull off balance (d100 <= target)"


def pull_chance(attacker_lb: int, strength: int, defender_lb: int) -> PullChance:
    """M = weight + 3 x ST; P = floor(100 x M / (M + defender's weight)), in integers (section 6 rows 2, 7)."""
    mass = attacker_lb + STRENGTH_LB * strength
    total = mass + defender_lb
    return PullChance(mass, defender_lb, total, 100 * mass // total)


def _reach_problems(state: dict[str, Any], attacker: str, defender: str) -> list[str]:
    a = position(state["combatants"][attacker])
    d = position(state["combatants"][defender])
    if a is None or d is None:
        missing = [name_of(state, c) for c, h in ((attacker, a), (defender, d)) if h is None]
        return [f"{' and '.join(missing)} {'has' if len(missing) == 1 else 'have'} no position on the map"]
    if a == d:
        return [
            f"{name_of(state, defender)} is in {name_of(state, attacker)}'s own hex; a grab needs the enemy "
            "in a hex next to the attacker"
        ]
    if distance(a, d) != 1:
        return [f"{name_of(state, defender)} is not in a hex next to {name_of(state, attacker)}"]
    return []


def grab_problems(state: dict[str, Any], attacker: str, defender: str) -> list[str]:
    """Every reason this grab may not be made now (spec 4.2 "Who and when", "Target"; section 3)."""
    problems = actor_problems(state, attacker)
    left = ap_left(state, attacker)
    if left < GRAB_COST:
        problems.append(f"a grab needs {GRAB_COST} AP and {name_of(state, attacker)} has {left} left")
    problems += opponent_problems(state, attacker, defender)
    if attacker != defender:
        problems += _reach_problems(state, attacker, defender)
        problems += target_problems(state, attacker, defender)
    if stat(state["combatants"][attacker], "strength") is None:
        problems.append(f"{name_of(state, attacker)} has no strength stat (the GM enters one)")
    return problems


def decide_grab(state: dict[str, Any], cmd: MakeAGrab, dice: Dice) -> list[msgspec.Struct]:
    """The events of a grab, ending with the `swing_target` reaction after a successful pull."""
    a, d = cmd.combatant, cmd.target
    combatant_or_error(state, a, "combatant")
    combatant_or_error(state, d, "target")
    check_gm_target_field(state, cmd.to_hit_target)
    problems = grab_problems(state, a, d)
    refuse(problems, f"{name_of(state, a)} cannot make a grab")
    events: list[msgspec.Struct] = [ActionDeclared(a, "make_a_grab", [d])]
    events += spend(state, a, GRAB_COST, "grab", all_spent_why="all AP spent")
    target = to_hit_target(state, a, d, cmd.to_hit_target)
    rolled, hit = roll_to_hit(state, dice, GRAB_TO_HIT, a, target, cmd.modifiers)
    events.append(rolled)
    if not hit:
        return events
    events.append(GripTaken(a, d))
    ac, dc = state["combatants"][a], state["combatants"][d]
    chance = pull_chance(stat(ac, "weight_lb") or 0, stat(ac, "strength") or 0, stat(dc, "weight_lb") or 0)
    events.append(chance)
    roll = dice.roll(1, 100, PULL_OFF_BALANCE, combatant=a)
    pulled = roll.faces[0] <= chance.percent
    events.append(
        roll.event(total=roll.faces[0], target=chance.percent, outcome="success" if pulled else "failure")
    )
    if not pulled:
        events.append(GripLost(a, d, "not pulled off balance"))
        return events
    return events + _pulled_off_balance(state, a, d)


def _pulled_off_balance(state: dict[str, Any], a: str, d: str) -> list[msgspec.Struct]:
    """Stun the defender and ask the grabber where to swing him."""
    turn = state["turn"]
    until = turn + 1 if option(state, "stun_duration") == "through_next_round" else turn
    earlier = stun_until(state, d)
    if isinstance(earlier, int):
        until = max(until, earlier)  # a second pull never shortens a stun already running
    where = destinations(state, a, d) or {}
    choices = [name for name in where if name != "in_place"] + ["in_place"]
    an, dn = name_of(state, a), name_of(state, d)
    said = {"left": "to the left", "right": "to the right", "own_hex": f"into {an}'s own hex"}
    said["in_place"] = f"against a wall or other obstacle where {dn} stands"
    places = [said.get(c, answer_words(c)) for c in choices]
    question = f"Where does {an} swing {dn}: {', '.join(places[:-1])} or {places[-1]}?"
    return [
        ConditionChanged(d, "stunned", True),
        PulledOffBalance(a, d, until, where),
        ReactionRequested(
            id="",
            kind=SWING_REACTION,
            combatant=a,
            asked_of=asked_of(state, a),
            options=choices,
            default=DEFAULT_SWING,
            allows=[SwingTarget.__struct_config__.tag],
            resume={"attacker": a, "defender": d},
            question=question,
        ),
    ]
