"""Weapons, defence, readying and shields in close combat (spec sections 4.4-4.7) and V4."""

from __future__ import annotations

import pytest

from rules.gurps.commands import ChooseManeuver, CloseCombatAttack, DropShield, GurpsMove, ReadyItem
from rules.interface import RuleError
from tests.gurps.gurps_world import BROADSWORD, HAND, KNIFE, PISTOL, World, fig, of_type, one, types


def v4() -> World:
    """Cai (DX 12, Knife 13, shield DB 2) steps into Dun's hex from the front on turn 1."""
    w = World()
    w.add(
        fig(
            "cai",
            "a",
            [-1, 0],
            dx=12,
            dodge=9,
            skills={"Knife": 13},
            weapons=[KNIFE, HAND],
            shield={"name": "shield", "db": 2},
        )
    )
    w.add(
        fig(
            "dun",
            "b",
            [0, 0],
            facing=3,
            dx=11,
            dodge=8,
            skills={"Knife": 12},
            weapons=[dict(KNIFE), HAND, BROADSWORD],
            shield={"name": "buckler", "db": 1},
            items=[
                {"id": "knife", "name": "knife", "state": "carried"},
                {"id": "broadsword", "name": "broadsword", "state": "carried"},
            ],
        )
    )
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="attack"))
    w.run(GurpsMove(combatant="cai", path=[[0, 0]]))
    return w


def test_v4_turn1_cai_initial_attack_has_no_shield_penalty():
    w = v4()
    evs = w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 4, 5]])
    roll = one(evs, "DieRolled")
    assert (roll["target"], roll["total"], roll["modifiers"]) == (13, 12, [])
    assert roll["outcome"] == "success by 1"
    assert types(evs)[-2:] == ["GurpsDefenceAwaited", "ReactionRequested"]
    assert evs[-1]["kind"] == "defence" and evs[-1]["options"] == ["dodge", "parry"]


def test_v4_turn1_dun_ready_roll_has_no_penalty_but_an_attack_does():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[6, 6, 6]])
    evs = w.run(ReadyItem(combatant="dun", item="knife"), dice=[[3, 4, 4]])
    assert types(evs) == ["ActionSpent", "ManeuverChosen", "DieRolled", "ItemReadied"]
    assert one(evs, "DieRolled")["target"] == 11
    assert w.c("dun")["items"][0]["state"] == "ready"
    assert w.rules["fighters"]["dun"]["readied"] == ["knife"]
    w2 = v4()
    w2.run(ChooseManeuver(combatant="dun", maneuver="attack"))
    evs = w2.run(CloseCombatAttack(combatant="dun", target="cai", weapon="hand"), dice=[[6, 6, 6]])
    roll = one(evs, "DieRolled")
    assert roll["target"] == 11 - 1
    assert roll["modifiers"][0]["value"] == -1 and "not the entering attack" in roll["modifiers"][0]["reason"]


def turn2(w: World) -> World:
    w.run(ChooseManeuver(combatant="dun", maneuver="wait"))
    w.turn(2)
    return w


def test_v4_turn2_cai_attacks_at_11_and_misses():
    w = turn2(v4())
    assert w.rules["fighters"]["cai"]["cc_turns_completed"] == 1
    w.run(ChooseManeuver(combatant="cai", maneuver="attack"))
    evs = w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[4, 4, 4]])
    roll = one(evs, "DieRolled")
    assert (roll["target"], roll["outcome"]) == (11, "failure by 1")
    assert "ReactionRequested" not in types(evs)


def test_v4_turn2_cai_drops_his_shield_and_attacks_at_13_on_turn3():
    w = turn2(v4())
    evs = w.run(DropShield(combatant="cai"), dice=[[2, 3, 4]])
    assert types(evs) == ["ManeuverChosen", "DieRolled", "ItemDropped", "ActionSpent"]
    assert one(evs, "DieRolled")["target"] == 10
    assert one(evs, "ItemDropped") == {
        "type": "ItemDropped",
        "combatant": "cai",
        "item": "shield",
        "at": [0, 0],
    }
    w.turn(3)
    w.run(ChooseManeuver(combatant="cai", maneuver="attack"))
    evs = w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[4, 4, 4]])
    assert one(evs, "DieRolled")["target"] == 13
    assert w.replayed() == w.state


def test_v4_failed_drop_keeps_the_shield_and_uses_the_turn():
    w = turn2(v4())
    evs = w.run(DropShield(combatant="cai"), dice=[[5, 5, 5]])
    assert "ItemDropped" not in types(evs) and types(evs)[-1] == "ActionSpent"
    assert w.c("cai")["items"][-1]["state"] == "ready"


def test_v4_turn2_dun_dx_rolls_are_at_10():
    w = turn2(v4())
    w.run(ChooseManeuver(combatant="cai", maneuver="wait"))
    evs = w.run(ReadyItem(combatant="dun", item="knife"), dice=[[5, 5, 1]])
    roll = one(evs, "DieRolled")
    assert roll["target"] == 10 and roll["outcome"] == "failure by 1"
    assert "ItemReadied" not in types(evs)  # a failed roll still spends the Ready
    assert w.rules["fighters"]["dun"]["maneuver"] == "ready"


def test_fast_draw_two_rolls():
    w = v4()
    w.c("dun")["stats"]["skills"]["Fast-Draw (knife)"] = 12
    evs = w.run(ReadyItem(combatant="dun", item="knife", fast_draw=True), dice=[[3, 3, 3], [3, 3, 3]])
    assert [e["purpose"] for e in of_type(evs, "DieRolled")] == ["ready", "fast_draw"]
    assert "ManeuverChosen" not in types(evs)  # he still picks his maneuver
    w2 = v4()
    w2.c("dun")["stats"]["skills"]["Fast-Draw (knife)"] = 12
    evs = w2.run(ReadyItem(combatant="dun", item="knife", fast_draw=True), dice=[[3, 3, 3], [6, 6, 6]])
    assert types(evs)[-2:] == ["ItemReadied", "ActionSpent"] and "ManeuverChosen" in types(evs)
    w3 = v4()
    w3.c("dun")["stats"]["skills"]["Fast-Draw (knife)"] = 12
    evs = w3.run(ReadyItem(combatant="dun", item="knife", fast_draw=True), dice=[[6, 6, 6]])
    assert [e["purpose"] for e in of_type(evs, "DieRolled")] == ["ready"] and "ItemReadied" not in types(evs)


def test_dodge_with_shield_and_retreat_then_damage():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 3, 3]])
    out = w.respond("dodge", dice=[[6, 6, 6], [4]], retreat=True, to=[1, 0])
    assert types(out)[:4] == ["ReactionAnswered", "Moved", "CloseCombatLeft", "DieRolled"]
    dodge = of_type(out, "DieRolled")[0]
    assert dodge["purpose"] == "dodge" and dodge["target"] == 8 + 1 + 3
    assert [m["reason"] for m in dodge["modifiers"]] == ["buckler DB", "retreat"]
    damage = of_type(out, "DieRolled")[1]
    assert damage["purpose"] == "damage" and damage["total"] == 3 and damage["margin"] is None
    assert w.replayed() == w.state


def test_parry_with_a_reach_c_weapon():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 3, 3]])
    out = w.respond("parry", dice=[[1, 2, 1]], weapon="hand")
    assert one(out, "DieRolled")["target"] == 7 + 1


def test_parry_with_a_broadsword_is_refused():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 3, 3]])
    with pytest.raises(RuleError, match="the broadsword.s reach 1 lacks C"):
        w.respond("parry", weapon="broadsword")


def test_block_is_not_an_option():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 3, 3]])
    with pytest.raises(RuleError, match="no block in close combat"):
        w.respond("block")


def test_retreat_only_to_his_side():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[3, 3, 3]])
    with pytest.raises(RuleError, match="not one of the three hexes on Dun's side"):
        w.respond("dodge", retreat=True, to=[-1, 0])
    out = w.respond("dodge", dice=[[3, 3, 3]], retreat=True, to=[1, 0])
    assert one(out, "CloseCombatLeft")["how"] == "retreat"


def test_attack_with_a_reach_1_weapon_is_refused():
    w = v4()
    w.run(ChooseManeuver(combatant="dun", maneuver="attack"))
    with pytest.raises(RuleError, match="reach 1 lacks C"):
        w.run(CloseCombatAttack(combatant="dun", target="cai", weapon="broadsword"))


def test_ranged_weapon_at_its_bulk():
    w = World()
    w.add(fig("cai", "a", [-1, 0], skills={"Guns": 14}, weapons=[PISTOL]))
    w.add(fig("dun", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="attack"))
    w.run(GurpsMove(combatant="cai", path=[[0, 0]]))
    evs = w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="pistol"), dice=[[6, 6, 6]])
    roll = one(evs, "DieRolled")
    assert roll["target"] == 12 and roll["modifiers"] == [{"value": -2, "reason": "Bulk of the pistol"}]


def test_attack_refusals():
    w = World()
    w.add(fig("cai", "a", [-2, 0], weapons=[KNIFE]))
    w.add(fig("dun", "b", [0, 0]))
    w.turn(1)
    w.run(ChooseManeuver(combatant="cai", maneuver="move"))
    with pytest.raises(RuleError) as err:
        w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="spear"))
    assert "move does not allow an attack" in err.value.message
    assert "not in close combat with Dun" in err.value.message
    assert "no weapon named 'spear'" in err.value.message


def test_one_attack_per_maneuver():
    w = v4()
    w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"), dice=[[6, 6, 6]])
    with pytest.raises(RuleError, match="already attacked"):
        w.run(CloseCombatAttack(combatant="cai", target="dun", weapon="knife"))


def test_ready_refusals():
    w = v4()
    with pytest.raises(RuleError, match="already ready"):
        w.run(ReadyItem(combatant="cai", item="knife"))
    with pytest.raises(RuleError, match="needs a Ready maneuver"):
        w.run(ReadyItem(combatant="cai", item="shield"))
    with pytest.raises(RuleError, match="no Fast-Draw"):
        w.run(ReadyItem(combatant="dun", item="knife", fast_draw=True))


def test_drop_shield_refusals():
    w = World()
    w.add(fig("cai", "a", [-2, 0], shield={"name": "shield", "db": 2}))
    w.add(fig("dun", "b", [0, 0]))
    w.turn(1)
    with pytest.raises(RuleError, match="outside close combat"):
        w.run(DropShield(combatant="cai"))
    with pytest.raises(RuleError, match="wears no shield"):
        w.run(DropShield(combatant="dun"))
