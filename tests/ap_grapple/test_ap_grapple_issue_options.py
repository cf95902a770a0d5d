"""Issue 8: every option of the ap-grapple spec works through the API (one HTTP scenario each, manual dice,
replay equal to live). The defaults are exercised by the worked examples; these tests set each other value."""

from __future__ import annotations

from ap_grapple_http import ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER, data, encounter, fighter, g1, types
from ap_grapple_world import BERK, BERK_HEX


async def test_strict_initiative_only_the_first_with_ap_left_acts(tussle):
    enc = await encounter(tussle, strict_initiative=True)
    r = await enc.command("ap-grapple.pass", combatant="aldo")
    assert (
        r.status == 422
        and "strict initiative is on and the GM has not set an initiative order" in r.body["error"]["message"]
    ), r.body
    await enc.ok("set_initiative", order=["berk", "aldo", "cade"])
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    assert (
        r.status == 422
        and "strict initiative: it is Berk's turn to act, not Aldo's" in r.body["error"]["message"]
    )
    await enc.ok("ap-grapple.pass", combatant="berk")
    await g1(enc)
    # The owed swing is part of the grab, so Aldo makes it although Cade is not first.
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    r = await enc.command("ap-grapple.pass", combatant="cade")
    assert r.status == 422 and "it is Aldo's turn to act, not Cade's" in r.body["error"]["message"]
    await enc.ok("ap-grapple.pass", combatant="aldo")
    await enc.ok("ap-grapple.pass", combatant="cade")
    await enc.replay_matches_live()


async def test_to_hit_gm_target_takes_the_commands_number(tussle):
    aldo = fighter("aldo", "a", {"weight_lb": 170, "strength": 14}, [0, 0])  # no THAC0 needed
    berk = fighter("berk", "b", {"weight_lb": 180}, BERK_HEX)  # no AC needed
    cade = fighter("cade", "a", {"weight_lb": 250}, [4, 0])
    enc = await encounter(tussle, figures=(aldo, berk, cade), to_hit="gm_target")
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "to_hit_target", r.body
    body = await enc.ok(
        "ap-grapple.make_a_grab", combatant="aldo", target="berk", to_hit_target=14, dice=[[13]]
    )
    roll = data(body, "DieRolled")[0]
    assert (roll["target"], roll["outcome"]) == (14, "miss")
    body = await enc.ok(
        "ap-grapple.brawl",
        combatant="cade",
        target="berk",
        path=[[3, 0], [2, 0]],
        to_hit_target=8,
        dice=[[7]],
    )
    roll = data(body, "DieRolled")[0]
    assert (roll["total"], roll["target"], roll["outcome"]) == (8, 8, "hit")
    await enc.replay_matches_live()


async def test_natural_20_hits_only_with_its_option(tussle):
    berk = fighter("berk", "b", {**BERK, "ac": -10}, BERK_HEX, 3)  # target 16 - (-10) = 26: only a natural 20
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, berk))
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[20]])
    assert data(body, "DieRolled")[0]["outcome"] == "miss"
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, berk), natural_20_hits=True)
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[20], [37]])
    assert data(body, "DieRolled")[0]["outcome"] == "hit (natural 20)" and "GripTaken" in types(body)
    await enc.replay_matches_live()


async def test_natural_1_misses_only_with_its_option(tussle):
    berk = fighter("berk", "b", {**BERK, "ac": 20}, BERK_HEX, 3)  # target 16 - 20 = -4: a 1 hits
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, berk))
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[1], [37]])
    assert data(body, "DieRolled")[0]["outcome"] == "hit"
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, berk), natural_1_misses=True)
    body = await enc.ok("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[1]])
    assert data(body, "DieRolled")[0]["outcome"] == "miss (natural 1)" and "BrawlTakedown" not in types(body)
    await enc.replay_matches_live()


async def test_stun_duration_rest_of_round(tussle):
    enc = await encounter(tussle, stun_duration="rest_of_round")
    body = await g1(enc)
    assert data(body, "PulledOffBalance")[0]["stunned_until_round"] == 1
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    await enc.ok("ap-grapple.pass", combatant="cade")
    body = await enc.ok("ap-grapple.pass", combatant="aldo")
    assert types(body)[-2:] == ["TurnStarted", "ConditionChanged"]
    assert data(body, "ConditionChanged") == [{"combatant": "berk", "condition": "stunned", "on": False}]
    await enc.ok("ap-grapple.pass", combatant="berk")  # round 2: Berk acts again
    await enc.replay_matches_live()


async def test_swing_destinations_any_adjacent_to_attacker(tussle):
    enc = await encounter(tussle, swing_destinations="any_adjacent_to_attacker")
    body = await g1(enc)
    destinations = data(body, "PulledOffBalance")[0]["destinations"]
    # Aldo at [0, 0] looks at Berk in direction 0: left (1), right (5), and the other three open hexes 2, 3, 4.
    assert destinations == {
        "left": [1, -1],
        "right": [0, 1],
        "own_hex": [0, 0],
        "in_place": [1, 0],
        "dir_2": [0, -1],
        "dir_3": [-1, 0],
        "dir_4": [-1, 1],
    }
    options = data(body, "ReactionRequested")[0]["options"]
    assert set(options) == set(destinations) and options[-1] == "in_place"
    body = await enc.ok("ap-grapple.swing_target", combatant="aldo", to="dir_3", barrier=True, dice=[[2]])
    assert data(body, "Moved")[0]["to"] == [-1, 0]
    assert data(body, "ActionDeclared")[0]["params"]["hex"] == [-1, 0]
    assert (await enc.state())["combatants"]["berk"]["wounds"] == 2
    # Not without the option.
    enc = await encounter(tussle)
    await g1(enc)
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="dir_3")
    assert r.status == 422 and "'dir_3' is not a destination" in r.body["error"]["message"], r.body
    await enc.replay_matches_live()


async def test_brawl_ratio_rule_lower_row(tussle):
    a = fighter("a", "a", {"weight_lb": 100, "thac0": 16}, [0, 0])
    d = fighter("d", "d", {"weight_lb": 180, "ac": 6}, [1, 0])
    enc = await encounter(tussle, figures=(a, d), brawl_ratio_rule="lower_row")
    body = await enc.ok("ap-grapple.brawl", combatant="a", target="d", dice=[[10]])
    assert (
        data(body, "WeightRatio")[0]["row"] == "one half" and data(body, "WeightRatio")[0]["modifier"] == -4
    )
    small = fighter("a", "a", {"weight_lb": 40, "thac0": 16}, [0, 0])
    enc = await encounter(
        tussle,
        figures=(small, fighter("d", "d", {"weight_lb": 200, "ac": 6}, [1, 0])),
        brawl_ratio_rule="lower_row",
    )
    body = await enc.ok("ap-grapple.brawl", combatant="a", target="d", dice=[[10]])
    assert data(body, "WeightRatio")[0]["row"] == "one quarter"
    big = fighter("a", "a", {"weight_lb": 250, "thac0": 16}, [0, 0])
    enc = await encounter(
        tussle,
        figures=(big, fighter("d", "d", {"weight_lb": 180, "ac": 6}, [1, 0])),
        brawl_ratio_rule="lower_row",
    )
    body = await enc.ok("ap-grapple.brawl", combatant="a", target="d", dice=[[10]])
    assert data(body, "WeightRatio")[0]["row"] == "one third greater"  # above even both rules agree
    await enc.replay_matches_live()


async def test_auto_start_round_false_keeps_rounds_for_the_gm(tussle):
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER), auto_start_round=False)
    for cid in ("aldo", "berk", "cade"):
        body = await enc.ok("ap-grapple.pass", combatant=cid)
        assert "TurnStarted" not in types(body)
    assert (await enc.state())["turn"] == 1
    await enc.ok("start_turn")
    assert (await enc.state())["rules"]["ap_left"] == {"aldo": 5, "berk": 5, "cade": 5}
    await enc.replay_matches_live()


async def test_options_can_change_mid_encounter(tussle):
    enc = await encounter(tussle)
    await enc.ok("set_options", options={"to_hit": "gm_target"})
    body = await enc.ok(
        "ap-grapple.make_a_grab", combatant="aldo", target="berk", to_hit_target=20, dice=[[13]]
    )
    assert data(body, "DieRolled")[0]["outcome"] == "miss"
    await enc.replay_matches_live()
