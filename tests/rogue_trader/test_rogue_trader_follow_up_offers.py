"""§Follow-Ups at the page: the winning unit's models are told "your unit must follow up or try to hold"
(acting_now, the your_turn notice), and are offered both. Played at a phone, the offers were empty there:
`follow_up`'s `choice` is free text in the command's schema, so the generic offers found nothing to list."""

from __future__ import annotations

from rt_support import red_charges_blue


def _follow_ups(state: dict, model: str) -> dict[str, dict]:
    return {o["title"]: o for o in state["offers"][model] if o["type"] == "rogue-trader.follow_up"}


async def _after_the_push_back(tussle):
    """E7's round (red wins), blue pushed back: red owes its follow-up. The encounter, its state, and a
    model of red that acting_now tells to follow up or hold."""
    enc = await red_charges_blue(tussle, m1={"Ld": 8}, m2={"Ld": 8})
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    await enc.ok("rogue-trader.push_back", unit="B")
    state = await enc.state()
    owed = [a["combatant"] for a in state["acting_now"] if "follow up" in a["why"]]
    assert owed, state["acting_now"]
    return enc, state, owed[0]


async def test_the_winners_are_offered_to_follow_up_or_try_to_hold_and_each_is_accepted(tussle):
    enc, state, model = await _after_the_push_back(tussle)
    offers = _follow_ups(state, model)
    assert set(offers) == {"Follow up", "Try to hold (a Ld test)"}, offers
    hold = offers["Try to hold (a Ld test)"]
    assert hold["choices"] == [] and hold["fields"] == {"unit": "R", "choice": "hold"}
    body = await enc.ok(hold["type"], **hold["fields"], dice=[[3, 4]])  # 7 <= Ld 8: it holds
    assert any(e["type"] == "DieRolled" for e in body["events"])
    assert not _follow_ups(await enc.state(), model)  # owed no more
    await enc.replay_matches_live()


async def test_following_up_from_the_offer(tussle):
    enc, state, model = await _after_the_push_back(tussle)
    follow = _follow_ups(state, model)["Follow up"]
    await enc.ok(follow["type"], **follow["fields"])
    assert not _follow_ups(await enc.state(), model)
