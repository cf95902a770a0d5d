"""TV1 Simeth vs troll (§Example-Troll) through the HTTP API with manual dice."""

from __future__ import annotations

from tests.tft.helpers import encounter, of_type, sentences, simeth, troll, types


async def _setup(tussle):
    return await encounter(tussle, simeth(), troll(), phase="movement")


async def test_tv1_simeth_vs_troll(tussle):
    enc = await _setup(tussle)
    b = await enc.ok("tft.move", combatant="simeth", path=[[1, 0]])
    assert types(b) == ["Moved", "TftMoveCounted"]
    assert of_type(b, "Moved")[0] == {
        "combatant": "simeth",
        "to": [1, 0],
        "reason": "move",
        "facing": None,
        "from": [2, 0],
    }
    b = await enc.ok("start_phase", phase="action")
    assert of_type(b, "InitiativeSet")[0]["order"] == ["simeth", "troll"]

    b = await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[2]])
    assert types(b) == [
        "ActionDeclared",
        "Moved",
        "DieRolled",
        "HthEntryResolved",
        "ItemDropped",
        "ItemDropped",
        "CloseCombatJoined",
        "PostureChanged",
        "PostureChanged",
        "HthFirstTurn",
        "InitiativeSet",
    ]
    roll = of_type(b, "DieRolled")[0]
    assert (roll["purpose"], roll["faces"], roll["modifiers"], roll["total"], roll["outcome"]) == (
        "hth_defense",
        [2],
        [],
        2,
        "enter_no_draw",
    )
    assert of_type(b, "Moved")[0]["reason"] == "charge"
    assert [(d["combatant"], d["item"], d["at"]) for d in of_type(b, "ItemDropped")] == [
        ("simeth", "broadsword", [0, 0]),
        ("troll", "club", [0, 0]),
    ]
    assert of_type(b, "CloseCombatJoined")[0] == {
        "group": "g1",
        "combatants": ["simeth", "troll"],
        "at": [0, 0],
        "standing": False,
    }
    assert of_type(b, "HthFirstTurn")[0] == {"combatant": "simeth", "turn": 1}
    assert of_type(b, "InitiativeSet")[0]["order"] == ["troll", "simeth"]

    b = await enc.ok(
        "tft.hth_attack", combatant="troll", target="simeth", weapon="bite", dice=[[3, 4, 4], [4]]
    )
    assert types(b) == ["ActionDeclared", "DieRolled", "DieRolled", "Wounded", "ActionSpent"]
    hit, dmg = of_type(b, "DieRolled")
    assert (hit["total"], hit["target"], hit["outcome"]) == (11, 13, "hit")
    assert [m["value"] for m in hit["modifiers"]] == [2]
    assert (dmg["notation"], dmg["total"]) == ("1d6+2", 6)
    assert of_type(b, "Wounded")[0]["amount"] == 6

    r = await enc.command("tft.draw_dagger", combatant="simeth")
    assert r.status == 422, r.body
    assert "only attack on the turn of entering HTH" in r.body["error"]["message"]

    b = await enc.ok(
        "tft.hth_attack", combatant="simeth", target="troll", weapon="fist", dice=[[5, 3, 2], [6]]
    )
    hit, dmg = of_type(b, "DieRolled")
    assert (hit["total"], hit["target"], hit["outcome"]) == (10, 11, "hit")
    assert hit["modifiers"] == [{"value": -4, "reason": "entered HTH this turn"}]
    assert (dmg["notation"], dmg["total"]) == ("1d6-4", 2)
    assert of_type(b, "Wounded")[0] == {
        "combatant": "troll",
        "amount": 2,
        "source": "Simeth's fist",
        "damage": 2,
        "stopped": [],
    }

    st = await enc.state()
    assert st["groups"]["g1"]["combatants"] == ["simeth", "troll"]
    assert st["combatants"]["simeth"]["stats"]["st"] - st["combatants"]["simeth"]["wounds"] == 7
    assert st["combatants"]["troll"]["stats"]["st"] - st["combatants"]["troll"]["wounds"] == 33
    items = {i["id"]: i for c in st["combatants"].values() for i in c["items"]}
    assert items["broadsword"]["state"] == items["club"]["state"] == "dropped"
    await enc.replay_matches_live()

    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    b = await enc.ok("start_phase", phase="action")
    assert of_type(b, "InitiativeSet")[0]["order"] == ["simeth", "troll"]
    st = await enc.state()
    assert "tft.draw_dagger" in st["legal_actions"]["simeth"]
    b = await enc.ok("tft.draw_dagger", combatant="simeth", dice=[[3, 3, 3]])
    assert types(b)[-2:] == ["ItemReadied", "ActionSpent"]
    await enc.replay_matches_live()


async def test_tv1_log_sentences(tussle):
    enc = await _setup(tussle)
    await enc.ok("tft.move", combatant="simeth", path=[[1, 0]])
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[2]])
    await enc.ok("tft.hth_attack", combatant="troll", target="simeth", weapon="bite", dice=[[3, 4, 4], [4]])
    text = "\n".join(sentences(await enc.events()))
    assert "Simeth tries to get into HTH with Troll (allowed: Troll's back is to a wall)." in text
    assert "Troll rolls 1d6 for the HTH defense: [2] (no modifiers) = 2 — Simeth gets in" in text
    assert "Troll 13 (11, +2 strongest figure in HTH)" in text
