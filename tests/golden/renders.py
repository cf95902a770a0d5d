"""What a stream renders to, read by the projections alone: the state view, the log, the audit and
the verification report (tests/golden/frozen/: every later version must render old streams the same)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import msgspec

from events.envelope import Event
from projections.audit import audit
from projections.log import build_log
from projections.view import state_view
from rules.registry import Registry
from rules.state import replay
from server.audit.verifying import verify_events

REGISTRY = Registry.discover()


def read_stream(path: Path) -> list[Event]:
    return [msgspec.json.decode(line, type=Event) for line in path.read_bytes().splitlines() if line]


def renders(events: list[Event]) -> dict[str, Any]:
    def ruleset_for(e: Event) -> Any:
        return REGISTRY.get(e.data["ruleset"])

    ruleset = ruleset_for(events[0])
    return msgspec.to_builtins(
        {
            # Offers are advice read from the state (tests/rules/test_offers.py holds them to the rules),
            # not what an old stream rendered to: they grow with the rulesets' offers.py.
            "state": state_view(replay(events, ruleset_for), ruleset, with_offers=False),
            "log": build_log(events, ruleset_for).entries,
            "audit": audit(events),
            "verify": verify_events(events),
        }
    )
