"""Issue 29 item 12: `rotate_seed` is the GM's or a player's (DESIGN.md "Dice": "`rotate_seed` (GM or player)"); the
ruleset description, the guide and the permission say the same."""

from __future__ import annotations

from pathlib import Path


async def test_rotate_seed_gm_or_player(tussle):
    enc = await tussle.create("tft")
    await enc.ok(
        "add_combatant",
        combatant={
            "id": "ann",
            "name": "Ann",
            "side": "a",
            "stats": {"st": 10, "adj_dx": 10},
            "position": [0, 0],
        },
    )
    seat = await enc.seat("Ann's player", ["ann"])
    r = await enc.command("rotate_seed", token=seat)
    assert r.status == 201, r.body
    detail = (await tussle.request("GET", "/rulesets/tft")).body
    (cmd,) = [c for c in detail["common_commands"] if c["type"] == "rotate_seed"]
    assert cmd["gm_only"] is False and "GM or player" in cmd["doc"], cmd
    guide = (Path(__file__).parents[1] / "docs/playing/tft.md").read_text()
    (line,) = [x for x in guide.splitlines() if x.startswith("- `rotate_seed`")]
    assert "(GM)" not in line and "GM or player" in line, line
