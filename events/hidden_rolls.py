"""The GM's hidden rolls, "behind the screen", and how anyone checks them afterwards (docs/verifying.md).

Each encounter with server dice commits at creation to a second seed, the hidden seed
(`EncounterCreated.hidden_commitment = sha256(hidden_seed)`), revealed only at close: `rotate_seed` of
the ordinary seed never exposes it. A hidden roll's faces are the ordinary derivation (events/dice.py)
under the hidden seed, keyed by the roll's own command_id and entropy, draws 0, 1, 2 … across the
expression's terms. Its salt is derived from the hidden seed too, so nothing else is kept secret:

    salt       = HMAC-SHA256(hidden_seed, ["tussle-hidden-salt-v1", stream, command_id, entropy]).hex()
    commitment = sha256(canonical({"faces": faces, "salt": salt})).hex()   faces: one list per dice term

The chain holds only the commitment (`HiddenRollMade`); `HiddenRollRevealed` later gives faces and salt,
which must hash to it, and once the hidden seed is revealed they must be what the seed derives.
"""

from __future__ import annotations

import hashlib
import hmac

from events.canonical import canonical
from events.dice import Dice
from events.dice_expressions import Expression, parse_recorded, roll_expression

SALT_LABEL = "tussle-hidden-salt-v1"


def salt_of(seed: bytes, stream: str, command_id: str, entropy: str) -> str:
    """The salt a hidden roll's faces are committed with: unguessable without the hidden seed."""
    return hmac.new(seed, canonical([SALT_LABEL, stream, command_id, entropy]), hashlib.sha256).hexdigest()


def roll_commitment(faces: list[list[int]], salt: str) -> str:
    """sha256 of the canonical JSON {"faces": faces, "salt": salt}, in hex."""
    return hashlib.sha256(canonical({"faces": faces, "salt": salt})).hexdigest()


def hidden_faces(
    seed: bytes, stream: str, command_id: str, entropy: str, expression: str | Expression
) -> list[list[int]]:
    """The faces of each dice term of `expression` under the hidden seed."""
    expr = parse_recorded(expression) if isinstance(expression, str) else expression
    dice = Dice(stream=stream, command_id=command_id, entropy=entropy, seed=seed)
    return [r.faces for r in roll_expression(expr, dice, "hidden")]


def total_of(expression: str, faces: list[list[int]]) -> int:
    """The expression's total for these faces (keep-highest/lowest and the constant applied); ValueError
    when the faces do not fit its terms."""
    expr = parse_recorded(expression)
    if len(faces) != len(expr.terms):
        raise ValueError(f"{expression} has {len(expr.terms)} dice term(s), not {len(faces)}")
    for term, group in zip(expr.terms, faces, strict=True):
        if len(group) != term.count or any(not isinstance(f, int) or not 1 <= f <= term.sides for f in group):
            raise ValueError(f"{group} are not {term.count} faces of a d{term.sides}")
    return sum(
        r.total for r in roll_expression(expr, Dice(stream="", command_id="", supplied=faces), "hidden")
    )


def shown(faces: list[list[int]], total: int) -> str:
    """The faces as a reader sees them: 4+2+6 = 12."""
    return f"{'+'.join(str(f) for group in faces for f in group)} = {total}"


__all__ = ["SALT_LABEL", "hidden_faces", "roll_commitment", "salt_of", "shown", "total_of"]
