"""A button's custom_id holds indexes (docs/discord.md "The commands"): seq, figure, offer, the options
picked, a page. Read with a bare `int`, "-1" was Python's last item, so a click on `o:<seq>:0:-1:` sent
the figure's last offer and `o:<seq>:0:0:-2` a move to the second-to-last hex, commands no button of
Tussle's named; and a page that was no number failed the server ("The server failed on this
(ValueError)"). Each is now refused, to the clicker only, as a button that is not Tussle's or does not
match the offers, and nothing is sent.

Against a live server whose Discord API is a local receiver, the interactions signed as Discord signs
them (tests/support/discord_interactions.py)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tests.support.discord_interactions import Table, discord_table
from tests.tft.helpers import fig

REFUSED = ("Not done: this button is not one of Tussle's", "Not sent: this button does not match")


@pytest.fixture
async def table(tmp_path) -> AsyncIterator[Table]:
    async with discord_table(str(tmp_path / "tussle.db")) as t:
        yield t


async def test_a_custom_id_with_no_index_of_the_offers_sends_nothing(table: Table):
    tussle = table.tussle
    enc = await tussle.create("tft")
    await enc.add(fig("rolf", "a", 12, 12, [0, 0], 0, ma=10))
    await enc.add(fig("ogre", "b", 12, 11, [3, 0], 3, ma=10))
    seat = await enc.seat("Alice", ["rolf"])
    await table.bind_and_link(enc, seat)
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    seq = (await enc.state())["seq"]
    offers = (await tussle.request("GET", enc.path + "/me", token=seat)).body["offers"]["rolf"]
    assert offers[0]["type"] == "tft.move" and len(offers) > 1  # Move (a hex to choose) and more

    for custom_id, values in (
        (f"o:{seq}:0:-1:", None),  # "the last offer"
        (f"o:{seq}:-1:0:", None),  # "the last figure"
        (f"o:{seq}:0:0:-2", None),  # "the second-to-last destination"
        (f"o:{seq}:0:0:", ["-1"]),  # the same from the menu
        (f"o:{seq}:0:0:", ["+1"]),
        (f"o:{seq}:0:0: 1", None),
        (f"o:{seq}:0:0:1_0", None),
    ):
        _, answer = await table.click(custom_id, values=values)
        assert answer["type"] == 4 and answer["data"]["flags"] == 64, (custom_id, values, answer)
        assert answer["data"]["content"].startswith(REFUSED), (custom_id, values, answer)
        assert (await enc.state())["seq"] == seq, f"{custom_id} {values} sent a command"

    for custom_id in (f"m:{seq}:0:0::x", f"m:{seq}:0:0::-1", f"t:{seq}:-1", f"o:+{seq}:0:0:"):
        _, answer = await table.click(custom_id)
        assert answer["type"] == 4 and "is not one of Tussle's" in answer["data"]["content"], (
            custom_id,
            answer,
        )
    assert (await enc.state())["seq"] == seq

    # The buttons Tussle made still work: the Move menu's first destination is sent.
    _, answer = await table.click(f"o:{seq}:0:0:")
    assert answer["type"] == 7 and "Where to move" in answer["data"]["content"]
    _, answer = await table.click(f"o:{seq}:0:0:", values=["0"])
    assert answer["type"] == 7 and answer["data"]["content"].startswith("Sent."), answer
    assert (await enc.state())["seq"] > seq
