"""Issue 8 over real HTTP with manual dice: the grab's full event order (spec 4.2), AP per round as state, the
brawl's weight-ratio table (every row of spec 5's table, between rows included), the GM's modifiers, ties, and a
charge that follows up. Each scenario ends with replay equal to live."""

from __future__ import annotations

import pytest
from ap_grapple_http import ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER, data, encounter, fighter, g1, types
from ap_grapple_world import ALDO, BERK, BERK_HEX, LEFT_HEX

# ---- Make a Grab (spec 4.2) ---------------------------------------------------------------------------------


async def test_g1_every_event_in_the_spec_order(tussle):
    enc = await encounter(tussle)
    body = await g1(enc)
    assert types(body) == [
        "ActionDeclared",
        "APSpent",
        "DieRolled",
        "GripTaken",
        "PullChance",
        "DieRolled",
        "ConditionChanged",
        "PulledOffBalance",
        "ReactionRequested",
    ]
    assert data(body, "ActionDeclared") == [
        {"combatant": "aldo", "action": "make_a_grab", "targets": ["berk"], "params": {}}
    ]
    assert data(body, "APSpent") == [
        {"combatant": "aldo", "round": 1, "amount": 3, "remaining": 2, "why": "grab"}
    ]
    to_hit, pull = data(body, "DieRolled")
    assert (to_hit["purpose"], to_hit["notation"], to_hit["total"], to_hit["target"], to_hit["outcome"]) == (
        "grab to-hit (d20 + mods >= target)",
        "1d20",
        13,
        10,
        "hit",
    )
    assert data(body, "PullChance") == [
        {"attacker_mass": 212, "defender_weight": 180, "total": 392, "percent": 54}
    ]
    assert (pull["purpose"], pull["notation"], pull["faces"], pull["target"], pull["outcome"]) == (
        "pull off balance (d100 <= target)",
        "1d100",
        [37],
        54,
        "success",
    )
    assert pull["modifiers"] == []
    assert data(body, "ConditionChanged") == [{"combatant": "berk", "condition": "stunned", "on": True}]
    pulled = data(body, "PulledOffBalance")[0]
    assert pulled["stunned_until_round"] == 2
    assert pulled["destinations"] == {
        "left": LEFT_HEX,
        "right": [0, 1],
        "own_hex": [0, 0],
        "in_place": BERK_HEX,
    }
    st = await enc.state()
    assert st["rules"]["stunned"]["berk"]["until_round"] == 2
    assert st["rules"]["grips"] == [{"attacker": "aldo", "defender": "berk", "stage": "swing_pending"}]
    await enc.replay_matches_live()


async def test_a_grab_that_spends_the_last_ap_says_so(tussle):
    aldo = fighter("aldo", "a", {**ALDO, "ap_per_round": 3}, [0, 0])
    enc = await encounter(tussle, figures=(aldo, BERK_FIGHTER, CADE_FIGHTER))
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]])
    assert types(body) == ["ActionDeclared", "APSpent", "ActionSpent", "DieRolled"]
    assert data(body, "ActionSpent") == [{"combatant": "aldo", "turn": 1, "why": "all AP spent"}]
    await enc.replay_matches_live()


async def test_the_stun_lasts_through_the_next_round(tussle):
    enc = await encounter(tussle, auto_start_round=False)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="left")
    body = await enc.ok("start_turn")
    assert types(body) == ["TurnStarted"]  # round 2: Berk is still stunned
    r = await enc.command("ap-grapple.pass", combatant="berk")
    assert r.status == 422 and "Berk is stunned until the end of round 2" in r.body["error"]["message"]
    body = await enc.ok("start_turn")
    assert types(body) == ["TurnStarted", "ConditionChanged"]
    assert data(body, "ConditionChanged") == [{"combatant": "berk", "condition": "stunned", "on": False}]
    await enc.ok("ap-grapple.pass", combatant="berk")
    await enc.replay_matches_live()


# ---- AP per round (spec 1, 3, 4.1) --------------------------------------------------------------------------


async def test_ap_left_unspent_is_lost_at_the_round_end(tussle):
    enc = await encounter(tussle, auto_start_round=False)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    st = await enc.state()
    assert st["rules"]["ap_left"] == {"aldo": 2, "berk": 5, "cade": 5}
    await enc.ok("start_turn")
    st = await enc.state()
    assert st["rules"]["ap_left"] == {"aldo": 5, "berk": 5, "cade": 5}  # 5 again, not 7
    await enc.replay_matches_live()


async def test_pass_gives_up_the_rest_and_the_server_starts_the_next_round(tussle):
    enc = await encounter(tussle)
    await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]])
    body = await enc.ok("ap-grapple.pass", combatant="aldo")
    assert data(body, "APSpent") == [
        {"combatant": "aldo", "round": 1, "amount": 2, "remaining": 0, "why": "passed"}
    ]
    assert data(body, "ActionSpent") == [{"combatant": "aldo", "turn": 1, "why": "passed"}]
    await enc.ok("ap-grapple.pass", combatant="berk")
    body = await enc.ok("ap-grapple.pass", combatant="cade")
    assert types(body) == ["APSpent", "ActionSpent", "TurnStarted"]
    st = await enc.state()
    assert st["turn"] == 2 and st["rules"]["round"] == 2
    await enc.replay_matches_live()


async def test_a_custom_ap_budget(tussle):
    aldo = fighter("aldo", "a", {**ALDO, "ap_per_round": 7}, [0, 0])
    enc = await encounter(tussle, figures=(aldo, BERK_FIGHTER))
    await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]])
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]])
    assert data(body, "APSpent")[0]["remaining"] == 1
    await enc.replay_matches_live()


# ---- the GM's modifiers and the ties ------------------------------------------------------------------------


async def test_gm_modifiers_count_in_the_grab_to_hit_and_an_equal_total_hits(tussle):
    enc = await encounter(tussle)
    mods = [{"value": 2, "reason": "rear attack"}, {"value": -5, "reason": "slippery"}]
    body = await enc.ok(
        "ap-grapple.make_a_grab", combatant="aldo", target="berk", modifiers=mods, dice=[[13], [55]]
    )
    roll = data(body, "DieRolled")[0]
    assert (roll["modifiers"], roll["total"], roll["target"], roll["outcome"]) == (mods, 10, 10, "hit")
    assert types(body)[-1] == "GripLost"  # 55 > 54
    await enc.replay_matches_live()


async def test_gm_modifiers_add_to_the_weight_ratio_in_a_brawl(tussle):
    enc = await encounter(tussle)
    body = await enc.ok(
        "ap-grapple.brawl",
        combatant="cade",
        target="berk",
        path=[[3, 0], [2, 0]],
        modifiers=[{"value": 1, "reason": "Berk is stunned"}],
        dice=[[9]],
    )
    roll = data(body, "DieRolled")[0]
    assert roll["modifiers"] == [
        {"value": 1, "reason": "weight ratio one third greater"},
        {"value": 1, "reason": "Berk is stunned"},
    ]
    assert (roll["total"], roll["target"], roll["outcome"]) == (11, 11, "hit")  # B2 with +1 more: a tie hits
    await enc.replay_matches_live()


# ---- Brawl (spec 4.4): the weight-ratio table of spec 5, every row, through the API -------------------------


@pytest.mark.parametrize(
    ("attacker_lb", "defender_lb", "ratio", "row", "modifier"),
    [
        (360, 180, "2/1", "twice as much", 3),
        (60, 180, "1/3", "one third", -9),
        (170, 180, "17/18", "even", 0),  # between three quarters and even
        (250, 180, "25/18", "one third greater", 1),  # between 4/3 and 3/2
        (100, 180, "5/9", "two thirds", -2),  # between 1/2 and 2/3
        (40, 200, "1/5", "one quarter", -12),  # below the table
        (900, 180, "5/1", "four times as much", 9),  # above the table
    ],
)
async def test_spec_weight_ratio_rows_through_a_brawl(tussle, attacker_lb, defender_lb, ratio, row, modifier):
    a = fighter("a", "a", {"weight_lb": attacker_lb, "thac0": 16}, [0, 0])
    d = fighter("d", "d", {"weight_lb": defender_lb, "ac": 6}, [1, 0])
    enc = await encounter(tussle, figures=(a, d))
    body = await enc.ok("ap-grapple.brawl", combatant="a", target="d", dice=[[10]])
    assert data(body, "WeightRatio") == [
        {
            "attacker_lb": attacker_lb,
            "defender_lb": defender_lb,
            "ratio": ratio,
            "row": row,
            "modifier": modifier,
        }
    ]
    roll = data(body, "DieRolled")[0]
    assert roll["modifiers"] == [{"value": modifier, "reason": f"weight ratio {row}"}]
    assert roll["total"] == 10 + modifier and roll["target"] == 10
    assert (roll["outcome"] == "hit") == (modifier >= 0)
    assert ("BrawlTakedown" in types(body)) == (modifier >= 0)
    await enc.replay_matches_live()


async def test_a_charge_that_hits_follows_up_into_the_defenders_hex(tussle):
    enc = await encounter(tussle)
    body = await enc.ok(
        "ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0]], dice=[[15]]
    )
    assert types(body) == [
        "ActionDeclared",
        "Moved",
        "Moved",
        "APSpent",
        "ActionSpent",
        "WeightRatio",
        "DieRolled",
        "BrawlTakedown",
        "Moved",
        "PostureChanged",
        "PostureChanged",
        "CloseCombatJoined",
    ]
    assert [m["reason"] for m in data(body, "Moved")] == ["charge", "charge", "follow_up"]
    assert data(body, "Moved")[-1]["to"] == BERK_HEX
    assert data(body, "APSpent")[0]["amount"] == 5
    assert (
        data(body, "CloseCombatJoined")[0]["at"] == BERK_HEX
        and not data(body, "CloseCombatJoined")[0]["standing"]
    )
    st = await enc.state()
    assert st["combatants"]["cade"]["position"] == BERK_HEX
    assert st["rules"]["shared_hexes"] == {"1,0": ["berk", "cade"]} or st["rules"]["shared_hexes"] == {
        "1,0": ["cade", "berk"]
    }
    await enc.replay_matches_live()


async def test_the_grabber_brawls_the_enemy_he_pulled_next_round(tussle):
    """Spec 6 row 3: the stun lasts so that the grabber (2 AP left) can brawl the pulled enemy next round."""
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER))
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="right")
    await enc.ok("ap-grapple.pass", combatant="cade")
    body = await enc.ok("ap-grapple.pass", combatant="aldo")
    assert types(body)[-1] == "TurnStarted"
    body = await enc.ok("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[10]])
    assert "BrawlTakedown" in types(body)
    assert "stunned" in (await enc.state())["combatants"]["berk"]["conditions"]
    await enc.replay_matches_live()


async def test_a_swing_by_standing_order_inside_the_grab(tussle):
    enc = await encounter(tussle)
    await enc.ok("set_standing_orders", combatant="aldo", reactions={"swing_target": "left"})
    body = await g1(enc)
    assert types(body)[-5:] == [
        "ReactionRequested",
        "ReactionAnswered",
        "ActionDeclared",
        "Moved",
        "GripReleased",
    ]
    assert (await enc.state())["combatants"]["berk"]["position"] == LEFT_HEX
    await enc.replay_matches_live()


async def test_a_wall_does_1_to_3_damage(tussle):
    berk = fighter("berk", "b", {**BERK, "hp": 9}, BERK_HEX, 3)
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, berk))
    await g1(enc)
    body = await enc.ok("ap-grapple.swing_target", combatant="aldo", to="left", barrier=True, dice=[[1]])
    roll = data(body, "DieRolled")[0]
    assert (roll["notation"], roll["purpose"], roll["combatant"], roll["outcome"]) == (
        "1d3",
        "barrier damage",
        "berk",
        "1 damage",
    )
    assert data(body, "Wounded") == [{"combatant": "berk", "amount": 1, "source": "swung against barrier"}]
    st = await enc.state()
    assert st["combatants"]["berk"]["position"] == LEFT_HEX and st["combatants"]["berk"]["wounds"] == 1
    # A d3 cannot show 4.
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, berk))
    await g1(enc)
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="left", barrier=True, dice=[[4]])
    assert r.status == 400, r.body
    await enc.replay_matches_live()
