async def test_create_add_roll_state(tussle):
    enc = await tussle.create("freeform")
    await enc.add({"id": "a", "name": "Ann", "side": "x", "position": [0, 0]})
    r = await enc.command("roll", expression="3d6", command_id="r1")
    assert r.status == 201
    assert len(r.body["events"][0]["data"]["faces"]) == 3
    await enc.replay_matches_live()
