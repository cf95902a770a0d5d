"""The defender's choice (§Flow "he must choose one of the following: 1. PARRY and COUNTERSTRIKE (Only if
defender is not pinned) 2. EVADE"; spec 4.2's defender-options table): which defences are open, and for each
one that is not, the rule that closes it, so every refusal says which rule and why."""

from __future__ import annotations

from typing import Any

from rules.skirmish.figures import captor_of, has, holder_of, is_down, name_of
from rules.skirmish.options import option

DEFENCES: tuple[str, ...] = ("parry", "evade")


def defence_problems(state: dict[str, Any], defender: str) -> dict[str, list[str]]:
    """For each of parry and evade, each reason the defender may not choose it now (empty: he may)."""
    d = state["combatants"][defender]
    who = name_of(state, defender)
    out: dict[str, list[str]] = {k: [] for k in DEFENCES}
    if has(d, "unconscious"):
        for k in DEFENCES:
            out[k].append(
                f"{who} is unconscious (§Flow: if the defender is unconscious, the defender must accept the blow)"
            )
        return out
    holder = holder_of(state, defender)
    if has(d, "pinned"):
        out["parry"].append(f"{who} is pinned (§PARRY: a pinned man cannot parry, may only evade)")
    elif holder and option(state, "hold_counts_as_pinned"):
        out["parry"].append(
            f"{who} is held by {name_of(state, holder)}, and a hold counts as pinned (option "
            "hold_counts_as_pinned; §PARRY: a pinned man cannot parry)"
        )
    if is_down(d):
        out["evade"].append(
            f"{who} is {str(d.get('posture')).replace('_', ' ')} (§EVADE: prone men may not evade)"
        )
    if holder:
        out["evade"].append(
            f"{who} is held by {name_of(state, holder)} (§GRAPPLING: the hold prevents any movement)"
        )
    captor = captor_of(state, defender)
    if captor and not holder:
        # DECISION (NOTES.md): an evade is a move, and a prisoner "moves on the attacker's cards" only.
        out["evade"].append(
            f"{who} is {name_of(state, captor)}'s prisoner (§GRAPPLING: a prisoner moves on his captor's cards "
            "till liberated)"
        )
    return out


def defender_options(state: dict[str, Any], defender: str) -> tuple[list[str], str]:
    """The defences open to the defender, and, when none is, why he accepts the blow (`BlowAccepted.why`)."""
    problems = defence_problems(state, defender)
    options = [k for k in DEFENCES if not problems[k]]
    d = state["combatants"][defender]
    if has(d, "unconscious"):
        why = "unconscious"
    elif holder_of(state, defender) is not None:
        why = "held and down"
    elif captor_of(state, defender) is not None and not is_down(d):
        why = "pinned and a prisoner"
    else:
        why = "pinned and down"
    return options, why


def refusal(state: dict[str, Any], defender: str, choice: str) -> str:
    """Why the defender may not choose `choice`, and what he may do instead."""
    problems = defence_problems(state, defender)
    options = [k for k in DEFENCES if not problems[k]]
    reasons = problems.get(choice) or [f"{choice} is not a defence (choose parry or evade)"]
    instead = (
        f"; {name_of(state, defender)} may {' or '.join(options)}"
        if options
        else ("; no defence is open, so the blow must be accepted")
    )
    return f"{name_of(state, defender)} cannot {choice}: " + "; ".join(reasons) + instead + "."
