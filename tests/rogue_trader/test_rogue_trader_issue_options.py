"""Issue 6 audit: every encounter option of spec §1 works through the API (the tables as encounter data
the GM may replace at creation), with manual dice."""

from __future__ import annotations

from typing import Any

import pytest
from rt_support import LASPISTOL, at, cultist, encounter, marine, mods, of_type, red_charges_blue, rolls

POWER_SWORD = {"id": "power_sword", "name": "power sword", "type": "C", "S": 5}


async def _round_two(
    tussle: Any,
    models: list[dict[str, Any]],
    charger: str,
    target: str,
    options: dict[str, Any] | None = None,
) -> Any:
    enc = await encounter(tussle, models, options=options)
    await enc.ok("rogue-trader.charge", combatant=charger, target=target)
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    return enc


async def test_defaults_are_in_the_encounter(tussle):
    enc = await tussle.create("rogue-trader", dice="manual")
    st = await enc.state()
    opts = st["options"]
    assert opts["initiative_ties"] == "simultaneous" and opts["high_to_hit"] == {"7": 4, "8": 5, "9": 6}
    assert (
        opts["wound_chart"][3][2] == 3 and opts["wound_chart"][0][4] == "N" and len(opts["wound_chart"]) == 10
    )
    assert (
        opts["strength_save_mods"],
        opts["rout_test_on_loss"],
        opts["rout_flee_in"],
        opts["count_overkill"],
        opts["turn_to_face_in_round"],
        opts["slow_weapon_bars_model"],
        opts["shoot_to_hit"],
        opts["nonliving_tail_damage"],
    ) == (False, True, 4, True, True, True, {}, 1)


async def test_high_to_hit_replaced_by_the_gm(tussle):
    enc = await _round_two(
        tussle,
        [marine("m1", 0, 0, WS=1), cultist("c1", 3, 0, WS=5)],
        "m1",
        "c1",
        options={"high_to_hit": {"7": 3, "8": 5, "9": 6}},
    )
    # Table 7: 6 then 3 now hits (the default chart needs 4); wound 1 fails; c1 misses.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[6], [3], [1], [1]])
    second = rolls(body["events"], "to_hit_second")[0]
    assert (second["target"], second["outcome"]) == (3, "hit")
    await enc.replay_matches_live()


async def test_high_to_hit_without_a_key_is_impossible(tussle):
    enc = await _round_two(
        tussle,
        [marine("m1", 0, 0, WS=1), cultist("c1", 3, 0, WS=5)],
        "m1",
        "c1",
        options={"high_to_hit": {"8": 5}},
    )
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1]])
    assert of_type(body["events"], "RtAttackResolved", attacker="m1")[0]["data"]["outcome"] == "impossible"
    await enc.replay_matches_live()


async def test_wound_chart_replaced_by_the_gm(tussle):
    chart = [[6] * 10 for _ in range(10)]
    chart[3][2] = "N"  # S4 v T3: no effect
    enc = await _round_two(
        tussle, [marine("m1", 0, 0), cultist("c1", 3, 0)], "m1", "c1", options={"wound_chart": chart}
    )
    # m1 hits (5 vs 4): S4 v T3 is N, no wound die; c1 hits (5 vs 5): S3 v T4 now 6+, a 5 fails.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[5], [5], [5]])
    assert of_type(body["events"], "RtAttackResolved", attacker="m1")[0]["data"]["outcome"] == "no_effect"
    wounds = rolls(body["events"], "to_wound")
    assert [(w["combatant"], w["target"], w["outcome"]) for w in wounds] == [("c1", 6, "no_wound")]
    await enc.replay_matches_live()


@pytest.mark.parametrize(
    ("options", "field"),
    [
        ({"wound_chart": []}, "wound_chart"),
        ({"wound_chart": [[2] * 10] * 9}, "wound_chart"),
        ({"wound_chart": [[2] * 10] * 9 + [[2] * 9]}, "wound_chart"),
        ({"wound_chart": [[2] * 10] * 9 + [[2] * 9 + [7]]}, "wound_chart"),
        ({"wound_chart": [[2] * 10] * 9 + [[2] * 9 + ["X"]]}, "wound_chart"),
        ({"high_to_hit": {"six": 4}}, "high_to_hit"),
        ({"high_to_hit": {"7": 9}}, "high_to_hit"),
        ({"rout_flee_in": -1}, "rout_flee_in"),
        ({"nonliving_tail_damage": -1}, "nonliving_tail_damage"),
        ({"shoot_to_hit": {"3": 0}}, "shoot_to_hit"),
        ({"initiative_ties": "coin"}, "initiative_ties"),
        ({"no_such_option": 1}, "no_such_option"),
    ],
)
async def test_malformed_options_are_refused_at_creation(tussle, options, field):
    r = await tussle.request(
        "POST", "/encounters", {"name": "x", "ruleset": "rogue-trader", "dice": "manual", "options": options}
    )
    assert r.status == 400, r.body
    assert field in r.body["error"]["message"], r.body


async def test_malformed_table_refused_by_set_options_too(tussle):
    enc = await tussle.create("rogue-trader", dice="manual")
    r = await enc.command("set_options", options={"wound_chart": [[2, 3]]})
    assert r.status == 400 and "wound_chart must be 10 rows" in r.body["error"]["message"], r.body
    await enc.ok("set_options", options={"high_to_hit": {"7": 3, "8": 4, "9": 5, "10": 6}})
    st = await enc.state()
    assert st["options"]["high_to_hit"]["10"] == 6


async def test_strength_save_mods(tussle):
    models = [marine("m1", 0, 0), cultist("c1", 3, 0, weapons=[dict(POWER_SWORD)])]
    # m1 misses; c1 hits (5 vs 5), wounds S5 v T4 on 3+ (3); save 4+ with S5 -2: a 5 is 3 < 4, fails.
    enc = await _round_two(tussle, models, "m1", "c1", options={"strength_save_mods": True})
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [5], [3], [5]])
    save = rolls(body["events"], "save")[0]
    assert (save["combatant"], save["target"], save["total"], save["outcome"]) == ("m1", 4, 3, "failed")
    assert mods(save) == [(-2, "strength 5")]
    assert of_type(body["events"], "ConditionChanged", combatant="m1", condition="dead")
    await enc.replay_matches_live()
    # The default: no strength modifier, the same 5 saves.
    enc = await _round_two(tussle, models, "m1", "c1")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [5], [3], [5]])
    save = rolls(body["events"], "save")[0]
    assert (save["total"], save["outcome"], save["modifiers"]) == (5, "saved", [])
    await enc.replay_matches_live()


async def test_weapon_save_modifier_and_hopeless_save(tussle):
    shuriken = {"id": "shuriken", "type": "C", "S": 4, "save_mod": -2}
    enc = await _round_two(tussle, [marine("m1", 0, 0), cultist("c1", 3, 0, weapons=[shuriken])], "m1", "c1")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [5], [4], [5]])
    save = rolls(body["events"], "save")[0]
    assert mods(save) == [(-2, "weapon save modifier")] and save["outcome"] == "failed"
    await enc.replay_matches_live()
    # A save of 6+ against -2: 8 needed, no die is rolled (A31).
    enc = await _round_two(
        tussle, [marine("m1", 0, 0, save=6), cultist("c1", 3, 0, weapons=[shuriken])], "m1", "c1"
    )
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [5], [4]])
    assert rolls(body["events"], "save") == []
    assert of_type(body["events"], "Wounded", combatant="m1")
    await enc.replay_matches_live()


async def _lost_round(tussle, options=None, rout_dice=([2, 3],)):
    """E7's round with the given options: B loses (c1 slain)."""
    enc = await red_charges_blue(tussle, options=options)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], *rout_dice])
    return enc, body["events"]


async def test_rout_test_on_loss_off(tussle):
    enc, evs = await _lost_round(tussle, {"rout_test_on_loss": False}, rout_dice=())
    assert rolls(evs, "rout_test") == []
    assert of_type(evs, "RtPushBackOwed", unit="B")[0]["data"]["models"] == ["c2"]
    await enc.replay_matches_live()


async def test_rout_flee_in(tussle):
    enc, evs = await _lost_round(tussle, {"rout_flee_in": 6}, rout_dice=([6, 6],))
    assert of_type(evs, "Moved", combatant="c2", reason="run_away")[0]["data"]["to"] == at(17, 12)
    st = await enc.state()
    assert "routed" in st["combatants"]["c2"]["conditions"]
    await enc.replay_matches_live()


async def test_turn_to_face_in_round_off(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, facing=0)], options={"turn_to_face_in_round": False}
    )
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="c1",
        round=1,
        turn_to_face="m1",
        allocations=[{"weapon": "laspistol", "target": "m1"}],
    )
    assert r.status == 422 and "turning to face during a round is not used" in r.body["error"]["message"]
    # c1 keeps facing away: its attack has no enemy in its arc and is lost; only m1 rolls.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1]])
    assert [r["combatant"] for r in rolls(body["events"], "to_hit")] == ["m1"]
    assert not of_type(body["events"], "FacingChanged")
    await enc.replay_matches_live()


async def test_turn_to_face_in_round_on_turns_by_default(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, facing=0)])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    assert of_type(body["events"], "FacingChanged", combatant="c1")[0]["data"]["facing"] == 180
    assert [r["combatant"] for r in rolls(body["events"], "to_hit")] == ["m1", "c1"]
    await enc.replay_matches_live()


async def _charged_carrier(tussle, options=None):
    slow = {"id": "lascannon", "type": "HS", "S": 9}
    enc = await encounter(
        tussle,
        [marine("m1", 0, 0), cultist("c1", 5, 0, reactions={}, weapons=[slow, dict(LASPISTOL)])],
        options=options,
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    return enc, of_type(body["events"], "ReactionRequested")[0]["data"]["id"]


async def test_slow_weapon_bars_model_off(tussle):
    enc, rid = await _charged_carrier(tussle, {"slow_weapon_bars_model": False})
    r = await enc.command("respond", reaction=rid, choice="stand_and_fire", params={"weapon": "lascannon"})
    assert r.status == 422 and "slow weapon" in r.body["error"]["message"]
    body = await enc.ok(
        "respond", reaction=rid, choice="stand_and_fire", params={"weapon": "laspistol"}, dice=[[1]]
    )
    assert rolls(body["events"], "stand_fire_to_hit")[0]["outcome"] == "miss"
    await enc.replay_matches_live()


async def test_shoot_to_hit_chart(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, reactions={})], options={"shoot_to_hit": {"3": 5}}
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    # 5 needed (not 7 - BS 3 = 4), -1 hurried: a 5 is 4, a miss.
    body = await enc.ok(
        "respond", reaction=rid, choice="stand_and_fire", params={"weapon": "laspistol"}, dice=[[5]]
    )
    shot = rolls(body["events"], "stand_fire_to_hit")[0]
    assert (shot["target"], shot["total"], shot["outcome"]) == (5, 4, "miss")
    await enc.replay_matches_live()


async def test_nonliving_tail_damage(tussle):
    devil = {
        "id": "dv",
        "name": "Devil",
        "side": "red",
        "position": at(0, 0),
        "facing": 90,
        "stats": {"creature": "catachan_devil", "size": "medium"},
        "reactions": {"charged": "hold"},
    }
    robot = cultist("t2", 0, -3, side="blue", facing=90, save=None, W=3)
    enc = await encounter(
        tussle, [devil, robot], options={"turn_order": ["blue", "red"], "nonliving_tail_damage": 2}
    )
    await enc.ok("rogue-trader.set_situation", combatant="t2", living=False)
    await enc.ok("rogue-trader.charge", combatant="t2", target="dv")
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="dv",
        round=1,
        allocations=[
            {"attack": "tail", "target": "t2"},
            *({"attack": "stomp", "target": "t2"} for _ in range(4)),
            {"attack": "tentacle", "target": "t2"},
        ],
    )
    # Tail hits (5) and wounds (4 vs 2+): 2 damage, no damage die; the rest miss; t2 misses; T2 rout 2+3.
    body = await enc.ok(
        "rogue-trader.resolve_round", group="dv", dice=[[5], [4], [1], [1], [1], [1], [1], [1], [2, 3]]
    )
    assert rolls(body["events"], "damage") == []
    assert of_type(body["events"], "Wounded", combatant="t2")[0]["data"]["amount"] == 2
    await enc.replay_matches_live()


async def test_turn_order_default_is_the_order_sides_joined(tussle):
    enc = await tussle.create("rogue-trader", dice="manual")
    await enc.add(cultist("c1", 5, 0))
    await enc.add(marine("m1", 0, 0))
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    r = await enc.command("rogue-trader.charge", combatant="m1", target="c1")
    assert r.status == 422 and "blue side's movement phase" in r.body["error"]["message"]
    body = await enc.ok("rogue-trader.charge", combatant="c1", target="m1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    body = await enc.ok("respond", reaction=rid, choice="hold")
    assert of_type(body["events"], "CloseCombatJoined")
    await enc.replay_matches_live()
