"""Takedown, pin and break free (spec section 4.9; BASE, minimal versions) as Quick Contests, and
the GM-adjudicated mode (OPTION `base_grapple_mode: "gm"`)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import (
    ActionDeclared,
    CloseCombatJoined,
    Moved,
    PinApplied,
    PinBroken,
    PostureChanged,
    ReactionCancelled,
    ReactionRequested,
    RulingMade,
)
from events.dice import Dice, Modifier
from rules.acting import asked_of
from rules.gurps.attacks import attack_problems, decide_grapple, grapple_check, grapple_roll
from rules.gurps.close_combat import arrival
from rules.gurps.combatant_stats import is_lying, name
from rules.gurps.commands import BreakFree, Grapple, Pin, Takedown
from rules.gurps.events import Grappled, GrappleReleased, QuickContestResolved
from rules.gurps.hex_sharing import group_members, hex_occupants, rules_of
from rules.gurps.maneuvers import own_turn_or_error
from rules.gurps.options import option
from rules.gurps.situational_modifiers import fighter, grappled_by_me, grapplers_of, pins_on
from rules.gurps.state import evolve_rules
from rules.gurps.success_rolls import SuccessRoll, contest_side, quick_contest, success_roll
from rules.gurps.teamwork import assist_events, helper_problems, score, team_of
from rules.hexes import as_hex, distance, label, neighbours
from rules.interface import Answer, BadCommand, RuleError
from rules.refusals import refuse
from rules.working import folded

GM_CONTEST_OPTIONS = ["win", "loss", "tie"]


def _posture_modifiers(state: dict[str, Any], cid: str) -> list[Modifier]:
    """OPTION posture_penalty: the lead of a takedown who is not standing."""
    posture = state["combatants"][cid].get("posture")
    table = option(state, "posture_penalty")
    if is_lying(state["combatants"][cid]):
        return [Modifier(int(table["lying"]), "lead lying down")]
    if posture == "kneeling":
        return [Modifier(int(table["kneeling"]), "lead kneeling")]
    return []


def _standing_update(state: dict[str, Any], cid: str, fallen: list[str]) -> list[msgspec.Struct]:
    """CloseCombatJoined restating the group when someone in it falls (it is standing no more)."""
    gid = state["combatants"][cid].get("group")
    if not gid:
        return []
    members = group_members(state, gid)
    return [CloseCombatJoined(gid, members, state["groups"][gid]["at"], False)] if members and fallen else []


def _contest(
    state: dict[str, Any], kind: str, team_roll: SuccessRoll, foe_roll: SuccessRoll, helpers: list[str]
) -> tuple[list[msgspec.Struct], str | None]:
    contest = quick_contest(team_roll, foe_roll)
    sides = [contest_side(team_roll, helpers=helpers), contest_side(foe_roll)]
    return [
        team_roll.event,
        foe_roll.event,
        QuickContestResolved(kind, sides, contest.winner, contest.margin_of_victory),
    ], contest.winner


def _gm_question(kind: str, payload: dict[str, Any], text: str, options: list[str]) -> ReactionRequested:
    return ReactionRequested(
        id="",
        kind="gm_ruling",
        combatant=None,
        asked_of="gm",
        options=options,
        default=options[-1],
        resume={"action": kind, **payload},
        question=f"{text}: record the outcome (text: your ruling)",
    )


def team_rolls(
    state: dict[str, Any], cmd: Takedown | Pin, dice: Dice, kind: str
) -> tuple[SuccessRoll, SuccessRoll, str]:
    """Roll the team (first) and the target; returns (team roll, target roll, lead)."""
    team = team_of(state, cmd.combatant, list(cmd.helpers))
    lead = team.lead.combatant
    mods = (
        team.modifiers + (_posture_modifiers(state, lead) if kind == "takedown" else []) + list(cmd.modifiers)
    )
    team_roll = success_roll(
        dice, combatant=lead, purpose=kind, base=team.lead.value, base_name=team.lead.label, modifiers=mods
    )
    t = score(state, cmd.target)
    foe_roll = success_roll(
        dice, combatant=cmd.target, purpose=f"{kind}_resist", base=t.value, base_name=t.label
    )
    return team_roll, foe_roll, lead


def _team_checks(state: dict[str, Any], cmd: Takedown | Pin, kind: str) -> None:
    cid, target = cmd.combatant, cmd.target
    t = state["combatants"][target]
    maneuver = own_turn_or_error(state, cid, "with an Attack maneuver")
    problems = attack_problems(state, cid, target, maneuver, frozenset({"attack"}))
    problems += helper_problems(state, cid, target, list(cmd.helpers), kind)
    if kind == "takedown" and t.get("posture") != "standing":
        problems.append(
            f"{t['name']} is not standing ({t.get('posture')}): a takedown needs a standing target"
        )
    if kind == "pin" and not is_lying(t):
        problems.append(
            f"{t['name']} is not lying down ({t.get('posture')}): a pin needs a target on the ground"
        )
    participants = [cid, *cmd.helpers]
    if not any(g in participants for g in grapplers_of(state, target)):
        problems.append(f"nobody taking part grapples {t['name']} (a grapple first)")
    refuse(problems, details={"combatant": cid, "target": target})


def takedown_win(
    state: dict[str, Any], lead: str, target: str, participants: list[str], to: Any
) -> list[msgspec.Struct]:
    """The target falls where the lead chose, losing his grip on the attackers."""
    at = as_hex(state["combatants"][lead]["position"])
    events: list[msgspec.Struct] = [PostureChanged(target, "prone")]
    events += [
        GrappleReleased(target, p, "taken down") for p in grappled_by_me(state, target) if p in participants
    ]
    if to is not None and as_hex(to) != at:
        events += _thrown(state, target, at, as_hex(to))
    else:
        events += _standing_update(state, target, [target])
    return events


def _thrown(
    state: dict[str, Any], cid: str, at: tuple[int, int], to: tuple[int, int]
) -> list[msgspec.Struct]:
    """He lands in a neighbouring hex: out of the close combat, and nobody holds him across hexes."""
    events: list[msgspec.Struct] = [
        GrappleReleased(g, cid, "thrown out of the hex") for g in grapplers_of(state, cid)
    ]
    events += [GrappleReleased(cid, g, "thrown out of the hex") for g in grappled_by_me(state, cid)]
    return events + arrival(
        folded(state, events, evolve_rules), Moved(cid, list(to), "thrown", None, list(at)), "thrown"
    )


def _landing_options(state: dict[str, Any], at: tuple[int, int]) -> list[str]:
    return [label(at)] + [label(h) for h in neighbours(at) if not hex_occupants(state, h)]


def takedown_loss(state: dict[str, Any], lead: str, target: str) -> list[msgspec.Struct]:
    """The lead falls and loses his grip; the target places him (reaction `fall_hex`)."""
    at = as_hex(state["combatants"][lead]["position"])
    events: list[msgspec.Struct] = [PostureChanged(lead, "prone")]
    events += (
        [GrappleReleased(lead, target, "the takedown failed")]
        if target in grappled_by_me(state, lead)
        else []
    )
    events += _standing_update(state, lead, [lead])
    options = _landing_options(state, at)
    events.append(
        ReactionRequested(
            id="",
            kind="fall_hex",
            combatant=target,
            asked_of=asked_of(state, target),
            options=options,
            default=options[0],
            resume={"fallen": lead, "at": list(at)},
            question=f"{name(state, lead)}'s takedown failed and {name(state, lead)} falls: where does {name(state, target)} put {name(state, lead)}?",
        )
    )
    return events


def decide_takedown(state: dict[str, Any], cmd: Takedown, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.takedown`."""
    _team_checks(state, cmd, "takedown")
    team = team_of(state, cmd.combatant, list(cmd.helpers))
    if cmd.to is not None:
        lead_at = state["combatants"][team.lead.combatant]["position"]
        if not (isinstance(cmd.to, list) and len(cmd.to) == 2) or distance(lead_at, cmd.to) > 1:
            raise RuleError(
                f"{list(cmd.to)} is neither {name(state, team.lead.combatant)}'s hex nor next to it"
            )
        if as_hex(cmd.to) != as_hex(lead_at) and hex_occupants(state, cmd.to):
            raise RuleError(f"{list(cmd.to)} is occupied")
    events: list[msgspec.Struct] = [
        ActionDeclared(cmd.combatant, "takedown", [cmd.target], {"helpers": list(cmd.helpers)})
    ]
    team_roll, foe_roll, lead = team_rolls(state, cmd, dice, "takedown")
    participants = [cmd.combatant, *cmd.helpers]
    if option(state, "base_grapple_mode") == "gm":
        # The GM's question ends the command's events (a reaction request comes last).
        return [
            *events,
            team_roll.event,
            foe_roll.event,
            *assist_events(state, cmd.combatant, cmd.target, list(cmd.helpers), "takedown"),
            _gm_question(
                "takedown",
                {"lead": lead, "target": cmd.target, "participants": participants, "to": cmd.to},
                f"{name(state, lead)}'s takedown on {name(state, cmd.target)}",
                GM_CONTEST_OPTIONS,
            ),
        ]
    contest, winner = _contest(state, "takedown", team_roll, foe_roll, list(cmd.helpers))
    events += contest
    outcome: list[msgspec.Struct] = []
    if winner == lead:
        outcome = takedown_win(state, lead, cmd.target, participants, cmd.to)
    elif winner == cmd.target:
        outcome = takedown_loss(state, lead, cmd.target)
    assists = assist_events(state, cmd.combatant, cmd.target, list(cmd.helpers), "takedown")
    # A reaction request must end the command's events.
    asks = [e for e in outcome if isinstance(e, ReactionRequested)]
    return events + [e for e in outcome if not isinstance(e, ReactionRequested)] + assists + asks


def decide_pin(state: dict[str, Any], cmd: Pin, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.pin`: a won contest pins the target, held by the lead."""
    _team_checks(state, cmd, "pin")
    events: list[msgspec.Struct] = [
        ActionDeclared(cmd.combatant, "pin", [cmd.target], {"helpers": list(cmd.helpers)})
    ]
    team_roll, foe_roll, lead = team_rolls(state, cmd, dice, "pin")
    if option(state, "base_grapple_mode") == "gm":
        return [
            *events,
            team_roll.event,
            foe_roll.event,
            *assist_events(state, cmd.combatant, cmd.target, list(cmd.helpers), "pin"),
            _gm_question(
                "pin",
                {"lead": lead, "target": cmd.target},
                f"{name(state, lead)}'s pin on {name(state, cmd.target)}",
                GM_CONTEST_OPTIONS,
            ),
        ]
    contest, winner = _contest(state, "pin", team_roll, foe_roll, list(cmd.helpers))
    events += contest
    if winner == lead:
        events.append(PinApplied(lead, cmd.target, int(state["turn"])))
    return events + assist_events(state, cmd.combatant, cmd.target, list(cmd.helpers), "pin")


def break_free_outcome(state: dict[str, Any], cid: str, holder: str) -> list[msgspec.Struct]:
    """Free of this holder: his pin breaks (DECISION: with the grapple under it) and his grip ends."""
    events: list[msgspec.Struct] = []
    if any(p["holder"] == holder for p in pins_on(state, cid)):
        events.append(PinBroken(cid, holder))
    if holder in grapplers_of(state, cid):
        events.append(GrappleReleased(holder, cid, "broken free"))
    return events


def decide_break_free(state: dict[str, Any], cmd: BreakFree, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.break_free`: his best of ST or grappling skill against the holder's score."""
    cid, holder = cmd.combatant, cmd.target
    c = state["combatants"][cid]
    maneuver = own_turn_or_error(state, cid, "with an Attack maneuver")
    problems = []
    if maneuver != "attack":
        problems.append(f"breaking free needs an Attack maneuver, not {maneuver}")
    elif fighter(state, cid)["attacks_this_maneuver"] >= 1:
        # As the offers say (legal.py): the try is the Attack maneuver's one attack.
        problems.append(f"{c['name']} has already attacked this maneuver")
    held_by = grapplers_of(state, cid) + [p["holder"] for p in pins_on(state, cid)]
    if holder not in held_by:
        problems.append(f"{name(state, holder)} neither grapples nor pins {c['name']}")
    refuse(problems, details={"combatant": cid, "target": holder})
    mine = score(state, cid, use_dx=False)
    theirs = score(state, holder)
    events: list[msgspec.Struct] = [ActionDeclared(cid, "break_free", [holder], {})]
    own = success_roll(
        dice,
        combatant=cid,
        purpose="break_free",
        base=mine.value,
        base_name=mine.label,
        modifiers=list(cmd.modifiers),
    )
    other = success_roll(
        dice, combatant=holder, purpose="break_free_resist", base=theirs.value, base_name=theirs.label
    )
    if option(state, "base_grapple_mode") == "gm":
        return events + [
            own.event,
            other.event,
            _gm_question(
                "break_free",
                {"lead": cid, "target": holder},
                f"{c['name']} tries to break free of {name(state, holder)}",
                GM_CONTEST_OPTIONS,
            ),
        ]
    contest, winner = _contest(state, "break_free", own, other, [])
    events += contest
    if winner == cid:
        events += break_free_outcome(state, cid, holder)
    return events


def decide_grapple_command(state: dict[str, Any], cmd: Grapple, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.grapple`: the minimal rules, or the GM rules the outcome (OPTION base_grapple_mode)."""
    if option(state, "base_grapple_mode") == "gm":
        return decide_gm_grapple(state, cmd, dice)
    return decide_grapple(state, cmd, dice)


def decide_gm_grapple(state: dict[str, Any], cmd: Grapple, dice: Dice) -> list[msgspec.Struct]:
    """`gurps.grapple` in gm mode: the attack roll, then the GM says whether it took hold."""
    grapple_check(state, cmd)
    roll = grapple_roll(state, cmd, dice)
    return [
        ActionDeclared(cmd.combatant, "grapple", [cmd.target], {}),
        roll.event,
        _gm_question(
            "grapple",
            {"lead": cmd.combatant, "target": cmd.target},
            f"{name(state, cmd.combatant)} grapples {name(state, cmd.target)}",
            ["hit", "miss"],
        ),
    ]


def resume_gm_ruling(state: dict[str, Any], pending: dict[str, Any], answer: Answer) -> list[msgspec.Struct]:
    """The GM's adjudication: RulingMade, then the events of the outcome he chose."""
    p = pending["resume"]
    unknown = set(answer.params) - {"text"}
    if unknown:
        raise BadCommand(f"a GM ruling takes only text, not {sorted(unknown)}", sorted(unknown)[0])
    if answer.choice not in pending["options"]:
        raise RuleError(f"{answer.choice!r} is not one of {pending['options']}")
    lead, target = p["lead"], p["target"]
    if lead not in state["combatants"] or target not in state["combatants"]:
        return [ReactionCancelled(pending["id"], "a figure of the grapple is gone")]
    text = str(answer.params.get("text") or f"GM rules the {p['action']}: {answer.choice}")
    events: list[msgspec.Struct] = [RulingMade(text)]
    action, choice = p["action"], answer.choice
    if action == "grapple" and choice == "hit":
        events.append(Grappled(lead, target))
    elif action == "takedown" and choice == "win":
        events += takedown_win(state, lead, target, p["participants"], p.get("to"))
    elif action == "takedown" and choice == "loss":
        events += takedown_loss(state, lead, target)
    elif action == "pin" and choice == "win":
        events.append(PinApplied(lead, target, int(state["turn"])))
    elif action == "break_free" and choice == "win":
        events += break_free_outcome(state, lead, target)
    return events


def resume_fall_hex(state: dict[str, Any], pending: dict[str, Any], answer: Answer) -> list[msgspec.Struct]:
    """Where the target put the fallen lead."""
    if answer.params:
        raise BadCommand("a fall_hex answer takes no fields", "params")
    if answer.choice not in pending["options"]:
        raise RuleError(f"{answer.choice!r} is not one of the hexes offered: {pending['options']}")
    p = pending["resume"]
    fallen = p["fallen"]
    if fallen not in state["combatants"]:
        return [ReactionCancelled(pending["id"], "the fallen figure is gone")]
    at = as_hex(p["at"])
    q, r = (int(v) for v in answer.choice.split(","))
    if (q, r) == at:
        return []
    if hex_occupants(state, (q, r)):
        raise RuleError(f"{answer.choice} is occupied now")
    return _thrown(state, fallen, at, (q, r))


def holds(state: dict[str, Any]) -> list[dict[str, Any]]:
    """The grapples as the views show them (Ruleset.holds): §Grappling, "-4 DX" and §Leaving a Foe's Hex,
    no leaving the hex until breaking free. A pin is the common `pins`, not repeated here."""
    return [
        {
            "holder": g["grappler"],
            "held": g["grappled"],
            "hold": "grapple",
            "effect": "-4 DX; cannot leave the hex until breaking free",
        }
        for g in rules_of(state).get("grapples", [])
    ]
