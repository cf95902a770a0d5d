"""Whose turn it is (spec 4.1, seed "the man that has the card"): the figures on the card drawn act until the
GM draws the next; between cards the GM draws; when the deck is spent the GM starts the next turn. Read
from `legal_actions`, so the two agree."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from rules.acting import before_slots, counted, gm_step, slot, until
from rules.skirmish.figures import OUT_OF_ACTION, captor_of, has, name_of, pronoun

Legal = Callable[[dict[str, Any], str], list[str]]
NEXT_CARD = until("card", "until the GM draws the next card")
LAST_CARD = until("turn", "until the GM starts the next turn (this is the turn's last card)")


def _card_of(rules: dict[str, Any], cid: str) -> str | None:
    return next((c["card"] for c in rules.get("deck", []) if cid in c["combatants"]), None)


def _card_words(state: dict[str, Any], card: str, cid: str) -> str:
    their = pronoun(state, cid)[1]
    return f"{their} card" if card == cid else f"{their} card {card!r}"


def acting_now(state: dict[str, Any], legal: Legal) -> list[dict[str, Any]]:
    """Who may or must act now, and why."""
    first = before_slots(
        state,
        "no turn has started: the GM starts the turn (start_turn), then draws the first "
        "card (skirmish.draw_card)",
    )
    if first is not None:
        return first
    rules = state.get("rules", {})
    card = rules.get("card")
    actors = [cid for cid in rules.get("holders", []) if cid in state["combatants"] and legal(state, cid)]
    left = len(rules.get("undrawn", []))
    if actors:
        ends = NEXT_CARD if left else LAST_CARD
        return [
            slot(
                state,
                cid,
                f"{name_of(state, cid)} acts: {_card_words(state, str(card), cid)} is drawn "
                "(the man that has the card moves and fights)",
                ends,
                f"card {card}",
            )
            for cid in actors
        ]
    if left:
        return [
            gm_step(
                state,
                f"the GM draws the next card (skirmish.draw_card): {left} of "
                f"{counted(len(rules.get('deck', [])), 'card')} still to come this turn",
                "draw the next card",
            )
        ]
    return [
        gm_step(
            state,
            "every card has been drawn this turn: the GM starts the next turn (start_turn)",
            "start the next turn",
        )
    ]


def next_slot(state: dict[str, Any], cid: str, legal: Legal) -> str | None:
    """When this figure will next act, in a sentence; None when he acts now."""
    c = state["combatants"].get(cid)
    if c is None or state.get("closed") or any(e["combatant"] == cid for e in acting_now(state, legal)):
        return None
    who = name_of(state, cid)
    out = next((x for x in OUT_OF_ACTION if has(c, x)), None)
    if out:
        return f"{who} is {out} and does not act"
    captor = captor_of(state, cid)
    if captor:
        return f"{who} is {name_of(state, captor)}'s prisoner and moves only on {pronoun(state, cid)[1]} captor's cards"
    rules = state.get("rules", {})
    card = _card_of(rules, cid)
    if card is None:
        return f"{who} has no card in the deck"
    words = _card_words(state, card, cid)
    if state.get("turn", 0) < 1:
        return f"{who} acts when {words} is drawn, once the GM starts the turn"
    if card in rules.get("undrawn", []):
        return (
            f"{who} acts when {words} is drawn: {counted(len(rules['undrawn']), 'card')} still to come this "
            "turn, drawn at random"
        )
    if card == rules.get("card"):
        their = pronoun(state, cid)[1]
        return (
            f"{who} holds the card drawn but may do nothing more on it, and acts again on {their} next card"
        )
    return f"{words[0].upper() + words[1:]} has been drawn this turn: {who} acts again next turn, when it is drawn"
