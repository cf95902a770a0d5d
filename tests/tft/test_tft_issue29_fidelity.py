"""Issue 29 (rules fidelity, round 3), tft: each test is named after the seed clause (or the guide's sentence)
it plays, through the HTTP API."""

from __future__ import annotations

from tests.tft.helpers import brawl, refused, types


async def test_the_gm_sends_start_turn_then_start_phase_with_each_phase_in_order(tussle):
    # Turn 1: a1 got into HTH with the prone b1 (his action); b1 passes. Turn 2 begins in no phase.
    enc = await brawl(tussle)
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("start_turn", turn=2)
    st = await enc.state()
    assert st["phase"] is None
    (now,) = st["acting_now"]
    assert (now["combatant"], now["asked_of"]) == (None, "gm")
    assert "the GM starts its movement phase (start_phase movement)" in now["why"]
    assert st["legal_actions"] == {c: ["tft.consent_hth", "tft.set_hth_preferences"] for c in ("a1", "b1")}
    # Action commands before the action phase are refused for everyone, the GM included.
    seat = await enc.seat("a1's player", ["a1"])
    for token in (None, seat):
        await refused(
            enc,
            "tft.hth_attack",
            "actions are taken in the action phase",
            "start_phase movement",
            token=token,
            combatant="a1",
            target="b1",
            weapon="fist",
        )
    await refused(enc, "tft.pass", "turn 2 is in no phase yet", combatant="b1")
    await refused(enc, "tft.move", "figures move in the movement phase", combatant="a1", path=[[2, 0]])
    # In the movement phase the refusal names the next step, the action phase.
    await enc.ok("start_phase", phase="movement")
    await refused(enc, "tft.pass", "the GM starts the action phase (start_phase action)", combatant="b1")
    await enc.replay_matches_live()


async def test_the_gms_force_skips_the_movement_phase_and_actions_follow(tussle):
    enc = await brawl(tussle)
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="action", force=True)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="fist", dice=[[1, 1, 1], [1]])
    assert "DieRolled" in types(b)
    await enc.replay_matches_live()
