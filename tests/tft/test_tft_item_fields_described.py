"""Issue 29 item 11: every item field a tft decider reads is described in GET /rulesets/tft and the guide; the
scan fails when a decider reads an item field (`item.get("…")`, `w.get("…")` …) nobody described."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).parents[2]
ITEM_READ = re.compile(r"\b(?:item|it|i|w|weapon|shield|s)\.get\(\"([a-z_]+)\"")
NOT_ITEMS = {
    "item",
    "pins",
}  # a weapon dict's `item` (hth_weapon's result) and the state's pins, not item fields


async def test_every_item_field_a_decider_reads_is_described(tussle):
    read = {
        k for p in (ROOT / "rules/tft").glob("*.py") for k in ITEM_READ.findall(p.read_text())
    } - NOT_ITEMS
    detail = (await tussle.request("GET", "/rulesets/tft")).body
    described = {f["name"] for f in detail["item_fields"]}
    assert read <= described, f"item fields read but not described: {sorted(read - described)}"
    assert {"dagger_list", "hth_damage", "hth_dx_mod", "hth_usable", "stops", "state"} <= described
    guide = (ROOT / "docs/playing/tft.md").read_text()
    for f in described:
        assert f"- `{f}` — " in guide.split("## Item fields", 1)[1], f
