"""Grapple, takedown, pin and break free with helpers (spec section 4.9), V2 and V3."""

from __future__ import annotations

import pytest

from events.common import CloseCombatJoined
from rules.gurps.adjacent import decide_declare  # noqa: F401 - the module under test in the last tests
from rules.gurps.commands import BreakFree, ChooseManeuver, DeclareCloseCombat, Grapple, Pin, Takedown
from rules.gurps.events import Grappled, HalfHexTaken
from rules.gurps.tables import MAX_FIGHTERS
from rules.interface import RuleError
from tests.gurps.gurps_world import HAND, World, fig, of_type, one, types

EDGES = {"dorn": 0, "bram": 3, "cole": 2, "ash": 4}


def hex_fight(turn: int = 3, dorn_posture: str = "standing", ash_st: int = 10, **options) -> World:
    """Bram (ST 12) grapples Dorn (ST 13, DX 11); Cole (ST 11) and Ash share the hex."""
    w = World(**options)
    w.add(fig("dorn", "b", [0, 0], st=13, dx=11, posture=dorn_posture, weapons=[HAND]))
    w.add(fig("bram", "a", [0, 0], st=12, dx=10, weapons=[HAND]))
    w.add(fig("cole", "a", [0, 0], st=11, dx=10, weapons=[HAND]))
    w.add(fig("ash", "a", [0, 0], st=ash_st, dx=10, weapons=[HAND]))
    w.fact(
        CloseCombatJoined("cc:0,0", ["dorn", "bram", "cole", "ash"], [0, 0], dorn_posture == "standing"),
        *[HalfHexTaken(c, [0, 0], e) for c, e in EDGES.items()],
        Grappled("bram", "dorn"),
    )
    w.turn(turn)
    return w


def test_v2_takedown_with_one_helper():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Takedown(combatant="bram", target="dorn", helpers=["cole"]), dice=[[3, 4, 2], [5, 4, 3]])
    team, dorn = of_type(evs, "DieRolled")
    assert (team["target"], team["outcome"]) == (14, "success by 5")
    assert team["modifiers"] == [{"value": 2, "reason": "Cole helps (ST 11, 1/5)"}]
    assert (dorn["target"], dorn["outcome"]) == (13, "success by 1")
    qc = one(evs, "QuickContestResolved")
    assert (qc["winner"], qc["margin_of_victory"]) == ("bram", 4)
    assert one(evs, "PostureChanged") == {"type": "PostureChanged", "combatant": "dorn", "posture": "prone"}
    assert "Moved" not in types(evs)  # he stays in Bram's hex, Bram's choice
    assist = one(evs, "AssistCommitted")
    assert (assist["helper"], assist["owed_turn"]) == ("cole", 3)
    assert any(e["type"] == "ActionSpent" and e["combatant"] == "cole" for e in evs)
    assert w.state["groups"]["cc:0,0"]["standing"] is False
    assert w.replayed() == w.state


def test_v2_helper_who_already_acted_owes_his_next_turn():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="cole", maneuver="wait"))
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Takedown(combatant="bram", target="dorn", helpers=["cole"]), dice=[[3, 4, 2], [5, 4, 3]])
    assert one(evs, "AssistCommitted")["owed_turn"] == 4
    assert w.rules["assists"][0]["helper"] == "cole"
    start = w.turn(4)
    assert {
        "type": "ActionSpent",
        "combatant": "cole",
        "turn": 4,
        "why": "helping Bram's takedown on Dorn",
    } in start
    with pytest.raises(RuleError, match="already had a turn"):
        w.run(ChooseManeuver(combatant="cole", maneuver="attack"))
    assert w.rules["assists"] == []


def test_v2a_dorn_wins_and_bram_falls_losing_his_grapple():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Takedown(combatant="bram", target="dorn", helpers=["cole"]), dice=[[6, 5, 5], [3, 3, 4]])
    qc = one(evs, "QuickContestResolved")
    assert (qc["winner"], qc["margin_of_victory"]) == ("dorn", 5)
    assert one(evs, "PostureChanged")["combatant"] == "bram"
    assert one(evs, "GrappleReleased")["grappler"] == "bram"
    assert w.rules["grapples"] == []
    req = evs[-1]
    assert req["type"] == "ReactionRequested" and req["kind"] == "fall_hex" and req["default"] == "0,0"
    # The answers are offered titled by their hexes, minus signs kept: "1,-1" and "1,1" are two places.
    answers = [o for o in w.ruleset.offers(w.state, "gm") if o["reaction"] == req["id"]]
    titles = {o["fields"]["choice"]: o["title"] for o in answers}
    assert titles and all(title == choice for choice, title in titles.items()), titles
    assert len(set(titles.values())) == len(titles)
    out = w.respond("-1,0")
    assert one(out, "Moved")["reason"] == "thrown" and w.c("bram")["position"] == [-1, 0]
    assert w.replayed() == w.state


def test_takedown_tie_does_nothing():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Takedown(combatant="bram", target="dorn"), dice=[[3, 3, 3], [4, 3, 3]])
    assert one(evs, "QuickContestResolved")["winner"] is None
    assert "PostureChanged" not in types(evs)


def test_takedown_throws_into_an_adjacent_hex():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Takedown(combatant="bram", target="dorn", to=[1, 0]), dice=[[3, 3, 3], [6, 6, 6]])
    assert one(evs, "Moved")["reason"] == "thrown" and w.c("dorn")["position"] == [1, 0]
    assert w.c("dorn")["posture"] == "prone"


def test_v2b_a_second_helper_is_rejected():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    with pytest.raises(
        RuleError, match=r"too many helpers: a takedown allows at most 1 helper\(s\) \(2 fighters\)"
    ):
        w.run(Takedown(combatant="bram", target="dorn", helpers=["cole", "ash"]))


def test_v3_pin_with_two_helpers():
    w = hex_fight(turn=4, dorn_posture="prone")
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Pin(combatant="bram", target="dorn", helpers=["cole", "ash"]), dice=[[6, 6, 1], [4, 4, 4]])
    team, dorn = of_type(evs, "DieRolled")
    assert (team["target"], team["outcome"]) == (16, "success by 3")
    assert (dorn["target"], dorn["outcome"]) == (13, "success by 1")
    assert one(evs, "QuickContestResolved")["margin_of_victory"] == 2
    assert one(evs, "PinApplied") == {"type": "PinApplied", "holder": "bram", "pinned": "dorn", "turn": 4}
    assert len(of_type(evs, "AssistCommitted")) == 2
    assert w.state["pins"][0]["holder"] == "bram"
    start = w.turn(5)
    assert one(start, "PinHeld") == {"type": "PinHeld", "holder": "bram", "pinned": "dorn", "turn": 5}
    with pytest.raises(RuleError, match="pinned: only an Attack, to break free, is allowed"):
        w.run(ChooseManeuver(combatant="dorn", maneuver="move"))
    assert w.replayed() == w.state


def test_v3a_a_stronger_ash_leads_and_holds():
    w = hex_fight(turn=4, dorn_posture="prone", ash_st=14)
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Pin(combatant="bram", target="dorn", helpers=["cole", "ash"]), dice=[[6, 6, 1], [4, 4, 4]])
    team = of_type(evs, "DieRolled")[0]
    assert team["target"] == 18 and team["combatant"] == "ash"
    assert one(evs, "PinApplied")["holder"] == "ash"


def test_v3b_pin_on_a_standing_dorn_is_rejected():
    w = hex_fight(turn=4)
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    with pytest.raises(RuleError, match="not lying down"):
        w.run(Pin(combatant="bram", target="dorn", helpers=["cole"]))


def test_pin_allows_at_most_three_fighters():
    assert MAX_FIGHTERS == {"takedown": 2, "pin": 3}


def test_takedown_refusals():
    w = hex_fight(dorn_posture="prone")
    w.run(ChooseManeuver(combatant="cole", maneuver="move"))
    with pytest.raises(RuleError) as err:
        w.run(Takedown(combatant="cole", target="dorn", helpers=["cole"]))
    msg = err.value.message
    assert (
        "move is not one of attack" in msg
        and "not standing" in msg
        and "cannot help in a takedown of their own" in msg
    )


def test_takedown_needs_a_grappler_among_the_team():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="cole", maneuver="attack"))
    with pytest.raises(RuleError, match="nobody taking part grapples Dorn"):
        w.run(Takedown(combatant="cole", target="dorn", helpers=["ash"]))


def test_break_free_from_a_grapple_and_from_a_pin():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="dorn", maneuver="attack"))
    evs = w.run(BreakFree(combatant="dorn", target="bram"), dice=[[3, 3, 3], [6, 6, 6]])
    dorn = of_type(evs, "DieRolled")[0]
    assert dorn["target"] == 13  # ST; DX 11-4 is left out
    assert one(evs, "GrappleReleased")["grappler"] == "bram"
    assert w.rules["grapples"] == []
    w2 = hex_fight(turn=4, dorn_posture="prone")
    w2.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    w2.run(Pin(combatant="bram", target="dorn"), dice=[[3, 3, 3], [6, 6, 6]])
    w2.turn(5)
    w2.run(ChooseManeuver(combatant="dorn", maneuver="attack"))
    evs = w2.run(BreakFree(combatant="dorn", target="bram"), dice=[[3, 3, 3], [6, 6, 6]])
    assert types(evs)[-2:] == ["PinBroken", "GrappleReleased"]
    assert w2.state["pins"] == []
    assert w2.replayed() == w2.state


def test_break_free_refused_against_someone_who_does_not_hold_him():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="dorn", maneuver="attack"))
    with pytest.raises(RuleError, match="Cole neither grapples nor pins Dorn"):
        w.run(BreakFree(combatant="dorn", target="cole"))


def test_grapple_needs_an_empty_hand_and_the_right_maneuver():
    w = hex_fight()
    w.c("cole")["stats"]["hands"] = 0
    w.run(ChooseManeuver(combatant="cole", maneuver="feint"))
    with pytest.raises(RuleError) as err:
        w.run(Grapple(combatant="cole", target="dorn"))
    assert "feint is not one of" in err.value.message and "no empty hand" in err.value.message


def test_grapple_hits_and_the_defence_fails():
    w = hex_fight()
    w.run(ChooseManeuver(combatant="cole", maneuver="attack"))
    evs = w.run(Grapple(combatant="cole", target="dorn"), dice=[[3, 3, 3]])
    assert one(evs, "DieRolled")["purpose"] == "grapple"
    out = w.respond("dodge", dice=[[6, 6, 6]])
    assert one(out, "Grappled") == {"type": "Grappled", "grappler": "cole", "target": "dorn"}


def test_gm_mode_records_the_gm_adjudication():
    w = hex_fight(base_grapple_mode="gm")
    w.run(ChooseManeuver(combatant="bram", maneuver="attack"))
    evs = w.run(Takedown(combatant="bram", target="dorn", helpers=["cole"]), dice=[[3, 4, 2], [5, 4, 3]])
    assert "QuickContestResolved" not in types(evs)
    req = evs[-1] if evs[-1]["type"] == "ReactionRequested" else of_type(evs, "ReactionRequested")[0]
    assert req["kind"] == "gm_ruling" and req["asked_of"] == "gm"
    out = w.respond("win", text="Dorn slips and goes down")
    assert one(out, "RulingMade")["text"] == "Dorn slips and goes down"
    assert one(out, "PostureChanged")["combatant"] == "dorn"
    assert w.replayed() == w.state


def test_declare_close_combat_from_an_adjacent_hex():
    w = World(adjacent_close_combat=True)
    w.add(fig("eve", "a", [-1, 0], weapons=[HAND]))
    w.add(fig("dorn", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="eve", maneuver="attack"))
    evs = w.run(DeclareCloseCombat(combatant="eve", target="dorn"))
    half = of_type(evs, "HalfHexTaken")[-1]
    assert half["declared_adjacent"] is True and half["entry_edge"] == 3
    assert w.c("eve")["position"] == [-1, 0] and w.c("eve")["group"] == w.c("dorn")["group"]
    w.run(Grapple(combatant="eve", target="dorn"), dice=[[3, 3, 3]])
    w.respond("dodge", dice=[[6, 6, 6]])
    assert w.rules["grapples"] == [{"grappler": "eve", "grappled": "dorn"}]


def test_declare_close_combat_needs_the_option():
    w = World()
    w.add(fig("eve", "a", [-1, 0]))
    w.add(fig("dorn", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="eve", maneuver="attack"))
    with pytest.raises(RuleError, match="needs the option adjacent_close_combat"):
        w.run(DeclareCloseCombat(combatant="eve", target="dorn"))


@pytest.mark.parametrize(
    ("posture", "modifier"),
    [("standing", None), ("kneeling", (-2, "kneeling")), ("prone", (-3, "lying down"))],
)
def test_a_kneeling_or_lying_defender_dodges_at_the_posture_penalty(posture, modifier):
    """Version 5 (NOTES.md): the Basic Set's posture table, which the spec's "Dodge: as normal" keeps."""
    w = hex_fight(dorn_posture=posture)
    w.run(ChooseManeuver(combatant="cole", maneuver="attack"))
    w.run(Grapple(combatant="cole", target="dorn"), dice=[[3, 3, 3]])
    dodge = one(w.respond("dodge", dice=[[3, 3, 3]]), "DieRolled")
    base = int(w.c("dorn")["stats"]["dodge"])
    assert dodge["modifiers"] == ([] if modifier is None else [{"value": modifier[0], "reason": modifier[1]}])
    assert dodge["target"] == base + (modifier[0] if modifier else 0)
    assert w.replayed() == w.state
