"""What GET /verify already checked of each encounter (issue 32 item 4): a verifier checkpoint per stream,
so the next check reads and checks only the events after it.

The checkpoints live in memory only, never in the database a forger could edit, and are made again
after a restart: in the worker process that makes the reports of a store it can open itself (where the
next check runs: a checkpoint pickled to the server and back would cost more than a few new events), in
the app's `VERIFIED_PREFIXES` for a store checked in the server's process. Only the most recently
verified encounters keep one (`CAPACITY`, `EVENTS_KEPT`). A write to the database by anyone but this
server (the store's `external_writes_marker` moved) drops them all: what they vouch for may have been
rewritten. On a database other processes legitimately append to (PostgreSQL) the store cannot tell: a
resumed check reads the event at its checkpoint's seq again, so a stream rewritten up to there (its hashes
made anew) is found as a head this server kept, but an edit of older rows that leaves that event alone is
found only by a full check (`?full=1`, `tussle verify`).
"""

from __future__ import annotations

import secrets
from collections import OrderedDict

from aiohttp import web

from events.envelope import Event
from server.audit.verifying import Checkpoint

# How many encounters keep a checkpoint, and how many events their checkpoints may cover in all: one of a
# 100,000-event encounter holds its commitments, a draw count per keying command and the rolls still
# waiting for their seed (every roll, where the seed never rotated: some 10 MB).
CAPACITY = 256
EVENTS_KEPT = 1_000_000


class VerifiedPrefixes:
    """The checkpoints of the encounters verified lately, the least recently verified dropped first."""

    def __init__(self, capacity: int = CAPACITY, events_kept: int = EVENTS_KEPT) -> None:
        self.capacity = capacity
        self.events_kept = events_kept
        self._kept: OrderedDict[str, Checkpoint] = OrderedDict()
        # Names these prefixes to the worker, which keeps the checkpoints of the reports it makes apart for
        # each app it serves: another app of the process (a server restarted in it) starts with none.
        self.owner = secrets.token_hex(8)
        self.marker: int | None = None  # the store's external writes marker the checkpoints were made under

    def __len__(self) -> int:
        return len(self._kept)

    def seen(self, marker: int | None) -> None:
        """The store's marker now: moved, someone else wrote, and no checkpoint holds any more."""
        if marker != self.marker:
            self._kept.clear()
            self.marker = marker

    def resumable(
        self,
        stream: str,
        marker: int | None,
        full: bool,
        head_seq: int,
        kept: list[tuple[int, str, str]],
        discord_keys: list[str] | None,
    ) -> Checkpoint | None:
        """The checkpoint to resume the stream's check from, or None for a check of the whole stream:
        asked for (`full`), none kept, someone else wrote (`marker` moved), the stream is shorter than
        what was checked, the Discord keys changed, or a head the client kept is inside the verified
        prefix (whose hashes a checkpoint does not hold). Removed until `keep` puts the one the check
        left back: a check that fails midway leaves none half-resumed, and two at once never share one."""
        self.seen(marker)
        checkpoint = self._kept.pop(stream, None)
        if (
            checkpoint is None
            or full
            or checkpoint.seq > head_seq
            or checkpoint.discord.keys != discord_keys
            or any(seq < checkpoint.seq for seq, _, _ in kept)
        ):
            return None
        return checkpoint

    def keep(self, stream: str, checkpoint: Checkpoint, marker: int | None) -> None:
        """Keep the checkpoint a check left, if it was made under the marker still current."""
        if marker != self.marker:
            return
        self._kept[stream] = checkpoint
        self._kept.move_to_end(stream)
        while (
            len(self._kept) > self.capacity or sum(c.events for c in self._kept.values()) > self.events_kept
        ):
            self._kept.popitem(last=False)


# Who kept the head a checkpoint names, as a report says it ("seq 12: this server's last check says hash ...").
LAST_CHECK = "this server's last check"


def past_checkpoint(
    checkpoint: Checkpoint | None, events: list[Event], kept: list[tuple[int, str, str]] | None
) -> tuple[Checkpoint | None, list[Event] | None, list[tuple[int, str, str]] | None]:
    """Where a check goes on from, given `events` read from the checkpoint's seq on: (the checkpoint, the
    events after it, `kept`); or, when the event stored at its seq is not the one it checked (rewritten
    since, hashes and all, by someone the marker did not see), (None, None: read the whole stream, `kept`
    with the checkpoint's head as one kept, `LAST_CHECK`). No checkpoint: the events are the whole stream."""
    if checkpoint is None or checkpoint.seq == 0:
        return checkpoint, events, kept
    if not events or events[0].seq != checkpoint.seq or events[0].hash != checkpoint.hash:
        return None, None, [*(kept or []), (checkpoint.seq, checkpoint.hash, LAST_CHECK)]
    return checkpoint, events[1:], kept


VERIFIED_PREFIXES = web.AppKey("verified_prefixes", VerifiedPrefixes)
