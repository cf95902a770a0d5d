"""Offers per command: what the websocket hub's state frames of one command cost the loop, in CPU.

    python bench/offers_frames.py            # every golden stream (scripts and frozen), 3 rounds

A state subscriber gets one frame per event; offers (each variant decided through the rules,
rules/offer_checks.py) cost milliseconds per state. For every command of every golden stream this
folds its events and builds the frames' state views two ways in the same run, alternating by round:
`each` (offers in every frame, as before: each seq is a new cache key, so each one is computed) and
`last` (offers only in the frame of the command's last event, as server/live/websocket.Hub does now;
the others carry `offers_at`). The encode is included. It prints, per way, the median and longest CPU
ms per command (the longest is the loop stretch a subscriber's command causes), for commands of
several events, and the ratio of `last` to `each` (the ceiling, measured in the same run).
"""

from __future__ import annotations

import os
import statistics
import sys
import time
from itertools import groupby
from pathlib import Path
from typing import Any

import msgspec

sys.path.insert(0, os.path.dirname(os.path.dirname(os.path.abspath(__file__))))

from projections import view  # noqa: E402
from rules.state import fold_onto, initial_state  # noqa: E402
from tests.golden.renders import REGISTRY, read_stream  # noqa: E402

GOLDEN = Path(__file__).resolve().parents[1] / "tests" / "golden"
_encode = msgspec.json.Encoder().encode


def _ruleset_for(e: Any) -> Any:
    return REGISTRY.get(e.data["ruleset"])


def commands(path: Path) -> list[tuple[dict[str, Any], Any, list[Any]]]:
    """(state before, ruleset, its events) for each command of the stream with several events."""
    events = read_stream(path)
    out = []
    state, ruleset = initial_state(), None
    for _, group in groupby(events, key=lambda e: e.command_id):
        evs = list(group)
        if len(evs) > 1 and ruleset is not None and not any(e.type == "EventVoided" for e in evs):
            out.append((state, ruleset, evs))
        state = fold_onto(state, ruleset, evs, _ruleset_for, set())
        if ruleset is None and state.get("ruleset"):
            ruleset = REGISTRY.get(state["ruleset"])
    return out


def frames(before: dict[str, Any], ruleset: Any, evs: list[Any], last_only: bool) -> float:
    """CPU seconds to fold `evs` onto `before` and build and encode each one's state frame."""
    view._OFFERS.clear()
    t = time.thread_time()
    state = before
    for e in evs:
        state = fold_onto(state, ruleset, [e], _ruleset_for, set())
        offers = not last_only or e is evs[-1]
        msg: dict[str, Any] = {"type": "state", "seq": e.seq}
        if not offers:
            msg["offers_at"] = evs[-1].seq
        msg["data"] = view.state_view(state, ruleset, {}, with_offers=offers)
        _encode(msg)
    return time.thread_time() - t


def main() -> None:
    cmds = [
        c
        for p in sorted([*GOLDEN.glob("scripts/*.jsonl"), *GOLDEN.glob("frozen/*.jsonl")])
        for c in commands(p)
    ]
    sizes = [len(c[2]) for c in cmds]
    print(
        f"{len(cmds)} commands of several events (events each: median {statistics.median(sizes)}, "
        f"max {max(sizes)}); load {os.getloadavg()[0]:.1f}"
    )
    took: dict[str, list[float]] = {"each": [0.0] * len(cmds), "last": [0.0] * len(cmds)}
    rounds = 3
    for r in range(rounds):
        order = ("each", "last") if r % 2 == 0 else ("last", "each")
        for way in order:
            for i, (before, ruleset, evs) in enumerate(cmds):
                took[way][i] += frames(before, ruleset, evs, way == "last") / rounds
    for way in ("each", "last"):
        ms = [t * 1000 for t in took[way]]
        print(
            f"  offers in {way:4} frame: CPU per command median {statistics.median(ms):6.2f} ms, max {max(ms):6.2f} ms, total {sum(ms):7.1f} ms"
        )
    ratio = sum(took["last"]) / sum(took["each"])
    worst = max(took["last"]) / max(took["each"])
    print(f"  last / each: total {ratio:.2f}, longest command {worst:.2f}")


if __name__ == "__main__":
    main()
