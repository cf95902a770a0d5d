"""Issue 30 item 6: `add_combatants` sets up a whole fight in one request — atomic, one unit of the
command rate, one CombatantJoined per figure as add_combatant appends — on a real server."""

from __future__ import annotations

from tests.test_operations_limits import assert_rate_limited, serving  # noqa: F401 - the fixture

ARMY = [
    {"id": f"orc{i}", "name": f"Orc {i}", "side": "orcs", "position": [i % 8, i // 8], "facing": 0,
     "stats": {"st": 10 + i % 3, "dx": 11, "iq": 8, "adj_dx": 11, "ma": 10}}
    for i in range(60)
]  # fmt: skip


async def test_sixty_figures_join_in_one_command_within_a_rate_that_sixty_commands_trip(serving):  # noqa: F811
    async with serving(rate_commands=0.001, rate_burst=3 / 0.001) as client:
        enc = await client.create("tft")  # the address's bucket: 1 of 3
        await enc.ok("note", text="setting up")  # the GM token is not yet known good: the address, 2 of 3
        r = await enc.command("add_combatants", combatants=ARMY)  # the GM token's bucket: 1 of 3
        assert r.status == 201, r.body
        assert [e["type"] for e in r.body["events"]] == ["CombatantJoined"] * 60
        assert [e["data"]["id"] for e in r.body["events"]] == [c["id"] for c in ARMY]
        state = (await enc.get("/state")).body
        assert list(state["combatants"]) == [c["id"] for c in ARMY]
        assert state["combatants"]["orc59"]["position"] == [3, 7]
        # One at a time, the fourth figure is already over the rate.
        for i in range(2):  # 2 and 3 of 3
            r = await enc.command(
                "add_combatant", combatant={**ARMY[0], "id": f"lone{i}", "position": [9, i]}
            )
            assert r.status == 201, r.body
        assert_rate_limited(
            await enc.command("add_combatant", combatant={**ARMY[0], "id": "lone2", "position": [9, 2]})
        )


async def test_one_refused_figure_appends_none_and_is_named_by_its_place(tussle):
    enc = await tussle.create("tft")
    head = (await enc.get("")).body["seq"]
    bad_stats = [*ARMY[:3], {**ARMY[3], "stats": {"st": "strong"}}]
    r = await enc.command("add_combatants", combatants=bad_stats)
    assert r.status == 400, r.body
    assert r.body["error"]["message"].startswith("combatants[3] (Orc 3): "), r.body
    assert r.body["error"]["details"]["field"].startswith("combatants[3]"), r.body
    twice = [ARMY[0], ARMY[1], {**ARMY[0], "name": "Orc again", "position": [5, 5]}]
    r = await enc.command("add_combatants", combatants=twice)
    assert r.status == 422, r.body
    assert r.body["error"]["message"].startswith("combatants[2] (Orc again): there is already"), r.body
    assert (await enc.command("add_combatants", combatants=[])).status == 400
    assert (await enc.get("")).body["seq"] == head
    assert (await enc.get("/state")).body["combatants"] == {}


async def test_only_the_gm_adds_figures_and_each_joins_as_add_combatant_would(tussle):
    enc = await tussle.create("tft")
    await enc.add(ARMY[0])
    seat = await enc.seat("Pat", ["orc0"])
    r = await enc.command("add_combatants", combatants=ARMY[1:3], token=seat)
    assert r.status == 403, r.body
    alone = await tussle.create("tft")
    await alone.add(ARMY[1])
    listed = await enc.command("add_combatants", combatants=[ARMY[1]])
    single = (await alone.get("/state")).body["combatants"]["orc1"]
    assert (await enc.get("/state")).body["combatants"]["orc1"] == single
    assert listed.body["events"][0]["data"]["declaration"]["command"]["type"] == "add_combatants"
