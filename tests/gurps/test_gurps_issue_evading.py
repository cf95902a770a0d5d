"""Issue 7, Evading, through the HTTP API with manual dice: each modifier of the table, ties, the
foe's choice, Flight / Super Jump, huge creatures, leaving forward by evading, OPTION
assume_foes_stop, and every refusal of gurps.evade and of the evade_stop answer."""

from __future__ import annotations

import pytest

from tests.gurps.gurps_http_scenes import (
    encounter,
    hex_at,
    in_close_combat,
    last_request,
    log_text,
    of_type,
    refused,
    replay_equals_live,
    rolls,
    types,
)
from tests.gurps.gurps_world import HAND, KNIFE, fig


async def run_through(tussle, *, foe_posture="standing", foe_facing=0, d=3, mover_dx=12, **mover_stats):
    """Ana (Move) runs from two hexes out in direction d, through Bors's hex [0, 0], out the far side."""
    enc = await encounter(
        tussle,
        fig("ana", "a", hex_at(d, 2), dx=mover_dx, move=6, **mover_stats),
        fig("bors", "b", [0, 0], facing=foe_facing, dx=11, posture=foe_posture),
    )
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="Move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[hex_at(d), [0, 0], hex_at(d + 3)])
    return enc, b


@pytest.mark.parametrize(
    "posture, mods",
    [
        ("standing", [(-5, "foe standing")]),
        ("kneeling", [(-2, "foe kneeling")]),
        ("prone", [(5, "foe lying down")]),
        ("on_back", [(5, "foe lying down")]),
        ("on_stomach", [(5, "foe lying down")]),
    ],
)
async def test_each_posture_modifier_through_http(tussle, posture, mods):
    enc, b = await run_through(tussle, foe_posture=posture, d=0)  # from Bors's front: no arc modifier
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[3, 3, 4], [6, 6, 6]])
    ana = rolls(b)[0]
    assert [(m["value"], m["reason"]) for m in ana["modifiers"]] == mods
    assert ana["target"] == 12 + sum(v for v, _ in mods)
    assert of_type(b, "QuickContestResolved")[0]["winner"] == "ana"
    await replay_equals_live(enc)


@pytest.mark.parametrize(
    "facing, d, arc, mods",
    [
        (0, 0, "front", []),
        (0, 1, "front", []),  # front-left and front-right count as front (spec 6 #5)
        (0, 5, "front", []),
        (0, 2, "left", [(2, "from the left side")]),
        (0, 4, "right", [(2, "from the right side")]),
        (0, 3, "back", [(5, "from behind")]),
        (2, 5, "back", [(5, "from behind")]),  # the arc turns with his facing
    ],
)
async def test_each_approach_modifier_through_http(tussle, facing, d, arc, mods):
    enc, b = await run_through(tussle, foe_posture="standing", foe_facing=facing, d=d)
    assert of_type(b, "EvadeChallenged")[0]["approach"] == arc
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[3, 3, 4], [6, 6, 6]])
    ana = rolls(b)[0]
    assert [(m["value"], m["reason"]) for m in ana["modifiers"]] == [(-5, "foe standing"), *mods]
    assert ana["target"] == 12 - 5 + sum(v for v, _ in mods)
    await replay_equals_live(enc)


async def test_a_tie_with_equal_successes_stops_the_mover(tussle):
    # Ana 12 - 5 + 5 (standing, from behind) = 12 rolls 10: success by 2; Bors 11 rolls 9: success by 2.
    enc, b = await run_through(tussle, foe_posture="standing", d=3)
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[3, 3, 4], [2, 3, 4]])
    qc = of_type(b, "QuickContestResolved")[0]
    assert (qc["winner"], qc["margin_of_victory"]) == (None, 0)
    assert [s["margin"] for s in qc["sides"]] == [2, 2]
    assert of_type(b, "EvadeStopped")[0] == {"mover": "ana", "foe": "bors", "at": [0, 0]}
    assert of_type(b, "GurpsMovementUsed")[0]["left"] == 0
    st = await enc.state()
    assert st["combatants"]["ana"]["position"] == [0, 0]
    assert st["combatants"]["ana"]["facing"] == 0  # facing Bors: the direction she ran in
    assert "A tie: Ana is stopped" in await log_text(enc)
    await replay_equals_live(enc)


@pytest.mark.parametrize("trait", ["flight", "super_jump"])
async def test_flight_and_super_jump_evade_automatically(tussle, trait):
    enc = await encounter(
        tussle, fig("ana", "a", [-2, 0], dx=12, move=6, traits=[trait]), fig("bors", "b", [0, 0], dx=11)
    )
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]], over=True)
    assert types(b) == ["Moved", "GurpsMovementUsed"]
    assert of_type(b, "Moved")[0]["reason"] == "evade"
    st = await enc.state()
    assert st["combatants"]["ana"]["position"] == [1, 0] and st["rules"]["hexes"] == {}
    assert st["pending"] == []
    await replay_equals_live(enc)


async def test_a_huge_creature_still_rolls_the_contest(tussle):
    # Spec 4.1 / 6 #6: size gives a way past, never an automatic evade.
    enc, b = await run_through(tussle, traits=["huge"])
    assert last_request(b)["kind"] == "evade_stop"
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[2, 2, 2], [6, 6, 6]])
    assert len(rolls(b)) == 2 and of_type(b, "QuickContestResolved")[0]["winner"] == "ana"
    await refused(
        enc,
        "gurps.evade",
        "neither Flight nor Super Jump",
        combatant="ana",
        target="bors",
        path=[[2, 0]],
        over=True,
    )


async def test_assume_foes_stop_rolls_at_once_for_the_gms_foe(tussle):
    enc = await encounter(
        tussle,
        fig("ana", "a", [-2, 0], dx=12, move=6),
        fig("bors", "b", [0, 0], dx=11, posture="prone"),
        assume_foes_stop=True,
    )
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    b = await enc.ok(
        "gurps.evade",
        combatant="ana",
        target="bors",
        path=[[-1, 0], [0, 0], [1, 0]],
        dice=[[4, 5, 3], [2, 3, 4]],
    )
    assert "ReactionRequested" not in types(b)
    assert of_type(b, "EvadeAnswered")[0]["stop"] is True
    assert of_type(b, "QuickContestResolved")[0]["margin_of_victory"] == 8
    assert (await enc.state())["combatants"]["ana"]["position"] == [1, 0]
    await replay_equals_live(enc)


async def test_assume_foes_stop_still_asks_a_players_foe(tussle):
    enc = await encounter(
        tussle,
        fig("ana", "a", [-2, 0], dx=12, move=6),
        fig("bors", "b", [0, 0], dx=11, posture="prone"),
        assume_foes_stop=True,
        manual_dice_from="actor",
    )
    seat = await enc.seat("Bob", ["bors"])
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    req = last_request(b)
    assert req["asked_of"] != "gm"
    r = await enc.command(
        "respond", reaction=req["id"], choice="stop", token=seat, dice=[[6, 6, 6], [3, 3, 3]]
    )
    assert r.status == 201, r.body
    assert "EvadeStopped" in types(r.body)
    await replay_equals_live(enc)


async def test_leaving_forward_by_evading_with_shield_penalties_on_both(tussle):
    # Cai began turn 2 in Dun's hex (his entry edge 3); forward is Dun's side [1, 0]. Both are past
    # their first close-combat turn: Cai's shield (DB 2) and Dun's buckler (DB 1) count.
    cai = fig("cai", "a", [-1, 0], dx=12, move=5, weapons=[KNIFE], shield={"name": "shield", "db": 2})
    dun = fig("dun", "b", [0, 0], facing=3, dx=11, weapons=[KNIFE], shield={"name": "buckler", "db": 1})
    enc = await in_close_combat(tussle, cai, dun)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="cai", target="dun", path=[[1, 0], [2, 0]])
    assert "CloseCombatJoined" not in types(b) and of_type(b, "EvadeChallenged")[0]["approach"] == "front"
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[1, 1, 2], [5, 5, 5]])
    cai_roll, dun_roll = rolls(b)
    assert (cai_roll["target"], [m["value"] for m in cai_roll["modifiers"]]) == (12 - 5 - 2, [-5, -2])
    assert (dun_roll["target"], [m["value"] for m in dun_roll["modifiers"]]) == (10, [-1])
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "evade"
    st = await enc.state()
    assert st["combatants"]["cai"]["position"] == [2, 0] and st["rules"]["hexes"] == {}
    await replay_equals_live(enc)


async def test_a_stopped_leaver_stays_in_his_half(tussle):
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="cai", target="dun", path=[[1, 0]])
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[6, 6, 6], [3, 3, 3]])
    assert "EvadeStopped" in types(b) and "Moved" not in types(b)
    st = await enc.state()
    assert st["combatants"]["cai"]["position"] == [0, 0]
    assert st["rules"]["hexes"]["0,0"]["occupants"]["cai"]["entry_edge"] == 3
    assert st["rules"]["fighters"]["cai"]["movement_left"] == 0
    await refused(enc, "gurps.move", "has 0 left", combatant="cai", path=[[-1, 0]])
    await replay_equals_live(enc)


async def test_evade_refusals_through_http(tussle):
    enc = await encounter(
        tussle,
        fig("ana", "a", [-2, 0], dx=12, move=3),
        fig("al", "a", [3, 0]),
        fig("bors", "b", [0, 0], dx=11),
        fig("cy", "b", [2, 0]),
        fig("di", "b", [0, 2]),
        fig("ed", "b", [0, 2]),
    )
    await refused(enc, "gurps.evade", "not Ana's own turn", combatant="ana", target="bors", path=[[-1, 0]])
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    path = [[-1, 0], [0, 0], [1, 0]]
    cases = [
        ({"target": "al", "path": path}, "on Ana's side, not a foe"),
        ({"target": "bors", "path": path, "over": True}, "neither Flight nor Super Jump"),
        ({"target": "bors", "path": [[-1, 0], [-1, 1]]}, "does not go through Bors's hex"),
        ({"target": "bors", "path": [[-1, 0], [0, 0]]}, "ends in Bors's hex"),
        ({"target": "bors", "path": [[-1, 0], [0, 0], [-1, 1]]}, "on Ana's own side of Bors's hex"),
        ({"target": "bors", "path": [[-1, 0], [0, 0], [1, 0], [2, 0]]}, "needs 4 movement point(s)"),
        ({"target": "bors", "path": [[-1, 0], [1, 0]]}, "the path is not connected"),
    ]
    for fields, message in cases:
        await refused(enc, "gurps.evade", message, combatant="ana", **fields)
    await refused(
        enc, "gurps.evade", "must be an axial hex", status=400, combatant="ana", target="bors", path=[[0]]
    )
    # Two foes in one hex, and a path that crosses a second foe.
    enc2 = await encounter(
        tussle,
        fig("ana", "a", [0, 4], dx=12, move=6),
        fig("di", "b", [0, 2]),
        fig("ed", "b", [0, 2]),
        fig("cy", "b", [0, 0]),
    )
    await enc2.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    await refused(
        enc2, "gurps.evade", "also holds", combatant="ana", target="di", path=[[0, 3], [0, 2], [0, 1]]
    )
    await refused(
        enc2,
        "gurps.evade",
        "also crosses Di's hex at [0, 2]",
        combatant="ana",
        target="cy",
        path=[[0, 3], [0, 2], [0, 1], [0, 0], [0, -1]],
    )


async def test_evade_refused_on_a_step_maneuver_and_while_grappled(tussle):
    enc = await encounter(tussle, fig("ana", "a", [-2, 0], dx=12, move=6), fig("bors", "b", [0, 0], dx=11))
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="attack")
    await refused(
        enc,
        "gurps.evade",
        "a step never carries a figure past",
        combatant="ana",
        target="bors",
        path=[[-1, 0], [0, 0], [1, 0]],
    )
    # Grappled: Dun grapples Cai in the shared hex, then Cai tries to evade out forward.
    enc = await in_close_combat(tussle, turns=1)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="dun", target="cai", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    body = await refused(
        enc,
        "gurps.evade",
        "cannot evade anyone while being grappled",
        combatant="cai",
        target="dun",
        path=[[1, 0]],
    )
    assert body["error"]["message"]


async def test_leaving_evade_refusals(tussle):
    enc = await in_close_combat(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(
        enc, "gurps.evade", "is not on Dun's side of the hex", combatant="cai", target="dun", path=[[-1, 0]]
    )
    # Leaving is done in his own turn: once Cai chooses, Dun's turn is over.
    enc = await in_close_combat(tussle, turns=1)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="move")
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")  # ends Dun's turn
    await refused(enc, "gurps.evade", "not Dun's own turn", combatant="dun", target="cai", path=[[-1, 0]])


async def test_evade_stop_answer_refusals(tussle):
    enc, b = await run_through(tussle)
    rid = last_request(b)["id"]
    r = await enc.command("respond", reaction=rid, choice="dodge")
    assert r.status == 422, r.body
    r = await enc.command("respond", reaction=rid, choice="stop", weapon="knife")
    assert r.status == 400, r.body
    b = await enc.ok("respond", reaction=rid, choice="let_pass")
    assert "DieRolled" not in types(b)
    assert "Bors lets Ana pass: no roll." in await log_text(enc)
    await replay_equals_live(enc)


async def test_me_during_an_evade_question_lists_only_the_answer(tussle):
    """Issue 18 (a new user's play-through): while Bors's seat was asked whether to stop Ana, Ana's seat's
    /me said `your_turn: false` yet listed gurps.move and gurps.evade, which the server would refuse."""
    enc = await encounter(
        tussle,
        fig("ana", "a", [-2, 0], dx=12, move=6, weapons=[HAND]),
        fig("bors", "b", [0, 0], facing=0, dx=11, weapons=[HAND]),
    )
    ana_seat, bors_seat = await enc.seat("Ann", ["ana"]), await enc.seat("Bo", ["bors"])
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="Move")
    await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    ana_me = (await enc.get("/me", token=ana_seat)).body
    assert ana_me["your_turn"] is False and ana_me["legal_actions"] == {"ana": []}, ana_me
    bors_me = (await enc.get("/me", token=bors_seat)).body
    assert bors_me["your_turn"] is True and bors_me["legal_actions"] == {"bors": ["respond"]}, bors_me
    r = await enc.command("gurps.move", combatant="ana", path=[[-1, 1]], token=ana_seat)
    assert r.status >= 400, r.body
