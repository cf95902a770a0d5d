"""Card activation (spec 4.1): the figure whose card is drawn acts; a pass through the deck is one turn.

DECISION: the server draws by rolling 1dN over the N undrawn cards in deck order, so a draw is auditable; a
physical draw is sent as `dice: [[k]]`, k being the card's place among the undrawn cards. DECISION: the last
undrawn card is turned up without a roll (a die of one face decides nothing; a manual draw sends no dice)."""

from __future__ import annotations

from events.common import ActionSpent
from rules.interface import RuleError
from rules.skirmish.commands import DrawCard
from rules.skirmish.events import ActivationSkipped, CardDrawn
from rules.skirmish.figures import has
from rules.working import Working

# Why a drawn figure does not act: the seed's prisoner, and (DECISION) a figure out of the fight.
SKIP_CONDITIONS: tuple[str, ...] = ("prisoner", "dead", "unconscious")


def draw_card(w: Working, command: DrawCard | None = None) -> None:
    """End the current activation, draw a card, and skip the figures on it who cannot act."""
    rules = w.state["rules"]
    undrawn = list(rules.get("undrawn", []))
    if not undrawn:
        raise RuleError(
            "every card has been drawn this turn (a pass through the deck is one turn): start the next turn "
            "(start_turn) to gather the deck again."
        )
    spent = w.state.get("actions_spent", {})
    for holder in rules.get("holders", []):
        if holder in w.state["combatants"] and holder not in spent:
            w.emit(ActionSpent(holder, w.turn, "activation ended"))
    card = undrawn[0]
    if len(undrawn) > 1:
        roll = w.dice.roll(1, len(undrawn), "card draw")
        card = undrawn[roll.sum - 1]
        w.emit(roll.event(outcome=f"card {card}"))
    figures = next((c["combatants"] for c in rules["deck"] if c["card"] == card), [])
    figures = [f for f in figures if f in w.state["combatants"]]
    w.emit(CardDrawn(card, figures[0] if figures else None, figures, len(undrawn) - 1))
    for f in figures:
        why = next((c for c in SKIP_CONDITIONS if has(w.combatant(f), c)), None)
        if why:
            w.emit(ActivationSkipped(f, why))
