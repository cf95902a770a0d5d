"""Where the encounter service gets the ids it makes: encounters, server-made command_ids, read tokens.

`Encounters(ids=...)` (and `make_app(ids=...)`) takes any object with these methods, so a test can
make ids that repeat from run to run (golden streams). Secrets are not ids and never come from here:
tokens and dice seeds are always drawn from `secrets`.
"""

from __future__ import annotations

import itertools
import secrets


class RandomIds:
    """The server's ids: random, so no one can derive an encounter's id from what a client sent."""

    def encounter(self) -> str:
        return secrets.token_hex(8)

    def command(self) -> str:
        """A command_id for a command the client sent without one."""
        return f"srv-{secrets.token_hex(12)}"

    def read_token(self) -> str:
        return secrets.token_hex(6)


class CountingIds(RandomIds):
    """Ids that are the same on every run: `<prefix>e1`, `srv-<prefix>1`, ... (tests only)."""

    def __init__(self, prefix: str = "t"):
        self.prefix = prefix
        self._n = itertools.count(1)

    def encounter(self) -> str:
        return f"{self.prefix}e{next(self._n)}"

    def command(self) -> str:
        return f"srv-{self.prefix}{next(self._n)}"

    def read_token(self) -> str:
        return f"{self.prefix}r{next(self._n)}"
