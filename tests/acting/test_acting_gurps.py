"""Whose turn it is in GURPS (spec section 1: one own turn a second, in initiative order), through HTTP: the
next in the order may begin his turn, the running turn lasts until the next figure chooses his maneuver,
and the GM starts the next second when every figure has had his."""

from __future__ import annotations

from tests.acting.acting_support import acting, me, who_acts


def _fig(cid: str, side: str, pos: list[int], dx: int) -> dict:
    return {
        "id": cid,
        "name": cid.capitalize(),
        "side": side,
        "position": pos,
        "facing": 0,
        "posture": "standing",
        "stats": {"ST": 10, "DX": dx, "basic_move": 5, "dodge": 8},
    }


async def test_gurps_own_turns_follow_the_initiative_order(tussle):
    enc = await tussle.create("gurps", dice="manual")
    await enc.add(_fig("ana", "a", [-4, 0], 12))
    await enc.add(_fig("bram", "b", [4, 0], 11))
    ana = await enc.seat("Ana's player", ["ana"])
    bram = await enc.seat("Bram's player", ["bram"])
    assert await who_acts(enc) == [None]

    await enc.ok("start_turn", turn=1)
    assert await who_acts(enc) == ["ana", "bram"]  # no order set: either may take his turn
    await enc.ok("set_initiative", order=["ana", "bram"])
    [first] = await acting(enc)
    assert first["combatant"] == "ana" and "next in the initiative order" in first["why"]
    assert first["until"] == {"kind": "turn", "text": "until the GM starts the next turn"}
    waiting = await me(enc, bram)
    assert waiting["your_turn"] is False
    assert waiting["next_slot"]["bram"] == "Bram is 2nd of those still to act this turn, after Ana"
    assert "gurps.choose_maneuver" in waiting["legal_actions"]["bram"]  # out of order stays possible

    r = await enc.command("gurps.choose_maneuver", token=ana, combatant="ana", maneuver="move")
    assert r.status == 201, r.body
    running, following = await acting(enc)
    assert (
        running["combatant"] == "ana"
        and running["why"] == "Ana's own turn is running: Ana chose move, 5 hexes of movement left"
    )
    assert running["until"]["kind"] == "action"
    assert following["combatant"] == "bram" and "which ends Ana's" in following["why"]
    assert (await me(enc, bram))["your_turn"] is True

    r = await enc.command("gurps.choose_maneuver", token=bram, combatant="bram", maneuver="attack")
    assert r.status == 201, r.body
    assert await who_acts(enc) == ["bram"]
    assert "has had a turn this second" in (await me(enc, ana))["next_slot"]["ana"]
    r = await enc.command("gurps.move", token=bram, combatant="bram", path=[[3, 0]])
    assert r.status == 201, r.body
    [gm] = await acting(enc)  # a step taken, no foe in reach: nothing is left of Bram's turn
    assert gm["combatant"] is None and "start_turn" in gm["why"]
    await enc.ok("start_turn", turn=2)
    assert await who_acts(enc) == ["ana"]
