"""Pins (OPTION `pins`): pin, hold, release, break (4.10-4.12; §Pin, §Break-Pin; A1, A17, A31)."""

from __future__ import annotations

from typing import Any

from events.common import (
    ActionDeclared,
    ActionSpent,
    PinBroken,
    PinHeld,
    PinReleased,
    ReactionRequested,
    RulingMade,
)
from events.dice import Dice, Modifier
from rules.interface import Answer
from rules.refusals import refuse
from rules.tft import figures as F
from rules.tft.attacking import member_problems
from rules.tft.commands import BreakPin, Pin, ReleasePin
from rules.tft.dx_in_hth import hth_dx
from rules.tft.hth_actions import entry_turn_problems
from rules.tft.initiative import slot_problems
from rules.tft.options import option
from rules.tft.pinned_condition import pin_applied, pin_ended

PIN_CONTEST_DICE = 3  # A1: each side rolls 3 dice vs its HTH DX, UC difference adds dice to the weaker side
BREAK_PIN_DICE = 4  # 4vsST (§Break-Pin)
HELD_TURNS_BEFORE_BREAK = 3  # pinned on T: held T+1 and T+2, may try to break from T+3


def _pins_on(state: dict[str, Any]) -> list[str]:
    return [] if option(state, "pins") else ["pins are not used in this encounter (option pins)"]


def contest_dice(state: dict[str, Any], pinner: str, target: str) -> tuple[int, int]:
    """(pinner dice, target dice): 3 each, the side with fewer UC levels rolls one more per level (A1)."""
    diff = F.uc(state["combatants"][pinner]) - F.uc(state["combatants"][target])
    return PIN_CONTEST_DICE + max(0, -diff), PIN_CONTEST_DICE + max(0, diff)


def pin(state: dict[str, Any], cmd: Pin, dice: Dice) -> list[Any]:
    """Try to pin a member of one's own fallen group."""
    c, t = F.get(state, cmd.combatant), F.get(state, cmd.target, "target")
    problems = (
        _pins_on(state) + slot_problems(state, c["id"], cmd.actor) + entry_turn_problems(state, c["id"])
    )
    problems += member_problems(state, c["id"])
    group = F.group_of(state, c["id"])
    if group is not None and F.group_standing(state, group):
        problems.append("pins are made only in a fallen brawl, and this one is standing")
    if t.get("group") != c.get("group") or c["id"] == t["id"]:
        problems.append(f"{t['name']} is not in HTH with {c['name']}")
    elif F.pin_on(state, t["id"]):
        problems.append(f"{t['name']} is already pinned")
    refuse(problems, f"{c['name']} may not pin {t['name']}")
    events: list[Any] = [ActionDeclared(c["id"], "pin", [t["id"]], {})]
    if option(state, "pin_resolution") == "gm":
        return events + [
            ReactionRequested(
                "",
                "pin_ruling",
                None,
                "gm",
                ["pinned", "not_pinned"],
                "not_pinned",
                [],
                {"engine": "tft", "step": "pin_ruling", "holder": c["id"], "pinned": t["id"]},
                f"Does {c['name']} pin {t['name']}? (Advanced Melee p.15)",
            )
        ]
    np_, nt = contest_dice(state, c["id"], t["id"])
    outcomes = []
    for who, count, purpose in ((c["id"], np_, "pin_attempt"), (t["id"], nt, "pin_resist")):
        target, mods = hth_dx(state, who, "general")
        r = dice.roll(count, 6, purpose, who)
        ok = r.sum <= target
        outcomes.append(ok)
        events.append(
            r.event(modifiers=mods, total=r.sum, target=target, outcome="success" if ok else "failure")
        )
    return events + _pin_result(state, c["id"], t["id"], outcomes[0] and not outcomes[1])


def _pin_result(state: dict[str, Any], holder: str, pinned: str, success: bool) -> list[Any]:
    turn = state.get("turn", 0)
    out: list[Any] = []
    if success:
        out += pin_applied(holder, pinned, turn)
        if not F.action_spent(state, pinned):
            out.append(ActionSpent(pinned, turn, "pinned"))
    out.append(ActionSpent(holder, turn, "pin"))
    return out


def resume_pin_ruling(state: dict[str, Any], pending: dict[str, Any], answer: Answer) -> list[Any]:
    """`pin_resolution: gm`: the GM's ruling, then the pin (or not)."""
    p = pending["resume"]
    ok = answer.choice == "pinned"
    text = f"{F.name(state, p['holder'])} {'pins' if ok else 'fails to pin'} {F.name(state, p['pinned'])}"
    return [RulingMade(text, {}), *_pin_result(state, p["holder"], p["pinned"], ok)]


def held_pins(state: dict[str, Any]) -> list[Any]:
    """At each later action phase: PinHeld and the holder's action spent holding (4.11)."""
    out: list[Any] = []
    for p in state.get("pins", []):
        if p["turn"] < state.get("turn", 0) and p.get("last_held_turn") != state.get("turn"):
            out += [
                PinHeld(p["holder"], p["pinned"], state["turn"]),
                ActionSpent(p["holder"], state["turn"], "holding pin"),
            ]
    return out


def release_pin(state: dict[str, Any], cmd: ReleasePin, dice: Dice) -> list[Any]:
    """The holder lets go, free, at any time."""
    c = F.get(state, cmd.combatant)
    p = F.pin_holding(state, c["id"])
    refuse([] if p else [f"{c['name']} is not holding anyone in a pin"], f"{c['name']} may not release a pin")
    return pin_ended(PinReleased(p["pinned"], c["id"]))


def break_pin(state: dict[str, Any], cmd: BreakPin, dice: Dice) -> list[Any]:
    """4vs(HTH ST) from the third turn after the pin, if at least as strong as the holder (4.12, A31)."""
    c = F.get(state, cmd.combatant)
    problems = _pins_on(state) + slot_problems(state, c["id"], cmd.actor)
    p = F.pin_on(state, c["id"])
    if p is None:
        problems.append(f"{c['name']} is not pinned")
    else:
        holder = state["combatants"][p["holder"]]
        first = p["turn"] + HELD_TURNS_BEFORE_BREAK
        if state.get("turn", 0) < first:
            problems.append(
                f"{c['name']} was pinned on turn {p['turn']} and may first try to break free on turn {first}"
            )
        mine, theirs = F.hth_st(state, c), F.hth_st(state, holder)
        if mine < theirs:
            problems.append(
                f"{c['name']}'s ST in HTH ({mine}) is less than {holder['name']}'s ({theirs}): only "
                "an equal or stronger figure can break a pin"
            )
    refuse(problems, f"{c['name']} may not break the pin")
    mods = [Modifier(4 * F.judo(c), f"Judo {F.judo(c)} (ST in HTH)")] if F.judo(c) else []
    target = F.hth_st(state, c)
    r = dice.roll(BREAK_PIN_DICE, 6, "break_pin", c["id"])
    ok = r.sum <= target
    events: list[Any] = [
        ActionDeclared(c["id"], "break_pin", [p["holder"]], {}),
        r.event(modifiers=mods, total=r.sum, target=target, outcome="success" if ok else "failure"),
    ]
    if ok:
        events += pin_ended(PinBroken(c["id"], p["holder"]))
    return [*events, ActionSpent(c["id"], state.get("turn", 0), "break_pin")]
