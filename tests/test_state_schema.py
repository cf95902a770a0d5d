"""Issue 30 item 2 (part): EncounterState in /openapi.json lists every key GET /state answers with, and
each key it requires is there, for a fight of each geometry (hex and plane)."""

from __future__ import annotations

from tests.golden.scripts import load, play


async def test_encounter_state_names_every_key_the_server_sends(tussle) -> None:
    doc = (await tussle.request("GET", "/openapi.json")).body
    schema = doc["components"]["schemas"]["EncounterState"]
    for name in ("tft-manual-troll", "skirmish-manual-e1"):
        enc = await play(tussle, load(name))
        state = (await enc.get("/state")).body
        assert set(state) <= set(schema["properties"]), set(state) - set(schema["properties"])
        assert set(schema["required"]) <= set(state), set(schema["required"]) - set(state)
    dropped = doc["components"]["schemas"]["DroppedItem"]
    assert set(dropped["required"]) == {"item", "owner", "at"}
