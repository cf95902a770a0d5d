"""Issue 7, Entering and leaving a foe's hex, through the HTTP API: half-hex occupancy with the entry
edge, stopping facing the foe, moving through only by evading, leaving through each of the three
hexes on his side (and never the foe's), steps, no leaving while grappled until free, maneuvers and
turns, the GM's position correction, and the refusals of gurps.move and gurps.choose_maneuver."""

from __future__ import annotations

import pytest

from tests.gurps.gurps_http_scenes import (
    encounter,
    in_close_combat,
    last_request,
    log_text,
    of_type,
    refused,
    replay_equals_live,
    types,
)
from tests.gurps.gurps_world import HAND, fig

OWN_SIDE = [[0, -1], [-1, 0], [-1, 1]]  # Cai came in through edge 3: edges 2, 3, 4 of [0, 0]
FOE_SIDE = [[0, 1], [1, 0], [1, -1]]  # edges 5, 0, 1


async def test_entering_takes_the_near_half_and_stops_facing_the_foe(tussle):
    enc = await encounter(
        tussle, fig("cai", "a", [-3, 0], move=5, facing=3), fig("dun", "b", [0, 0], facing=3)
    )
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    b = await enc.ok("gurps.move", combatant="cai", path=[[-2, 0], [-1, 0], [0, 0]])
    assert types(b) == [
        "Moved",
        "Moved",
        "CloseCombatJoined",
        "HalfHexTaken",
        "HalfHexTaken",
        "FacingChanged",
        "GurpsMovementUsed",
    ]
    assert of_type(b, "HalfHexTaken") == [
        {"combatant": "dun", "hex": [0, 0], "entry_edge": 0, "moved_in": False, "declared_adjacent": False},
        {"combatant": "cai", "hex": [0, 0], "entry_edge": 3, "moved_in": True, "declared_adjacent": False},
    ]
    used = of_type(b, "GurpsMovementUsed")[0]
    assert (used["hexes"], used["left"], used["stopped"]) == (3, 0, True)  # the rest of his Move is lost
    st = await enc.state()
    cai = st["combatants"]["cai"]
    assert (cai["position"], cai["facing"]) == ([0, 0], 0)
    assert st["rules"]["hexes"]["0,0"]["occupants"] == {
        "dun": {"entry_edge": 0, "declared_adjacent": False},
        "cai": {"entry_edge": 3, "declared_adjacent": False},
    }
    assert st["rules"]["fighters"]["cai"]["entered_this_maneuver"] is True
    group = st["groups"][cai["group"]]
    assert sorted(group["combatants"]) == ["cai", "dun"]
    text = await log_text(enc)
    assert "Cai holds the half of [0, 0] toward [-1, 0]." in text
    assert "Dun holds the half of [0, 0] toward [1, 0]." in text
    await refused(enc, "gurps.move", "has 0 left", combatant="cai", path=[[-1, 0]])
    await replay_equals_live(enc)


async def test_a_third_fighter_takes_his_own_half(tussle):
    enc = await in_close_combat(tussle, turns=1)
    await enc.add(fig("eli", "a", [0, 1]))
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="eli", maneuver="attack")
    b = await enc.ok("gurps.move", combatant="eli", path=[[0, 0]])
    assert of_type(b, "HalfHexTaken") == [
        {"combatant": "eli", "hex": [0, 0], "entry_edge": 5, "moved_in": True, "declared_adjacent": False}
    ]
    st = await enc.state()
    assert set(st["rules"]["hexes"]["0,0"]["occupants"]) == {"cai", "dun", "eli"}
    await replay_equals_live(enc)


async def test_moving_through_a_foe_needs_an_evade(tussle):
    enc = await encounter(
        tussle, fig("cai", "a", [-2, 0], move=5), fig("dun", "b", [0, 0]), fig("al", "a", [-2, 1])
    )
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(
        enc,
        "gurps.move",
        "cannot move through Dun's hex at [0, 0] without evading",
        combatant="cai",
        path=[[-1, 0], [0, 0], [1, 0]],
    )
    await refused(enc, "gurps.move", "cannot end the move in Al's hex", combatant="cai", path=[[-2, 1]])


@pytest.mark.parametrize("to", OWN_SIDE)
async def test_leaving_with_a_move_through_each_hex_on_his_side(tussle, to):
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    b = await enc.ok("gurps.move", combatant="cai", path=[to], extra_cost=1)
    assert of_type(b, "Moved")[0] == {
        "combatant": "cai",
        "to": to,
        "reason": "disengage",
        "facing": None,
        "from": [0, 0],
    }
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "move"
    assert of_type(b, "GurpsMovementUsed")[0] == {
        "combatant": "cai",
        "hexes": 1,
        "extra_cost": 1,
        "left": 3,
        "stopped": False,
    }
    st = await enc.state()
    assert st["combatants"]["cai"]["position"] == to and st["combatants"]["cai"]["group"] is None
    assert st["rules"]["hexes"] == {}
    assert "plus 1 for turning or sidestepping" in await log_text(enc)
    await replay_equals_live(enc)


@pytest.mark.parametrize("to", FOE_SIDE)
async def test_leaving_through_each_hex_on_the_foes_side_needs_an_evade(tussle, to):
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(enc, "gurps.move", "Cai must evade (gurps.evade)", combatant="cai", path=[to])
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="attack")
    # Dun's side is the other way round: his entry edge is 0.
    await refused(
        enc, "gurps.move", "not one of the three hexes on Dun's side", combatant="dun", path=[[-1, 0]]
    )


@pytest.mark.parametrize("to", OWN_SIDE)
async def test_a_step_out_after_a_close_combat_attack(tussle, to):
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await enc.ok("gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[6, 6, 6]])
    b = await enc.ok("gurps.move", combatant="cai", path=[to])
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "step"
    await refused(enc, "gurps.move", "has 0 left", combatant="cai", path=[[to[0] - 1, to[1]]])
    await replay_equals_live(enc)


async def test_a_step_cannot_go_to_the_foes_side(tussle):
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await refused(
        enc, "gurps.move", "not one of the three hexes on Cai's side", combatant="cai", path=[[1, 0]]
    )
    await refused(
        enc, "gurps.evade", "a step never carries a figure past", combatant="cai", target="dun", path=[[1, 0]]
    )


async def test_no_leaving_while_grappled_until_he_breaks_free(tussle):
    enc = await in_close_combat(tussle, turns=1)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="dun", target="cai", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")  # a grappled figure may choose
    await refused(
        enc,
        "gurps.move",
        "Cai is grappled by Dun: break free first (gurps.break_free)",
        combatant="cai",
        path=[[-1, 0]],
    )
    # Break free: Cai's ST 10 (9, success by 1) against Dun's best, DX 11 (18, a failure).
    b = await enc.ok("gurps.break_free", combatant="cai", target="dun", dice=[[3, 3, 3], [6, 6, 6]])
    assert of_type(b, "GrappleReleased")[0] == {"grappler": "dun", "target": "cai", "why": "broken free"}
    b = await enc.ok("gurps.move", combatant="cai", path=[[-1, 0]])
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "step"
    await replay_equals_live(enc)


async def test_a_grappler_who_steps_out_lets_go(tussle):
    enc = await in_close_combat(tussle, turns=1)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="cai", target="dun", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    b = await enc.ok("gurps.move", combatant="cai", path=[[-1, 0]])
    assert types(b)[:3] == ["GrappleReleased", "Moved", "CloseCombatLeft"]
    assert (await enc.state())["rules"]["grapples"] == []
    await replay_equals_live(enc)


async def test_move_and_maneuver_refusals_through_http(tussle):
    enc = await encounter(tussle, fig("cai", "a", [-3, 0], move=2), fig("dun", "b", [0, 0]), turn=None)
    await refused(enc, "gurps.choose_maneuver", "no turn has started yet", combatant="cai", maneuver="move")
    await enc.ok("start_turn", turn=1)
    await refused(
        enc, "gurps.choose_maneuver", "'dance' is not a maneuver", combatant="cai", maneuver="dance"
    )
    await refused(enc, "gurps.move", "it is not Cai's own turn", combatant="cai", path=[[-2, 0]])
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="Move")
    await refused(enc, "gurps.choose_maneuver", "already chosen move", combatant="cai", maneuver="attack")
    await refused(
        enc, "gurps.move", "extra_cost cannot be negative", combatant="cai", path=[[-2, 0]], extra_cost=-1
    )
    await refused(enc, "gurps.move", "facing must be 0-5", combatant="cai", path=[[-2, 0]], facing=6)
    await refused(
        enc,
        "gurps.move",
        "needs 3 movement point(s) for this path but has 2 left",
        combatant="cai",
        path=[[-2, 0], [-1, 0]],
        extra_cost=1,
    )
    await refused(enc, "gurps.move", "the path is not connected", combatant="cai", path=[[-1, 0]])
    await refused(enc, "gurps.move", "path must list at least one hex", status=400, combatant="cai", path=[])
    b = await enc.ok("gurps.move", combatant="cai", path=[[-2, 0]], facing=1)
    assert of_type(b, "Moved")[0]["facing"] == 1 and of_type(b, "GurpsMovementUsed")[0]["left"] == 1
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="wait")
    await refused(
        enc, "gurps.choose_maneuver", "has already had a turn this second", combatant="cai", maneuver="move"
    )
    b = await enc.ok("start_turn", turn=2)
    assert of_type(b, "ActionSpent")[0]["combatant"] == "dun"
    await replay_equals_live(enc)


async def test_the_gms_position_correction_leaves_the_close_combat(tussle):
    enc = await in_close_combat(tussle)
    b = await enc.ok("move", combatant="cai", to=[-2, 0])
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "moved"
    st = await enc.state()
    assert st["rules"]["hexes"] == {} and st["combatants"]["cai"]["group"] is None
    await replay_equals_live(enc)


async def test_in_close_combat_with_one_foe_he_cannot_evade_another_without_leaving(tussle):
    # Cai shares Dun's hex [0, 0]; Eve stands in [0, -1], on Cai's side. Going through her hex from
    # the close-combat hex is leaving it: the leaving rules hold (4.3), so it is refused until he leaves.
    enc = await in_close_combat(tussle, turns=1)
    await enc.add(fig("eve", "b", [0, -1], weapons=[HAND]))
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(
        enc, "gurps.evade", "leave it first", combatant="cai", target="eve", path=[[0, -1], [0, -2]]
    )
    await enc.ok("gurps.move", combatant="cai", path=[[-1, 0]])
    b = await enc.ok("gurps.evade", combatant="cai", target="eve", path=[[0, -1], [1, -2]])
    assert of_type(b, "HalfHexTaken")[-1]["entry_edge"] == 4
    await replay_equals_live(enc)
