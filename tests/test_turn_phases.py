"""A new turn starts in no phase (issue 29 item 1, the shared cause): the common fold of `TurnStarted`
clears `phase`, for every ruleset, so the GM starts the turn's first phase (`start_phase`) as the guides say."""

from __future__ import annotations

import pytest


@pytest.mark.parametrize(
    ("ruleset", "phase"), [("freeform", "fight"), ("tft", "action"), ("rogue-trader", "end")]
)
async def test_the_gm_sends_start_turn_then_start_phase_with_each_phase_in_order(tussle, ruleset, phase):
    enc = await tussle.create(ruleset, dice="manual")
    await enc.ok("start_turn", turn=1)
    if ruleset != "freeform":
        for p in (await tussle.request("GET", f"/rulesets/{ruleset}")).body["phases"]:
            await enc.ok("start_phase", phase=p)
            if p == phase:
                break
    else:
        await enc.ok("start_phase", phase=phase)
    assert (await enc.state())["phase"] == phase
    started = await enc.ok("start_turn", turn=2)
    now = await enc.state()
    assert (now["turn"], now["phase"]) == (2, None)
    at_turn = await enc.state(at=started["events"][-1]["seq"])
    assert (at_turn["turn"], at_turn["phase"]) == (2, None)
    await enc.replay_matches_live()
