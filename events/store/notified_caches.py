"""Caches of a store shared by several processes, kept current by notifications of every commit.

On PostgreSQL every append transaction NOTIFYs "stream X is at seq N" (and "its tokens changed" when
it revoked some; a deletion says so too), and each server process's feed listener hears every one of
them (server/live/pg_listener.py). While that listener is connected (`live`), this process can trust:

- **live tokens** by hash, dropped on any revocation or deletion it hears of (its own before their
  caller hears of the commit, other processes' when their notification arrives), and never refilled
  by a lookup that was in flight across such a drop (the generation moved on);
- **heads**: the highest seq heard of per stream; a cached state at that seq needs no read of the
  tail, and with it neither does the listing row.

What a notification cannot give is "at once": between another process's commit and its notification
(well under a millisecond on one host) this process may still see the old head or token. So the
append checks both again inside its transaction: a revoked token never writes, and a command decided
on a stale head is a clean `SeqConflict`, decided again on fresh state (never a fork).

Whenever the listener loses its connection, notifications may be lost: everything is dropped and
nothing is trusted until it has LISTENed again (`went_live`), so a gap costs reads, never staleness.
"""

from __future__ import annotations

from events.store.port import TokenRow
from events.store.token_cache import TokenCache


class NotifiedCaches:
    """Token and head caches, trusted only while `live` (a listener hears every commit)."""

    def __init__(self) -> None:
        self.live = False
        self.generation = 0  # moves on whenever what was cached is thrown away
        self._tokens = TokenCache()
        self._heads: dict[str, int] = {}

    # ---- the listener's side -------------------------------------------------------------

    def went_live(self) -> None:
        """The listener LISTENs (again): from now on every commit is heard of; what came before is not."""
        self.drop_all()
        self.live = True

    def went_deaf(self) -> None:
        """The listener lost its connection: notifications may be lost from here on."""
        self.live = False
        self.drop_all()

    def heard(self, stream: str | None, seq: int | None, tokens: bool = False, deleted: bool = False) -> None:
        """A commit (of any process) moved `stream` to `seq`, revoked tokens or deleted the stream."""
        if tokens or deleted:
            self.drop_tokens()
        if stream is None:
            return
        if deleted:
            self._heads.pop(stream, None)
        elif isinstance(seq, int) and seq > self._heads.get(stream, -1):
            self._heads[stream] = seq

    # ---- heads -------------------------------------------------------------------------------

    def head_known(self, stream: str, seq: int) -> bool:
        known = self._heads.get(stream)
        return self.live and known is not None and seq >= known

    def saw_head(self, stream: str, seq: int, generation: int) -> None:
        """A read begun at `generation` found `stream` at `seq` (a notification of a later commit, if any,
        has moved or will move the head further)."""
        if self.live and generation == self.generation and seq > self._heads.get(stream, -1):
            self._heads[stream] = seq

    # ---- tokens ------------------------------------------------------------------------------

    def token(self, token_hash: str) -> tuple[str, TokenRow] | None:
        return self._tokens.get(token_hash) if self.live else None

    def token_generation(self) -> int:
        return self._tokens.generation

    def keep_token(self, token_hash: str, found: tuple[str, TokenRow], generation: int) -> None:
        """A lookup begun at token generation `generation` found a live token."""
        if self.live:
            self._tokens.keep(token_hash, found, generation)

    def drop_tokens(self) -> None:
        self._tokens.drop()

    def drop_all(self) -> None:
        """Forget every token and head (a LISTEN began or ended, or a notification made no sense)."""
        self.drop_tokens()
        self._heads.clear()
        self.generation += 1
