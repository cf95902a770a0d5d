"""Coherency after push-backs (4.13), the devil variant roll, situations, and a sentence for every event."""

from __future__ import annotations

from rt_support import at, cultist, encounter, marine, of_type

from events.envelope import Event
from rules.rogue_trader import ruleset


async def test_coherency_stray_and_split(tussle):
    # Unit R: leader m1 near (0,0); m2 3.4" away can close up with one move; m3 8" away cannot.
    enc = await encounter(
        tussle,
        [
            marine("m1", 0, 0, unit="R", leader=True),
            marine("m2", 4.4, 0, unit="R"),
            marine("m3", -9, 0, unit="R"),
            cultist("c1", 30, 30),
        ],
    )
    body = await enc.ok("start_phase", phase="shooting")
    coh = of_type(body["events"], "RtCoherencyChecked", unit="R")[0]["data"]
    assert coh["main_body"] == ["m1"]
    assert coh["strays"] == [{"model": "m2", "status": "stray_rejoin"}, {"model": "m3", "status": "split"}]
    split = of_type(body["events"], "RtUnitSplit")[0]["data"]
    assert split["models"] == ["m3"] and split["intentional"] is False
    st = await enc.state()
    new_unit = split["new_unit"]
    assert st["rules"]["units"][new_unit]["orders"] == "none"
    assert st["rules"]["units"][new_unit]["split_from"] == "R"
    assert st["rules"]["models"]["m2"]["coherency"] == "stray_rejoin"
    # Over its next two turns m3 walks back (4" a move) within 2" and rejoins at the check.
    await enc.ok("start_turn", turn=3)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("move", combatant="m3", to=at(-5, 0))
    await enc.ok("start_phase", phase="shooting")
    await enc.ok("start_turn", turn=5)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("move", combatant="m3", to=at(-2.5, 0))
    body = await enc.ok("start_phase", phase="shooting")
    assert of_type(body["events"], "RtUnitRejoined", unit=new_unit, into="R")
    st = await enc.state()
    assert "m3" in st["rules"]["units"]["R"]["members"]
    await enc.replay_matches_live()


async def test_large_devil_variant_rolls(tussle):
    enc = await tussle.create("rogue-trader", options={"turn_order": ["red", "blue"]}, dice="manual")
    r = await enc.command(
        "add_combatant",
        dice=[[30], [7]],
        combatant={
            "id": "big",
            "name": "Big Devil",
            "side": "red",
            "position": at(0, 0),
            "facing": 0,
            "stats": {"creature": "catachan_devil", "size": "large"},
        },
    )
    assert r.status == 201, r.body
    variant = of_type(r.body["events"], "RtCreatureVariantDetermined")[0]["data"]
    assert variant["variant"] == "fiddler"
    claws = [a for a in variant["attacks"] if a["kind"] == "claw"]
    assert [c["damage"] for c in claws] == ["D6", "D4"]
    st = await enc.state()
    assert st["combatants"]["big"]["stats"]["W"] == 8
    r = await enc.command(
        "add_combatant",
        combatant={
            "id": "small",
            "name": "Small Devil",
            "side": "red",
            "position": at(9, 9),
            "stats": {"creature": "catachan_devil", "size": "small"},
        },
    )
    assert r.status == 422 and "missing" in r.body["error"]["message"]
    await enc.replay_matches_live()


async def test_situation_modifiers_and_sentences(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0), cultist("c1", 3, 0)])
    await enc.ok("rogue-trader.set_situation", combatant="c1", behind_obstacle=True, prepared_position=True)
    await enc.ok("rogue-trader.set_situation", combatant="m1", uphill_over=["c1"], frenzied=True)
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    roll = [e["data"] for e in body["events"] if e["type"] == "DieRolled" and e["data"]["combatant"] == "m1"][
        0
    ]
    assert [(m["value"], m["reason"]) for m in roll["modifiers"]] == [
        (2, "frenzied"),
        (1, "charging"),
        (1, "uphill"),
        (-1, "defended obstacle"),
    ]
    # Every event of this ruleset (and every roll) has a sentence.
    events = await enc.events()
    for e in events:
        if e["type"].startswith("Rt") or e["type"] in ("DieRolled", "PushedBack", "Moved", "ActionDeclared"):
            before = await enc.state(at=e["seq"] - 1)
            env = Event(
                **{
                    k: e[k]
                    for k in (
                        "stream",
                        "seq",
                        "type",
                        "data",
                        "actor",
                        "command_id",
                        "ts",
                        "prev_hash",
                        "hash",
                    )
                }
            )
            sentence = ruleset.describe(before, env)
            assert sentence, e
    await enc.replay_matches_live()
