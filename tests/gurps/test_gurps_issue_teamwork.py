"""Issue 7, Multiple close combat and helpers, through the HTTP API with manual dice: V2 / V2a / V3 /
V3a in this encounter's turns, takedown ties and throws, the fall_hex answer, pins and what a pinned
figure may do, break free from a grapple and from a pin, OPTIONs helper_cost, posture_penalty,
base_grapple_mode "gm" (the GM's adjudication) and adjacent_close_combat, and every refusal."""

from __future__ import annotations

import pytest

from tests.gurps.gurps_http_scenes import (
    grappling,
    last_request,
    log_text,
    of_type,
    refused,
    replay_equals_live,
    rolls,
    types,
)
from tests.gurps.gurps_world import HAND, fig

V2_DICE = [[3, 4, 2], [5, 4, 3]]  # team 9 vs 14, success by 5; Dorn 12 vs 13, success by 1
V3_DICE = [[6, 6, 1], [4, 4, 4]]


async def test_v2_takedown_with_a_helper_and_the_log_of_section_7(tussle):
    enc = await grappling(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=V2_DICE)
    assert types(b) == [
        "ActionDeclared",
        "DieRolled",
        "DieRolled",
        "QuickContestResolved",
        "PostureChanged",
        "CloseCombatJoined",
        "AssistCommitted",
        "ActionSpent",
    ]
    team, dorn = rolls(b)
    assert (team["combatant"], team["target"], team["margin"]) == ("bram", 14, 5)
    assert team["modifiers"] == [{"value": 2, "reason": "Cole helps (ST 11, 1/5)"}]
    assert (dorn["purpose"], dorn["target"], dorn["margin"]) == ("takedown_resist", 13, 1)
    qc = of_type(b, "QuickContestResolved")[0]
    assert (qc["kind"], qc["winner"], qc["margin_of_victory"]) == ("takedown", "bram", 4)
    assert qc["sides"][0]["helpers"] == ["cole"]
    assert of_type(b, "AssistCommitted")[0] == {
        "helper": "cole",
        "lead": "bram",
        "target": "dorn",
        "action": "takedown",
        "owed_turn": 3,
    }
    st = await enc.state()
    dorn_c = st["combatants"]["dorn"]
    assert (dorn_c["posture"], dorn_c["position"]) == ("prone", [0, 0])  # he stays in Bram's hex
    assert st["groups"][dorn_c["group"]]["standing"] is False
    text = await log_text(enc)
    assert (
        "Bram rolls 3d6 for the takedown: [3, 4, 2] = 9 vs score 12 + 2 (Cole helps (ST 11, 1/5)) = 14"
        in text
    )
    assert "Dorn rolls 3d6 for resisting the takedown: [5, 4, 3] = 12 vs score 13" in text
    assert "Bram wins by 4: Dorn is taken down." in text and "Dorn is now prone." in text
    assert "Cole helps Bram's takedown on Dorn; Cole's turn 3 is spent helping." in text
    await refused(
        enc, "gurps.choose_maneuver", "Cole has already had a turn", combatant="cole", maneuver="wait"
    )
    await replay_equals_live(enc)


async def test_v2_a_helper_who_has_acted_owes_his_next_turn(tussle):
    enc = await grappling(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="cole", maneuver="wait")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=V2_DICE)
    assert of_type(b, "AssistCommitted")[0]["owed_turn"] == 4 and "ActionSpent" not in types(b)
    assert (await enc.state())["rules"]["assists"][0]["helper"] == "cole"
    b = await enc.ok("start_turn", turn=4)
    spent = [d for d in of_type(b, "ActionSpent") if d["turn"] == 4]
    assert spent == [{"combatant": "cole", "turn": 4, "why": "helping Bram's takedown on Dorn"}]
    await refused(
        enc, "gurps.choose_maneuver", "Cole has already had a turn", combatant="cole", maneuver="wait"
    )
    assert (await enc.state())["rules"]["assists"] == []
    await replay_equals_live(enc)


async def test_helper_cost_none(tussle):
    enc = await grappling(tussle, helper_cost="none")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=V2_DICE)
    assert of_type(b, "AssistCommitted")[0]["owed_turn"] is None and "ActionSpent" not in types(b)
    await enc.ok("gurps.choose_maneuver", combatant="cole", maneuver="wait")
    await replay_equals_live(enc)


async def test_v2_takedown_tie_does_nothing(tussle):
    enc = await grappling(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok(
        "gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=[[3, 4, 2], [2, 3, 3]]
    )
    assert of_type(b, "QuickContestResolved")[0]["winner"] is None
    assert "PostureChanged" not in types(b)
    assert (await enc.state())["combatants"]["dorn"]["posture"] == "standing"
    await replay_equals_live(enc)


async def test_a_takedown_throws_dorn_into_the_next_hex(tussle):
    enc = await grappling(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok(
        "gurps.takedown", combatant="bram", target="dorn", to=[-1, 0], dice=[[3, 3, 3], [6, 6, 6]]
    )
    assert of_type(b, "Moved")[0] == {
        "combatant": "dorn",
        "to": [-1, 0],
        "reason": "thrown",
        "facing": None,
        "from": [0, 0],
    }
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "thrown"
    assert of_type(b, "GrappleReleased")[0]["why"] == "thrown out of the hex"
    st = await enc.state()
    assert st["combatants"]["dorn"]["position"] == [-1, 0] and st["rules"]["grapples"] == []
    await replay_equals_live(enc)


async def test_v2a_dorn_wins_and_puts_the_fallen_bram_next_door(tussle):
    enc = await grappling(tussle)
    seat = await enc.seat("Dee", ["dorn"])
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok(
        "gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=[[6, 5, 5], [3, 3, 4]]
    )
    team, dorn = rolls(b)
    assert (team["outcome"], dorn["outcome"]) == ("failure by 2", "success by 3")
    assert of_type(b, "QuickContestResolved")[0]["winner"] == "dorn"
    assert of_type(b, "PostureChanged")[0] == {"combatant": "bram", "posture": "prone"}
    assert of_type(b, "GrappleReleased")[0] == {
        "grappler": "bram",
        "target": "dorn",
        "why": "the takedown failed",
    }
    req = last_request(b)
    assert (req["kind"], req["combatant"], req["default"]) == ("fall_hex", "dorn", "0,0")
    assert req["asked_of"] != "gm" and "-1,0" in req["options"]
    r = await enc.command("respond", reaction=req["id"], choice="5,5", token=seat)
    assert r.status == 422, r.body
    r = await enc.command("respond", reaction=req["id"], choice="-1,0", gently=True, token=seat)
    assert r.status == 400, r.body
    r = await enc.command("respond", reaction=req["id"], choice="-1,0", token=seat)
    assert r.status == 201, r.body
    assert of_type(r.body, "Moved")[0]["reason"] == "thrown"
    st = await enc.state()
    assert st["combatants"]["bram"]["position"] == [-1, 0] and st["combatants"]["bram"]["posture"] == "prone"
    assert st["rules"]["grapples"] == []
    await replay_equals_live(enc)


@pytest.mark.parametrize(
    "posture, options, value, reason",
    [
        ("kneeling", None, -2, "lead kneeling"),
        ("prone", None, -4, "lead lying down"),
        ("kneeling", {"kneeling": -3, "lying": -6}, -3, "lead kneeling"),
        ("on_back", {"kneeling": -3, "lying": -6}, -6, "lead lying down"),
    ],
)
async def test_posture_penalty_of_a_lead_who_is_not_standing(tussle, posture, options, value, reason):
    opts = {"posture_penalty": options} if options else {}
    enc = await grappling(tussle, bram_posture=posture, **opts)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", dice=[[3, 3, 3], [6, 6, 6]])
    team = rolls(b)[0]
    assert team["modifiers"] == [{"value": value, "reason": reason}] and team["target"] == 12 + value
    await replay_equals_live(enc)


async def test_v3_pin_with_two_helpers_then_what_the_pinned_may_do_and_breaking_it(tussle):
    enc = await grappling(tussle, dorn_posture="prone")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.pin", combatant="bram", target="dorn", helpers=["cole", "ash"], dice=V3_DICE)
    team, dorn = rolls(b)
    assert (team["target"], team["outcome"], dorn["target"], dorn["outcome"]) == (
        16,
        "success by 3",
        13,
        "success by 1",
    )
    assert of_type(b, "QuickContestResolved")[0]["margin_of_victory"] == 2
    assert of_type(b, "PinApplied")[0] == {"holder": "bram", "pinned": "dorn", "turn": 3}
    assert [a["helper"] for a in of_type(b, "AssistCommitted")] == ["cole", "ash"]
    st = await enc.state()
    assert [{k: p[k] for k in ("holder", "pinned", "turn")} for p in st["pins"]] == [
        {"holder": "bram", "pinned": "dorn", "turn": 3}
    ]
    assert st["rules"]["grapples"] == [{"grappler": "bram", "grappled": "dorn"}]
    b = await enc.ok("start_turn", turn=4)
    assert of_type(b, "PinHeld")[0] == {"holder": "bram", "pinned": "dorn", "turn": 4}
    # The pinned figure may only take an Attack, and only to break free.
    await refused(
        enc, "gurps.choose_maneuver", "Dorn is pinned: only an Attack", combatant="dorn", maneuver="move"
    )
    await refused(enc, "gurps.ready_item", "Dorn is pinned", combatant="dorn", item="hand")
    await enc.ok("gurps.choose_maneuver", combatant="dorn", maneuver="attack")
    await refused(enc, "gurps.move", "Dorn is pinned and cannot move", combatant="dorn", path=[[1, 0]])
    await refused(
        enc,
        "gurps.close_combat_attack",
        "Dorn is pinned: only breaking free is allowed",
        combatant="dorn",
        target="bram",
        weapon="hand",
    )
    await refused(enc, "gurps.grapple", "Dorn is pinned", combatant="dorn", target="bram")
    # Break free: Dorn's ST 13 (9, success by 4) against Bram's 12 (18, a failure).
    b = await enc.ok("gurps.break_free", combatant="dorn", target="bram", dice=[[3, 3, 3], [6, 6, 6]])
    assert [(r["purpose"], r["target"]) for r in rolls(b)] == [("break_free", 13), ("break_free_resist", 12)]
    assert of_type(b, "PinBroken")[0] == {"pinned": "dorn", "holder": "bram"}
    assert of_type(b, "GrappleReleased")[0]["why"] == "broken free"
    st = await enc.state()
    assert st["pins"] == [] and st["rules"]["grapples"] == []
    text = await log_text(enc)
    assert "Bram pins Dorn." in text and "Dorn breaks Bram's pin." in text
    await replay_equals_live(enc)


async def test_v3a_a_stronger_ash_leads_and_holds_the_pin(tussle):
    enc = await grappling(tussle, dorn_posture="prone", ash_st=14)
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.pin", combatant="bram", target="dorn", helpers=["cole", "ash"], dice=V3_DICE)
    team = rolls(b)[0]
    assert (team["combatant"], team["target"]) == ("ash", 18)
    assert team["modifiers"] == [
        {"value": 2, "reason": "Bram helps (ST 12, 1/5)"},
        {"value": 2, "reason": "Cole helps (ST 11, 1/5)"},
    ]
    assert of_type(b, "PinApplied")[0]["holder"] == "ash"
    # Bram acts on his own turn; the helpers (Ash leading among them) pay with theirs.
    assert [(a["helper"], a["lead"]) for a in of_type(b, "AssistCommitted")] == [
        ("cole", "bram"),
        ("ash", "bram"),
    ]
    assert "Ash helps Bram's pin on Dorn" in await log_text(enc)
    await replay_equals_live(enc)


async def test_breaking_free_of_a_grapple_and_failing(tussle):
    enc = await grappling(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="dorn", maneuver="wait")
    await refused(
        enc,
        "gurps.break_free",
        "breaking free needs an Attack maneuver, not wait",
        combatant="dorn",
        target="bram",
    )
    await enc.ok("start_turn", turn=4)
    await enc.ok("gurps.choose_maneuver", combatant="dorn", maneuver="attack")
    await refused(
        enc, "gurps.break_free", "Cole neither grapples nor pins Dorn", combatant="dorn", target="cole"
    )
    b = await enc.ok("gurps.break_free", combatant="dorn", target="bram", dice=[[6, 6, 6], [3, 3, 3]])
    assert of_type(b, "QuickContestResolved")[0]["winner"] == "bram" and "GrappleReleased" not in types(b)
    assert (await enc.state())["rules"]["grapples"] == [{"grappler": "bram", "grappled": "dorn"}]
    await replay_equals_live(enc)


async def test_takedown_pin_and_helper_refusals_through_http(tussle):
    enc = await grappling(tussle)
    await enc.add(fig("eve", "a", [4, 4], weapons=[HAND]))
    await enc.add(fig("gus", "b", [0, 1], weapons=[HAND]))
    await enc.add(fig("fay", "b", [1, -1], weapons=[HAND]))
    await enc.ok("gurps.choose_maneuver", combatant="gus", maneuver="move")
    await enc.ok("gurps.move", combatant="gus", path=[[0, 0]])
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    cases = [
        (
            "gurps.takedown",
            {"helpers": ["cole", "ash"]},
            "too many helpers: a takedown allows at most 1 helper(s)",
        ),
        ("gurps.takedown", {"helpers": ["cole", "cole"]}, "a helper is named twice"),
        ("gurps.takedown", {"helpers": ["eve"]}, "Eve is not in close combat with Dorn"),
        ("gurps.takedown", {"helpers": ["gus"]}, "Gus is not on Bram's side"),
        ("gurps.takedown", {"helpers": ["dorn"]}, "Dorn cannot help in a takedown of their own"),
        ("gurps.takedown", {"helpers": ["nobody"]}, "no combatant"),
        ("gurps.takedown", {"to": [3, 3]}, "[3, 3] is neither Bram's hex nor next to it"),
        ("gurps.takedown", {"to": [1, -1]}, "[1, -1] is occupied"),
        (
            "gurps.pin",
            {"helpers": ["cole", "ash", "eve"]},
            "too many helpers: a pin allows at most 2 helper(s)",
        ),
        ("gurps.pin", {}, "Dorn is not lying down (standing): a pin needs a target on the ground"),
        ("gurps.takedown", {"target": "gus"}, "nobody taking part grapples Gus"),
    ]
    for type_, fields, message in cases:
        await refused(enc, type_, message, **{"combatant": "bram", "target": "dorn", **fields})
    await enc.ok("gurps.takedown", combatant="bram", target="dorn", dice=[[3, 3, 3], [6, 6, 6]])
    await refused(
        enc, "gurps.takedown", "Bram has already attacked this maneuver", combatant="bram", target="dorn"
    )
    await enc.ok("gurps.choose_maneuver", combatant="ash", maneuver="move_and_attack")
    await refused(
        enc, "gurps.takedown", "move_and_attack is not one of attack", combatant="ash", target="dorn"
    )
    await refused(enc, "gurps.takedown", "Dorn is not standing (prone)", combatant="ash", target="dorn")


async def test_grapple_refusals_through_http(tussle):
    enc = await grappling(tussle)
    await enc.add(fig("eve", "a", [4, 4], weapons=[HAND], shield={"name": "shield", "db": 1}, **{"hands": 1}))
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    await refused(enc, "gurps.grapple", "Bram already grapples Dorn", combatant="bram", target="dorn")
    await enc.ok("gurps.choose_maneuver", combatant="cole", maneuver="wait")
    await refused(enc, "gurps.grapple", "wait is not one of", combatant="cole", target="dorn")
    await enc.ok("gurps.choose_maneuver", combatant="eve", maneuver="attack")
    await refused(enc, "gurps.grapple", "Eve has no empty hand", combatant="eve", target="dorn")


# ---- OPTION base_grapple_mode: "gm" ---------------------------------------------------------------


async def test_gm_mode_grapple_hit_and_miss(tussle):
    enc = await grappling(tussle, base_grapple_mode="gm")
    st = await enc.state()
    assert st["rules"]["grapples"] == [{"grappler": "bram", "grappled": "dorn"}]
    await enc.ok("gurps.choose_maneuver", combatant="cole", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="cole", target="dorn", dice=[[3, 3, 3]])
    req = last_request(b)
    assert (req["kind"], req["asked_of"], req["options"]) == ("gm_ruling", "gm", ["hit", "miss"])
    r = await enc.command("respond", reaction=req["id"], choice="win")
    assert r.status == 422, r.body
    r = await enc.command("respond", reaction=req["id"], choice="miss", reason="x")
    assert r.status == 400, r.body
    b = await enc.ok("respond", reaction=req["id"], choice="miss", text="Dorn twists away")
    assert of_type(b, "RulingMade")[0]["text"] == "Dorn twists away" and "Grappled" not in types(b)
    assert "GM ruling: Dorn twists away" in await log_text(enc)
    await replay_equals_live(enc)


@pytest.mark.parametrize("choice, posture", [("win", "prone"), ("tie", "standing")])
async def test_gm_mode_takedown_records_the_adjudication(tussle, choice, posture):
    enc = await grappling(tussle, base_grapple_mode="gm")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", helpers=["cole"], dice=V2_DICE)
    assert types(b)[-1] == "ReactionRequested"
    assert [r["target"] for r in rolls(b)] == [14, 13] and "QuickContestResolved" not in types(b)
    assert of_type(b, "AssistCommitted")[0]["helper"] == "cole"
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice=choice)
    assert of_type(b, "RulingMade")[0]["text"] == f"GM rules the takedown: {choice}"
    assert (await enc.state())["combatants"]["dorn"]["posture"] == posture
    await replay_equals_live(enc)


async def test_gm_mode_takedown_loss_then_fall_hex(tussle):
    enc = await grappling(tussle, base_grapple_mode="gm")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", dice=V2_DICE)
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="loss")
    assert last_request(b)["kind"] == "fall_hex"
    await enc.ok("respond", reaction=last_request(b)["id"], choice="0,0")
    assert (await enc.state())["combatants"]["bram"]["posture"] == "prone"
    await replay_equals_live(enc)


async def test_gm_mode_pin_and_break_free(tussle):
    enc = await grappling(tussle, dorn_posture="prone", base_grapple_mode="gm")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.pin", combatant="bram", target="dorn", helpers=["cole", "ash"], dice=V3_DICE)
    assert types(b)[-1] == "ReactionRequested"
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="win")
    assert of_type(b, "PinApplied")[0] == {"holder": "bram", "pinned": "dorn", "turn": 3}
    await enc.ok("start_turn", turn=4)
    await enc.ok("gurps.choose_maneuver", combatant="dorn", maneuver="attack")
    b = await enc.ok("gurps.break_free", combatant="dorn", target="bram", dice=[[3, 3, 3], [6, 6, 6]])
    assert "QuickContestResolved" not in types(b)
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="win", text="he wriggles out")
    assert types(b)[1:] == ["RulingMade", "PinBroken", "GrappleReleased"]
    st = await enc.state()
    assert st["pins"] == [] and st["rules"]["grapples"] == []
    await replay_equals_live(enc)


# ---- OPTION adjacent_close_combat ------------------------------------------------------------------


async def test_declared_close_combat_from_the_next_hex_helps_and_leaves_anywhere(tussle):
    enc = await grappling(tussle, adjacent_close_combat=True)
    await enc.add(fig("eve", "a", [0, 1], st=10, weapons=[HAND]))
    await enc.add(fig("hal", "a", [4, 4], weapons=[HAND]))
    await enc.ok("gurps.choose_maneuver", combatant="eve", maneuver="wait")
    b = await enc.ok("gurps.declare_close_combat", combatant="eve", target="dorn")
    assert types(b) == ["CloseCombatJoined", "HalfHexTaken"]
    assert of_type(b, "HalfHexTaken")[0] == {
        "combatant": "eve",
        "hex": [0, 0],
        "entry_edge": 5,
        "moved_in": False,
        "declared_adjacent": True,
    }
    st = await enc.state()
    assert st["combatants"]["eve"]["position"] == [0, 1]
    assert st["rules"]["hexes"]["0,0"]["occupants"]["eve"] == {"entry_edge": 5, "declared_adjacent": True}
    assert "Eve declares close combat from the next hex" in await log_text(enc)
    await refused(
        enc,
        "gurps.declare_close_combat",
        "Eve is already in close combat with Dorn",
        combatant="eve",
        target="dorn",
    )
    await enc.ok("gurps.choose_maneuver", combatant="hal", maneuver="wait")
    await refused(
        enc, "gurps.declare_close_combat", "Hal is not in a hex next to Dorn", combatant="hal", target="dorn"
    )
    await refused(enc, "gurps.declare_close_combat", "Cole is not a foe", combatant="hal", target="cole")
    await enc.ok("gurps.choose_maneuver", combatant="bram", maneuver="attack")
    b = await enc.ok("gurps.takedown", combatant="bram", target="dorn", helpers=["eve"], dice=V2_DICE)
    assert of_type(b, "AssistCommitted")[0]["owed_turn"] == 4
    await enc.ok("start_turn", turn=4)
    await enc.ok("start_turn", turn=5)
    await enc.ok("gurps.choose_maneuver", combatant="eve", maneuver="move")
    b = await enc.ok(
        "gurps.move", combatant="eve", path=[[1, 1]]
    )  # a declared fighter leaves by moving anywhere
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "move"
    assert "eve" not in (await enc.state())["rules"]["hexes"]["0,0"]["occupants"]
    await replay_equals_live(enc)
