"""Issue 30 item 2 (part): GET /rulesets/{id}/openapi.json, the document a bot of one ruleset generates its
client from: that ruleset's commands, stats, options and events alone, so no union has to tell rulesets
apart (in /openapi.json a TFT combatant's stats are one of six rulesets')."""

from __future__ import annotations

from rules.registry import Registry
from server.http.openapi import build_openapi
from server.http.openapi_generators import camel

REF = "#/components/schemas/"


async def test_each_rulesets_document_has_its_types_alone(tussle) -> None:
    registry = Registry.discover()
    common = {"add_combatant", "add_combatants", "respond", "start_turn", "close"}
    for rid, rs in registry.rulesets.items():
        r = await tussle.request("GET", f"/rulesets/{rid}/openapi.json")
        assert r.status == 200, r.body
        doc = r.body
        assert doc["openapi"] == "3.1.0" and rs.title in doc["info"]["title"]
        schemas = doc["components"]["schemas"]
        stats = schemas["NewCombatant"]["properties"]["stats"]
        assert stats["$ref"] == f"{REF}{camel(rid)}Stats" and "anyOf" not in stats
        tags = set(schemas["Command"]["discriminator"]["mapping"])
        own = {cls.__struct_config__.tag for cls in rs.commands}
        assert own | common <= tags and not {t for t in tags if "." in t} - own, (rid, tags - own)
        assert schemas["CreateEncounter"]["properties"]["ruleset"]["enum"] == [rid]
        events = set(schemas["Envelope"]["discriminator"]["mapping"])
        assert {cls.__name__ for cls in rs.events} <= events
        others = {cls.__name__ for o in registry.rulesets.values() if o is not rs for cls in o.events}
        assert not (events & others) - {cls.__name__ for cls in rs.events}
        assert set(doc["x-tussle-rulesets"]) == {rid}
        assert doc == build_openapi(registry, rid)  # the one builder of /openapi.json, for one ruleset
    missing = await tussle.request("GET", "/rulesets/chess/openapi.json")
    assert missing.status == 404 and missing.body["error"]["details"] == {"ruleset": "chess"}
    whole = (await tussle.request("GET", "/openapi.json")).body
    assert "/rulesets/{id}/openapi.json" in whole["paths"]
    assert len(whole["components"]["schemas"]["NewCombatant"]["properties"]["stats"]["anyOf"]) == len(
        registry.rulesets
    )
