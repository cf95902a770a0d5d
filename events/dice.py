"""Committed, reproducible dice (DESIGN.md "Dice") and the manual dice of API.md "Dice sources".

A ruleset draws only through a `Dice` object: `dice.roll(count, sides, purpose)` gives a `Roll`
whose `event(...)` builds the `DieRolled` that explains it. The faces of a server roll are derived
from the committed seed and inputs the client chose, so anyone holding the revealed seed can redo them.
"""

from __future__ import annotations

import functools
import hashlib
import json
import re
import secrets
from typing import Any

import msgspec

ENTROPY_PATTERN = re.compile(r"[A-Za-z0-9_.:=+/-]{0,128}\Z")  # \Z: "$" would let a trailing newline in
WEAK_ENTROPY_BELOW = 16


def new_seed() -> bytes:
    """A fresh 32-byte secret dice seed."""
    return secrets.token_bytes(32)


def commitment_of(seed: bytes) -> str:
    """The public commitment to a seed: sha256(seed) in hex."""
    return hashlib.sha256(seed).hexdigest()


def is_commitment(text: object) -> bool:
    """Whether `text` is written as a commitment (or a chain hash) is: 64 lowercase hex."""
    return isinstance(text, str) and len(text) == 64 and all(ch in "0123456789abcdef" for ch in text)


# The message is json.dumps([...], separators=(",", ":")) written out: json quotes every string
# with this function and writes every int with int.__repr__, so the bytes are the same, without an
# encoder walking a list for every die.
_quoted = json.encoder.encode_basestring_ascii


_IPAD = bytes(b ^ 0x36 for b in range(256))  # byte -> byte XOR the HMAC pads, for bytes.translate
_OPAD = bytes(b ^ 0x5C for b in range(256))


@functools.lru_cache(maxsize=1024)
def _hmac_pads(seed: bytes) -> tuple[Any, Any]:
    """HMAC-SHA256 (RFC 2104) keyed by `seed`, made once per seed: the SHA-256 states after the inner
    and the outer key pad, which every die of the seed continues from copies of. hmac.new or
    hmac.digest would set up the same for every die, which took most of a roll's time."""
    key = (seed if len(seed) <= 64 else hashlib.sha256(seed).digest()).ljust(64, b"\0")
    return hashlib.sha256(key.translate(_IPAD)), hashlib.sha256(key.translate(_OPAD))


def derive_face(seed: bytes, stream: str, command_id: str, draw: int, sides: int, entropy: str) -> int:
    """The face of one draw, by HMAC-SHA256 with rejection of the biased top of the range."""
    limit = (2**64 // sides) * sides
    inner_pad, outer_pad = _hmac_pads(seed)
    attempt = 0
    while True:
        msg = (
            f'["tussle-dice-v1",{_quoted(stream)},{_quoted(command_id)},{int.__repr__(draw)},'
            f"{int.__repr__(sides)},{int.__repr__(attempt)},{_quoted(entropy)}]"
        ).encode()
        inner, outer = inner_pad.copy(), outer_pad.copy()
        inner.update(msg)
        outer.update(inner.digest())
        u = int.from_bytes(outer.digest()[:8], "big")  # HMAC-SHA256(seed, msg)
        if u < limit:
            return u % sides + 1
        attempt += 1


class Modifier(msgspec.Struct, frozen=True):
    """One adjustment to a roll or its target, with the rule that causes it."""

    value: int
    reason: str


class DieRolled(msgspec.Struct, frozen=True):
    """A roll, explained: faces, each modifier with its reason, total, target and outcome."""

    purpose: str
    notation: str
    sides: int
    faces: list[int]
    draws: list[int]
    kept: list[int]
    entropy: str
    keyed_by: str
    modifiers: list[Modifier]
    total: int
    target: int | None
    outcome: str
    source: str
    combatant: str | None = None
    margin: int | None = None  # target - total for roll-under systems (GURPS), when the rules use it
    # The command whose command_id and entropy key the faces (DESIGN.md "Dice"): the resolution's last
    # command sent by a seat, else the one that started it. Absent in streams written before it
    # existed: then the envelope's command_id.
    keyed_command_id: str | None = None


class DiceNeeded(Exception):
    """A manual-dice command lacks faces its rules draw (422 `dice_needed`)."""

    def __init__(self, needed: list[str], rolls: list[tuple[int, int, str, str | None]] | None = None):
        super().__init__("the command needs dice: " + "; ".join(needed))
        self.needed = needed
        # (count, sides, purpose, combatant) of each roll in `needed`, so the server can say whose roll
        # it is and what for, by name (API.md: "1d6: troll's HTH defense roll").
        self.rolls = rolls or []


class BadDice(Exception):
    """Supplied faces that do not fit (400, naming the roll)."""

    def __init__(self, message: str, field: str = "dice"):
        super().__init__(message)
        self.field = field


class Roll(msgspec.Struct, frozen=True):
    """The raw result of one call to `Dice.roll`."""

    count: int
    sides: int
    purpose: str
    faces: list[int]
    draws: list[int]
    entropy: str
    keyed_by: str
    source: str
    combatant: str | None = None
    keyed_command_id: str | None = None

    @property
    def notation(self) -> str:
        return f"{self.count}d{self.sides}"

    @property
    def sum(self) -> int:
        return sum(self.faces)

    def event(
        self,
        *,
        modifiers: list[Modifier] | None = None,
        total: int | None = None,
        target: int | None = None,
        outcome: str = "",
        kept: list[int] | None = None,
        notation: str | None = None,
        margin: int | None = None,
    ) -> DieRolled:
        """The `DieRolled` for this roll; `total` defaults to the kept faces plus the modifiers."""
        modifiers = modifiers or []
        kept = list(range(len(self.faces))) if kept is None else kept
        if total is None:
            total = sum(self.faces[i] for i in kept) + sum(m.value for m in modifiers)
        return DieRolled(
            purpose=self.purpose,
            notation=notation or self.notation,
            sides=self.sides,
            faces=list(self.faces),
            draws=list(self.draws),
            kept=kept,
            entropy=self.entropy,
            keyed_by=self.keyed_by,
            modifiers=modifiers,
            total=total,
            target=target,
            outcome=outcome,
            source=self.source,
            combatant=self.combatant,
            margin=margin,
            keyed_command_id=self.keyed_command_id,
        )


class Dice:
    """The only way a ruleset draws dice while deciding one command.

    Server faces come from the seed; manual faces from the command's `dice` list, one inner list per
    `roll` call, in draw order. `draw` counts every die drawn under the keying command, from 0: a
    command keys its own dice unless the pipeline `rekey`s them to the resolution it continues.
    """

    def __init__(
        self,
        *,
        stream: str,
        command_id: str,
        entropy: str = "",
        keyed_by: str = "client",
        seed: bytes | None = None,
        supplied: list[list[int]] | None = None,
        max_dice: int = 10_000,
    ):
        self.stream = stream
        self.command_id = command_id
        self.entropy = entropy
        self.keyed_by = keyed_by
        self.seed = seed
        self.supplied = supplied
        self.next_draw = 0
        self.first_draw = 0  # where this command's own draws began (max_dice counts only those)
        self.calls = 0
        self.max_dice = max_dice
        self._asked: list[str] = []
        self._rolls: list[tuple[int, int, str, str | None]] = []

    @property
    def manual(self) -> bool:
        return self.supplied is not None

    def roll(self, count: int, sides: int, purpose: str, combatant: str | None = None) -> Roll:
        """Draw `count` dice of `sides` faces for `purpose`."""
        if count < 0 or sides < 1:
            raise ValueError(f"cannot roll {count}d{sides}")
        if self.next_draw - self.first_draw + count > self.max_dice:
            raise BadDice(f"the command would draw more than {self.max_dice} dice")
        label = f"{count}d{sides}: {purpose}"
        draws = list(range(self.next_draw, self.next_draw + count))
        if self.supplied is not None:
            self._asked.append(label)
            self._rolls.append((count, sides, purpose, combatant))
            if self.calls >= len(self.supplied):
                raise DiceNeeded(list(self._asked), list(self._rolls))
            faces = self.supplied[self.calls]
            field = f"dice[{self.calls}]"
            if not isinstance(faces, list) or len(faces) != count:
                raise BadDice(f"{field} should hold {count} faces for {label}, not {faces!r}", field)
            for f in faces:
                if not isinstance(f, int) or isinstance(f, bool) or not 1 <= f <= sides:
                    raise BadDice(f"{field}: face {f!r} does not fit {label} (1..{sides})", field)
            source = "manual"
            faces = list(faces)
        else:
            if self.seed is None:
                raise DiceNeeded([label], [(count, sides, purpose, combatant)])
            faces = [
                derive_face(self.seed, self.stream, self.command_id, d, sides, self.entropy) for d in draws
            ]
            source = "server"
        self.calls += 1
        self.next_draw += count
        return Roll(
            count,
            sides,
            purpose,
            faces,
            draws,
            self.entropy,
            self.keyed_by if source == "server" else "manual",
            source,
            combatant,
            self.command_id,
        )

    def rekey(self, command_id: str, entropy: str, keyed_by: str, next_draw: int) -> None:
        """Key the dice drawn from now on by an earlier command of the same resolution, its draw counter
        continuing at `next_draw` (past every draw already stored under it)."""
        self.command_id, self.entropy, self.keyed_by = command_id, entropy, keyed_by
        self.next_draw = self.first_draw = next_draw

    def mark(self) -> tuple[int, int, int]:
        """A point to rewind to if what was drawn after it is thrown away (nothing was appended)."""
        return (self.next_draw, self.calls, len(self._asked))

    def rewind(self, mark: tuple[int, int, int]) -> None:
        """Forget the draws made since `mark`, so they are drawn again, identically, by whatever follows."""
        self.next_draw, self.calls = mark[0], mark[1]
        del self._asked[mark[2] :]

    def check_all_used(self) -> None:
        """Unused trailing manual rolls are a 400 naming the first one."""
        if self.supplied is not None and self.calls < len(self.supplied):
            raise BadDice(
                f"dice[{self.calls}] was supplied but the rules drew only {self.calls} roll(s)",
                f"dice[{self.calls}]",
            )


def valid_entropy(entropy: Any) -> bool:
    """Entropy is 0-128 characters of [A-Za-z0-9_.:=+/-]."""
    return isinstance(entropy, str) and bool(ENTROPY_PATTERN.match(entropy))
