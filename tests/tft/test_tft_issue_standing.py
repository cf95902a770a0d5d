"""Issue 5: remaining standing (OPTION `standing_in_hth`) through the HTTP API: the majority rule, 3 vs DX for
each who wants to stand (and a failure), the Take Down with the Judo ST bonus, OPTION `standing_vote`, standing
joiners, a fallen entrant pulling a stander down, and disengaging from a standing brawl."""

from __future__ import annotations

import pytest

from tests.tft.helpers import fig, next_turn, of_type, types


async def _standing_pair(tussle, a_stats=None, b_stats=None, options=None, formation_dice=None):
    """Turn 1: Ann gets into a standing HTH with Ben at 0,0 (both wish to stand, both stay up)."""
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True, **(options or {})})
    await enc.add(fig("ann", "a", 12, 13, [1, 0], 3, **{"ma": 12, **(a_stats or {})}))
    await enc.add(fig("ben", "b", 12, 11, [0, 0], 0, **{"ma": 8, **(b_stats or {})}))
    for cid in ("ann", "ben"):
        await enc.ok("tft.set_hth_preferences", combatant=cid, hth_wish="stand")
    await next_turn(enc, 1)
    b = await enc.ok(
        "tft.enter_hth",
        combatant="ann",
        target="ben",
        condition="C1",
        dice=formation_dice or [[1], [3, 3, 3], [3, 3, 3]],
    )
    return enc, b


async def test_case_2_one_failure_fells_the_group(tussle):
    enc, b = await _standing_pair(tussle, formation_dice=[[1], [3, 3, 3], [6, 6, 1]])
    rolls = [r for r in of_type(b, "DieRolled") if r["purpose"] == "stay_standing"]
    assert [(r["combatant"], r["notation"], r["target"], r["outcome"]) for r in rolls] == [
        ("ann", "3d6", 13, "success"),
        ("ben", "3d6", 11, "failure"),
    ]
    assert of_type(b, "StandingCheckResolved") == [{"group": "g1", "case": 2, "standing": False}]
    assert [j["standing"] for j in of_type(b, "CloseCombatJoined")] == [True, False]
    assert sorted(p["combatant"] for p in of_type(b, "PostureChanged") if p["posture"] == "prone") == [
        "ann",
        "ben",
    ]
    st = await enc.state()
    assert st["groups"]["g1"]["standing"] is False
    await enc.replay_matches_live()


async def test_case_2_all_succeed_and_no_action_is_used(tussle):
    enc, b = await _standing_pair(tussle)
    assert of_type(b, "StandingCheckResolved") == [{"group": "g1", "case": 2, "standing": True}]
    assert "ActionSpent" not in types(b) and "PostureChanged" not in types(b)
    st = await enc.state()
    assert st["combatants"]["ann"]["posture"] == st["combatants"]["ben"]["posture"] == "standing"
    # The check is made again at the next action phase (A16).
    await enc.ok("tft.pass", combatant="ben")
    await enc.ok("tft.pass", combatant="ann")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    b = await enc.ok("start_phase", phase="action", dice=[[1, 1, 1], [1, 1, 1]])
    assert of_type(b, "StandingCheckResolved") == [{"group": "g1", "case": 2, "standing": True}]
    assert types(b).index("StandingCheckResolved") < types(b).index("InitiativeSet")
    await enc.replay_matches_live()


async def test_take_down_with_the_judo_st_bonus(tussle):
    # Ben (ST 12, Judo 1: 16 in HTH) pulls; Ann (ST 12) stands. offset 2 (no UC): Ann rolls 4 dice.
    enc, _ = await _standing_pair(tussle, b_stats={"judo": 1})
    await enc.ok("tft.set_hth_preferences", combatant="ben", hth_wish="fall", take_down_dice=2)
    for cid in (await enc.state())["initiative"]:
        await enc.ok("tft.pass", combatant=cid)
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    b = await enc.ok("start_phase", phase="action", dice=[[6, 6], [6, 6, 1, 1]])
    puller, stander = of_type(b, "DieRolled")
    assert (
        puller["combatant"],
        puller["notation"],
        puller["modifiers"],
        puller["total"],
        puller["target"],
        puller["outcome"],
    ) == ("ben", "2d6", [{"value": 4, "reason": "Judo 1 (ST in HTH)"}], 12, 16, "success")
    assert (
        stander["combatant"],
        stander["notation"],
        stander["total"],
        stander["target"],
        stander["outcome"],
    ) == ("ann", "4d6", 14, 12, "failure")
    assert of_type(b, "TakeDownResolved") == [
        {
            "group": "g1",
            "puller": "ben",
            "stander": "ann",
            "puller_dice": 2,
            "stander_dice": 4,
            "taken_down": True,
        }
    ]
    assert of_type(b, "StandingCheckResolved") == [{"group": "g1", "case": 3, "standing": False}]
    assert "ActionSpent" not in types(b)
    await enc.replay_matches_live()


async def test_case_1_majority_wishes_to_fall(tussle):
    enc, _ = await _standing_pair(tussle)
    for cid in ("ann", "ben"):
        await enc.ok("tft.set_hth_preferences", combatant=cid, hth_wish="fall")
    for cid in (await enc.state())["initiative"]:
        await enc.ok("tft.pass", combatant=cid)
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    b = await enc.ok("start_phase", phase="action")
    assert of_type(b, "StandingCheckResolved") == [{"group": "g1", "case": 1, "standing": False}]
    assert "DieRolled" not in types(b)


@pytest.mark.parametrize(
    "vote, case, purposes",
    [
        ("dissent_contest", 3, ["take_down_puller", "take_down_stander"]),
        ("majority_first", 2, ["stay_standing", "stay_standing"]),
    ],
)
async def test_standing_vote_option_with_one_faller_of_three(tussle, vote, case, purposes):
    enc, _ = await _standing_pair(tussle, options={"standing_vote": vote})
    await enc.add(fig("cid", "b", 10, 9, [0, 1], 2, ma=10))
    b = await enc.ok("tft.join_hth", combatant="cid", target="ann")
    # A standing joiner keeps his feet in a standing brawl.
    assert of_type(b, "CloseCombatJoined")[0] == {
        "group": "g1",
        "combatants": ["cid"],
        "at": [0, 0],
        "standing": True,
    }
    assert "PostureChanged" not in types(b)
    await enc.ok("tft.set_hth_preferences", combatant="ann", hth_wish="stand")
    await enc.ok("tft.set_hth_preferences", combatant="ben", hth_wish="stand")  # cid wishes to fall (default)
    for c in (await enc.state())["initiative"]:
        st = await enc.state()
        if c not in st["actions_spent"]:
            await enc.ok("tft.pass", combatant=c)
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    b = await enc.ok(
        "start_phase", phase="action", dice=[[1, 1], [1, 1, 1, 1]] if case == 3 else [[1, 1, 1], [1, 1, 1]]
    )
    assert [r["purpose"] for r in of_type(b, "DieRolled")] == purposes
    assert of_type(b, "StandingCheckResolved") == [{"group": "g1", "case": case, "standing": True}]
    if (
        case == 3
    ):  # the strongest of each camp represents it: Ann (12, first) for the standers, Cid for the fallers
        td = of_type(b, "TakeDownResolved")[0]
        assert (td["puller"], td["stander"]) == ("cid", "ann")
    await enc.replay_matches_live()


async def test_a_fallen_figure_may_not_join_a_standing_brawl(tussle):
    enc, _ = await _standing_pair(tussle)
    await enc.add(fig("cid", "b", 10, 9, [0, 1], 2, ma=10, posture="prone"))
    r = await enc.command("tft.join_hth", combatant="cid", target="ann")
    assert r.status == 422 and "the brawl is on its feet" in r.body["error"]["message"]


async def test_a_prone_entrant_pulls_the_stander_down(tussle):
    enc = await tussle.create("tft", dice="manual", options={"standing_in_hth": True})
    await enc.add(fig("ann", "a", 12, 13, [1, 0], 3, ma=12, posture="prone"))
    await enc.add(fig("ben", "b", 12, 11, [0, 0], 0, ma=8))
    for cid in ("ann", "ben"):
        await enc.ok("tft.set_hth_preferences", combatant=cid, hth_wish="stand")
    await next_turn(enc, 1)
    b = await enc.ok("tft.enter_hth", combatant="ann", target="ben", condition="C1", dice=[[2]])
    assert of_type(b, "CloseCombatJoined")[0]["standing"] is False
    assert "StandingCheckResolved" not in types(b)
    assert of_type(b, "PostureChanged") == [{"combatant": "ben", "posture": "prone"}]
    await enc.replay_matches_live()


async def test_disengaging_from_a_standing_brawl(tussle):
    enc, _ = await _standing_pair(tussle)
    for cid in (await enc.state())["initiative"]:
        await enc.ok("tft.pass", combatant=cid)
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("start_phase", phase="action", dice=[[1, 1, 1], [1, 1, 1]])
    b = await enc.ok("tft.disengage", combatant="ann", to=[1, 0], facing=3, dice=[[2, 2, 2, 2]])
    assert "PostureChanged" not in types(b)
    assert [d["how"] for d in of_type(b, "CloseCombatLeft")] == ["disengaged", "group_ended"]
    st = await enc.state()
    assert st["combatants"]["ben"]["posture"] == "standing" and st["groups"] == {}
    await enc.replay_matches_live()
