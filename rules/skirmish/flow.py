"""The seed's flow chart (§Flow, §PARRY, §COUNTERSTRIKE, §EVADE; spec 4.2-4.7), step by step:

reach? -- no --> HandToHandImpossible
  | yes: the attacker strikes (or grapples: grapple.py)
defender unconscious, or pinned/held and down? --> BlowAccepted --> DAMAGE EVALUATION
  | else the defender chooses (hth_defence): PARRY (not if pinned) or EVADE (not if down or held)
PARRY: attacker higher? --> DAMAGE EVALUATION (attacker strikes)
  | defender higher or tied --> COUNTERSTRIKE: counterstriker strictly higher? --> DAMAGE EVALUATION (his)
  |                                             else the hand to hand ends
EVADE: attacker higher? --> DAMAGE EVALUATION
  | defender higher or tied --> he moves one move away, faces any way; the hand to hand ends
"""

from __future__ import annotations

from typing import Any

from events.common import (
    ActionDeclared,
    CloseCombatJoined,
    CloseCombatLeft,
    FacingChanged,
    Moved,
    ReactionCancelled,
    ReactionRequested,
)
from rules.acting import asked_of
from rules.interface import Answer, BadCommand, RuleError, combatant_or_error
from rules.plane import angle_between, facing_toward, is_point
from rules.refusals import refuse
from rules.skirmish import damage, grapple
from rules.skirmish.commands import Grapple, Strike
from rules.skirmish.defence import defence_problems, defender_options, refusal
from rules.skirmish.events import (
    BlowAccepted,
    ExchangeResolved,
    HandToHandEnded,
    HandToHandImpossible,
    SkirmishDefenceAwaited,
)
from rules.skirmish.figures import captor_of, has, held_by_him, holder_of, is_down, name_of
from rules.skirmish.reach import approach, evade_destination
from rules.skirmish.rolling import opposed, roller_for
from rules.skirmish.tables import EVADE_MODIFIERS, PARRY_MODIFIERS, Roller, Row
from rules.working import Working

DEFENCE_REACTION = "hth_defence"
DEFENCE_PARAMS = frozenset({"to", "facing"})


# ---- who may start a hand to hand (spec 4.2) -------------------------------------------------------------


def attacker_problems(state: dict[str, Any], attacker: str, mode: str) -> list[str]:
    """Each reason the figure may not start a hand to hand now, with the rule that says so (empty: he may)."""
    c = state["combatants"][attacker]
    who = name_of(state, attacker)
    rules = state.get("rules", {})
    problems = []
    if attacker not in rules.get("holders", []):
        problems.append(
            f"{who} does not hold the card drawn (§Flow: the man that has the card starts as the attacker)"
        )
    elif attacker in rules.get("fought", []):
        problems.append(
            f"{who} has already fought hand to hand on this card (§COUNTERSTRIKE: the two men wait for the next "
            "card)"
        )
    if rules.get("exchange"):
        ex = rules["exchange"]
        problems.append(
            f"the hand to hand between {name_of(state, ex['attacker'])} and {name_of(state, ex['defender'])} is "
            "still open (one hand to hand at a time)"
        )
    for condition in ("dead", "unconscious"):
        if has(c, condition):
            problems.append(f"{who} is {condition} (out of the fight)")
    captor = captor_of(state, attacker)
    if captor or has(c, "prisoner"):
        whose = f"{name_of(state, captor)}'s" if captor else "a"
        problems.append(
            f"{who} is {whose} prisoner (§GRAPPLING: a prisoner moves on his captor's cards till liberated)"
        )
    if holder_of(state, attacker):
        problems.append(
            f"{who} is held by {name_of(state, holder_of(state, attacker))} (§GRAPPLING: the hold prevents any "
            "movement)"
        )
    if held_by_him(state, attacker):
        problems.append(
            f"{who} is holding a prisoner on the ground and must stand up first (skirmish.captor_acts with "
            "stand_up)"
        )
    if mode == "grapple" and c.get("posture") != "standing":
        problems.append(
            f"{who} is {str(c.get('posture')).replace('_', ' ')} (§GRAPPLING: the attacker may grapple if he is "
            "standing)"
        )
    return problems


def start(w: Working, cmd: Strike | Grapple) -> None:
    """StartHandToHand: checks, reach, contact; then the strike's defence or the grapple (spec 4.2)."""
    mode = "grapple" if isinstance(cmd, Grapple) else "strike"
    state = w.state
    a = combatant_or_error(state, cmd.combatant)
    d = combatant_or_error(state, cmd.target, "target")
    if cmd.combatant == cmd.target:
        raise BadCommand("a figure cannot fight itself: target must be another combatant", "target")
    problems = attacker_problems(state, cmd.combatant, mode)
    if has(d, "dead"):
        problems.append(f"{d['name']} is dead")
    refuse(problems, f"{a['name']} cannot {mode} {d['name']}")
    claims = list(getattr(cmd, "facing_wrong_way", []))
    for cid in claims:
        if cid not in (cmd.combatant, cmd.target):
            raise BadCommand(
                "facing_wrong_way may name only the attacker and the defender", "facing_wrong_way"
            )
    way = approach(state, cmd.combatant, cmd.target, cmd.path)
    if not way.reachable:
        w.emit(HandToHandImpossible(cmd.combatant, cmd.target, "out of reach", way.distance, way.reach))
        return
    w.emit(ActionDeclared(cmd.combatant, f"hth_{mode}", [cmd.target], {}))
    if way.to is not None:
        w.emit(Moved(cmd.combatant, way.to, "move", way.facing, a.get("position")))
    elif way.facing is not None and way.facing != a.get("facing"):
        w.emit(FacingChanged(cmd.combatant, way.facing))
    group = d.get("group") or a.get("group") or f"hth:{cmd.combatant}:{cmd.target}"
    standing = not is_down(w.combatant(cmd.combatant)) and not is_down(d)
    w.emit(CloseCombatJoined(group, [cmd.combatant, cmd.target], d.get("position"), standing))
    if mode == "grapple":
        grapple.run(
            w, {"flow": "grapple", "attacker": cmd.combatant, "defender": cmd.target}, "defender_blow"
        )
        return
    strike(w, cmd.combatant, cmd.target, claims)


def strike(w: Working, attacker: str, defender: str, claims: list[str]) -> None:
    """ "The attacker strikes a blow": the defender accepts it, or chooses (spec 4.2 table)."""
    options, why = defender_options(w.state, defender)
    if not options:
        w.emit(BlowAccepted(attacker, defender, why))
        hit(w, attacker, defender, attacker, defender)
        return
    if options == ["parry"]:
        # DECISION (spec 4.2): a parry is a parry; with no other defence there is nothing to ask.
        w.emit(ActionDeclared(defender, "parry", [attacker], {"forced": True}))
        defend(w, attacker, defender, "parry", claims, None, None)
        return
    # An evade, even the only one open (a pinned man "may only evade"), is asked: §EVADE "he is moved one move
    # away in any direction. He may face any direction he wishes" -- where to and which way are his to say.
    w.emit(SkirmishDefenceAwaited(attacker, defender, options))
    w.emit(
        ReactionRequested(
            id="",
            kind=DEFENCE_REACTION,
            combatant=defender,
            asked_of=asked_of(w.state, defender),
            options=options,
            default=options[0],
            allows=[],
            resume={"flow": "strike", "attacker": attacker, "defender": defender, "claims": claims},
            question=_question(w.state, attacker, defender, options),
        )
    )


def _question(state: dict[str, Any], attacker: str, defender: str, options: list[str]) -> str:
    a, d = name_of(state, attacker), name_of(state, defender)
    where = "if the evade is won, name where to (to, within one move) and which way to face (facing, degrees)"
    if options == ["evade"]:
        why = "; ".join(defence_problems(state, defender)["parry"])
        return f"{a} strikes at {d}, who may only evade ({why}): {where}."
    return f"{a} strikes at {d}: parry or evade? For an evade, {where}."


def answer_defence(w: Working, pending: dict[str, Any], answer: Answer) -> None:
    """ChooseDefence (spec 4.3): re-check, then resolve the chosen defence in this command."""
    r = pending["resume"]
    attacker, defender = r["attacker"], r["defender"]
    bad = set(answer.params) - DEFENCE_PARAMS
    if bad:
        raise BadCommand(
            f"a parry-or-evade answer takes only to and facing, not {', '.join(sorted(bad))}", sorted(bad)[0]
        )
    ex = w.state.get("rules", {}).get("exchange") or {}
    if (
        attacker not in w.state["combatants"]
        or defender not in w.state["combatants"]
        or ex.get("attacker") != attacker
        or ex.get("defender") != defender
    ):
        withdraw(w, pending, "the hand to hand this question belonged to is over")
        return
    options, _ = defender_options(w.state, defender)
    if answer.choice not in options:
        raise RuleError(
            refusal(w.state, defender, answer.choice), {"problems": defence_problems(w.state, defender)}
        )
    to, facing = answer.params.get("to"), answer.params.get("facing")
    if answer.choice == "evade":
        evade_destination(w.state, defender, attacker, to, facing)  # a bad point is refused before any roll
    w.emit(ActionDeclared(defender, answer.choice, [attacker], dict(answer.params)))
    defend(w, attacker, defender, answer.choice, list(r.get("claims", [])), to, facing)


def withdraw(w: Working, pending: dict[str, Any], why: str) -> None:
    """Cancel a question whose hand to hand is over or lost a figure; if that hand to hand is still the open
    one, it ends here (cancelled)."""
    r = pending.get("resume", {})
    w.emit(ReactionCancelled(pending["id"], why))
    ex = w.state["rules"].get("exchange") or {}
    if ex.get("attacker") == r.get("attacker") and ex.get("defender") == r.get("defender"):
        w.emit(HandToHandEnded(r["attacker"], r["defender"], "cancelled"))


def defend(
    w: Working, attacker: str, defender: str, choice: str, claims: list[str], to: Any, facing: Any
) -> None:
    if choice == "parry":
        parry(w, attacker, defender, claims)
    else:
        evade(w, attacker, defender, to, facing)


# ---- PARRY and COUNTERSTRIKE (spec 4.4, 4.5) -------------------------------------------------------------


def faces_wrong_way(position: list[int], facing: int, opponent: list[int]) -> bool:
    """Spec 6 row 7: the opponent is outside the front 180 degrees, i.e. more than 90 degrees off the facing."""
    return angle_between(facing, facing_toward(position, opponent)) > 90


def facing_wrong_way(w: Working, x: str, y: str, claims: list[str]) -> bool:
    """Spec 6 row 7: computed from the recorded positions and facing, else the attacker's claim."""
    cx, cy = w.combatant(x), w.combatant(y)
    if is_point(cx.get("position")) and is_point(cy.get("position")) and cx.get("facing") is not None:
        return faces_wrong_way(cx["position"], cx["facing"], cy["position"])
    return x in claims


def parry(w: Working, attacker: str, defender: str, claims: list[str]) -> None:
    """PARRY: the attacker's higher total means damage; otherwise (ties included) the defender counterstrikes."""
    ra = roller_for(w, attacker, defender, facing_wrong_way=facing_wrong_way(w, attacker, defender, claims))
    rd = roller_for(
        w,
        defender,
        attacker,
        is_defender=True,
        facing_wrong_way=facing_wrong_way(w, defender, attacker, claims),
    )
    if _exchange(w, "parry", attacker, defender, ra, rd, PARRY_MODIFIERS):
        hit(w, attacker, defender, attacker, defender)
    else:
        counterstrike(w, defender, attacker)


def _exchange(
    w: Working, kind: str, attacker: str, defender: str, ra: Roller, rd: Roller, table: tuple[Row, ...]
) -> bool:
    """The opposed roll of a parry or an evade, and its ExchangeResolved; whether the attacker won."""
    ev_a, ev_d, attacker_won = opposed(
        w, kind, (attacker, ra, f"{kind} (attacker)"), (defender, rd, f"{kind} (defender)"), table
    )
    w.emit(
        ExchangeResolved(
            kind, attacker, defender, ev_a.total, ev_d.total, attacker if attacker_won else defender
        )
    )
    return attacker_won


def counterstrike(w: Working, counterstriker: str, original: str) -> None:
    """COUNTERSTRIKE: the parry modifiers without facing; only a strict win gives damage. No counter to it."""
    rc = roller_for(w, counterstriker, original)
    ro = roller_for(w, original, counterstriker)
    ev_c, ev_o, won = opposed(
        w,
        "counterstrike",
        (counterstriker, rc, "counterstrike (counterstriker)"),
        (original, ro, "counterstrike (original attacker)"),
        PARRY_MODIFIERS,
        counterstrike=True,
    )
    w.emit(
        ExchangeResolved(
            "counterstrike",
            counterstriker,
            original,
            ev_c.total,
            ev_o.total,
            counterstriker if won else original,
        )
    )
    if won:
        hit(w, counterstriker, original, original, counterstriker)
    else:
        w.emit(HandToHandEnded(original, counterstriker, "counterstrike failed"))


# ---- EVADE (spec 4.6) ------------------------------------------------------------------------------------


def evade(w: Working, attacker: str, defender: str, to: Any, facing: Any) -> None:
    """EVADE: the attacker's higher total lands his blow; otherwise the defender slips one move away."""
    ra = roller_for(w, attacker, defender)
    rd = roller_for(w, defender, attacker, is_defender=True)
    if _exchange(w, "evade", attacker, defender, ra, rd, EVADE_MODIFIERS):
        hit(w, attacker, defender, attacker, defender)
        return
    dest, face = evade_destination(w.state, defender, attacker, to, facing)
    d = w.combatant(defender)
    if dest is not None:
        w.emit(Moved(defender, dest, "evade", None, d.get("position")))
    if face is not None:
        w.emit(FacingChanged(defender, face))
    if d.get("group"):
        w.emit(CloseCombatLeft(d["group"], defender, "evade"))
    w.emit(HandToHandEnded(attacker, defender, "evaded"))


# ---- DAMAGE EVALUATION for a blow (spec 4.7) ------------------------------------------------------------


def hit(w: Working, striker: str, target: str, attacker: str, defender: str) -> None:
    """A blow lands: damage evaluation, then the exchange ends (or waits for the GM's chart result)."""
    then = {"flow": "strike", "attacker": attacker, "defender": defender}
    if not damage.evaluate(w, striker, target, then):
        w.emit(HandToHandEnded(attacker, defender, "damage evaluated"))


def after_damage_result(w: Working, resume: dict[str, Any], result: str) -> None:
    """The GM's chart result for a blow: apply it, and the hand to hand ends."""
    damage.apply_result(w, resume["target"], result, resume["striker"])
    w.emit(HandToHandEnded(resume["attacker"], resume["defender"], "damage evaluated"))


__all__ = [
    "start",
    "answer_defence",
    "after_damage_result",
    "defender_options",
    "attacker_problems",
    "DEFENCE_REACTION",
]
