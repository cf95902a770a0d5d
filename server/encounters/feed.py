"""In-process fan-out of appended events to subscribers (websockets, projections)."""

from __future__ import annotations

import asyncio
from collections import defaultdict
from collections.abc import Callable
from typing import Any

from events.envelope import Event

# (events, the state after each or None): the states where the appending process folded them already.
Listener = Callable[[list[Event], list[dict[str, Any]] | None], None]
EveryListener = Callable[[str, list[Event]], None]


class LiveFeed:
    """Per-encounter listeners called synchronously, in append order, right after a commit."""

    def __init__(self) -> None:
        self._listeners: dict[str, set[Listener]] = defaultdict(set)
        # Told of every publish, whether or not anyone listens to its stream (the metrics count events).
        self._observers: list[Callable[[str, list[Event]], None]] = []
        self._every: set[EveryListener] = set()  # of every stream (the firehose, server/live/firehose.py)
        self.lock = asyncio.Lock()

    def observe(self, observer: Callable[[str, list[Event]], None]) -> None:
        """Call `observer(stream, events)` on every publish: each committed event is published once."""
        self._observers.append(observer)

    def subscribe(self, stream: str, listener: Listener) -> Callable[[], None]:
        """Start receiving a stream's new events; returns the unsubscribe function."""
        self._listeners[stream].add(listener)

        def unsubscribe() -> None:
            self._listeners[stream].discard(listener)
            if not self._listeners[stream]:
                self._listeners.pop(stream, None)

        return unsubscribe

    def subscribe_every(self, listener: EveryListener) -> Callable[[], None]:
        """Start receiving every stream's new events, as (stream, events), as someone who needs them (unlike
        an observer, it keeps the feed from being idle); returns the unsubscribe function."""
        self._every.add(listener)
        return lambda: self._every.discard(listener)

    def publish(self, stream: str, events: list[Event], states: list[dict[str, Any]] | None = None) -> None:
        for observer in self._observers:
            observer(stream, events)
        for listener in list(self._listeners.get(stream, ())):
            listener(events, states)
        for every in list(self._every):
            every(stream, events)

    def idle(self) -> bool:
        """No listener on any stream: nothing published now would reach anyone."""
        return not self._listeners and not self._every

    def count(self) -> int:
        return sum(len(v) for v in self._listeners.values())
