"""Words every ruleset's sentences share: lists of names read as a player writes them, an answer's API
name as words."""

from __future__ import annotations

import re
from collections.abc import Sequence


def names_and(names: Sequence[str]) -> str:
    """ "A", "A and B", "A, B and C"; "nobody" for none."""
    if not names:
        return "nobody"
    if len(names) == 1:
        return names[0]
    return ", ".join(names[:-1]) + " and " + names[-1]


def words_of_choice(ch: str) -> str:
    """A reaction's choice in words: "stand_and_fire" -> "Stand and fire", "all-out" -> "All out"; a hyphen
    between digits or before one is a minus sign and stays ("1,-1", a hex, is not "1, 1")."""
    text = _WORD_HYPHEN.sub(" ", ch.replace("_", " "))
    return text[:1].upper() + text[1:]


def answer_words(ch: object) -> str:
    """An answer as a sentence says it, in lower case: "run_away" -> "run away"."""
    return words_of_choice(str(ch)).lower()


_WORD_HYPHEN = re.compile(r"(?<=[^\W\d])-(?=[^\W\d])")


__all__ = ["answer_words", "names_and", "words_of_choice"]
