"""The encounter service's memory of encounters: bounded, least recently used first out (issue 19 item 4).

Per encounter it keeps the folded state, the commitments published (GET /encounters/{id}), the lock
that serializes its commands in this process and its dice seeds. An encounter is evicted whole, and
only when nothing is at work on it: no request inside the service for it (`using`), its lock free.
When every encounter is at work the cache holds more than its capacity for a while rather than evict
one; the next insertion brings it back down.
Everything evicted is read again from the store on next use (from a snapshot: server/encounters/snapshots.py).
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict
from collections.abc import Callable
from typing import Any

# Encounters kept by default (`tussle serve --cache-encounters`): at about 10 KB each, 10 MB.
DEFAULT_CAPACITY = 1000


class _InUse:
    """The context of `EncounterCache.using`: a class, not a @contextmanager generator, as every command
    enters one (a generator-based one costs several times as much to make and enter)."""

    __slots__ = ("cache", "entry", "stream")

    def __init__(self, cache: EncounterCache, stream: str):
        self.cache = cache
        self.stream = stream

    def __enter__(self) -> None:
        self.entry = self.cache._entry(self.stream)
        self.entry.users += 1

    def __exit__(self, *exc: object) -> None:
        self.entry.users -= 1


class _Entry:
    __slots__ = ("state", "commitments", "skipped", "lock", "seeds", "users")

    def __init__(self) -> None:
        self.state: dict[str, Any] | None = None
        self.commitments: list[str] = []
        self.skipped: list[int] = []  # the seqs the state's fold skipped (voided)
        self.lock: asyncio.Lock | None = None
        self.seeds: dict[str, bytes] = {}
        self.users = 0


class EncounterCache:
    """States, commitments, locks and seeds by encounter, at most `capacity` encounters."""

    def __init__(
        self,
        capacity: int = DEFAULT_CAPACITY,
        on_evict: Callable[[str], None] = lambda stream: None,
    ):
        if capacity < 1:
            raise ValueError("the cache must hold at least one encounter")
        self.capacity = capacity
        self.on_evict = on_evict
        self.evictions = 0
        self._entries: OrderedDict[str, _Entry] = OrderedDict()

    def __len__(self) -> int:
        return len(self._entries)

    def loaded(self) -> int:
        """Encounters whose state is in memory."""
        return sum(1 for e in self._entries.values() if e.state is not None)

    def _entry(self, stream: str) -> _Entry:
        entry = self._entries.get(stream)
        if entry is None:
            entry = self._entries[stream] = _Entry()
            self._shrink()
        else:
            self._entries.move_to_end(stream)
        return entry

    def _shrink(self) -> None:
        over = len(self._entries) - self.capacity
        if over <= 0:
            return
        for stream in list(self._entries)[:-1]:  # never the one just added
            if over <= 0:
                break
            e = self._entries[stream]
            if e.users or (e.lock is not None and e.lock.locked()):
                continue
            del self._entries[stream]
            self.evictions += 1
            over -= 1
            self.on_evict(stream)

    def using(self, stream: str) -> _InUse:
        """`with cache.using(stream):` the encounter is at work inside the block: it is not evicted meanwhile."""
        return _InUse(self, stream)

    def lock(self, stream: str) -> asyncio.Lock:
        entry = self._entry(stream)
        if entry.lock is None:
            entry.lock = asyncio.Lock()
        return entry.lock

    def state(self, stream: str) -> dict[str, Any] | None:
        entry = self._entries.get(stream)
        if entry is None:
            return None
        self._entries.move_to_end(stream)
        return entry.state

    def commitments(self, stream: str) -> list[str]:
        entry = self._entries.get(stream)
        return entry.commitments if entry is not None else []

    def skipped(self, stream: str) -> list[int]:
        entry = self._entries.get(stream)
        return entry.skipped if entry is not None else []

    def put(
        self,
        stream: str,
        state: dict[str, Any],
        commitments: list[str] | None = None,
        skipped: list[int] | None = None,
    ) -> None:
        """Keep the state (and, when given, the commitments published up to it and the seqs it skipped)."""
        entry = self._entry(stream)
        entry.state = state
        if commitments is not None:
            entry.commitments = commitments
        if skipped is not None:
            entry.skipped = skipped

    def drop_state(self, stream: str) -> None:
        """Forget the state (it is read again on next use); the lock stays while it is held."""
        entry = self._entries.get(stream)
        if entry is None:
            return
        entry.state = None
        entry.commitments = []
        entry.skipped = []
        if not entry.users and (entry.lock is None or not entry.lock.locked()):
            del self._entries[stream]

    def seed(self, stream: str, commitment: str) -> bytes | None:
        entry = self._entries.get(stream)
        return entry.seeds.get(commitment) if entry is not None else None

    def put_seed(self, stream: str, commitment: str, seed: bytes) -> None:
        self._entry(stream).seeds[commitment] = seed

    def metric_lines(self) -> list[str]:
        """Prometheus families of the cache (GET /metrics, beside tussle_state_cache_encounters)."""
        return [
            "# HELP tussle_state_cache_capacity Encounters the state cache holds at most (--cache-encounters).",
            "# TYPE tussle_state_cache_capacity gauge",
            f"tussle_state_cache_capacity {self.capacity}",
            "# HELP tussle_state_cache_evictions_total Encounters evicted from the state cache, least recently "
            "used first.",
            "# TYPE tussle_state_cache_evictions_total counter",
            f"tussle_state_cache_evictions_total {self.evictions}",
        ]
