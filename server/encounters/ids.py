"""Where the encounter service gets what it makes up: the ids (encounters, server-made command_ids, read
tokens), the dice seeds and the clock (the envelope `ts`, the reaction deadlines' now).

`Encounters(ids=...)` (and `make_app(ids=...)`) takes any object with these methods, so a test can
make streams that repeat byte for byte from run to run (tests/golden/). Bearer tokens never come
from here: they are always drawn from `secrets`.
"""

from __future__ import annotations

import hashlib
import itertools
import secrets

from events.dice import new_seed
from events.envelope import timestamp


class RandomIds:
    """The server's ids: random, so no one can derive an encounter's id from what a client sent."""

    def encounter(self) -> str:
        return secrets.token_hex(8)

    def command(self) -> str:
        """A command_id for a command the client sent without one."""
        return f"srv-{secrets.token_hex(12)}"

    def read_token(self) -> str:
        return secrets.token_hex(6)

    def seed(self) -> bytes:
        """A fresh secret dice seed (DESIGN.md "Dice")."""
        return new_seed()

    def now(self) -> str:
        """The time now, as envelope `ts` text."""
        return timestamp()


class CountingIds(RandomIds):
    """Ids that are the same on every run: `<prefix>e1`, `srv-<prefix>1`, ... (tests only)."""

    def __init__(self, prefix: str = "t", instant: str = "2026-01-01T00:00:00.000000Z"):
        self.prefix = prefix
        self.instant = instant
        self._n = itertools.count(1)
        self._seeds = itertools.count(1)  # apart, so the ids count as they did before seeds came from here

    def encounter(self) -> str:
        return f"{self.prefix}e{next(self._n)}"

    def command(self) -> str:
        return f"srv-{self.prefix}{next(self._n)}"

    def read_token(self) -> str:
        return f"{self.prefix}r{next(self._n)}"

    def seed(self) -> bytes:
        """Seeds that repeat: known to anyone reading this file, so never outside tests."""
        return hashlib.sha256(f"{self.prefix}-seed-{next(self._seeds)}".encode()).digest()

    def now(self) -> str:
        """One fixed instant: how often the server reads its clock (a poll each second) must not
        change what a run stores."""
        return self.instant
