"""Issue 6 audit: charges (reach, penalties, terrain, paths, failure, coherency) and being charged (turn to
face, stand and fire, run away, retarget chains), through the HTTP API with manual dice."""

from __future__ import annotations

from rt_support import at, cultist, encounter, marine, mods, of_type, rolls


async def _declare(enc, charger: str, target: str, **fields) -> str:
    body = await enc.ok("rogue-trader.charge", combatant=charger, target=target, **fields)
    return of_type(body["events"], "ReactionRequested")[0]["data"]["id"]


# ---- 4.1 reach ---------------------------------------------------------------------------------------


async def test_reach_is_twice_the_effective_move(tussle):
    """A heavy-weapon penalty of 1" leaves M3: reach 6"; c1's gap is 6.5": the charge fails 6" along."""
    enc = await encounter(tussle, [marine("m1", 0, 0, move_penalty=1), cultist("c1", 7.5, 0)])
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    evs = body["events"]
    decl = of_type(evs, "ActionDeclared", action="charge")[0]["data"]
    assert decl["params"]["reach"] == 600 and decl["targets"] == ["c1"]
    failed = of_type(evs, "RtChargeFailed")[0]["data"]
    assert (failed["needed_in"], failed["reach_in"]) == (650, 600)
    assert of_type(evs, "Moved", combatant="m1")[0]["data"]["to"] == at(6, 0)
    await enc.replay_matches_live()


async def test_terrain_divisor_halves_the_reach(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0), marine("m2", 0, 10), cultist("c1", 5, 0), cultist("c2", 5.5, 10)]
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1", terrain_divisor=2)
    assert of_type(body["events"], "CloseCombatJoined")  # gap 4" = reach 4"
    body = await enc.ok("rogue-trader.charge", combatant="m2", target="c2", terrain_divisor=2)
    failed = of_type(body["events"], "RtChargeFailed")[0]["data"]
    assert (failed["needed_in"], failed["reach_in"]) == (450, 400)
    r = await enc.command("rogue-trader.charge", combatant="m1", target="c1", terrain_divisor=0)
    assert r.status == 400
    await enc.replay_matches_live()


async def test_charge_along_a_path(tussle):
    """Waypoints count: 3" up then 2" across to the base edge = 5" of 8"; a detour beyond reach fails."""
    enc = await encounter(
        tussle, [marine("m1", 0, 0), marine("m2", 0, 20), cultist("c1", 3, 3), cultist("c2", 3, 20)]
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1", path=[at(0, 3)])
    mv = of_type(body["events"], "Moved", combatant="m1")[0]["data"]
    assert (mv["reason"], mv["to"]) == ("charge", at(2, 3))
    assert of_type(body["events"], "CloseCombatJoined")
    # m2 goes 5" up, 5" back, then 2" across: 12" > 8"; it stops 8" along its path, at (0, 22).
    body = await enc.ok("rogue-trader.charge", combatant="m2", target="c2", path=[at(0, 25), at(0, 20)])
    failed = of_type(body["events"], "RtChargeFailed")[0]["data"]
    assert (failed["needed_in"], failed["reach_in"]) == (1200, 800)
    assert of_type(body["events"], "Moved", combatant="m2")[0]["data"]["to"] == at(0, 22)
    r = await enc.command("rogue-trader.charge", combatant="m1", target="c1", path=[[1, 2, 3]])
    assert r.status == 400
    await enc.replay_matches_live()


async def test_failed_charger_may_do_nothing_else_but_still_fights(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 9.5, 0), cultist("c2", 0, 5)])
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    assert of_type(body["events"], "ActionSpent", combatant="m1", why="failed_charge")
    r = await enc.command("rogue-trader.charge", combatant="m1", target="c2")
    assert r.status == 422 and "M1 failed a charge this turn" in r.body["error"]["message"]
    red = await enc.seat("Red", ["m1"])
    r = await enc.command("move", combatant="m1", to=at(7, 1), token=red)
    assert r.status == 422 and "failed a charge" in r.body["error"]["message"]
    st = await enc.state()
    assert st["rules"]["models"]["m1"]["failed_charge_turn"] == 1
    assert "rogue-trader.charge" not in st["legal_actions"]["m1"]
    # A30: contacted later (blue's turn 2), it fights.
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    rid = await _declare(enc, "c1", "m1")
    await enc.ok("respond", reaction=rid, choice="hold")
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    assert {r["combatant"] for r in rolls(body["events"], "to_hit")} == {"m1", "c1"}
    await enc.replay_matches_live()


async def test_charge_refusals_while_charging_or_disadvantaged(tussle):
    enc = await encounter(
        tussle,
        [marine("m1", 0, 0), marine("m2", 0, 5), cultist("c1", 5, 0, reactions={}), cultist("c2", 5, 5)],
    )
    rid = await _declare(enc, "m1", "c1")
    st = await enc.state()
    assert st["legal_actions"]["c1"] == ["respond"]
    r = await enc.command("rogue-trader.charge", combatant="m2", target="c2")
    assert r.status in (409, 422), r.body  # the charged model answers first
    await enc.ok("respond", reaction=rid, choice="run_away")
    st = await enc.state()
    assert st["legal_actions"]["m1"] == ["rogue-trader.retarget"]
    r = await enc.command("rogue-trader.charge", combatant="m2", target="c2")
    assert r.status == 422 and "another charge is still being resolved" in r.body["error"]["message"]
    await enc.ok("rogue-trader.retarget", combatant="m1")
    await enc.ok("ruling", text="m2 is routed", overrides={"combatants": {"m2": {"conditions": ["routed"]}}})
    r = await enc.command("rogue-trader.charge", combatant="m2", target="c2")
    assert r.status == 422 and "M2 is routed and cannot charge" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.charge", combatant="m2", target="nobody")
    assert r.status == 422
    await enc.replay_matches_live()


async def test_coherency_during_charges_is_checked_at_the_end_of_movement(tussle):
    """A28: m1 charges away from its unit; at the end of movement it is a stray, ignored while in combat."""
    enc = await encounter(
        tussle,
        [
            marine("m1", 0, 0, unit="R"),
            marine("m2", -1.5, 0, unit="R"),
            marine("m3", -3, 0, unit="R"),
            cultist("c1", 8.9, 0),
        ],
    )
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    st = await enc.state()
    assert st["combatants"]["m1"]["position"] == at(7.9, 0)
    body = await enc.ok("start_phase", phase="shooting")
    coh = of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]
    assert coh["main_body"] == ["m2", "m3"] and coh["strays"] == [
        {"model": "m1", "status": "stray_in_combat"}
    ]
    assert not of_type(body["events"], "RtUnitSplit")
    st = await enc.state()
    assert st["rules"]["models"]["m1"]["coherency"] == "stray_in_combat"
    await enc.replay_matches_live()


# ---- 4.2 being charged -------------------------------------------------------------------------------


async def test_only_the_charged_models_seat_or_the_gm_answers(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, reactions={})])
    red = await enc.seat("Red", ["m1"])
    blue = await enc.seat("Blue", ["c1"])
    rid = await _declare(enc, "m1", "c1")
    r = await enc.command("respond", reaction=rid, choice="run_away", token=red)
    assert r.status == 403
    r = await enc.command("respond", reaction=rid, choice="hold", params={"turn_to_face": "yes"}, token=blue)
    assert r.status == 400
    r = await enc.command("respond", reaction=rid, choice="dance", token=blue)
    assert r.status == 422
    body = await enc.ok("respond", reaction=rid, choice="hold", params={"turn_to_face": True}, token=blue)
    assert of_type(body["events"], "ActionDeclared", combatant="c1", action="hold")
    assert of_type(body["events"], "FacingChanged", combatant="c1")[0]["data"]["facing"] == 180
    assert of_type(body["events"], "CloseCombatJoined")
    await enc.replay_matches_live()


async def test_standing_order_run_away_answers_at_once(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0), cultist("c1", 7, 0, reactions={"charged": "run_away"})]
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    evs = body["events"]
    assert of_type(evs, "ReactionAnswered")
    assert of_type(evs, "Moved", combatant="c1", reason="run_away")[0]["data"]["to"] == at(15, 0)
    # Nobody else within reach: the charge resolves at once and fails (the runner escaped).
    assert of_type(evs, "RtChargeFailed", target="c1")
    assert of_type(evs, "Moved", combatant="m1")[0]["data"]["to"] == at(8, 0)
    red = await enc.seat("Blue", ["c1"])
    r = await enc.command("move", combatant="c1", to=at(15, 2), token=red)
    assert r.status == 422 and "ran away" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_run_away_with_turn_to_face(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 7, 0, reactions={}, facing=90)])
    rid = await _declare(enc, "m1", "c1")
    body = await enc.ok("respond", reaction=rid, choice="run_away", params={"turn_to_face": True})
    types = [e["type"] for e in body["events"] if e["type"] in ("FacingChanged", "Moved")]
    assert types[:2] == ["FacingChanged", "Moved"]
    st = await enc.state()
    assert st["combatants"]["c1"]["facing"] == 180
    await enc.replay_matches_live()


async def test_stand_and_fire_with_gm_modifiers_hits_and_wounds(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, reactions={})])
    rid = await _declare(enc, "m1", "c1")
    r = await enc.command(
        "respond", reaction=rid, choice="stand_and_fire", params={"modifiers": [{"value": "x"}]}
    )
    assert r.status == 400
    r = await enc.command(
        "respond",
        reaction=rid,
        choice="stand_and_fire",
        params={"modifiers": [{"value": True, "reason": "x"}]},
    )
    assert r.status == 400
    # need 4, -1 hurried +1 short range: 4 hits; S3 v T4 5+: 5 wounds; save 4+: 4 saves. m1 charges on.
    body = await enc.ok(
        "respond",
        reaction=rid,
        choice="stand_and_fire",
        params={"modifiers": [{"value": 1, "reason": "short range"}]},
        dice=[[4], [5], [4]],
    )
    evs = body["events"]
    shot = rolls(evs, "stand_fire_to_hit")[0]
    assert mods(shot) == [(-1, "hurried"), (1, "short range")] and shot["outcome"] == "hit"
    assert rolls(evs, "stand_fire_save")[0]["outcome"] == "saved"
    assert of_type(evs, "CloseCombatJoined")
    await enc.replay_matches_live()


async def test_stand_and_fire_wounds_do_not_count_for_the_round(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0, W=2, save=None), cultist("c1", 5, 0, reactions={})])
    rid = await _declare(enc, "m1", "c1")
    # Hit 6, wound 6 (S3 v T4 5+), no save: 1 wound on m1 (W2) before it moves.
    body = await enc.ok("respond", reaction=rid, choice="stand_and_fire", dice=[[6], [6]])
    assert of_type(body["events"], "Wounded", combatant="m1")
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    res = of_type(body["events"], "RtCombatRoundResolved")[0]["data"]
    assert all(p["caused"] == 0 for p in res["pairs"]) and set(res["results"].values()) == {"draw"}
    await enc.replay_matches_live()


async def test_stand_and_fire_only_once_per_enemy_turn(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), marine("m2", 5, 5), cultist("c1", 5, 0, reactions={})])
    rid = await _declare(enc, "m1", "c1")
    # The shot slays m1 before it moves (hit 6, wound 6, save 1 fails).
    body = await enc.ok("respond", reaction=rid, choice="stand_and_fire", dice=[[6], [6], [1]])
    assert of_type(body["events"], "CombatantRemoved", combatant="m1")
    rid = await _declare(enc, "m2", "c1")
    r = await enc.command("respond", reaction=rid, choice="stand_and_fire")
    assert r.status == 422 and "already stood and fired this turn" in r.body["error"]["message"]
    await enc.ok("respond", reaction=rid, choice="hold")
    await enc.replay_matches_live()


async def test_a_model_already_in_contact_may_only_hold(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), marine("m2", 5, 4), cultist("c1", 5, 0)])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    body = await enc.ok("rogue-trader.charge", combatant="m2", target="c1")
    # c1's standing order `hold` answered; the question offered only hold.
    assert of_type(body["events"], "ReactionRequested")[0]["data"]["options"] == ["hold"]
    st = await enc.state()
    assert st["rules"]["contacts"] == [["c1", "m1"], ["c1", "m2"]]
    assert st["rules"]["groups"] == {"c1": ["c1", "m1", "m2"]}
    await enc.replay_matches_live()


# ---- 4.3 retarget ------------------------------------------------------------------------------------


async def test_retarget_chain_both_run_and_the_charge_fails(tussle):
    """A single charger may force several models to run; when nobody is left in reach it fails."""
    enc = await encounter(
        tussle,
        [
            marine("m6", 0, 0),
            cultist("c6", 7, 0, reactions={}),
            cultist("c7", 0, 6, reactions={}),
            cultist("c9", -20, 0),
        ],
    )
    rid = await _declare(enc, "m6", "c6")
    r = await enc.command("rogue-trader.retarget", combatant="m6", target="c7")
    assert r.status == 409 or r.status == 422, r.body  # the answer comes first
    await enc.ok("respond", reaction=rid, choice="run_away")
    r = await enc.command("rogue-trader.retarget", combatant="m6", target="c9")
    assert r.status == 422 and "beyond the charge reach" in r.body["error"]["message"]
    body = await enc.ok("rogue-trader.retarget", combatant="m6", target="c7")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    body = await enc.ok("respond", reaction=rid, choice="run_away")
    evs = body["events"]
    assert of_type(evs, "Moved", combatant="c7")[0]["data"]["to"] == at(0, 14)
    failed = of_type(evs, "RtChargeFailed")[0]["data"]
    assert (failed["target"], failed["reach_in"]) == ("c7", 800)
    assert of_type(evs, "Moved", combatant="m6")[0]["data"]["to"] == at(0, 8)
    st = await enc.state()
    assert st["rules"]["charge"] is None
    assert st["rules"]["models"]["c6"]["ran_away_turn"] == st["rules"]["models"]["c7"]["ran_away_turn"] == 1
    await enc.replay_matches_live()


async def test_retarget_refused_when_the_target_did_not_run(tussle):
    enc = await encounter(
        tussle, [marine("m6", 0, 0), cultist("c6", 7, 0, reactions={}), cultist("c7", 0, 6)]
    )
    rid = await _declare(enc, "m6", "c6")
    await enc.ok("respond", reaction=rid, choice="hold")
    r = await enc.command("rogue-trader.retarget", combatant="m6", target="c7")
    assert r.status == 422 and "no charge under way" in r.body["error"]["message"]


async def test_caught_runner_is_routed_and_the_charger_may_still_change_target(tussle):
    """4.3 DECISION: the charger "may always" change targets, even from a caught (routed) runner."""
    enc = await encounter(
        tussle,
        [
            marine("m6", 0, 0, M=6),
            cultist("c6", 7, 0, reactions={}),
            cultist("c7", 0, 6, reactions={"charged": "hold"}),
        ],
    )
    rid = await _declare(enc, "m6", "c6")
    body = await enc.ok("respond", reaction=rid, choice="run_away", params={"terrain_divisor": 2})
    assert of_type(body["events"], "ConditionChanged", combatant="c6", condition="routed", on=True)
    body = await enc.ok("rogue-trader.retarget", combatant="m6", target="c7")
    assert of_type(body["events"], "Moved", combatant="m6")[0]["data"]["to"] == at(0, 5)
    st = await enc.state()
    assert st["rules"]["contacts"] == [["c7", "m6"]] and "routed" in st["combatants"]["c6"]["conditions"]
    await enc.replay_matches_live()


async def test_the_round_is_the_active_players_or_the_gms(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0), cultist("c1", 3, 0)], options={"manual_dice_from": "actor"}
    )
    red = await enc.seat("Red", ["m1"])
    blue = await enc.seat("Blue", ["c1"])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1", token=red)
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command("rogue-trader.resolve_round", group="c1", token=blue, dice=[[1], [1]])
    assert r.status == 403 and "control" in r.body["error"]["message"], r.body
    r = await enc.command("rogue-trader.resolve_round", group="c1", token=red, dice=[[1], [1]])
    assert r.status == 201, r.body
    await enc.replay_matches_live()


async def test_standing_order_stand_and_fire_draws_its_dice_in_the_charge(tussle):
    enc = await encounter(
        tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, reactions={"charged": "stand_and_fire"})]
    )
    r = await enc.command("rogue-trader.charge", combatant="m1", target="c1")
    assert r.status == 422 and "C1's stand fire to hit roll" in r.body["error"]["message"], r.body
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1", dice=[[2]])
    evs = body["events"]
    assert (
        of_type(evs, "ActionDeclared", combatant="c1", action="stand_and_fire")[0]["data"]["params"]["weapon"]
        == "laspistol"
    )
    assert rolls(evs, "stand_fire_to_hit")[0]["outcome"] == "miss"
    assert of_type(evs, "CloseCombatJoined")
    await enc.replay_matches_live()
