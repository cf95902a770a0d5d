"""How long the event loop works between two of its turns, in CPU time (issue 19 item 1's bench).

A task wakes every millisecond and reads its thread's CPU clock: what the thread spent since the last
wake-up is the longest stretch some request held the loop (plus the probe's own few microseconds).
CPU time, not wall time: on a machine whose cores are busy with other work a stretch's wall time grows
with the waiting, its CPU time does not; nor does it count other threads (the SQLite writer) or the
time spent waiting for the GIL. On only when `TUSSLE_LOOP_PROBE` is set (`bench/stalls.py` sets it):
`GET /metrics` then shows the p99 and the longest stretch since the previous scrape. With
`TUSSLE_LOOP_PROBE=trace` the loop also runs in asyncio's debug mode, which logs (as a warning) every
callback or task step that ran longer than 5 ms, naming it: where a stall comes from. The cyclic
garbage collector's pauses are timed too (`gc.callbacks`, in the same CPU clock), so a long stretch can
be ruled in or out as a collection (issue 32 item 2).
"""

from __future__ import annotations

import asyncio
import gc
import time
from collections.abc import AsyncIterator
from typing import Any

from aiohttp import web

from server.encounters.survived import stopped

# With TUSSLE_LOOP_PROBE=trace, steps longer than this are logged by asyncio's debug mode.
TRACED_SLICE_S = 0.005


class LoopProbe:
    def __init__(self) -> None:
        self.slices: list[float] = []
        self.gc_pauses: list[tuple[int, float]] = []  # (generation, CPU seconds) of each collection
        self._gc_started = 0.0

    def on_gc(self, phase: str, info: dict[str, Any]) -> None:
        """A `gc.callbacks` hook: the CPU time of each collection the loop's thread ran."""
        if phase == "start":
            self._gc_started = time.thread_time()
        elif len(self.gc_pauses) < 1_000_000:
            self.gc_pauses.append((info["generation"], time.thread_time() - self._gc_started))

    async def run(self) -> None:
        last = time.thread_time()
        while True:
            await asyncio.sleep(0.001)
            now = time.thread_time()
            self.slices.append(now - last)
            last = now
            if len(self.slices) > 1_000_000:  # a scrape a few minutes apart at most: keep memory bounded
                del self.slices[:500_000]

    def metric_lines(self) -> list[str]:
        xs, self.slices = sorted(self.slices), []
        p99 = xs[int(0.99 * len(xs))] if xs else 0.0
        longest = xs[-1] if xs else 0.0
        pauses, self.gc_pauses = self.gc_pauses, []
        gc_lines = []
        for gen in (0, 1, 2):
            mine = [s for g, s in pauses if g == gen]
            gc_lines += [
                f'tussle_gc_pause_seconds{{generation="{gen}",quantile="1"}} {max(mine, default=0.0):.6f}',
                f'tussle_gc_pause_seconds_count{{generation="{gen}"}} {len(mine)}',
            ]
        return [
            "# HELP tussle_loop_slice_seconds CPU time the event loop's thread spent between two turns of "
            "the probe, since the previous scrape (TUSSLE_LOOP_PROBE).",
            "# TYPE tussle_loop_slice_seconds summary",
            f'tussle_loop_slice_seconds{{quantile="0.99"}} {p99:.6f}',
            f'tussle_loop_slice_seconds{{quantile="1"}} {longest:.6f}',
            f"tussle_loop_slice_seconds_count {len(xs)}",
            "# HELP tussle_gc_pause_seconds CPU time of the cyclic garbage collector's collections, by "
            "generation, since the previous scrape (TUSSLE_LOOP_PROBE).",
            "# TYPE tussle_gc_pause_seconds summary",
            *gc_lines,
        ]


def install(app: web.Application, sections: list, *, trace: bool = False) -> None:
    """Run a probe while the app runs and add its lines to GET /metrics; with `trace`, asyncio's debug
    mode names every slow callback (TUSSLE_LOOP_PROBE=trace)."""
    probe = LoopProbe()
    sections.append(probe.metric_lines)

    async def running(app: web.Application) -> AsyncIterator[None]:
        if trace:
            loop = asyncio.get_running_loop()
            loop.set_debug(True)
            loop.slow_callback_duration = TRACED_SLICE_S
        task = asyncio.create_task(probe.run())
        gc.callbacks.append(probe.on_gc)
        yield
        gc.callbacks.remove(probe.on_gc)
        await stopped(task)

    app.cleanup_ctx.append(running)
