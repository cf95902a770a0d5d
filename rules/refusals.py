"""Refusing a command: the one way every ruleset says no (a 422 `rule_violation` a player reads).

Two shapes, both raising `RuleError`:
- `require(condition, message)` for one condition;
- `refuse(problems, what)` for the `<verb>_problems(state, ...) -> list[str]` style: each problems
  function lists every failed condition as a clause ("Brenna has already moved"), so that
  `legal.py` can reuse it (an action is legal when its list is empty) and a refusal names all of
  them at once: "Brenna cannot grab: she is stunned; Gorbag is not adjacent".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from rules.interface import RuleError


def require(condition: Any, message: str, details: dict[str, Any] | None = None) -> None:
    """Raise `RuleError(message)` unless `condition` holds."""
    if not condition:
        raise RuleError(message, details)


def refusal(problems: Sequence[str], what: str | None = None) -> str:
    """The sentence naming every problem, after `what` (the action refused) when given, with its full stop."""
    text = "; ".join(problems)
    text = f"{what}: {text}" if what else text
    return text if text.endswith((".", "!", "?")) else text + "."


def refuse(problems: Sequence[str], what: str | None = None, details: dict[str, Any] | None = None) -> None:
    """Raise one `RuleError` naming every problem (nothing when the list is empty); its details carry
    the list as `problems`, beside what `details` adds (the combatant, the target)."""
    if problems:
        raise RuleError(refusal(problems, what), {**(details or {}), "problems": list(problems)})
