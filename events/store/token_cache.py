"""Live tokens by hash, for a store that hears of every revocation (a sole SQLite writer's own appends;
a PostgreSQL process's notifications): every request looks its token up, and a revocation drops them all."""

from __future__ import annotations

from events.store.port import TokenRow

# Live tokens kept in memory; past this many the cache starts again empty.
TOKEN_CACHE_SIZE = 100_000


class TokenCache:
    """Live tokens by hash, dropped whole on any revocation and never refilled by a lookup that was in
    flight across the drop (the generation moved on)."""

    def __init__(self) -> None:
        self._tokens: dict[str, tuple[str, TokenRow]] = {}
        self.generation = 0  # moves on whenever tokens are dropped

    def get(self, token_hash: str) -> tuple[str, TokenRow] | None:
        return self._tokens.get(token_hash)

    def keep(self, token_hash: str, found: tuple[str, TokenRow], generation: int) -> None:
        """A lookup begun at `generation` found a live token."""
        if generation != self.generation:
            return
        if len(self._tokens) >= TOKEN_CACHE_SIZE:
            self._tokens.clear()
        self._tokens[token_hash] = found

    def drop(self) -> None:
        self._tokens.clear()
        self.generation += 1


__all__ = ["TOKEN_CACHE_SIZE", "TokenCache"]
