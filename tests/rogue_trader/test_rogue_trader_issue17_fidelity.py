"""Issue 17, Rogue Trader (seed 004): ordinary movement policed, a GM-entered Large Devil variant, coherency
option 2 for a model that followed up, and rounds and unit commands named by any model in them; through HTTP
with manual dice. Each test is named after the seed clause it plays."""

from __future__ import annotations

from rt_support import at, cultist, encounter, marine, of_type, rolls


def _refused(r, *words: str) -> str:
    assert r.status == 422, r.body
    assert r.body["error"]["code"] == "rule_violation"
    message = r.body["error"]["message"]
    for w in words:
        assert w in message, message
    return message


async def test_a_model_with_a_normal_move_of_4_moves_it_once_in_the_movement_part_of_its_own_turn(tussle):
    """§Entering Hand-To-Hand Combat: "During the movement part of the turn ... A model with a normal move of 4
    may make a charge of up to 8"": an ordinary move is M, once, in the own side's movement phase; a charge
    doubles it."""
    enc = await encounter(
        tussle,
        [
            marine("m1", 0, 0),
            marine("m2", 0, 10, move_penalty=1),
            marine("m3", 0, 20),
            cultist("c1", 40, 0),
            cultist("c2", 7, 20),
        ],
        turn=0,
        phase="movement",
    )
    # Before the first turn the table is being set up: models are placed freely.
    await enc.ok("move", combatant="c1", to=at(30, 0))
    red = await enc.seat("Red", ["m1", "m2", "m3"])
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    st = await enc.state()
    assert "move" in st["legal_actions"]["m1"] and "move" not in st["legal_actions"]["c1"]
    _refused(
        await enc.command("move", combatant="m1", to=at(6, 0), token=red),
        'M1 may move up to 4.0" (M 4) in a movement phase, not 6.0"',
        "a charge may go twice as far",
    )
    _refused(await enc.command("move", combatant="m1", to=at(30, 0), token=red), 'not 30.0"')
    # The GM is held to the allowance too (a table correction is a `ruling` on the position).
    _refused(await enc.command("move", combatant="m1", to=at(0, 5)), 'not 5.0"')
    # A heavy weapon's move penalty comes off M.
    _refused(
        await enc.command("move", combatant="m2", to=at(3.5, 10), token=red),
        'M2 may move up to 3.0" (M 4 less 1 for a heavy weapon)',
    )
    await enc.ok("move", combatant="m2", to=at(3, 10), token=red)
    body = await enc.ok("move", combatant="m1", to=at(4, 0), token=red)
    assert of_type(body["events"], "Moved", combatant="m1", reason="move")
    _refused(
        await enc.command("move", combatant="m1", to=at(5, 0), token=red),
        "M1 has already moved this turn (one move per movement phase)",
    )
    st = await enc.state()
    assert "move" not in st["legal_actions"]["m1"]
    # A charge is not an ordinary move: c2 is 6" from m3's base edge, beyond M but within the charge's 8".
    body = await enc.ok("rogue-trader.charge", combatant="m3", target="c2", token=red)
    assert of_type(body["events"], "CloseCombatJoined")
    # Not in the enemy's player turn, nor in the close combat phase of one's own.
    await enc.ok("start_phase", phase="close_combat")
    _refused(
        await enc.command("move", combatant="m2", to=at(3, 12), token=red),
        "M2 moves only in its side's own movement phase (now: red side's close_combat phase)",
    )
    await enc.ok("rogue-trader.resolve_round", group="c2", dice=[[1], [1]])
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    _refused(
        await enc.command("move", combatant="m2", to=at(3, 12)),
        "M2 moves only in its side's own movement phase (now: blue side's movement phase)",
    )
    await enc.ok("move", combatant="c1", to=at(26, 0))
    # In red's next movement phase m2 moves again; m3, still in base contact, must break off instead.
    await enc.ok("start_turn", turn=3)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("move", combatant="m2", to=at(3, 13), token=red)
    _refused(
        await enc.command("move", combatant="m3", to=at(0, 18), token=red),
        "M3 is in close combat and may leave it only by breaking off",
    )
    await enc.replay_matches_live()


def _large_devil(cid: str, variant: str, x: float) -> dict:
    return {
        "id": cid,
        "name": cid.capitalize(),
        "side": "red",
        "position": at(x, 0),
        "facing": 90,
        "reactions": {"charged": "hold"},
        "stats": {"creature": "catachan_devil", "size": "large", "variant": variant},
    }


async def test_a_large_devil_that_is_an_adult_male_has_2_additional_claw_attacks_when_the_gm_says_so(tussle):
    """§Special Attack Arcs: "There is a 50% chance of a Large Devil being an adult male with 2 additional claw
    attacks. There is a 10% chance of a male being a fiddler with a more powerful claw" ("D6 for fiddlers"):
    entered by the GM, the variant gives the claws as a rolled one does, and they can be allocated."""
    enc = await encounter(
        tussle,
        [marine("m1", 0, 3, side="blue", facing=270)],
        turn=0,
        phase="movement",
        options={"turn_order": ["blue", "red"]},
    )
    r = await enc.add(_large_devil("male", "male", 0))
    assert r.status == 201, r.body
    variant = of_type(r.body["events"], "RtCreatureVariantDetermined")[0]["data"]
    assert variant["variant"] == "male" and not of_type(r.body["events"], "DieRolled")
    assert [a for a in variant["attacks"] if a["kind"] == "claw"] == [
        {"kind": "claw", "count": 2, "damage": "D4"}
    ]
    r = await enc.add(_large_devil("fiddler", "fiddler", 40))
    claws = [
        a
        for a in of_type(r.body["events"], "RtCreatureVariantDetermined")[0]["data"]["attacks"]
        if a["kind"] == "claw"
    ]
    assert [c["damage"] for c in claws] == ["D6", "D4"]
    # Only a large devil has a variant, and only these three.
    r = await enc.command(
        "add_combatant",
        combatant={
            "id": "mid",
            "name": "Mid",
            "side": "red",
            "position": at(80, 0),
            "stats": {"creature": "catachan_devil", "size": "medium", "variant": "male"},
        },
    )
    assert r.status == 400 and "large Catachan Devil" in r.body["error"]["message"]
    r = await enc.command("add_combatant", combatant=_large_devil("odd", "giant", 80))
    assert r.status == 400 and "female, male" in r.body["error"]["message"]
    st = await enc.state()
    assert st["rules"]["models"]["male"]["variant"] == "male"

    # m1 (blue) charges the male; the devil fights with its claws as well as its stomps, tentacle and bite
    # (the tail strikes only to the sides and rear).
    await enc.ok("start_turn", turn=1)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("rogue-trader.charge", combatant="m1", target="male")
    await enc.ok("start_phase", phase="close_combat")
    allocations = [
        {"attack": "claw", "target": "m1"},
        {"attack": "claw", "target": "m1"},
        *({"attack": "stomp", "target": "m1"} for _ in range(6)),
        {"attack": "tentacle", "target": "m1"},
        {"attack": "bite", "target": "m1"},
    ]
    body = await enc.ok("rogue-trader.allocate_attacks", combatant="male", round=1, allocations=allocations)
    given = of_type(body["events"], "RtAttacksAllocated")[0]["data"]["allocations"]
    assert [a["attack"] for a in given].count("claw") == 2
    # The first claw hits (WS3 v WS4: 5), wounds (S7 v T4: 2), the save fails: D4 damage 1 slays the marine.
    body = await enc.ok("rogue-trader.resolve_round", group="m1", dice=[[5], [2], [1], [1]])
    damage = rolls(body["events"], "damage")[0]
    assert damage["notation"] == "1d4" and damage["combatant"] == "male"
    first = of_type(body["events"], "RtAttackResolved", attacker="male")[0]["data"]
    assert (first["kind"], first["outcome"]) == ("claw", "wounded")
    await enc.replay_matches_live()


async def test_a_model_more_than_2_inches_from_its_unit_in_hand_to_hand_combat_is_ignored_until_resolved(
    tussle,
):
    """§Unit Coherency in Push-Backs, option 2: "If a model is more than 2" from the rest of the unit, and is in
    hand-to-hand combat, ignore the discrepancy until the combat has been resolved and the model is free to
    move" — a model that followed up past 2" of its leader is in combat, not "must rejoin next turn"."""
    enc = await encounter(
        tussle,
        [
            marine("m1", 0, 0, unit="R", leader=True),
            marine("m2", 2, 0, unit="R"),
            cultist("c1", 6, 0, unit="cult", W=2),
        ],
    )
    await enc.ok("rogue-trader.charge", combatant="m2", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    # m2 (charging, +1) hits on 4 and wounds on 3; c1 (W2) survives and misses; the cult loses and passes
    # its rout test (2+2 <= Ld 7): it is pushed back and m2 must follow.
    await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [3], [1], [2, 2]])
    await enc.ok("rogue-trader.push_back", unit="c1")  # a unit named by one of its models
    body = await enc.ok("rogue-trader.follow_up", unit="m2", choice="follow")
    assert of_type(body["events"], "FollowedUp", combatant="m2")
    st = await enc.state()
    m2 = st["combatants"]["m2"]["position"]
    assert m2[0] > 600 and st["rules"]["contacts"] == [
        ["c1", "m2"]
    ]  # 6" from the leader's base, one move away
    body = await enc.ok("start_phase", phase="end")
    check = of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]
    assert check["strays"] == [{"model": "m2", "status": "stray_in_combat"}]
    st = await enc.state()
    assert st["rules"]["models"]["m2"]["coherency"] == "stray_in_combat"
    log = (await enc.get("/log")).body
    assert any("M2 is out of coherency but fighting: ignored until free" in e["text"] for e in log["entries"])
    await enc.replay_matches_live()


async def test_each_turns_close_combat_is_a_round_fought_by_the_models_in_contact_named_by_any_of_them(
    tussle,
):
    """§Close Combat Results: "Each turn's close combat is referred to as a round": a round is named by any
    model in the fight (not only the smallest id in case-sensitive order); the state names the groups' models."""
    enc = await encounter(
        tussle,
        [
            marine("m1", 0, 0, unit="R"),
            marine("Z9", 0, 2, unit="R"),
            cultist("c1", 3, 0, unit="cult"),
            cultist("c2", 3, 2, unit="cult"),
        ],
    )
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("rogue-trader.charge", combatant="Z9", target="c2")
    await enc.ok("start_phase", phase="close_combat")
    st = await enc.state()
    [(gid, members)] = st["rules"]["groups"].items()
    assert sorted(members) == ["Z9", "c1", "c2", "m1"]
    r = await enc.command("rogue-trader.resolve_round", group="nobody")
    _refused(r, "'nobody' is neither a combat group nor a model in one")
    body = await enc.ok("rogue-trader.resolve_round", group="m1", dice=[[1], [1], [1], [1]])
    assert of_type(body["events"], "RtCombatRoundResolved")[0]["data"]["group"] == gid
    _refused(await enc.command("rogue-trader.resolve_round", group="c2"), "has already fought round 1")
    await enc.replay_matches_live()


async def test_the_stray_model_must_move_towards_its_unit_in_the_following_turn(tussle):
    """§Unit Coherency in Push-Backs, option 1: a model more than 2" from its unit that one move brings back
    "must move towards its unit in the following turn": a move away from the main body is refused."""
    enc = await encounter(
        tussle,
        [marine("m1", 0, 0, unit="R", leader=True), marine("m2", 4.4, 0, unit="R"), cultist("c1", 30, 30)],
    )
    await enc.ok("start_phase", phase="shooting")
    st = await enc.state()
    assert st["rules"]["models"]["m2"]["coherency"] == "stray_rejoin"
    await enc.ok("start_turn", turn=3)
    await enc.ok("start_phase", phase="movement")
    _refused(
        await enc.command("move", combatant="m2", to=at(7, 0)),
        'M2 is more than 2" from its unit and must move towards it this turn (it would end 6.0" from it, 3.4" now)',
    )
    await enc.ok("move", combatant="m2", to=at(2, 0))
    body = await enc.ok("start_phase", phase="shooting")
    assert of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]["strays"] == []
    await enc.replay_matches_live()
