"""The plain `move` on the open table. Activation is by card (seed: "The man that has the card starts as the
attacker. He moves to touch the defender"; §GRAPPLING: a prisoner "moves on the attacker's cards"), so a player
moves his own figure only while its card is held (DECISION, NOTES.md). The GM may move any figure at any time.

A move that takes a figure out of touch with every other member of his close-combat group also takes him out of
the group (`CloseCombatLeft {how: "moved away"}`), so the common groups stay true to the table."""

from __future__ import annotations

from typing import Any

import msgspec

from events.common import CloseCombatLeft
from rules.common.commands import Move
from rules.plane import distance, is_point, round_half_up
from rules.refusals import refuse
from rules.skirmish.figures import OUT_OF_ACTION, captor_of, card_label, has, held_by_him, holder_of, name_of
from rules.skirmish.options import option

GM_ACTORS = frozenset({"gm", "system"})


def _on_card_drawn(state: dict[str, Any], cid: str) -> bool:
    rules = state.get("rules", {})
    return any(cid in c["combatants"] for c in rules.get("deck", []) if c["card"] == rules.get("card"))


def _card_problem(state: dict[str, Any], cid: str) -> str | None:
    """Why the figure may not act on the card drawn now (the truth about that card), or None when he may."""
    rules = state.get("rules", {})
    who = name_of(state, cid)
    if cid in rules.get("holders", []):
        return None
    card = rules.get("card")
    if card is None:
        return "no card has been drawn yet (the GM draws with skirmish.draw_card)"
    if _on_card_drawn(state, cid):
        captor = captor_of(state, cid)
        if captor:
            return (
                f"{card_label(state, card)} was drawn, but {who} is {name_of(state, captor)}'s prisoner and "
                "does not act on it (§GRAPPLING: a prisoner moves on his captor's cards till liberated)"
            )
        return f"{card_label(state, card)} was drawn, but {who} may do nothing more on it"
    holders = [name_of(state, h) for h in rules.get("holders", [])]
    held_by = f", held by {' and '.join(holders)}" if holders and card not in state["combatants"] else ""
    return (
        f"the card drawn now is {card_label(state, card)}{held_by}, not {who}'s (a figure moves on its own "
        "card: §Flow, the man that has the card)"
    )


def move_problems(state: dict[str, Any], cid: str) -> list[str]:
    """Each reason a player may not move this figure now, with the rule that says so (empty: he may)."""
    c = state["combatants"][cid]
    who = name_of(state, cid)
    problems = []
    card = _card_problem(state, cid)
    if card:
        problems.append(card)
    captor = captor_of(state, cid)
    if captor and not _on_card_drawn(state, cid):  # else the card's sentence says it
        problems.append(
            f"{who} is {name_of(state, captor)}'s prisoner and moves only with the captor (§GRAPPLING)"
        )
    elif not captor and holder_of(state, cid):
        problems.append(
            f"{who} is held by {name_of(state, holder_of(state, cid))} (§GRAPPLING: the hold prevents "
            "any movement)"
        )
    for condition in OUT_OF_ACTION:
        if has(c, condition):
            problems.append(f"{who} is {condition}")
    held = held_by_him(state, cid)
    if held:
        problems.append(
            f"{who} is holding {' and '.join(name_of(state, h) for h in held)}: a captor moves with "
            "skirmish.captor_acts (stand_up, path), which pulls the prisoner along"
        )
    if cid in state.get("rules", {}).get("fought", []):
        problems.append(
            f"{who} has fought hand to hand on this card (§COUNTERSTRIKE: two sweaty, slippery men wait for the "
            "next card)"
        )
    return problems


def _leaving_contact(state: dict[str, Any], cmd: Move) -> list[msgspec.Struct]:
    c = state["combatants"][cmd.combatant]
    group = state.get("groups", {}).get(c.get("group") or "")
    if group is None or not is_point(cmd.to):
        return []
    others = [
        state["combatants"][m].get("position")
        for m in group["combatants"]
        if m != cmd.combatant and m in state["combatants"]
    ]
    others = [p for p in others if is_point(p)]
    if not others or any(
        round_half_up(distance(cmd.to, p)) <= option(state, "contact_distance") for p in others
    ):
        return []
    return [CloseCombatLeft(group["group"], cmd.combatant, "moved away")]


def judge_move(state: dict[str, Any], cmd: Move, events: list[msgspec.Struct]) -> list[msgspec.Struct]:
    """Refuse a player's move of a figure that may not move now; add leaving the close combat it moves out of."""
    c = state["combatants"].get(cmd.combatant)
    if c is None:
        return events
    if getattr(cmd, "actor", "") not in GM_ACTORS:
        refuse(move_problems(state, cmd.combatant), f"{c['name']} cannot move now")
    return [*events, *_leaving_contact(state, cmd)]
