"""Issue 17 (rules fidelity, round 2): tft played through HTTP from the seed's own clauses."""

from __future__ import annotations

from tests.tft.helpers import encounter, fig, next_turn, of_type, refused, simeth, troll

MACE = {"id": "mace", "name": "Mace", "kind": "weapon", "damage": "2d6+1", "state": "carried"}


async def _in_hth(tussle, **options):
    """Simeth gets into HTH with the troll (§Example-Troll): both drop their ready weapons."""
    s = simeth()
    s["position"] = [1, 0]
    s["items"].append(dict(MACE))
    enc = await encounter(tussle, s, troll(), options=options)
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[1]])
    return enc


async def test_only_very_short_weapons_can_be_used_in_hth(tussle):
    """§Overview: "Only very short weapons (those on the dagger list and the cestus) can be used in HTH";
    §Entering: "you both drop your ready weapon(s)". Either refusal is a rule (422) that says which."""
    enc = await _in_hth(tussle)
    msg = await refused(
        enc,
        "tft.hth_attack",
        "only daggers and the cestus can be used in HTH",
        "the Club was dropped on entering HTH",
        combatant="troll",
        target="simeth",
        weapon="club",
    )
    assert msg.startswith("Troll may not attack with the Club")
    await enc.ok("tft.hth_attack", combatant="troll", target="simeth", weapon="bite", dice=[[6, 6, 6]])
    await refused(
        enc, "tft.hth_attack", "the Mace is neither", combatant="simeth", target="troll", weapon="mace"
    )
    await refused(
        enc,
        "tft.hth_attack",
        "the Broadsword was dropped on entering HTH",
        combatant="simeth",
        target="troll",
        weapon="broadsword",
    )
    # The carried dagger: ready it first; on the entry turn the pointer says when (draw_dagger is refused now).
    await refused(
        enc,
        "tft.hth_attack",
        "the Dagger is carried (draw_dagger readies it from next turn)",
        combatant="simeth",
        target="troll",
        weapon="dagger",
    )
    r = await enc.command("tft.hth_attack", combatant="simeth", target="troll", weapon="halberd")
    assert r.status == 400 and r.body["error"]["details"].get("field") == "weapon", r.body


async def test_judo_2_may_add_or_subtract_one_extra_point(tussle):
    """§Judo-2: "You may add or subtract one extra point (your choice)": only a Judo 2 figure has that choice,
    and a figure without it has none recorded."""
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, troll())
    msg = await refused(
        enc,
        "tft.enter_hth",
        "only a Judo 2 figure may shift the HTH defense roll",
        "Simeth has Judo 0",
        combatant="simeth",
        target="troll",
        condition="C2",
        judo2_shift=1,
    )
    assert msg.startswith("Simeth may not use judo2_shift")
    body = await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[1]])
    assert "judo2_shift" not in of_type(body, "ActionDeclared")[0]["params"]


async def test_judo_2_entrant_records_his_extra_point(tussle):
    """§Judo-2: the Judo 2 entrant's extra point is his choice, in his favour unless he says otherwise."""
    kiri = fig("kiri", "a", 12, 14, [1, 0], 3, ma=10, judo=2, uc=1, iq=14, dx=14)
    enc = await encounter(tussle, kiri, troll())
    body = await enc.ok("tft.enter_hth", combatant="kiri", target="troll", condition="C2", dice=[[4]])
    assert of_type(body, "ActionDeclared")[0]["params"]["judo2_shift"] == -1


async def test_the_movement_phase_then_the_action_phase(tussle):
    """§Options: movement first, then "when your turn to take an action happens" (spec 4.0): a turn has a
    movement phase and then an action phase. Unknown or out-of-order phases are refused with the order; the
    GM overrides with `force`, and a player may not."""
    enc = await tussle.create("tft", dice="manual")
    await enc.add(simeth())
    await enc.add(troll())
    await refused(enc, "start_phase", "no turn has started yet", phase="movement")
    await enc.ok("start_turn", turn=1)
    msg = await refused(enc, "start_phase", "there is no 'banana' phase", phase="banana")
    assert "a TFT turn is start_turn, then the movement phase, then the action phase" in msg
    await refused(
        enc, "start_phase", "turn 1 is at its start, so the movement phase comes next", phase="action"
    )
    await enc.ok("start_phase", phase="movement")
    await refused(
        enc,
        "start_phase",
        "turn 1 is in its movement phase, so the action phase comes next",
        phase="movement",
    )
    await enc.ok("start_phase", phase="action")
    await refused(
        enc,
        "start_phase",
        "turn 1's action phase is under way: start_turn begins the next turn",
        phase="movement",
    )
    await enc.ok("start_turn", turn=2)
    seat = await enc.seat("Simeth's player", ["simeth"])
    r = await enc.command("start_phase", token=seat, phase="action", force=True)
    assert r.status == 403, r.body
    body = await enc.ok("start_phase", phase="action", force=True)  # the GM skips turn 2's movement
    assert [e["data"]["phase"] for e in body["events"] if e["type"] == "PhaseStarted"] == ["action"]
    assert (await enc.state())["phase"] == "action"
    await enc.replay_matches_live()


async def test_on_the_first_two_turns_of_a_pin_you_can_take_no_actions(tussle):
    """§Break-Pin: "On the first two turns of a pin, you can take no actions ...": the pinned figure's
    `conditions` say "pinned" while the pin holds (GET /state, for the GM and his player), and no longer once it
    ends."""
    from tests.tft.test_tft_issue_pins import _grapple, _pin

    enc = await _grapple(tussle)
    await _pin(enc)
    state = await enc.state()
    assert "pinned" in state["combatants"]["ivo"]["conditions"]
    assert "pinned" not in state["combatants"]["hal"]["conditions"]
    seat = await enc.seat("Ivo's player", ["ivo"])
    assert "pinned" in (await enc.state(token=seat))["combatants"]["ivo"]["conditions"]
    await enc.ok("tft.release_pin", combatant="hal")
    assert (await enc.state())["combatants"]["ivo"]["conditions"] == []
    await enc.replay_matches_live()


async def test_a_pin_ends_when_its_holder_leaves(tussle):
    """§Break-Pin: held by a holder; when the GM removes the holder, the figure he held is no longer pinned."""
    from tests.tft.test_tft_issue_pins import _grapple, _pin

    enc = await _grapple(tussle)
    await _pin(enc)
    body = await enc.ok("remove_combatant", combatant="hal")
    assert {"combatant": "ivo", "condition": "pinned", "on": False} in of_type(body, "ConditionChanged")
    assert (await enc.state())["combatants"]["ivo"]["conditions"] == []
    await enc.replay_matches_live()


async def test_the_fallen_figure_on_his_action_can_initiate_hth(tussle):
    """§Standing: "the fallen figure on his action can initiate HTH (the standing figure does gets the 1 die
    defense roll) and, if successful, pull the standing figure down" -- also next to a standing brawl, and
    the refusal of join_hth points to enter_hth, which is then accepted."""
    from tests.tft.test_tft_issue_standing import _standing_pair

    enc, _ = await _standing_pair(tussle)
    assert (await enc.state())["groups"]["g1"]["standing"] is True
    await enc.add(fig("cid", "a", 10, 9, [0, 1], 2, ma=10, posture="prone"))
    await refused(
        enc,
        "tft.join_hth",
        "a fallen figure gets in with enter_hth at its own action",
        combatant="cid",
        target="ben",
    )
    body = await enc.ok("tft.enter_hth", combatant="cid", target="ben", condition="C1", dice=[[2]])
    roll = of_type(body, "DieRolled")[0]
    assert (roll["purpose"], roll["combatant"]) == ("hth_defense", "ben")
    assert of_type(body, "CloseCombatJoined") == [
        {"group": "g1", "combatants": ["cid"], "at": [0, 0], "standing": False}
    ]
    assert sorted(p["combatant"] for p in of_type(body, "PostureChanged")) == ["ann", "ben"]
    state = await enc.state()
    assert (
        state["groups"]["g1"]["combatants"] == ["ann", "ben", "cid"]
        and state["groups"]["g1"]["standing"] is False
    )
    assert all(state["combatants"][m]["posture"] == "prone" for m in ("ann", "ben", "cid"))
    await enc.replay_matches_live()


async def test_a_standing_figure_joins_a_brawl_where_enter_hth_sends_him(tussle):
    """§Options 4: "If two or more people are already in HTH, there is no roll to enter": a standing figure
    refused by enter_hth ("use join_hth") is accepted by join_hth."""
    from tests.tft.test_tft_issue_standing import _standing_pair

    enc, _ = await _standing_pair(tussle)
    await enc.add(fig("cid", "a", 10, 9, [0, 1], 2, ma=10))
    await refused(
        enc,
        "tft.enter_hth",
        "Ben is already in HTH: use join_hth",
        combatant="cid",
        target="ben",
        condition="C1",
    )
    body = await enc.ok("tft.join_hth", combatant="cid", target="ben")
    assert of_type(body, "CloseCombatJoined")[0]["combatants"] == ["cid"]


async def test_a_fallen_figure_is_pointed_only_to_a_way_in_that_takes_him(tussle):
    """§Options 3 (a dive is a standing figure's move) and §Standing: a prone figure stepping at an enemy or a
    standing brawl is pointed to enter_hth at his action, never to dive_for_legs or join_hth."""
    from tests.tft.test_tft_issue_standing import _standing_pair

    enc = await encounter(
        tussle, simeth(), fig("troll", "b", 35, 11, [1, 0], 0, ma=12, posture="prone"), phase="movement"
    )
    await enc.ok("ruling", text="Simeth slips", overrides={"combatants": {"simeth": {"posture": "prone"}}})
    msg = await refused(
        enc,
        "move",
        "holds Troll, an enemy: use enter_hth from the next hex at your action",
        combatant="simeth",
        to=[1, 0],
    )
    assert "dive_for_legs" not in msg
    enc, _ = await _standing_pair(tussle)
    await enc.add(fig("cid", "a", 10, 9, [0, 2], 2, ma=10, posture="prone"))
    msg = await refused(
        enc, "move", "a fallen figure gets in with enter_hth at its own action", combatant="cid", to=[0, 0]
    )
    assert "join_hth" not in msg


async def test_standing_up_and_picking_up_a_dropped_weapon(tussle):
    """§Disengage: "your dropped weapons will likely be in the HTH hex"; §Standing: a fallen figure outside
    HTH. Base TFT, entered as commands: standing up and picking up a dropped weapon are each the action."""
    s = simeth()
    s["position"], s["posture"] = [3, 0], "prone"
    s["items"][0] = {**s["items"][0], "state": "dropped", "at": [4, 0]}
    enc = await encounter(tussle, s, troll())
    legal = (await enc.state())["combatants"]["simeth"].get("legal_actions")
    if legal is not None:
        assert {"tft.stand_up", "tft.pick_up"} <= set(legal)
    body = await enc.ok("tft.pick_up", combatant="simeth", item="broadsword")
    assert [e["type"] for e in body["events"]] == [
        "ActionDeclared",
        "ItemPickedUp",
        "ItemReadied",
        "ActionSpent",
    ]
    await refused(enc, "tft.stand_up", "Simeth has already used this turn's action", combatant="simeth")
    state = await enc.state()
    assert (
        next(i for i in state["combatants"]["simeth"]["items"] if i["id"] == "broadsword")["state"] == "ready"
    )
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    await refused(
        enc, "tft.stand_up", "the GM starts the action phase (start_phase action)", combatant="simeth"
    )
    await enc.ok("start_phase", phase="action")
    body = await enc.ok("tft.stand_up", combatant="simeth")
    assert {"combatant": "simeth", "posture": "standing"} in of_type(body, "PostureChanged")
    await refused(enc, "tft.pick_up", "the Club is not lying on the ground", combatant="simeth", item="club")
    r = await enc.command("tft.pick_up", combatant="simeth", item="halberd")
    assert r.status == 400 and r.body["error"]["details"].get("field") == "item", r.body
    await enc.replay_matches_live()


async def test_the_enemy_rolls_one_die_says_dice_needed(tussle):
    """§Entering: "When you attempt to enter HTH, the enemy rolls one die": a manual-dice table is told whose
    roll it is and what for (API.md's "1d6: troll's HTH defense roll"); the stored purpose stays hth_defense."""
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, troll())
    r = await enc.command("tft.enter_hth", combatant="simeth", target="troll", condition="C2")
    assert r.status == 422 and r.body["error"]["code"] == "dice_needed", r.body
    assert r.body["error"]["details"]["needed"] == ["1d6: Troll's HTH defense roll"]
    assert "1d6: Troll's HTH defense roll" in r.body["error"]["message"]
    body = await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[1]])
    assert of_type(body, "DieRolled")[0]["purpose"] == "hth_defense"


async def test_the_standing_figure_can_attack_the_fallen_one(tussle):
    """§Standing: "If you have a standing figure and an enemy fallen, they are not in HTH, and the standing
    figure can trample or attack the fallen one": tft.attack_fallen, offered in legal_actions; the refusals
    that point elsewhere point to a command that takes the figure."""
    s = simeth()
    s["position"] = [1, 0]
    t = troll()
    t["posture"] = "prone"
    enc = await encounter(tussle, s, t)
    assert "tft.attack_fallen" in (await enc.state())["legal_actions"]["simeth"]
    # hth_attack from outside HTH points to attack_fallen, which then takes him.
    await refused(
        enc,
        "tft.hth_attack",
        "Troll is not in HTH either: attack_fallen attacks a fallen figure",
        combatant="simeth",
        target="troll",
    )
    await refused(
        enc,
        "tft.strike_into_hth",
        "attack_fallen attacks a fallen figure out of HTH",
        combatant="simeth",
        target="troll",
        weapon="broadsword",
    )
    body = await enc.ok(
        "tft.attack_fallen", combatant="simeth", target="troll", weapon="broadsword", dice=[[3, 4, 4], [3, 4]]
    )
    assert [e["type"] for e in body["events"]] == [
        "ActionDeclared",
        "DieRolled",
        "DieRolled",
        "Wounded",
        "ActionSpent",
    ]
    attack, damage = of_type(body, "DieRolled")
    assert (attack["purpose"], attack["total"], attack["target"], attack["outcome"]) == (
        "attack_fallen",
        11,
        15,
        "hit",
    )
    assert (damage["notation"], damage["total"]) == ("2d6", 7)
    assert of_type(body, "Wounded")[0]["amount"] == 7
    log = (await enc.get("/log?format=json")).body["entries"]
    assert any(e["text"] == "Simeth attacks Troll, fallen and out of HTH." for e in log), log
    await enc.replay_matches_live()


async def test_a_standing_enemy_or_a_fallen_attacker_is_not_the_standing_clause(tussle):
    """§Standing names a *standing* figure attacking a *fallen* one: a standing target, or an attacker on the
    ground, is refused with the rule, and the fallen attacker is told what takes him (stand_up, enter_hth)."""
    s = simeth()
    s["position"] = [1, 0]
    enc = await encounter(tussle, s, troll())
    await refused(
        enc,
        "tft.attack_fallen",
        "Troll is standing, not fallen (§Standing",
        combatant="simeth",
        target="troll",
    )
    enc = await encounter(tussle, {**s, "posture": "prone"}, {**troll(), "posture": "prone"})
    await refused(
        enc,
        "tft.attack_fallen",
        "Simeth is down",
        "stand_up first, or enter_hth",
        combatant="simeth",
        target="troll",
    )
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[1]])


async def test_one_wiggles_free_only_of_the_shield_one_wears(tussle):
    """§Actions-Shield: "To wiggle your arm free of a shield in HTH, you must roll a 3vsDX": naming another of
    one's items is a rule refusal (422) that says which shield is worn; an item one does not have is a 400."""
    s = simeth()
    s["position"] = [1, 0]
    s["items"].append({"id": "buckler", "name": "Buckler", "kind": "shield", "stops": 1, "state": "worn"})
    enc = await encounter(tussle, s, troll())
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[1]])
    await next_turn(enc, 2)
    msg = await refused(
        enc,
        "tft.drop_shield",
        "one wiggles free only of the shield one wears (§Actions-Shield)",
        "Simeth wears the Buckler, and the Dagger is not a shield",
        combatant="simeth",
        item="dagger",
    )
    assert msg.startswith("Simeth may not drop a shield")
    r = await enc.command("tft.drop_shield", combatant="simeth", item="tower")
    assert r.status == 400 and r.body["error"]["details"].get("field") == "item", r.body
    await enc.ok("tft.drop_shield", combatant="simeth", item="buckler", dice=[[1, 1, 1]])


async def test_the_enemy_may_draw_their_dagger_only(tussle):
    """§Entering: "3 or 4: You enter HTH and enemy may draw their dagger": answering entry_dagger with an item
    that is not a carried dagger-list weapon is a rule refusal (422) naming the clause, not a 400."""
    s = simeth()
    s["position"] = [1, 0]
    t = troll()
    t["items"].append(
        {
            "id": "knife",
            "name": "Knife",
            "kind": "weapon",
            "damage": "1d6-1",
            "hth_damage": "1d6",
            "dagger_list": True,
            "state": "carried",
        }
    )
    enc = await encounter(tussle, s, t)
    body = await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[3]])
    ask = of_type(body, "ReactionRequested")[0]
    assert ask["kind"] == "entry_dagger"
    msg = await refused(
        enc,
        "respond",
        'on a 3 or 4 the enemy "may draw their dagger" (§Entering)',
        "the Club is not on the dagger list",
        reaction=ask["id"],
        choice="dagger",
        params={"item": "club"},
    )
    assert msg.startswith("Troll may not ready the Club")
    r = await enc.command("respond", reaction=ask["id"], choice="dagger", params={"item": "axe"})
    assert r.status == 400 and r.body["error"]["details"].get("field") == "item", r.body
    body = await enc.ok("respond", reaction=ask["id"], choice="dagger", params={"item": "knife"})
    assert of_type(body, "ItemReadied") == [{"combatant": "troll", "item": "knife"}]


async def test_the_judo_throw_is_into_an_empty_adjacent_hex(tussle):
    """§Judo-1: "you may throw who ever tried to jump you into an adjacent hex": a hex offered when the
    question was asked but taken since (the GM placed a figure there) is a rule refusal (422) that says who
    holds it; the throw then goes to an empty hex."""
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("kiri", "b", 10, 11, [0, 0], 0, judo=2, ma=10))
    await enc.add(fig("olaf", "a", 12, 12, [1, 0], 3, ma=12))
    await enc.add(fig("una", "a", 10, 10, [5, 5], 0, ma=10))
    await next_turn(enc, 1)
    body = await enc.ok("tft.enter_hth", combatant="olaf", target="kiri", condition="C1", dice=[[5]])
    ask = of_type(body, "ReactionRequested")[0]
    assert "0,1" in ask["options"]
    await enc.ok("ruling", text="Una steps up", overrides={"combatants": {"una": {"position": [0, 1]}}})
    msg = await refused(
        enc,
        "respond",
        'the throw is "into an adjacent hex" (§Judo-1), an empty one',
        "0,1 holds Una",
        reaction=ask["id"],
        choice="0,1",
    )
    assert msg.startswith("Kiri may not throw Olaf there")
    await enc.ok("respond", reaction=ask["id"], choice="1,-1", dice=[[3]])
