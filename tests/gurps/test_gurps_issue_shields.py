"""Issue 7, Shields in close combat, through the HTTP API with manual dice: V4 in full (turn 1 against
turn 2 for attacks and DX rolls, for both fighters), the entering-attack exemption (also for a
Move and Attack and for a grapple), the DB on defences, dropping a shield (success, failure,
refusals) and the log sentence of spec section 7."""

from __future__ import annotations

import pytest

from tests.gurps.gurps_http_scenes import (
    encounter,
    last_request,
    log_text,
    of_type,
    refused,
    replay_equals_live,
    rolls,
    types,
)
from tests.gurps.gurps_world import BROADSWORD, HAND, KNIFE, fig

SHIELD = {"name": "shield", "db": 2}
BUCKLER = {"name": "buckler", "db": 1}
# The knife is carried and the broadsword sheathed: the buckler leaves one hand empty.
CARRIED = [
    {"id": "knife", "name": "knife", "state": "carried"},
    {"id": "broadsword", "name": "broadsword", "state": "carried"},
]


def cai(**kw):
    base = {"dx": 12, "move": 5, "skills": {"Knife": 13}, "weapons": [KNIFE, HAND], "shield": SHIELD}
    return fig("cai", "a", [-1, 0], **{**base, **kw})


def dun(**kw):
    base = {
        "facing": 3,
        "dx": 11,
        "weapons": [dict(KNIFE), HAND, BROADSWORD],
        "shield": BUCKLER,
        "items": CARRIED,
    }
    return fig("dun", "b", [0, 0], **{**base, **kw})


async def v4(tussle, **cai_kw):
    """Turn 1: Cai takes Attack and steps into Dun's hex from the front."""
    enc = await encounter(tussle, cai(**cai_kw), dun())
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await enc.ok("gurps.move", combatant="cai", path=[[0, 0]])
    return enc


async def test_v4_turn_1_cai_attacks_at_13_and_dun_dodges_with_his_buckler(tussle):
    enc = await v4(tussle)
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 4, 5]]
    )
    hit = rolls(b)[0]
    assert (hit["target"], hit["total"], hit["modifiers"], hit["margin"]) == (13, 12, [], 1)
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[2, 3, 4]])
    dodge = rolls(b)[0]
    assert (dodge["target"], dodge["modifiers"]) == (9, [{"value": 1, "reason": "buckler DB"}])
    await replay_equals_live(enc)


async def test_a_worn_shield_adds_its_db_to_a_parry(tussle):
    enc = await v4(tussle)
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 4, 5]]
    )
    b = await enc.ok(
        "respond", reaction=last_request(b)["id"], choice="parry", weapon="hand", dice=[[2, 3, 3]]
    )
    assert rolls(b)[0]["target"] == 7 + 1
    await replay_equals_live(enc)


@pytest.mark.parametrize("action, target", [("ready", 11), ("attack", 10)])
async def test_v4_turn_1_dun_dx_roll_at_11_but_an_attack_at_minus_1(tussle, action, target):
    enc = await v4(tussle)
    if action == "ready":
        b = await enc.ok("gurps.ready_item", combatant="dun", item="knife", dice=[[3, 4, 4]])
        assert "ItemReadied" in types(b)
    else:
        await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="attack")
        b = await enc.ok(
            "gurps.close_combat_attack", combatant="dun", target="cai", weapon="hand", dice=[[6, 6, 6]]
        )
        assert rolls(b)[0]["modifiers"] == [
            {"value": -1, "reason": "buckler (DB 1): not the entering attack"}
        ]
    assert rolls(b)[0]["target"] == target
    await replay_equals_live(enc)


async def test_v4_turn_2_cai_attacks_at_11_and_misses(tussle):
    enc = await v4(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="wait")
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[4, 4, 4]]
    )
    miss = rolls(b)[0]
    assert (miss["target"], miss["total"], miss["outcome"], miss["margin"]) == (11, 12, "failure by 1", -1)
    assert "ReactionRequested" not in types(b)
    text = await log_text(enc)
    assert "vs skill 13 − 2 (shield (DB 2): not the entering attack) = 11 — failure by 1" in text
    await replay_equals_live(enc)


async def test_v4_turn_2_cai_drops_his_shield_at_10_and_attacks_at_13_on_turn_3(tussle):
    enc = await v4(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="wait")
    st = await enc.state()
    assert st["rules"]["fighters"]["cai"]["cc_turns_completed"] == 1  # shield timing in the state
    await enc.ok("start_turn", turn=2)
    b = await enc.ok("gurps.drop_shield", combatant="cai", dice=[[2, 3, 4]])
    assert types(b) == ["ManeuverChosen", "DieRolled", "ItemDropped", "ActionSpent"]
    roll = rolls(b)[0]
    assert (roll["purpose"], roll["target"]) == ("drop_shield", 10)
    assert roll["modifiers"] == [{"value": -2, "reason": "shield (DB 2) after the first close-combat turn"}]
    assert of_type(b, "ItemDropped")[0] == {"combatant": "cai", "item": "shield", "at": [0, 0]}
    # Turn 2, Dun: any DX roll is at 11 - 1 = 10.
    b = await enc.ok("gurps.ready_item", combatant="dun", item="knife", dice=[[3, 3, 3]])
    assert rolls(b)[0]["target"] == 10
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[4, 4, 4]]
    )
    assert (rolls(b)[0]["target"], rolls(b)[0]["modifiers"]) == (13, [])
    st = await enc.state()
    assert next(i for i in st["combatants"]["cai"]["items"] if i["id"] == "shield")["state"] == "dropped"
    await replay_equals_live(enc)


async def test_v4_turn_2_dun_drops_his_buckler_at_10(tussle):
    enc = await v4(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="wait")
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="ready")
    b = await enc.ok("gurps.drop_shield", combatant="dun", dice=[[6, 6, 6]])
    assert rolls(b)[0]["target"] == 10
    assert (
        "ItemDropped" not in types(b)
        and of_type(b, "ActionSpent")[0]["why"] == "failed to get rid of the shield"
    )
    st = await enc.state()
    assert next(i for i in st["combatants"]["dun"]["items"] if i["id"] == "shield")["state"] == "ready"
    assert "Dun rolls 3d6 for getting rid of the shield" in await log_text(enc)
    await replay_equals_live(enc)


async def test_the_exemption_is_for_the_maneuver_that_moved_him_in_only(tussle):
    # Move and Attack from two hexes away: the entering attack is free of the shield penalty.
    enc = await encounter(tussle, {**cai(), "position": [-2, 0]}, dun())
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move_and_attack")
    await enc.ok("gurps.move", combatant="cai", path=[[-1, 0], [0, 0]])
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[6, 6, 6]]
    )
    assert rolls(b)[0]["target"] == 13
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move_and_attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[6, 6, 6]]
    )
    assert rolls(b)[0]["target"] == 11
    await replay_equals_live(enc)


async def test_a_grapple_as_the_entering_attack_is_free_of_the_penalty(tussle):
    enc = await v4(tussle, weapons=[HAND])
    b = await enc.ok("gurps.grapple", combatant="cai", target="dun", dice=[[3, 3, 3]])
    assert (rolls(b)[0]["purpose"], rolls(b)[0]["target"], rolls(b)[0]["modifiers"]) == ("grapple", 12, [])
    await replay_equals_live(enc)


async def test_drop_shield_refusals_through_http(tussle):
    enc = await encounter(tussle, cai(), dun(), fig("eve", "b", [5, 5]))
    await refused(
        enc, "gurps.drop_shield", "outside close combat dropping a shield is a GM ruling", combatant="cai"
    )
    await refused(enc, "gurps.drop_shield", "Eve wears no shield", combatant="eve")
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await enc.ok("gurps.move", combatant="cai", path=[[0, 0]])
    await refused(enc, "gurps.drop_shield", "takes a Ready maneuver, and Cai chose attack", combatant="cai")
    b = await enc.ok("gurps.ready_item", combatant="dun", item="knife", dice=[[3, 3, 3]])
    assert "ItemReadied" in types(b)
    await refused(enc, "gurps.drop_shield", "already readied knife", combatant="dun")
