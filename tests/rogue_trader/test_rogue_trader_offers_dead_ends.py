"""Figures told to act (acting_now, the your_turn notice) with nothing offered, found by random walks over
the offers from the golden fights: a stray told "may move" (its ordinary move was left out, since it must
move towards its unit, which no region says), and a Catachan Devil told "fights" whose tail reaches only one
trooper and its bite only the other ("every attack at" either was refused: every attack must be allocated)."""

from __future__ import annotations

from rt_support import at, cultist, encounter, marine

from rules.plane import base_gap
from rules.rogue_trader.acting import _acts
from tests.rules.test_offers_accepted import refusal
from tests.rules.test_offers_issue29 import _at


async def test_a_stray_told_to_move_is_offered_the_points_towards_its_unit(tussle):
    enc = await encounter(
        tussle,
        [marine("m1", 0, 0, unit="R", leader=True), marine("m2", 4.4, 0, unit="R"), cultist("c1", 30, 30)],
    )
    await enc.ok("start_phase", phase="shooting")  # m2 is found 3.4" from its unit: a stray
    await enc.ok("start_turn", turn=3)
    await enc.ok("start_phase", phase="movement")
    state = await enc.state()
    assert any(a["combatant"] == "m2" for a in state["acting_now"]), state["acting_now"]
    (move,) = [o for o in state["offers"]["m2"] if o["type"] == "move"]
    assert move["title"] == "Move towards M1 (a stray rejoins its unit)", move["title"]
    (to,) = move["choices"]
    assert [o["title"] for o in to["options"]][:3] == ['1" towards M1', '2" towards M1', '3" towards M1']
    before = base_gap(state["combatants"]["m2"]["position"], 50, state["combatants"]["m1"]["position"], 50)
    await enc.ok("move", combatant="m2", to=to["options"][-1]["value"])
    after = (await enc.state())["combatants"]["m2"]["position"]
    assert base_gap(after, 50, state["combatants"]["m1"]["position"], 50) < before
    assert after != at(4.4, 0)


def test_a_devil_whose_attacks_reach_different_troopers_is_offered_an_allocation_of_all_of_them():
    state, rt = _at("rogue-trader-manual-devil", 21)
    titles = {o["title"]: o for o in rt.offers(state, "dv") if o["type"] == "rogue-trader.allocate_attacks"}
    assert set(titles) == {"Every attack it can at T1 (tail at T2)", "Every attack it can at T2 (bite at T1)"}
    for o in titles.values():
        assert refusal(state, rt, {"type": o["type"], **o["fields"]}, "gm") is None


def test_a_model_of_the_side_not_in_turn_waiting_only_for_its_round_is_not_told_to_act():
    # Found the same way: T1 (blue) told "T1 fights" in red's turn with nothing to click, since the active
    # side's models resolve the round (authority.command_actors) and T1 had nothing left to allocate.
    state, _ = _at("rogue-trader-manual-devil", 21)  # blue's turn: the Devil is red
    assert not _acts(state, "dv", ["rogue-trader.resolve_round"])
    assert _acts(state, "t1", ["rogue-trader.resolve_round"])
    assert _acts(state, "dv", ["rogue-trader.allocate_attacks", "rogue-trader.resolve_round"])
