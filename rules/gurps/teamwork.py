"""Multiple close combat (spec section 4.9, §Multiple Close Combat): grappling scores, who leads,
and what each helper adds; helpers pay with their next own turn (OPTION `helper_cost`)."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import ActionSpent
from events.dice import Modifier
from rules.gurps.combatant_stats import best_grappling_skill, name, stats
from rules.gurps.events import AssistCommitted
from rules.gurps.hex_sharing import in_close_combat_with, rules_of
from rules.gurps.options import option
from rules.gurps.situational_modifiers import is_grappled, shield_dx_modifiers
from rules.gurps.tables import GRAPPLED_PENALTY, MAX_FIGHTERS


class Score(msgspec.Struct, frozen=True):
    """A participant's grappling score and what it is (e.g. "ST 12", "DX 7 (11, grappled -4)")."""

    combatant: str
    value: int
    label: str


def score(state: dict[str, Any], cid: str, use_dx: bool = True) -> Score:
    """The highest of ST, DX and best grappling skill; DX and the skill take -4 while grappled and
    DX the shield's -DB after the first close-combat turn (section 4.9). Break free leaves DX out."""
    c = state["combatants"][cid]
    held = is_grappled(state, cid)
    candidates = [Score(cid, int(stats(c)["ST"]), f"ST {stats(c)['ST']}")]
    if use_dx:
        dx = int(stats(c)["DX"])
        mods = ([GRAPPLED_PENALTY] if held else []) + [m.value for m in shield_dx_modifiers(state, cid)]
        label = f"DX {dx + sum(mods)}" + (
            f" (DX {dx}, {'grappled -4' if held else 'shield'})" if mods else ""
        )
        candidates.append(Score(cid, dx + sum(mods), label))
    skill = best_grappling_skill(c)
    if skill is not None:
        level = skill[1] + (GRAPPLED_PENALTY if held else 0)
        candidates.append(Score(cid, level, f"{skill[0]} {level}" + (" (grappled -4)" if held else "")))
    return max(candidates, key=lambda s: s.value)


class Team(msgspec.Struct, frozen=True):
    """The lead's score and each helper's contribution as modifiers."""

    lead: Score
    helpers: list[Score]
    modifiers: list[Modifier]


def helper_problems(
    state: dict[str, Any], cid: str, target: str, helpers: list[str], action: str
) -> list[str]:
    """Why these helpers may not join (empty when they may)."""
    problems = []
    limit = MAX_FIGHTERS[action] - 1
    if len(helpers) > limit:
        problems.append(
            f"too many helpers: a {action} allows at most {limit} helper(s) "
            f"({MAX_FIGHTERS[action]} fighters), not {len(helpers)}"
        )
    if len(set(helpers)) != len(helpers):
        problems.append("a helper is named twice")
    for h in helpers:
        if h not in state["combatants"]:
            problems.append(f"there is no combatant {h!r}")
        elif h in (cid, target):
            problems.append(f"{name(state, h)} cannot help in a {action} of their own")
        elif not in_close_combat_with(state, h, target):
            problems.append(f"{name(state, h)} is not in close combat with {name(state, target)}")
        elif state["combatants"][h]["side"] != state["combatants"][cid]["side"]:
            problems.append(f"{name(state, h)} is not on {name(state, cid)}'s side")
    return problems


def team_of(state: dict[str, Any], cid: str, helpers: list[str]) -> Team:
    """The participant with the best score leads (the acting figure wins ties); each other adds
    floor(score / 5)."""
    scores = [score(state, x) for x in [cid, *helpers]]
    lead = max(scores, key=lambda s: s.value)  # max keeps the first of equals: the acting figure
    others = [s for s in scores if s.combatant != lead.combatant]
    mods = [Modifier(s.value // 5, f"{name(state, s.combatant)} helps ({s.label}, 1/5)") for s in others]
    return Team(lead, others, mods)


def assist_events(
    state: dict[str, Any], lead: str, target: str, helpers: list[str], action: str
) -> list[msgspec.Struct]:
    """AssistCommitted for each helper; a helper who has not acted this second spends this turn now.

    `lead` is the acting figure whose action they help: his own maneuver is his part, so he never
    owes a turn, while a helper with the best score (V3a) leads the roll and still pays as a helper."""
    turn = int(state["turn"])
    events: list[msgspec.Struct] = []
    for h in helpers:
        if option(state, "helper_cost") == "none":
            events.append(AssistCommitted(h, lead, target, action, None))
            continue
        acted = h in state.get("actions_spent", {}) or rules_of(state).get("current") == h
        owed = turn + 1 if acted else turn
        events.append(AssistCommitted(h, lead, target, action, owed))
        if owed == turn:
            events.append(
                ActionSpent(h, turn, f"helping {name(state, lead)}'s {action} on {name(state, target)}")
            )
    return events
