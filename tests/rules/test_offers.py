"""The default offers (issue 27 item 2): a ruleset that defines none gets its `legal_actions`, titled from
each command's schema, with the combatant filled and nothing offered that is not legal."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from rules.offers import default_offers
from rules.state import replay
from tests.golden.renders import REGISTRY, read_stream

GOLDEN = Path(__file__).resolve().parents[1] / "golden"


def _ruleset_for(e: Any) -> Any:
    return REGISTRY.get(e.data["ruleset"])


def test_a_ruleset_without_offers_gets_its_legal_actions_titled_from_the_schema():
    events = read_stream(GOLDEN / "scripts" / "tft-manual-troll.jsonl")
    ruleset = _ruleset_for(events[0])
    state = replay(events, _ruleset_for)
    for cid in state["combatants"]:
        offers = default_offers(ruleset, state, cid)
        assert [o["type"] for o in offers if o["type"] != "respond"] == ruleset.legal_actions(state, cid)
        for o in offers:
            assert o["title"] and "." not in o["title"]
            assert all(ch["options"] == [] and "region" not in ch for ch in o["choices"])
            assert o["fields"].get("combatant") == cid or o["type"] == "respond"
