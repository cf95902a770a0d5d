"""`tussle serve` with every event-loop step over a threshold of CPU written down with the await points it
ran between: which code held the loop, not only that something did (issue 32 item 2).

    python bench/step_probe.py OUT_FILE THRESHOLD_MS serve --db PATH --port N ...

Each line of OUT_FILE is one step: its CPU ms (the loop thread's clock, so other work on the machine
does not inflate it), the task's coroutine stack where the step began and where it ended (an empty end:
the task finished in that step, so the time went to what followed its last await, freeing included), and
each garbage collection over 3 ms. It runs asyncio's pure-Python Task, whose step can be watched; that
makes every step a little slower, so the figures are for finding causes, not for the record — bench/
stalls.py's own figures come from the server's loop probe. `python bench/stalls.py --steps` uses it.
"""

from __future__ import annotations

import asyncio
import asyncio.events
import asyncio.tasks
import gc
import os
import sys
import time
from typing import Any

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def await_points(task: Any) -> str:
    """The innermost four frames of the task's coroutine chain, outermost first."""
    if task is None:
        return "?"
    coro, frames = task.get_coro(), []
    while coro is not None:
        frame = (
            getattr(coro, "cr_frame", None)
            or getattr(coro, "ag_frame", None)
            or getattr(coro, "gi_frame", None)
        )
        if frame is None:
            break
        frames.append(f"{frame.f_code.co_filename.split('/')[-1]}:{frame.f_code.co_name}:{frame.f_lineno}")
        coro = (
            getattr(coro, "cr_await", None)
            or getattr(coro, "ag_await", None)
            or getattr(coro, "gi_yieldfrom", None)
        )
    return " > ".join(frames[-4:])


def install(out_path: str, threshold_s: float) -> None:
    out = open(out_path, "w", buffering=1)  # noqa: SIM115 - open for the life of the process
    step: dict[str, str] = {}
    asyncio.tasks.Task = asyncio.tasks._PyTask  # type: ignore[attr-defined, misc]
    enter, leave = asyncio.tasks._enter_task, asyncio.tasks._leave_task

    def entering(loop: Any, task: Any) -> None:
        step["from"] = await_points(task)
        enter(loop, task)

    def leaving(loop: Any, task: Any) -> None:
        step["to"] = await_points(task)
        leave(loop, task)

    asyncio.tasks._enter_task, asyncio.tasks._leave_task = entering, leaving  # type: ignore[assignment]
    run = asyncio.events.Handle._run

    def timed(handle: asyncio.events.Handle) -> None:
        step.clear()
        started = time.thread_time()
        run(handle)
        cpu = time.thread_time() - started
        if cpu > threshold_s:
            where = f"from {step['from']} to {step.get('to', '?')}" if "from" in step else repr(handle)[:160]
            out.write(f"{cpu * 1e3:.1f} ms step {where}\n")

    asyncio.events.Handle._run = timed  # type: ignore[method-assign]
    collecting = [0.0]

    def on_gc(phase: str, info: dict[str, Any]) -> None:
        if phase == "start":
            collecting[0] = time.thread_time()
        elif (cpu := time.thread_time() - collecting[0]) > 0.003:
            out.write(f"{cpu * 1e3:.1f} ms gc generation {info['generation']}\n")

    gc.callbacks.append(on_gc)


if __name__ == "__main__":
    install(sys.argv[1], float(sys.argv[2]) / 1000)
    from server.cli import main

    sys.argv = ["tussle", *sys.argv[3:]]
    main()
