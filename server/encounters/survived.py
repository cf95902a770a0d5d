"""Errors the server survives, never hidden: each is logged with structlog (the event says where, with
the encounter and the exception) and counted by where for GET /metrics
(`tussle_errors_survived_total{where=...}`), so an operator sees a background failure that no request
reports."""

from __future__ import annotations

import asyncio
import contextlib
from collections import defaultdict

import structlog

# The places that survive an error, each an event name of the log and a label of the counter.
REACTION_SWEEP = "reaction_sweep_failed"
SNAPSHOT_SAVE = "snapshot_save_failed"
ACTING_NOTICES = "acting_notices_failed"
WEBHOOK_DISABLE = "webhook_disable_not_recorded"
FIREHOSE_READ = "firehose_read_failed"
PLACES = (REACTION_SWEEP, SNAPSHOT_SAVE, ACTING_NOTICES, WEBHOOK_DISABLE, FIREHOSE_READ)


class Survived:
    """One per app: what it survived, by where."""

    def __init__(self) -> None:
        self.counts: dict[str, int] = defaultdict(int)

    def record(self, where: str, exc: BaseException, encounter: str | None = None) -> None:
        self.counts[where] += 1
        # A logger got now, not kept: it follows the logging set up at the time (the CLI's, a test's capture).
        structlog.get_logger("tussle").error(where, encounter=encounter, exc_info=exc)

    def metric_lines(self) -> list[str]:
        lines = [
            "# HELP tussle_errors_survived_total Errors a background part of the server logged and went on after.",
            "# TYPE tussle_errors_survived_total counter",
        ]
        lines += [f'tussle_errors_survived_total{{where="{w}"}} {self.counts[w]}' for w in PLACES]
        return lines


async def stopped(task: asyncio.Task[object]) -> None:
    """Cancel a background task and wait until it has ended, as a cleanup context must."""
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task
