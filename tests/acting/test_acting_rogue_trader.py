"""Whose turn it is in Rogue Trader (spec §1: sides alternate player turns; movement, shooting, close combat,
end), through HTTP: the side whose turn it is charges in its movement phase, every model in contact fights in
the close combat phase whichever side owns the turn, and the GM moves the turn on between."""

from __future__ import annotations

from tests.acting.acting_support import acting, me, who_acts


def _model(cid: str, side: str, x: int, facing: int, **extra) -> dict:
    stats = {
        "M": 4,
        "WS": 4,
        "BS": 4,
        "S": 4,
        "T": 4,
        "W": 1,
        "I": 4,
        "A": 1,
        "Ld": 8,
        "save": 4,
        "unit": cid,
        "weapons": [{"id": "chainsword", "name": "chainsword", "type": "C", "S": 4}],
    }
    return {
        "id": cid,
        "name": cid.upper(),
        "side": side,
        "stats": stats,
        "position": [x, 0],
        "facing": facing,
        **extra,
    }


async def test_rogue_trader_the_active_side_charges_and_everyone_in_contact_fights(tussle):
    enc = await tussle.create("rogue-trader", options={"turn_order": ["red", "blue"]}, dice="manual")
    await enc.add(_model("m1", "red", 0, 0))
    await enc.add(_model("c1", "blue", 300, 180, reactions={"charged": "hold"}))
    red = await enc.seat("Red", ["m1"])
    blue = await enc.seat("Blue", ["c1"])
    [gm] = await acting(enc)
    assert gm["combatant"] is None and "start_turn" in gm["why"]

    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    [charger] = await acting(enc)
    assert (
        charger["combatant"] == "m1"
        and charger["why"] == "M1 may move or charge: it is side red's movement phase"
    )
    assert charger["until"] == {"kind": "phase", "text": "until the GM starts the shooting phase"}
    assert (await me(enc, red))["your_turn"] is True
    other = await me(enc, blue)
    assert other["your_turn"] is False and other["legal_actions"] == {"c1": []}
    assert other["next_slot"]["c1"] == (
        "C1 fights in any close combat phase while in base contact; side blue's next "
        "movement phase is in turn 2"
    )

    r = await enc.command("rogue-trader.charge", token=red, combatant="m1", target="c1")
    assert r.status == 201, r.body
    [gm] = await acting(enc)  # m1 charged: nothing more of red's may charge or break off
    assert gm["combatant"] is None and "shooting phase" in gm["why"]
    assert (
        "is in contact and fights in this turn's close combat phase"
        in (await me(enc, blue))["next_slot"]["c1"]
    )
    await enc.ok("start_phase", phase="shooting")
    assert "outside this chapter" in (await acting(enc))[0]["why"]
    await enc.ok("start_phase", phase="close_combat")
    fighters = await acting(enc)
    assert [e["combatant"] for e in fighters] == ["m1", "c1"]
    assert all("whichever side owns the turn" in e["why"] for e in fighters)
    assert (await me(enc, blue))["your_turn"] is True


async def test_rogue_trader_the_other_sides_turn_is_its_own(tussle):
    enc = await tussle.create("rogue-trader", options={"turn_order": ["red", "blue"]}, dice="manual")
    await enc.add(_model("m1", "red", 0, 0))
    await enc.add(_model("c1", "blue", 2000, 180))
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    assert await who_acts(enc) == ["c1"]
