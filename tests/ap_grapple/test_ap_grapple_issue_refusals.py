"""Issue 8: each refusal of the ap-grapple ruleset over real HTTP: 422 naming every failing condition, 400 for a
field that makes no sense, 403 for a seat acting for another's combatant. A refusal appends nothing."""

from __future__ import annotations

import pytest
from ap_grapple_http import ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER, encounter, fighter, g1
from ap_grapple_world import ALDO, BERK, CADE

from tests.support.refusals import refused, unchanged


async def test_nothing_before_the_first_round(tussle):
    enc = await encounter(tussle, start=False)
    for verb, fields in (
        ("ap-grapple.pass", {}),
        ("ap-grapple.make_a_grab", {"target": "berk"}),
        ("ap-grapple.brawl", {"target": "berk"}),
    ):
        r = await enc.command(verb, combatant="aldo", dice=[[13], [37]], **fields)
        refused(r, 422, "no round has started yet (the GM starts round 1 with start_turn)")


async def test_a_stunned_combatant_may_issue_nothing(tussle):
    enc = await encounter(tussle)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="right")
    before = await enc.state()
    for verb, fields in (
        ("ap-grapple.pass", {}),
        ("ap-grapple.make_a_grab", {"target": "aldo"}),
        ("ap-grapple.brawl", {"target": "aldo"}),
    ):
        r = await enc.command(verb, combatant="berk", dice=[[13], [37]], **fields)
        refused(r, 422, "Berk is stunned until the end of round 2 and may spend no AP")
    await unchanged(enc, before)


async def test_g7_a_second_grab_with_a_swing_pending_and_2_ap(tussle):
    enc = await encounter(tussle)
    body = await g1(enc)
    before = await enc.state()
    for verb, fields in (
        ("ap-grapple.make_a_grab", {"combatant": "aldo", "target": "berk"}),
        ("ap-grapple.brawl", {"combatant": "cade", "target": "berk"}),
        ("ap-grapple.pass", {"combatant": "cade"}),
        ("start_turn", {}),
        ("move", {"combatant": "berk", "to": [2, 2]}),
    ):
        r = await enc.command(verb, dice=[[13], [37]], **fields)
        assert r.status == 422 and r.body["error"]["code"] == "reaction_pending", (verb, r.body)
    rid = next(e["data"]["id"] for e in body["events"] if e["type"] == "ReactionRequested")
    r = await enc.command("respond", reaction=rid, choice="in_place")
    refused(
        r, 422, "Aldo cannot swing Berk there: in_place is only for a swing against a barrier (barrier: true)"
    )
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="own_hex", barrier=True)
    refused(r, 422, "a swing into the attacker's own hex cannot end against a barrier")
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="behind")
    refused(r, 422, "'behind' is not a destination; choose one of: left, right, own_hex, in_place")
    r = await enc.command("ap-grapple.swing_target", combatant="berk", to="own_hex")
    refused(r, 422, "Berk has no swing to make: a swing follows a grab that pulled the enemy off balance")
    r = await enc.command("respond", reaction=rid, choice="left", barrier="yes")
    assert r.status == 400 and r.body["error"]["details"]["field"] == "barrier", r.body
    r = await enc.command("respond", reaction=rid, choice="left", speed=2)
    assert r.status == 400 and r.body["error"]["details"]["field"] == "speed", r.body
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="left", barrier="yes")
    assert r.status == 400, r.body
    await unchanged(enc, before)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    before = await enc.state()
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    refused(
        r,
        422,
        "Aldo cannot make a grab: a grab needs 3 AP and Aldo has 2 left; Berk is in Aldo's own hex; "
        "a grab needs the enemy in a hex next to the attacker",
    )
    r = await enc.command("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    refused(r, 422, "Aldo has no swing to make")
    await unchanged(enc, before)


async def test_an_occupied_side_hex_is_no_destination(tussle):
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, BERK_FIGHTER, fighter("cade", "a", CADE, [1, -1])))
    await g1(enc)
    before = await enc.state()
    for barrier in (False, True):
        r = await enc.command(
            "ap-grapple.swing_target", combatant="aldo", to="left", barrier=barrier, dice=[[2]]
        )
        refused(r, 422, "the left hex is occupied, so Berk cannot be swung there")
    await unchanged(enc, before)


async def test_grab_refusals_name_each_condition(tussle):
    ghost = fighter("ghost", "b", {"strength": 10}, [5, 5])  # no weight
    weak = fighter("weak", "a", {"weight_lb": 100, "thac0": 20}, [5, 4])  # no strength
    # ("has no position on the map" cannot happen through the API: the engine requires hex positions.)
    enc = await encounter(tussle, figures=(ALDO_FIGHTER, BERK_FIGHTER, CADE_FIGHTER, ghost, weak))
    before = await enc.state()
    cases = [
        ({"combatant": "aldo", "target": "aldo"}, ["Aldo cannot wrestle Aldo"]),
        (
            {"combatant": "aldo", "target": "cade"},
            ["Cade is on Aldo's own side, not an enemy", "Cade is not in a hex next to Aldo"],
        ),
        (
            {"combatant": "weak", "target": "ghost"},
            [
                "Ghost has no weight_lb stat (the GM enters a body weight)",
                "Weak has no strength stat (the GM enters one)",
                "Ghost has no ac stat (the GM enters one)",
            ],
        ),
        ({"combatant": "cade", "target": "berk"}, ["Berk is not in a hex next to Cade"]),
        ({"combatant": "aldo", "target": "ghost"}, ["Ghost has no weight_lb stat"]),
    ]
    for fields, problems in cases:
        r = await enc.command("ap-grapple.make_a_grab", dice=[[13], [37]], **fields)
        refused(r, 422, *problems)
        assert r.body["error"]["message"].startswith(f"{fields['combatant'].title()} cannot make a grab: ")
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="nobody", dice=[[13]])
    refused(r, 422, "there is no combatant 'nobody' in this encounter")
    await unchanged(enc, before)


async def test_grab_needs_thac0_and_ac(tussle):
    aldo = fighter("aldo", "a", {k: v for k, v in ALDO.items() if k != "thac0"}, [0, 0])
    berk = fighter("berk", "b", {k: v for k, v in BERK.items() if k != "ac"}, [1, 0])
    enc = await encounter(tussle, figures=(aldo, berk))
    r = await enc.command("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13]])
    refused(r, 422, "Aldo has no thac0 stat (the GM enters one); Berk has no ac stat (the GM enters one)")


async def test_b3_and_other_brawl_refusals(tussle):
    enc = await encounter(
        tussle,
        figures=(
            ALDO_FIGHTER,
            BERK_FIGHTER,
            CADE_FIGHTER,
            fighter("dan", "b", {**BERK, "ap_per_round": 0}, [-3, 0]),
        ),
    )
    await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[9]])
    before = await enc.state()
    cases = [
        (
            {"combatant": "aldo", "target": "berk"},
            ["a brawl takes the whole round and Aldo has already spent 3 of 5 AP this round"],
        ),
        ({"combatant": "dan", "target": "aldo"}, ["Dan has no AP this round"]),
        (
            {"combatant": "cade", "target": "berk"},
            ["Berk is not next to Cade (give a path that ends next to Berk)"],
        ),
        (
            {"combatant": "cade", "target": "berk", "path": [[3, 0], [2, 0], [2, 1], [2, 2], [2, 3], [2, 4]]},
            [
                "the path is 6 hexes (6 AP) but Cade has only 5 AP",
                "the path ends at [2, 4], not next to Berk",
            ],
        ),
        ({"combatant": "cade", "target": "berk", "path": [[2, 0]]}, ["path[0] [2, 0] is not next to [4, 0]"]),
        (
            {"combatant": "cade", "target": "berk", "path": [[3, 0], [2, 0], [1, 0]]},
            ["path[2] [1, 0] is held by Berk", "the path ends at [1, 0], not next to Berk"],
        ),
        ({"combatant": "cade", "target": "aldo", "path": [[3, 0], [2, 0]]}, ["Aldo is on Cade's own side"]),
    ]
    for fields, problems in cases:
        r = await enc.command("ap-grapple.brawl", dice=[[10]], **fields)
        refused(r, 422, *problems)
        assert r.body["error"]["message"].startswith(f"{fields['combatant'].title()} cannot brawl: ")
    r = await enc.command("ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0, 1]], dice=[[10]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "path[0]", r.body
    await unchanged(enc, before)


async def test_pass_with_no_ap_left(tussle):
    enc = await encounter(tussle, auto_start_round=False)
    await enc.ok("ap-grapple.pass", combatant="aldo")
    r = await enc.command("ap-grapple.pass", combatant="aldo")
    refused(r, 422, "Aldo cannot pass: Aldo has no AP left to give up")


async def test_to_hit_target_field_follows_the_option(tussle):
    enc = await encounter(tussle)
    for verb in ("ap-grapple.make_a_grab", "ap-grapple.brawl"):
        r = await enc.command(verb, combatant="aldo", target="berk", to_hit_target=8, dice=[[13]])
        assert (
            r.status == 400
            and "to_hit_target is only used when the option to_hit is gm_target" in r.body["error"]["message"]
        ), r.body
    enc = await encounter(tussle, to_hit="gm_target")
    r = await enc.command("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[13]])
    assert r.status == 400 and r.body["error"]["details"]["field"] == "to_hit_target", r.body


async def test_a_seat_acts_only_for_its_own_combatants(tussle):
    enc = await encounter(tussle)
    tok = await enc.seat("Alice", ["aldo"])
    for verb, fields in (
        ("ap-grapple.pass", {"combatant": "berk"}),
        ("ap-grapple.make_a_grab", {"combatant": "berk", "target": "aldo"}),
        ("ap-grapple.brawl", {"combatant": "cade", "target": "berk"}),
        ("ap-grapple.swing_target", {"combatant": "cade", "to": "left"}),
        ("start_turn", {}),
    ):
        r = await enc.command(verb, token=tok, **fields)
        assert r.status == 403, (verb, r.body)
    body = await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [37]])
    rid = next(e["data"]["id"] for e in body["events"] if e["type"] == "ReactionRequested")
    bob = await enc.seat("Bob", ["berk"])
    r = await enc.command("respond", token=bob, reaction=rid, choice="own_hex")
    assert r.status == 403, r.body


@pytest.mark.parametrize(
    "options",
    [
        {"stun_duration": "forever"},
        {"to_hit": "thac0"},
        {"swing_destinations": "anywhere"},
        {"brawl_ratio_rule": "upper_row"},
        {"strict_initiative": "yes"},
        {"natural_20_hits": 1},
        {"auto_start_round": None},
        {"weight_unit": "kg"},
    ],
)
async def test_bad_options_are_400(tussle, options):
    r = await tussle.request(
        "POST", "/encounters", {"name": "x", "ruleset": "ap-grapple", "options": options}
    )
    assert r.status == 400, r.body


@pytest.mark.parametrize(
    ("combatant", "field"),
    [
        ({"stats": {"weight_lb": 0}}, "combatant.stats.weight_lb"),
        ({"stats": {"weight_lb": "heavy"}}, "combatant.stats.weight_lb"),
        ({"stats": {"strength": "strong"}}, "combatant.stats.strength"),
        ({"stats": {"ap_per_round": -1}}, "combatant.stats.ap_per_round"),
        ({"stats": {"thac0": "16"}}, "combatant.stats.thac0"),
        ({"stats": {}, "facing": 6}, "combatant.facing"),
    ],
)
async def test_bad_combatants_are_400(tussle, combatant, field):
    enc = await encounter(tussle, figures=(), start=False)
    r = await enc.command(
        "add_combatant", combatant={"id": "x", "name": "X", "side": "a", "position": [0, 0], **combatant}
    )
    assert r.status == 400 and r.body["error"]["details"]["field"] == field, r.body


async def test_exceptional_strength_is_entered_as_18(tussle):
    enc = await encounter(tussle, figures=(), start=False)
    await enc.add(
        {
            "id": "x",
            "name": "X",
            "side": "a",
            "position": [0, 0],
            "stats": {"strength": "18/50", "weight_lb": 200},
        }
    )
    assert (await enc.state())["combatants"]["x"]["stats"]["strength"] == 18
