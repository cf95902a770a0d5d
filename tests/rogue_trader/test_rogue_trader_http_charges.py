"""E10, E11 over HTTP with manual dice: break off with free blows; charge, run, retarget, stand and fire;
and the refusals of charges, moves and stand-and-fire."""

from __future__ import annotations

from rt_support import at, cultist, encounter, marine, mods, of_type, rolls


async def _e10(tussle):
    # Turn 4 (A2's turn): m5 charges c5 into contact; turn 5 is B2's.
    enc = await encounter(
        tussle,
        [marine("m5", 18, 10, unit="A2", A=2, side="red"), cultist("c5", 21, 10, unit="B2", side="blue")],
        options={"turn_order": ["blue", "red"]},
        turn=4,
    )
    await enc.ok("rogue-trader.charge", combatant="m5", target="c5")
    await enc.ok("start_turn", turn=5)
    await enc.ok("start_phase", phase="movement")
    return enc


async def test_e10_break_off_with_free_blow(tussle):
    enc = await _e10(tussle)
    body = await enc.ok("rogue-trader.break_off", unit="B2", dice=[[2, 4], [3], [2]])
    evs = body["events"]
    rout = rolls(evs, "rout_test")[0]
    assert (rout["total"], rout["target"], rout["outcome"]) == (6, 7, "pass")
    blow = rolls(evs, "free_blow_to_hit")
    assert len(blow) == 1 and (blow[0]["target"], blow[0]["outcome"], mods(blow[0])) == (3, "hit", [])
    wound = rolls(evs, "free_blow_to_wound")[0]
    assert (wound["target"], wound["outcome"]) == (3, "no_wound")
    mv = of_type(evs, "Moved", combatant="c5")[0]["data"]
    assert (mv["reason"], mv["from"], mv["to"]) == ("disengage", at(21, 10), at(29, 10))
    assert of_type(evs, "CloseCombatLeft", combatant="c5", how="break_off")
    assert of_type(evs, "ActionSpent", combatant="c5", why="broke_off")
    assert of_type(evs, "ActionSpent", combatant="m5", why="opponent_broke_off")
    r = await enc.command("rogue-trader.charge", combatant="c5", target="m5")
    assert r.status == 422 and "broke off" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_e10_failed_rout_test_still_takes_the_blow(tussle):
    enc = await _e10(tussle)
    body = await enc.ok("rogue-trader.break_off", unit="B2", dice=[[5, 4], [3], [2]])
    evs = body["events"]
    assert rolls(evs, "rout_test")[0]["outcome"] == "fail"
    assert of_type(evs, "ConditionChanged", combatant="c5", condition="routed", on=True)
    assert rolls(evs, "free_blow_to_hit")
    assert of_type(evs, "Moved", combatant="c5")[0]["data"]["reason"] == "run_away"
    await enc.replay_matches_live()


async def test_break_off_refusals(tussle):
    enc = await _e10(tussle)
    r = await enc.command("rogue-trader.break_off", unit="A2")
    assert r.status == 422 and "own movement phase" in r.body["error"]["message"]
    r = await enc.command("move", combatant="c5", to=at(25, 10))
    assert r.status == 422 and "breaking off" in r.body["error"]["message"]


async def _e11(tussle, m6_move: int = 4, c6_x: float = 7):
    enc = await encounter(
        tussle,
        [
            marine("m6", 0, 0, M=m6_move),
            cultist("c6", c6_x, 0, reactions={}),
            cultist("c7", 0, 6, reactions={}, facing=0),
        ],
    )
    body = await enc.ok("rogue-trader.charge", combatant="m6", target="c6")
    req = of_type(body["events"], "ReactionRequested")[0]["data"]
    assert req["kind"] == "charged" and req["options"] == ["hold", "stand_and_fire", "run_away"]
    return enc, req["id"]


async def test_every_answer_to_a_charge_offers_turning_to_face_the_charger(tussle):
    """§Being Charged: "Models which are charged may always turn to face their attacker" — with any
    answer. The answers were offered without it (the question said "turn_to_face: true")."""
    enc, rid = await _e11(tussle)
    st = await enc.state()
    answers = [o for key in st["offers"] for o in st["offers"][key] if o["reaction"] == rid]
    assert {o["fields"]["choice"] for o in answers} == {"hold", "stand_and_fire", "run_away"}
    for o in answers:
        facing = o["choices"][-1]
        assert facing["field"] == "params.turn_to_face"
        charger = st["combatants"]["m6"]["name"]
        assert [(opt["value"], opt["title"]) for opt in facing["options"]] == [
            (False, "Stay as it faces"),
            (True, f"Turn to face {charger}"),
        ]
    body = await enc.ok("respond", reaction=rid, choice="hold", params={"turn_to_face": True})
    assert of_type(body["events"], "FacingChanged", combatant="c6")


async def test_e11_run_retarget_stand_and_fire(tussle):
    enc, rid = await _e11(tussle)
    body = await enc.ok("respond", reaction=rid, choice="run_away")
    mv = of_type(body["events"], "Moved", combatant="c6")[0]["data"]
    assert (mv["reason"], mv["from"], mv["to"]) == ("run_away", at(7, 0), at(15, 0))
    assert not of_type(body["events"], "ConditionChanged")
    st = await enc.state()
    assert st["legal_actions"]["m6"] == ["rogue-trader.retarget"]
    r = await enc.command("start_phase", phase="shooting")
    assert r.status == 422 and "charge is not finished" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.retarget", combatant="m6", target="c6")
    assert r.status == 422 and "already ran" in r.body["error"]["message"]
    body = await enc.ok("rogue-trader.retarget", combatant="m6", target="c7")
    rt = of_type(body["events"], "RtChargeRetargeted")[0]["data"]
    assert (rt["from_target"], rt["to_target"]) == ("c6", "c7")
    rid2 = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    body = await enc.ok(
        "respond",
        reaction=rid2,
        choice="stand_and_fire",
        params={"turn_to_face": True, "weapon": "laspistol"},
        dice=[[4]],
    )
    evs = body["events"]
    assert of_type(evs, "FacingChanged", combatant="c7")[0]["data"]["facing"] == 270
    shot = rolls(evs, "stand_fire_to_hit")[0]
    assert (shot["target"], shot["total"], shot["outcome"], mods(shot)) == (4, 3, "miss", [(-1, "hurried")])
    mv = of_type(evs, "Moved", combatant="m6")[0]["data"]
    assert (mv["reason"], mv["from"], mv["to"]) == ("charge", at(0, 0), at(0, 5))
    assert of_type(evs, "CloseCombatJoined")[0]["data"]["combatants"][:2] == ["m6", "c7"]
    st = await enc.state()
    assert st["rules"]["models"]["m6"]["charged_turn"] == 1
    assert st["rules"]["contacts"] == [["c7", "m6"]]
    await enc.replay_matches_live()


async def test_e11_variant_faster_charger(tussle):
    enc, rid = await _e11(tussle, m6_move=6)
    body = await enc.ok("respond", reaction=rid, choice="run_away")
    assert not of_type(body["events"], "ConditionChanged")  # gap 14 > reach 12: escaped
    await enc.replay_matches_live()


async def test_e11_variant_caught_runner_is_routed_and_contacted(tussle):
    enc, rid = await _e11(tussle, m6_move=6)
    body = await enc.ok("respond", reaction=rid, choice="run_away", params={"terrain_divisor": 2})
    assert of_type(body["events"], "Moved", combatant="c6")[0]["data"]["to"] == at(11, 0)
    assert of_type(body["events"], "ConditionChanged", combatant="c6", condition="routed", on=True)
    body = await enc.ok("rogue-trader.retarget", combatant="m6")
    assert of_type(body["events"], "Moved", combatant="m6")[0]["data"]["to"] == at(10, 0)
    assert of_type(body["events"], "CloseCombatJoined")
    await enc.replay_matches_live()


async def test_e11_variant_failed_charge(tussle):
    enc, rid = await _e11(tussle, c6_x=9.5)
    body = await enc.ok("respond", reaction=rid, choice="hold")
    evs = body["events"]
    assert of_type(evs, "Moved", combatant="m6")[0]["data"]["to"] == at(8, 0)
    failed = of_type(evs, "RtChargeFailed")[0]["data"]
    assert (failed["needed_in"], failed["reach_in"]) == (850, 800)
    assert of_type(evs, "ActionSpent", combatant="m6", why="failed_charge")
    r = await enc.command("move", combatant="m6", to=at(8, 2))
    assert r.status == 422 and "failed a charge" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_charge_refusals(tussle):
    enc = await encounter(
        tussle,
        [marine("m1", 0, 0), marine("m2", 0, 5), cultist("c1", 5, 0), cultist("c2", 5, 5, reactions={})],
    )
    r = await enc.command("rogue-trader.charge", combatant="c1", target="m1")
    assert r.status == 422 and "movement phase" in r.body["error"]["message"]
    r = await enc.command("rogue-trader.charge", combatant="m1", target="m2")
    assert r.status == 422 and "not an enemy" in r.body["error"]["message"]
    await enc.ok("move", combatant="m2", to=at(1, 5))
    r = await enc.command("rogue-trader.charge", combatant="m2", target="c2")
    assert r.status == 422 and "already moved" in r.body["error"]["message"]
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    r = await enc.command("rogue-trader.charge", combatant="m1", target="c2")
    assert r.status == 422 and "close combat" in r.body["error"]["message"]
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command("start_phase", phase="end")
    assert r.status == 422 and "not yet resolved" in r.body["error"]["message"]
    r = await enc.command("start_phase", phase="melee")
    assert r.status == 422


async def test_stand_and_fire_refusals(tussle):
    slow = {"id": "lascannon", "type": "HS", "S": 9}
    enc = await encounter(
        tussle,
        [
            marine("m1", 0, 0),
            cultist("c1", 5, 0, reactions={}, weapons=[slow, {"id": "pistol", "type": "C"}]),
        ],
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    r = await enc.command("respond", reaction=rid, choice="stand_and_fire", params={"weapon": "lascannon"})
    assert r.status == 422 and "slow weapon" in r.body["error"]["message"]
    r = await enc.command("respond", reaction=rid, choice="stand_and_fire", params={"weapon": "pistol"})
    assert r.status == 422 and "carries a slow weapon" in r.body["error"]["message"]
    r = await enc.command("respond", reaction=rid, choice="hold", params={"bogus": 1})
    assert r.status == 400
    await enc.ok("respond", reaction=rid, choice="hold")
    await enc.replay_matches_live()


async def test_stand_and_fire_kills_the_charger_before_it_moves(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, reactions={})])
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    # need 4 (7 - BS3), -1 hurried: 6 hits; S3 vs T4 5+: 6 wounds; save 4+: 2 fails; damage 1.
    body = await enc.ok(
        "respond", reaction=rid, choice="stand_and_fire", weapon="laspistol", dice=[[6], [6], [2]]
    )
    evs = body["events"]
    assert [r["purpose"] for r in (e["data"] for e in evs if e["type"] == "DieRolled")] == [
        "stand_fire_to_hit",
        "stand_fire_to_wound",
        "stand_fire_save",
    ]
    assert of_type(evs, "CombatantRemoved", combatant="m1")
    assert not of_type(evs, "Moved")
    st = await enc.state()
    assert st["rules"]["charge"] is None and st["rules"]["models"]["c1"]["fired_turn"] == 1
    await enc.replay_matches_live()


async def test_routed_model_fights_at_ws1_and_does_not_strike(tussle):
    enc, rid = await _e11(tussle, m6_move=6)
    await enc.ok("respond", reaction=rid, choice="run_away", params={"terrain_divisor": 2})
    await enc.ok("rogue-trader.retarget", combatant="m6")
    await enc.ok("start_phase", phase="close_combat")
    st = await enc.state()
    assert "rogue-trader.allocate_attacks" not in st["legal_actions"]["c6"]
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="c6",
        round=1,
        allocations=[{"weapon": "laspistol", "target": "m6"}],
    )
    assert r.status == 422 and "routed" in r.body["error"]["message"]
    body = await enc.ok("rogue-trader.resolve_round", group="c6", dice=[[1]])
    hit = rolls(body["events"], "to_hit")
    assert len(hit) == 1 and hit[0]["combatant"] == "m6" and hit[0]["target"] == 3  # WS4 vs WS 1
    await enc.replay_matches_live()


async def test_turn_to_face_during_the_round(tussle):
    # c1 faces away (0°) from its charger coming from the left; it turns before allocating.
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 5, 0, facing=0)])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="c1",
        round=1,
        allocations=[{"weapon": "laspistol", "target": "m1"}],
    )
    assert r.status == 422 and "rear arc" in r.body["error"]["message"]
    body = await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="c1",
        round=1,
        turn_to_face="m1",
        allocations=[{"weapon": "laspistol", "target": "m1"}],
    )
    assert of_type(body["events"], "FacingChanged", combatant="c1")[0]["data"]["facing"] == 180
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="m1",
        round=1,
        turn_to_face="c1",
        allocations=[{"weapon": "chainsword", "target": "c1"}],
    )
    assert r.status == 422 and "already has an enemy in its front arc" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_the_gm_may_move_a_model_into_contact(tussle):
    """4.1 binds the players' ordinary moves; the GM's is a table correction and makes no contact by itself."""
    enc = await encounter(
        tussle, [marine("m1", 0, 0), marine("m2", 0, 5), marine("m3", 1, -2), cultist("c1", 5, 0)]
    )
    # Players move their own models with the plain `move`; into contact it must be a declared charge.
    red = await enc.seat("Red", ["m1", "m2", "m3"])
    r = await enc.command("move", combatant="m1", to=at(4, 0), token=red)
    assert r.status == 422, r.body
    assert (
        "the move ends in base contact with C1: that must be a declared charge" in r.body["error"]["message"]
    )
    r = await enc.command("move", combatant="c1", to=at(6, 0), token=red)
    assert r.status == 403, "a player moves only the models of their seat"
    body = await enc.ok("move", combatant="m1", to=at(2, 0), token=red)
    assert body["events"][0]["actor"] == "seat:seat-1"
    body = await enc.ok("move", combatant="m3", to=at(4, 0))
    assert [e["type"] for e in body["events"]] == ["Moved"] and body["events"][0]["actor"] == "gm"
    st = await enc.state()
    assert st["combatants"]["m3"]["position"] == at(4, 0)
    assert st["rules"]["contacts"] == [] and st["rules"]["groups"] == {}
    # The GM is still held to the other conditions of an ordinary move (here: m2 charged into combat).
    await enc.ok("rogue-trader.charge", combatant="m2", target="c1")
    r = await enc.command("move", combatant="m2", to=at(0, 9))
    assert (
        r.status == 422
        and "M2 is in close combat and may leave it only by breaking off" in r.body["error"]["message"]
    )
    assert "M2 already charged this turn" in r.body["error"]["message"]
    await enc.replay_matches_live()
