"""`roll` expressions: NdM, dM, d100, + and - constants, keep highest/lowest (kh/kl)."""

from __future__ import annotations

import functools
import re

import msgspec

from events.dice import Dice, DieRolled, Modifier

MAX_DICE = 100
MIN_SIDES, MAX_SIDES = 2, 1000


class RollLimits(msgspec.Struct, frozen=True):
    """The caps on one `roll` (API.md "Limits"): dice in the expression, and the largest die."""

    max_dice: int = MAX_DICE
    max_sides: int = MAX_SIDES


# API.md's caps: a server passes its own (`tussle serve --max-dice/--max-sides`) in each command's context.
DEFAULT_LIMITS = RollLimits()

# ASCII digits only (`\d` would read "１d６"); a number longer than MAX_DIGITS is refused before int()
# (which refuses thousands of digits with a ValueError): every limit is far below it.
MAX_DIGITS = 12
_TERM = re.compile(r"([+-]?)(?:([0-9]*)d([0-9]+)(?:k([hl])([0-9]+))?|([0-9]+))", re.ASCII)
_LONG_NUMBER = re.compile(f"[0-9]{{{MAX_DIGITS + 1}}}")


def _quoted(text: str, most: int = 40) -> str:
    """`text` quoted for a message, cut short: the message goes back to whoever sent a long one."""
    return repr(text if len(text) <= most else text[:most] + "…")


class BadExpression(ValueError):
    """A roll expression that cannot be rolled, with a sentence saying why."""


class DiceTerm(msgspec.Struct, frozen=True):
    sign: int
    count: int
    sides: int
    keep: str | None
    keep_n: int


class Expression(msgspec.Struct, frozen=True):
    text: str
    terms: tuple[DiceTerm, ...]
    constant: int


# The longest expression the parse cache keeps: a table's own are short, and a long one sent to fill the
# cache with a body's worth of text each would hold that memory.
CACHED_TEXT = 64


def parse(text: str, limits: RollLimits = DEFAULT_LIMITS) -> Expression:
    """Parse a roll expression, enforcing the caps given (API.md's unless the server set its own)."""
    return _parse_cached(text, limits) if len(text) <= CACHED_TEXT else _parse(text, limits)


@functools.lru_cache(maxsize=1024)
def parse_recorded(text: str) -> Expression:
    """Parse an expression a stream already recorded (a hidden roll's, re-derived to reveal or verify it),
    without this server's caps, which may have been wider when it was accepted (but within bounds a
    verifier of a stranger's file can afford)."""
    return _parse(text, RollLimits(max_dice=100_000, max_sides=10**9))


@functools.lru_cache(maxsize=1024)
def _parse_cached(text: str, limits: RollLimits) -> Expression:
    """A table rolls the same few expressions all evening, and an Expression is immutable (a refused
    expression raises every time: exceptions are not cached)."""
    return _parse(text, limits)


def _parse(text: str, limits: RollLimits) -> Expression:
    s = text.replace(" ", "").lower()
    if not s:
        raise BadExpression("the expression is empty")
    if not s.isascii():
        raise BadExpression(
            "write the expression with ASCII digits and letters, e.g. 3d6, d100, 2d6+1, 4d6kh3"
        )
    if _LONG_NUMBER.search(s):
        raise BadExpression(f"a number in a roll expression has at most {MAX_DIGITS} digits")
    pos, terms, constant, total_dice = 0, [], 0, 0
    while pos < len(s):
        m = _TERM.match(s, pos)
        if not m or m.end() == pos or (pos > 0 and not m.group(1)):
            raise BadExpression(
                f"cannot read {_quoted(text)} at {_quoted(s[pos:])}; write e.g. 3d6, d100, 2d6+1, 4d6kh3"
            )
        sign = -1 if m.group(1) == "-" else 1
        if m.group(6) is not None:
            constant += sign * int(m.group(6))
        else:
            count = int(m.group(2)) if m.group(2) else 1
            sides = int(m.group(3))
            if not MIN_SIDES <= sides <= limits.max_sides:
                raise BadExpression(f"dice must have {MIN_SIDES}-{limits.max_sides} sides, not {sides}")
            if count < 1:
                raise BadExpression("roll at least one die")
            keep_n = int(m.group(5)) if m.group(4) else count
            if m.group(4) and not 1 <= keep_n <= count:
                raise BadExpression(f"cannot keep {keep_n} of {count} dice")
            total_dice += count
            terms.append(DiceTerm(sign, count, sides, m.group(4), keep_n))
        pos = m.end()
    if total_dice > limits.max_dice:
        raise BadExpression(f"at most {limits.max_dice} dice in one roll, not {total_dice}")
    if not terms:
        raise BadExpression("the expression rolls no dice")
    if abs(constant) >= 2**40:
        raise BadExpression("the constant is too large")
    return Expression(text, tuple(terms), constant)


def roll_expression(
    expr: Expression, dice: Dice, purpose: str, combatant: str | None = None
) -> list[DieRolled]:
    """One DieRolled per dice term; the constant is a modifier on the last."""
    events: list[DieRolled] = []
    for i, term in enumerate(expr.terms):
        r = dice.roll(term.count, term.sides, purpose, combatant)
        order = sorted(range(len(r.faces)), key=lambda j: r.faces[j], reverse=term.keep == "h")
        kept = sorted(order[: term.keep_n]) if term.keep else list(range(len(r.faces)))
        mods = []
        if i == len(expr.terms) - 1 and expr.constant:
            mods.append(Modifier(expr.constant, "constant in the expression"))
        notation = f"{'-' if term.sign < 0 else ''}{term.count}d{term.sides}"
        if term.keep:
            notation += f"k{term.keep}{term.keep_n}"
        kept_sum = sum(r.faces[j] for j in kept)
        total = term.sign * kept_sum + sum(m.value for m in mods)
        events.append(
            r.event(
                modifiers=mods,
                total=total,
                kept=kept,
                notation=notation,
                outcome=f"{expr.text} = {total}" if len(expr.terms) == 1 else "",
            )
        )
    return events
