"""Offers as Discord components within Discord's limits (issue 31 item 2): more offers than 25 buttons,
long titles, a choice of more than 25 options and optional choices, page by page."""

from __future__ import annotations

from typing import Any

from rules.offers import choice, offer, option
from server.discord.components import choice_view, turn_view, walk
from tests.support.receivers import discord_message_problems

STATE: dict[str, Any] = {
    "stream": "s",
    "name": "Big",
    "seq": 41,
    "turn": 2,
    "phase": None,
    "pending": [],
    "combatants": {"ana": {"name": "Ana " + "the Long-Named " * 8}, "bo": {"name": "Bo"}},
}


def _ids(message: dict[str, Any]) -> list[str]:
    return [c["custom_id"] for row in message["components"] for c in row["components"]]


def test_forty_offers_page_by_page_and_every_one_reachable():
    offers = {
        "ana": [offer(f"o{i}", "note", "A very long offer title " * 6 + str(i)) for i in range(30)],
        "bo": [offer(f"b{i}", "note", f"Bo's {i}") for i in range(10)],
    }
    seen, page = [], 0
    while True:
        view = turn_view(STATE, offers, ["ana", "bo"], "text", page)
        assert discord_message_problems(view) == []
        ids = _ids(view)
        seen += [i for i in ids if i.startswith("o:41:")]
        more = [i for i in ids if i.startswith("t:") and i != "t:41:0"]
        if not more:
            break
        page = int(more[0].split(":")[2])
    assert sorted(seen) == sorted({f"o:41:{f}:{o}:" for f, n in ((0, 30), (1, 10)) for o in range(n)})


def test_a_choice_of_sixty_options_and_an_optional_one():
    hexes = [option([i, -i], f"to {i},{-i} " + "far away " * 12) for i in range(60)]
    weapons = choice(
        "weapon", "With what", "enum", [option("axe", "Axe"), option("fist", "Fist")], required=False
    )
    off = offer(
        "move", "tft.move", "Move", {"combatant": "ana"}, [choice("to", "Where to", "hex", hexes), weapons]
    )
    pages = [choice_view(STATE, off, "41:0:0", [], p) for p in range(3)]
    for view in pages:
        assert view is not None and discord_message_problems(view) == []
    shown = [
        o["value"]
        for view in pages
        for row in view["components"]
        for c in row["components"]
        for o in c.get("options", [])
    ]
    assert sorted(shown, key=int) == [str(i) for i in range(60)], "every option on some page"
    assert "m:41:0:0::1" in _ids(pages[0]) and "m:41:0:0::0" in _ids(pages[2])
    then = choice_view(STATE, off, "41:0:0", ["59"])
    assert then is not None and {"o:41:0:0:59.0", "o:41:0:0:59.-"} <= set(_ids(then))
    assert walk(off, ["59", "-"]) == ({"type": "tft.move", "combatant": "ana", "to": [59, -59]}, [])
    assert walk(off, ["3", "1"])[0]["weapon"] == "fist"
