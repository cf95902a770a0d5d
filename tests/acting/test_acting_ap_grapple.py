"""Whose turn it is in AP grappling (spec 4, 4.1), through HTTP: anyone with AP left in arrival order, or
under `strict_initiative` the first in the order with AP left; a new round when all have spent or passed."""

from __future__ import annotations

from tests.acting.acting_support import acting, me, who_acts

ALDO = {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "ap_per_round": 5, "hp": 10}
BERK = {"weight_lb": 180, "strength": 12, "thac0": 18, "ac": 6, "hp": 9}


def _fighter(cid: str, side: str, stats: dict, at: list[int]) -> dict:
    return {"id": cid, "name": cid.title(), "side": side, "stats": stats, "position": at, "facing": 0}


async def _fight(tussle, **options):
    enc = await tussle.create("ap-grapple", options=options, dice="manual")
    await enc.add(_fighter("aldo", "a", ALDO, [0, 0]))
    await enc.add(_fighter("berk", "b", BERK, [1, 0]))
    return enc, await enc.seat("Aldo's player", ["aldo"]), await enc.seat("Berk's player", ["berk"])


async def test_ap_grapple_strict_initiative_names_the_first_with_ap_left(tussle):
    enc, aldo, berk = await _fight(tussle, strict_initiative=True)
    [gm] = await acting(enc)
    assert gm["combatant"] is None and "round 1" in gm["why"]
    await enc.ok("start_turn")
    [gm] = await acting(enc)
    assert "set_initiative" in gm["why"]
    await enc.ok("set_initiative", order=["berk", "aldo"])

    [first] = await acting(enc)
    assert first["combatant"] == "berk" and "first in the initiative order with AP left" in first["why"]
    assert first["until"]["kind"] == "action"
    assert (await me(enc, berk))["your_turn"] is True
    waiting = await me(enc, aldo)
    assert waiting["your_turn"] is False and waiting["legal_actions"]["aldo"] == []
    assert waiting["next_slot"]["aldo"] == "Aldo is 2nd of those still to act this turn, after Berk"

    r = await enc.command("ap-grapple.pass", token=berk, combatant="berk")
    assert r.status == 201, r.body
    assert await who_acts(enc) == ["aldo"]
    assert "Berk has spent all AP this round; round 2 brings" in (await me(enc, berk))["next_slot"]["berk"]

    r = await enc.command("ap-grapple.pass", token=aldo, combatant="aldo")
    assert r.status == 201, r.body
    state = await enc.state()
    assert state["turn"] == 2  # the server's own round start (4.1)
    [first] = state["acting_now"]
    assert first["combatant"] == "berk" and "round 2" in first["why"]


async def test_ap_grapple_without_an_order_everyone_with_ap_may_act(tussle):
    enc, aldo, berk = await _fight(tussle)
    await enc.ok("start_turn")
    entries = await acting(enc)
    assert [e["combatant"] for e in entries] == ["aldo", "berk"]
    assert all(
        e["until"]
        == {"kind": "round", "text": "until every combatant has spent or passed their AP and round 2 starts"}
        for e in entries
    )
    assert "5 of 5 AP left in round 1" in entries[0]["why"]
    r = await enc.command("ap-grapple.pass", token=aldo, combatant="aldo")
    assert r.status == 201, r.body
    assert await who_acts(enc) == ["berk"]
    mine = await me(enc, aldo)
    assert mine["your_turn"] is False and mine["acting_now"] == []
    assert (await me(enc, berk))["acting_now"][0]["combatant"] == "berk"
