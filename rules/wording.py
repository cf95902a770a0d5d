"""Words every ruleset's sentences share: lists of names read as a player writes them."""

from __future__ import annotations

from collections.abc import Sequence


def names_and(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"; "nobody" for none."""
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


__all__ = ["names_and"]
