"""What a `dice_needed` refusal lists (API.md "Dice"): whose roll and what for, by name, so a table rolling
physical dice knows who rolls which ("1d6: Troll's HTH defense roll"). The stored purpose is unchanged."""

from __future__ import annotations

from typing import Any

from events.dice import DiceNeeded

# Abbreviations players write in capitals.
CAPITALS = {"hth": "HTH", "dx": "DX", "st": "ST", "ap": "AP", "cc": "CC", "ws": "WS", "bs": "BS"}


def purpose_words(purpose: str) -> str:
    return " ".join(CAPITALS.get(w, w) for w in purpose.replace("_", " ").split())


def dice_wanted(state: dict[str, Any], exc: DiceNeeded) -> list[str]:
    """Each needed roll as "NdS: <name>'s <purpose> roll", or the plain label when nobody's roll is named."""
    if len(exc.rolls) != len(exc.needed):
        return list(exc.needed)
    out = []
    for (count, sides, purpose, combatant), label in zip(exc.rolls, exc.needed, strict=True):
        who = state.get("combatants", {}).get(combatant or "")
        out.append(f"{count}d{sides}: {who['name']}'s {purpose_words(purpose)} roll" if who else label)
    return out


def rolls_wanted(state: dict[str, Any], exc: DiceNeeded) -> list[dict[str, Any]]:
    """The same rolls for programs, in the same order: a bot rolling physical dice reads how many of what
    size, what for and whose, and sends their faces in `dice` in this order (`label` is `needed`'s words)."""
    labels = dice_wanted(state, exc)
    if len(exc.rolls) != len(labels):
        return []
    return [
        {"count": count, "sides": sides, "purpose": purpose, "combatant": combatant, "label": label}
        for (count, sides, purpose, combatant), label in zip(exc.rolls, labels, strict=True)
    ]
