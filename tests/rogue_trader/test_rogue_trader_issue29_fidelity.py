"""Issue 29 (rules fidelity, round 3), rogue-trader: each test is named after the seed clause it plays, over HTTP."""

from __future__ import annotations

from rt_support import cultist, encounter, marine, mods, of_type, red_charges_blue, rolls


async def test_following_up_if_the_model_pushed_back_its_combat_opponent_in_the_previous_turn(tussle):
    # §To Hit Modifiers: "+1 | Following up | If the model pushed back its combat opponent in the previous turn".
    # E7: R's m2 pushes back B's c2 in turn 3, and R holds its ground instead of following up; in turn 4 c2
    # charges m2 back. The +1 belongs to the pusher m2, though it never followed up.
    enc = await red_charges_blue(tussle, m1={"Ld": 8}, m2={"Ld": 8})
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    await enc.ok("rogue-trader.push_back", unit="B")
    await enc.ok("rogue-trader.follow_up", unit="R", choice="hold", dice=[[3, 4]])
    await enc.ok("start_phase", phase="end")
    await enc.ok("start_turn", turn=4)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("rogue-trader.charge", combatant="c2", target="m2")
    st = await enc.state()
    for p in st["pending"]:
        await enc.ok("respond", reaction=p["id"], choice="hold")
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[1], [1]])
    hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "m2"][0]
    assert mods(hit) == [(1, "following up")]
    c2hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "c2"][0]
    assert (1, "following up") not in mods(c2hit)
    await enc.replay_matches_live()


async def test_a_model_may_not_stand_and_fire_and_run_away(tussle):
    # §Being Charged: "A model may not 'stand and fire' and 'run away'": c1 stood and fired at m1's charge, so
    # at m2's charge in the same turn running is refused, saying what it may do; holding is accepted.
    enc = await encounter(tussle, [marine("m1", 0, 0), marine("m2", 0, 3), cultist("c1", 5, 0, reactions={})])
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    # The shot slays m1 before it moves (6 hits, 6 wounds, save 2 fails), so c1 is still out of contact.
    await enc.ok("respond", reaction=rid, choice="stand_and_fire", weapon="laspistol", dice=[[6], [6], [2]])
    body = await enc.ok("rogue-trader.charge", combatant="m2", target="c1")
    (ask,) = of_type(body["events"], "ReactionRequested")
    rid = ask["data"]["id"]
    # Offer only the answers the rules allow: the question and the GM's offers hold alone.
    assert ask["data"]["options"] == ["hold"], ask["data"]
    assert ask["data"]["question"].startswith("M2 charges C1: hold? (")
    offered = [
        o["fields"].get("choice") for o in (await enc.state())["offers"]["gm"] if o["type"] == "respond"
    ]
    assert offered == ["hold"], offered
    r = await enc.command("respond", reaction=rid, choice="run_away")
    assert r.status == 422, r.body
    msg = r.body["error"]["message"]
    assert "may not 'stand and fire' and 'run away'" in msg and "C1 stood and fired this turn" in msg, msg
    r = await enc.command("respond", reaction=rid, choice="stand_and_fire", weapon="laspistol")
    assert r.status == 422 and "C1 has already stood and fired this turn" in r.body["error"]["message"], (
        r.body
    )
    await enc.ok("respond", reaction=rid, choice="hold")
    await enc.replay_matches_live()


async def test_a_model_that_ran_away_is_not_offered_to_stand_and_fire(tussle):
    # §Being Charged, the other way round: c1 ran from m1's charge; charged by m2 in the same turn, the question
    # and the offers hold and run away only, and stand and fire is refused saying why.
    enc = await encounter(
        tussle, [marine("m1", 0, 0), marine("m2", 10, 5), cultist("c1", 5, 0, reactions={})]
    )
    body = await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    rid = of_type(body["events"], "ReactionRequested")[0]["data"]["id"]
    await enc.ok("respond", reaction=rid, choice="run_away")
    body = await enc.ok("rogue-trader.charge", combatant="m2", target="c1")
    (ask,) = of_type(body["events"], "ReactionRequested")
    assert ask["data"]["options"] == ["hold", "run_away"], ask["data"]
    offered = [
        o["fields"].get("choice") for o in (await enc.state())["offers"]["gm"] if o["type"] == "respond"
    ]
    assert offered == ["hold", "run_away"], offered
    r = await enc.command("respond", reaction=ask["data"]["id"], choice="stand_and_fire", weapon="laspistol")
    assert r.status == 422 and "C1 ran away this turn" in r.body["error"]["message"], r.body
    await enc.replay_matches_live()


async def test_close_combat_results_a_wiped_out_unit_takes_no_rout_test(tussle):
    # §Close Combat Results: the losers test for rout; a unit with no model left has none to test. E7, then in
    # turn 4 m2 slays c2, the last of unit B: the round says B is wiped out, and no rout test follows.
    enc = await red_charges_blue(tussle, m1={"Ld": 8}, m2={"Ld": 8})
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    await enc.ok("rogue-trader.push_back", unit="B")
    await enc.ok("rogue-trader.follow_up", unit="R", choice="follow")
    await enc.ok("start_phase", phase="end")
    await enc.ok("start_turn", turn=4)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[4], [6]])
    assert not rolls(body["events"], "rout_test")
    log = [e["text"] for e in (await enc.get("/log?format=json")).body["entries"]]
    (round_4,) = [t for t in log if t.startswith("Round 4:")]
    assert "wiped out: no rout test follows" in round_4 and "must take a rout test" not in round_4, round_4
    await enc.replay_matches_live()


async def test_the_charged_reaction_lists_every_parameter_it_reads(tussle):
    # Issue 29 item 11: every param resume_charged accepts is described in GET /rulesets/{id} and the guide.
    from pathlib import Path

    from rules.rogue_trader.charging import CHARGE_PARAMS

    detail = (await tussle.request("GET", "/rulesets/rogue-trader")).body
    (charged,) = [r for r in detail["reactions"] if r["kind"] == "charged"]
    assert set(charged["params"]) == CHARGE_PARAMS
    guide = (Path(__file__).parents[2] / "docs/playing/rogue-trader.md").read_text()
    for p in CHARGE_PARAMS:
        assert f"with `params.{p}`:" in guide, p


async def _pushed_into_a_comrade(tussle):
    """E7 with c3 of unit B standing 2" behind c2: m2 wins against c2 (m1 slays c1), and c2's push-back would end
    on c3's base (they touch after 1")."""
    enc = await red_charges_blue(tussle, cultist("c3", 13, 12, unit="B"), m1={"Ld": 8}, m2={"Ld": 8})
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [1], [2, 3]])
    body = await enc.ok("rogue-trader.push_back", unit="B")
    return enc, body


async def test_push_backs_directly_away_onto_a_comrade_is_the_gms_question(tussle):
    # §Push-backs: "The losing models must retreat 2", moving away from their opponents" and a building halts
    # them "still counted as being pushed back"; of a model in the way the seed says nothing, so the GM is asked
    # where it stops (NOTES.md), before anyone moves, instead of c2 being set down on c3.
    enc, body = await _pushed_into_a_comrade(tussle)
    assert not of_type(body["events"], "PushedBack"), "nobody moves before the GM says where c2 stops"
    (ask,) = of_type(body["events"], "ReactionRequested", kind="push_back_stop")
    assert ask["data"]["asked_of"] == "gm" and ask["data"]["options"] == ["short", "place"]
    assert ask["data"]["default"] == "short"
    st = await enc.state()
    assert [a["asked_of"] for a in st["acting_now"]] == ["gm"]
    gm = {o["id"]: o for o in st["offers"]["gm"]}
    rid = ask["data"]["id"]
    assert f"respond:{rid}:short" in gm, list(gm)
    (where,) = gm[f"respond:{rid}:place"]["choices"]
    assert where["field"] == "params.to" and where["region"]["radius"] == 200
    log = [e["text"] for e in (await enc.get("/log?format=json")).body["entries"]]
    assert "C2's push-back would run into C3 after 1.0\": the GM says where C2 stops." in log, log[-3:]
    body = await enc.ok("respond", reaction=rid, choice="short")
    pushed = {e["data"]["combatant"]: e["data"] for e in of_type(body["events"], "PushedBack")}
    assert pushed == {"c2": {"combatant": "c2", "to": [1200, 1200], "distance": 100, "from": [1100, 1200]}}
    assert of_type(body["events"], "RtFollowUpOwed", unit="R")
    await enc.replay_matches_live()


async def test_push_backs_the_gm_sets_the_pushed_back_model_down(tussle):
    enc, body = await _pushed_into_a_comrade(tussle)
    rid = of_type(body["events"], "ReactionRequested", kind="push_back_stop")[0]["data"]["id"]
    r = await enc.command("respond", reaction=rid, choice="place", params={"to": [1250, 1200]})
    assert r.status == 422 and "on C3's base" in r.body["error"]["message"], r.body
    r = await enc.command("respond", reaction=rid, choice="place", params={"to": [1100, 1500]})
    assert r.status == 422 and "farther than its push-back" in r.body["error"]["message"], r.body
    r = await enc.command("respond", reaction=rid, choice="place")
    assert r.status == 400, r.body
    body = await enc.ok("respond", reaction=rid, choice="place", params={"to": [1200, 1330]})
    pushed = {e["data"]["combatant"]: e["data"] for e in of_type(body["events"], "PushedBack")}
    assert pushed["c2"]["to"] == [1200, 1330] and set(pushed) == {"c2"}
    log = [e["text"] for e in (await enc.get("/log?format=json")).body["entries"]]
    assert 'The GM sets C2 down at (12", 13.3").' in log, log[-6:]
    await enc.replay_matches_live()


async def test_close_combat_results_name_every_unit_alike(tussle):
    # §Close Combat Results: "units which have caused more wounds than they have received have won that round".
    # P (a lone model, its own unit) slays C3 (likewise): the round names both units the same way, "unit p"
    # beside "unit c3", not the living model's name beside the slain one's unit.
    enc = await encounter(tussle, [marine("p", 8, 16), cultist("c3", 11, 16)], turn=3)
    await enc.ok("rogue-trader.charge", combatant="p", target="c3")
    await enc.ok("start_phase", phase="close_combat")
    await enc.ok("rogue-trader.resolve_round", group="p", dice=[[4], [3]])
    log = [e["text"] for e in (await enc.get("/log?format=json")).body["entries"]]
    (round_3,) = [t for t in log if t.startswith("Round 3:")]
    assert round_3 == (
        "Round 3: unit p caused 1 wound and took 0; unit c3 caused 0 wounds and took 1 — unit p wins the round; "
        "unit c3 is wiped out: no rout test follows."
    ), round_3
