"""Whose turn it is in TFT (4.0), through HTTP: movers in the movement phase, the head of the DX order in
the action phase, the GM between phases, and /me for the player whose figure acts and for the other seat."""

from __future__ import annotations

from tests.acting.acting_support import acting, me, who_acts
from tests.tft.helpers import simeth, troll


async def test_tft_whose_turn_follows_phases_and_the_dx_order(tussle):
    enc = await tussle.create("tft", dice="manual")
    await enc.add(simeth())
    await enc.add(troll())
    simeth_seat = await enc.seat("Simeth's player", ["simeth"])
    troll_seat = await enc.seat("Troll's player", ["troll"])

    [gm] = await acting(enc)
    assert (gm["combatant"], gm["asked_of"]) == (None, "gm") and "start_turn" in gm["why"]
    mine = await me(enc, simeth_seat)
    assert mine["your_turn"] is False and mine["acting_now"] == []
    assert "movement phase" in mine["next_slot"]["simeth"]
    assert (await me(enc, enc.gm_token))["your_turn"] is True

    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    movers = await acting(enc)
    assert [e["combatant"] for e in movers] == ["simeth", "troll"]
    assert all(e["until"]["kind"] == "phase" and "movement phase" in e["why"] for e in movers)
    mine = await me(enc, simeth_seat)
    assert mine["your_turn"] is True and [e["combatant"] for e in mine["acting_now"]] == ["simeth"]
    assert mine["next_slot"] == {"simeth": None}
    assert "tft.move" in mine["legal_actions"]["simeth"]
    assert (await me(enc, enc.gm_token))["your_turn"] is False  # the players move; nothing is the GM's

    r = await enc.command("tft.move", token=simeth_seat, combatant="simeth", path=[[1, 0]])
    assert r.status == 201, r.body
    await enc.ok("start_phase", phase="action")
    [head] = await acting(enc)
    assert head["combatant"] == "simeth" and head["asked_of"] != "gm"
    assert head["why"].startswith(
        "Simeth acts: adjusted DX 15 is highest among those not yet acted this turn"
    )
    assert head["until"] == {"kind": "action", "text": "until Simeth takes an action or passes"}
    other = await me(enc, troll_seat)
    assert other["your_turn"] is False and other["acting_now"] == []
    assert other["next_slot"]["troll"] == "Troll is 2nd of those still to act this turn, after Simeth"
    assert other["legal_actions"]["troll"] == [
        "tft.consent_hth",
        "tft.set_hth_preferences",
    ]  # shape unchanged

    # Entering HTH re-sorts the order by HTH DX (4.0): the troll now goes first.
    entered = await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[2]])
    [head] = await acting(enc)
    assert head["combatant"] == "troll" and "HTH attack DX" in head["why"]
    assert (await me(enc, troll_seat))["your_turn"] is True
    assert (await me(enc, simeth_seat))["next_slot"]["simeth"].startswith("Simeth is 2nd")

    await enc.ok("tft.hth_attack", combatant="troll", target="simeth", weapon="bite", dice=[[3, 4, 4], [4]])
    assert await who_acts(enc) == ["simeth"]
    assert "has used this turn's action" in (await me(enc, troll_seat))["next_slot"]["troll"]
    await enc.ok("tft.hth_attack", combatant="simeth", target="troll", weapon="fist", dice=[[5, 3, 2], [6]])
    [gm] = await acting(enc)
    assert gm["combatant"] is None and "start_turn" in gm["why"]

    # Time travel: the state as of an earlier seq says who acted then.
    earlier = await enc.state(at=entered["seq"])
    assert [e["combatant"] for e in earlier["acting_now"]] == ["troll"]
