"""Offers served (issue 27 item 2): GET /state and the websocket's state frames carry every combatant's
offers and the GM's; GET /me the token's own (the GM's: every combatant and "gm")."""

from __future__ import annotations

from tests.support.ws import frame, subscribe
from tests.tft.helpers import BROADSWORD, fig


async def test_state_me_and_the_websocket_carry_the_offers(tussle):
    enc = await tussle.create("tft")
    await enc.add(fig("rolf", "a", 12, 12, [0, 0], items=[BROADSWORD]))
    await enc.add(fig("troll", "b", 16, 10, [1, 0]))
    seat = await enc.seat("Alice", ["rolf"])
    await enc.ok("start_turn")
    st = await enc.state()
    assert set(st["offers"]) == {"rolf", "troll", "gm"}
    gm_types = [o["type"] for o in st["offers"]["gm"]]
    assert "start_phase" in gm_types, st["offers"]["gm"]
    for o in st["offers"]["rolf"]:
        assert o["type"] in st["legal_actions"]["rolf"] and o["title"] and "." not in o["title"]
        assert set(o) == {"id", "type", "title", "fields", "choices", "reaction"}
    me = (await enc.get("/me", token=seat)).body
    assert set(me["offers"]) == {"rolf"} and me["offers"]["rolf"] == st["offers"]["rolf"]
    gm = (await enc.get("/me")).body
    assert set(gm["offers"]) == {"rolf", "troll", "gm"}
    ws = await subscribe(enc, "state", after=0)
    snap = await frame(ws)
    assert snap["data"]["offers"] == st["offers"]
    await ws.close()


async def test_a_command_of_several_events_carries_the_offers_in_its_last_frame(tussle):
    """The state frames of one command's events: the last carries the offers (those of GET /state), the
    ones before it none, with `offers_at` naming the seq whose frame has them."""
    enc = await tussle.create("tft")
    await enc.add(fig("rolf", "a", 12, 12, [0, 0], items=[BROADSWORD]))
    await enc.add(fig("troll", "b", 16, 10, [1, 0]))
    await enc.ok("start_turn")
    await enc.ok("start_phase", phase="movement")
    ws = await subscribe(enc, "state", after=0)
    snap = await frame(ws)
    assert (await frame(ws))["type"] == "caught_up"
    await enc.ok("start_phase", phase="action")  # PhaseStarted, then InitiativeSet
    head = (await enc.state())["seq"]
    assert head - snap["seq"] > 1, "start_phase should append several events"
    frames = [await frame(ws) for _ in range(head - snap["seq"])]
    assert [f["seq"] for f in frames] == list(range(snap["seq"] + 1, head + 1))
    for f in frames[:-1]:
        assert f["offers_at"] == head and "offers" not in f["data"] and f["data"]["legal_actions"] is not None
    assert "offers_at" not in frames[-1]
    assert frames[-1]["data"]["offers"] == (await enc.state())["offers"]
    await ws.close()
