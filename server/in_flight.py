"""Commands decided while the encounter's previous commands are still being committed.

An encounter's commands are decided one at a time (its lock), each on the state its predecessor left.
Waiting for the predecessor's commit as well — its group commit and fsync, a few milliseconds — kept
an encounter to one command per group commit, so each fsync carried at most one command per busy
encounter. A sole writer (SQLite holding its lock file) knows every append before it lands, so the
next command can be decided on the state after the commands in flight and join the next group
commit while they land.

Nothing is promised on that state, and nobody reads it but the next decision: readers, the live feed
and the listing still see only what was committed, in commit order. Should a command in flight not
land as decided (a resend the store answers with the stored events, a conflict, an error), the
commands decided after it fail their expected-seq check in the store and are decided again on what
did land; a command that a state ahead would refuse waits for the commit and is decided again, so
that no refusal rests on commands that might not land. Commands after which the next one must wait
(`state_after` None) are those whose effects live beside the events (a seed rotation, a close) or
that change what earlier events mean (a void); seats and tokens are decided on committed state.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import Any


class DecidedAhead(Exception):
    """The command was decided on commands in flight that did not land as decided: decide it again."""


class _Stream:
    def __init__(self) -> None:
        self.landings: list[asyncio.Future[Any]] = []
        # The state after the landings, made on first use: most commands are not followed by another
        # of their encounter before they land, so most of these are never needed.
        self.make_state: Callable[[], dict[str, Any]] | None = None
        self.state: dict[str, Any] | None = None


class InFlight:
    """Per encounter: the landings of the commands in flight, in append order, and the state after them."""

    def __init__(self) -> None:
        self._streams: dict[str, _Stream] = {}

    def state_after(self, stream: str) -> dict[str, Any] | None:
        """The state to decide the next command on, when it may be decided before the commands in
        flight land; None when there are none, or when the next command must wait for them."""
        s = self._streams.get(stream)
        if s is None:
            return None
        if s.make_state is not None:
            s.state, s.make_state = s.make_state(), None
        return s.state

    def last(self, stream: str) -> asyncio.Future[Any] | None:
        """The landing of the stream's latest command in flight, if any."""
        s = self._streams.get(stream)
        return s.landings[-1] if s is not None and s.landings else None

    async def landed(self, stream: str) -> None:
        """Wait until every command of the stream in flight has landed (committed or failed)."""
        while (s := self._streams.get(stream)) is not None and s.landings:
            await asyncio.wait(list(s.landings))

    def add(self, stream: str, landing: asyncio.Future[Any],
            state_after: Callable[[], dict[str, Any]] | None) -> None:
        """A command was appended: `landing` completes when it has landed; `state_after` makes the
        state the next command may be decided on (None: the next waits for the landings)."""
        s = self._streams.setdefault(stream, _Stream())
        s.landings.append(landing)
        s.state, s.make_state = None, state_after
        landing.add_done_callback(lambda done: self._landed(stream, done))

    def invalidate(self, stream: str) -> None:
        """A command did not land as decided: the next command waits for the rest to land."""
        s = self._streams.get(stream)
        if s is not None:
            s.state = s.make_state = None

    def _landed(self, stream: str, done: asyncio.Future[Any]) -> None:
        s = self._streams.get(stream)
        if s is None:
            return
        if done in s.landings:
            s.landings.remove(done)
        if not s.landings:
            del self._streams[stream]
