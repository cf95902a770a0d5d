"""Issue 7, the remaining refusals and turn rules through the HTTP API: the maneuver table's movement,
All-Out Attack into a foe's hex, standing orders answering the foe's and the defender's questions,
a declared fighter's retreat, a second close combat, a removed grappler, and bad
combatant statistics."""

from __future__ import annotations

import pytest

from tests.gurps.gurps_http_scenes import (
    encounter,
    in_close_combat,
    last_request,
    of_type,
    refused,
    replay_equals_live,
    types,
)
from tests.gurps.gurps_world import HAND, KNIFE, fig

# rules/gurps/maneuvers.py MANEUVERS with Basic Move 5: full, half (at least 1), step, none.
MOVEMENT = {
    "Do Nothing": 0,
    "Move": 5,
    "Change Posture": 0,
    "Aim": 1,
    "Evaluate": 1,
    "Attack": 1,
    "Feint": 1,
    "All-Out Attack": 2,
    "Move and Attack": 5,
    "All-Out Defense": 1,
    "Concentrate": 1,
    "Ready": 1,
    "Wait": 1,
}


@pytest.mark.parametrize("maneuver, movement", MOVEMENT.items())
async def test_each_maneuver_and_its_movement(tussle, maneuver, movement):
    enc = await encounter(tussle, fig("cai", "a", [0, 0], move=5))
    b = await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver=maneuver)
    chosen = of_type(b, "ManeuverChosen")[0]
    assert (chosen["maneuver"], chosen["movement"], chosen["turn"]) == (
        maneuver.lower().replace("-", "_").replace(" ", "_"),
        movement,
        1,
    )
    if movement == 0:
        await refused(enc, "gurps.move", "has 0 left", combatant="cai", path=[[1, 0]])


async def test_all_out_attack_runs_into_the_foes_hex_and_stops(tussle):
    enc = await encounter(
        tussle,
        fig("cai", "a", [-2, 0], move=5, weapons=[KNIFE], skills={"Knife": 13}),
        fig("dun", "b", [0, 0]),
    )
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="All-Out Attack")
    b = await enc.ok("gurps.move", combatant="cai", path=[[-1, 0], [0, 0]])
    assert "CloseCombatJoined" in types(b) and of_type(b, "FacingChanged")[0]["facing"] == 0
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[6, 6, 6]]
    )
    assert of_type(b, "DieRolled")[0]["target"] == 13
    await replay_equals_live(enc)


async def test_standing_orders_answer_the_evade_and_the_defence_at_once(tussle):
    enc = await encounter(tussle, fig("ana", "a", [-2, 0], dx=12, move=6), fig("bors", "b", [0, 0], dx=11))
    await enc.ok("set_standing_orders", combatant="bors", reactions={"evade_stop": "let_pass"})
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    assert of_type(b, "EvadeAnswered")[0]["stop"] is False and (await enc.state())["pending"] == []
    assert (await enc.state())["combatants"]["ana"]["position"] == [1, 0]
    enc = await in_close_combat(tussle)
    await enc.ok("set_standing_orders", combatant="dun", reactions={"defence": "dodge"})
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack",
        combatant="cai",
        target="dun",
        weapon="knife",
        dice=[[3, 3, 3], [2, 2, 2]],
    )
    assert [d["purpose"] for d in of_type(b, "DieRolled")] == ["attack", "dodge"]
    assert (await enc.state())["pending"] == []
    await replay_equals_live(enc)


async def test_a_declared_fighter_retreats_to_any_hex_next_to_him(tussle):
    cai = fig("cai", "a", [-1, 0], dx=12, weapons=[KNIFE, HAND], skills={"Knife": 13})
    dun = fig("dun", "b", [0, 0], facing=3, dx=11, weapons=[dict(KNIFE), HAND])
    enc = await encounter(tussle, cai, dun, adjacent_close_combat=True)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="wait")
    await enc.ok("gurps.declare_close_combat", combatant="cai", target="dun")
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="dun", target="cai", weapon="knife", dice=[[3, 3, 3]]
    )
    rid = last_request(b)["id"]
    r = await enc.command("respond", reaction=rid, choice="dodge", retreat=True, to=[5, 5])
    assert r.status == 422 and "[5, 5] is not next to Cai" in r.body["error"]["message"], r.body
    b = await enc.ok("respond", reaction=rid, choice="dodge", retreat=True, to=[-2, 0], dice=[[2, 2, 2]])
    assert of_type(b, "Moved")[0]["to"] == [-2, 0] and of_type(b, "CloseCombatLeft")[0]["how"] == "retreat"
    assert (await enc.state())["rules"]["hexes"] == {}
    await replay_equals_live(enc)


async def test_a_fighter_in_one_close_combat_cannot_declare_another(tussle):
    enc = await in_close_combat(tussle, adjacent_close_combat=True)
    await enc.add(fig("eve", "b", [1, -1]))
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="wait")
    await refused(
        enc, "gurps.declare_close_combat", "Cai is in another close combat", combatant="cai", target="eve"
    )


async def test_removing_a_grappler_keeps_the_gurps_state_whole(tussle):
    enc = await in_close_combat(tussle, fig("cai", "a", [-1, 0], dx=12, weapons=[HAND]))
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="cai", target="dun", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("remove_combatant", combatant="cai")
    st = await enc.state()
    assert (
        "cai" not in st["rules"]["fighters"] and st["rules"]["hexes"] == {} and st["rules"]["grapples"] == []
    )
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="move")
    await enc.ok("gurps.move", combatant="dun", path=[[1, 0]])  # nobody holds him any more
    await replay_equals_live(enc)


async def test_bad_statistics_are_refused_when_joining(tussle):
    enc = await encounter(tussle, turn=None)
    cases = [
        ({"skills": {"Knife": "high"}}, "stats.skills must map skill names to integer levels"),
        ({"weapons": [{"name": "knife", "kind": "melee", "reach": "C"}]}, "reach must be a list"),
        ({"shield": {"name": "shield", "db": "2"}}, "stats.shield must be {name, db}"),
    ]
    for stats, message in cases:
        r = await enc.command("add_combatant", combatant=fig("x", "a", [0, 0], **stats))
        assert r.status == 400 and message in r.body["error"]["message"], (stats, r.body)
