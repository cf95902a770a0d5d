"""Issue 30 item 3: every event of every golden stream (the recorded scripts and the frozen streams of
earlier versions) is valid against its ruleset's envelope union in /openapi.json, with every object of
the test's copy closed (`additionalProperties: false` wherever the document leaves it unsaid), so a
field the document does not name fails as surely as a missing one."""

from __future__ import annotations

import copy
import json
from pathlib import Path
from typing import Any

import jsonschema
import pytest

from rules.registry import Registry
from server.http.openapi import build_openapi
from server.http.openapi_generators import camel

GOLDEN = Path(__file__).parent / "golden"
STREAMS = sorted([*GOLDEN.glob("scripts/*.jsonl"), *GOLDEN.glob("frozen/*.jsonl")])


def closed(value: Any) -> Any:
    """The schema with every object that names its properties closed to others."""
    if isinstance(value, dict):
        out = {k: closed(v) for k, v in value.items()}
        if "properties" in out and "additionalProperties" not in out:
            out["additionalProperties"] = False
        return out
    if isinstance(value, list):
        return [closed(v) for v in value]
    return value


@pytest.fixture(scope="module")
def components() -> dict[str, Any]:
    return closed(copy.deepcopy(build_openapi(Registry.discover())["components"]))


def validator(components: dict[str, Any], name: str) -> jsonschema.protocols.Validator:
    schema = {"$ref": f"#/components/schemas/{name}", "components": components}
    return jsonschema.Draft202012Validator(schema)


@pytest.mark.parametrize("stream", STREAMS, ids=lambda p: f"{p.parent.name}/{p.stem}")
def test_every_golden_event_fits_its_rulesets_typed_envelope(components, stream: Path) -> None:
    events = [json.loads(line) for line in stream.read_text().splitlines() if line.strip()]
    ruleset = events[0]["data"]["ruleset"]
    by_ruleset = validator(components, f"{camel(ruleset)}Envelope")
    every = validator(components, "Envelope")
    for e in events:
        errors = [
            f"{'/'.join(map(str, err.absolute_path))}: {err.message}" for err in by_ruleset.iter_errors(e)
        ]
        assert not errors, (stream.name, e["seq"], e["type"], errors[:3])
    for e in {e["type"]: e for e in events}.values():  # the union of all: one of each type (it is slow)
        assert every.is_valid(e), (stream.name, e["seq"], e["type"])


def test_each_event_type_has_its_own_titled_schema_and_the_unions_say_which_by_type() -> None:
    registry = Registry.discover()
    schemas = build_openapi(registry)["components"]["schemas"]
    for rid, rs in registry.rulesets.items():
        union = schemas[f"{camel(rid)}Envelope"]
        mapping = union["discriminator"]["mapping"]
        assert union["discriminator"]["propertyName"] == "type"
        assert {cls.__name__ for cls in rs.events} <= set(mapping)
        for etype, ref in mapping.items():
            envelope = schemas[ref.rsplit("/", 1)[1]]
            assert envelope["title"] == ref.rsplit("/", 1)[1] and envelope["properties"]["type"] == {
                "const": etype,
                "description": envelope["properties"]["type"]["description"],
            }
            data = schemas[envelope["properties"]["data"]["$ref"].rsplit("/", 1)[1]]
            assert data["title"] and data["type"] == "object"
    events_page = schemas["EventsPage"]["properties"]["events"]["items"]
    assert events_page == {"$ref": "#/components/schemas/Envelope"}


FRAMES = {"event": "EventFrame", "caught_up": "CaughtUpFrame", "snapshot": "SnapshotFrame", "state": "StateFrame",
          "log": "LogFrame", "log_reset": "LogResetFrame", "error": "ErrorFrame"}  # fmt: skip


async def test_every_frame_a_live_subscription_sends_fits_the_asyncapi_document(tussle) -> None:
    """A golden fight played with `events`, `state` and `log` subscribers open: each frame they read is
    valid against its titled payload in /asyncapi.json (closed as above), every envelope included."""
    from tests.golden.scripts import load, play
    from tests.support.ws import frame, subscribe

    doc = (await tussle.request("GET", "/asyncapi.json")).body
    raw = doc["components"]["schemas"]
    # A state is typed as /openapi.json's EncounterState (offers optional), not a bare object: a bot
    # generated from this document gets its combatants, offers and pending reactions as models.
    for frame_name in ("StateFrame", "SnapshotFrame"):
        data = raw[frame_name]["properties"]["data"]
        refs = [data.get("$ref"), *(o.get("$ref") for o in data.get("oneOf", []))]
        assert "#/components/schemas/FrameState" in refs, (frame_name, data)
    assert "combatants" in raw["FrameState"]["properties"] and "offers" not in raw["FrameState"]["required"]
    schemas = closed(raw)
    sockets = []

    async def subscribed(enc) -> None:
        for projection in ("events", "state", "log"):
            sockets.append(await subscribe(enc, projection))

    enc = await play(tussle, load("tft-manual-troll"), subscribed)
    head = (await enc.get("")).body["seq"]
    seen: dict[str, int] = {}
    for ws in sockets:
        last = 0
        while last < head:
            f = await frame(ws)
            assert "closed" not in f, f
            name = FRAMES[f["type"]]
            v = jsonschema.Draft7Validator(
                {"$ref": f"#/components/schemas/{name}", "components": {"schemas": schemas}}
            )
            errors = [f"{'/'.join(map(str, e.absolute_path))}: {e.message}" for e in v.iter_errors(f)]
            assert not errors, (f["type"], f.get("seq"), errors[:3])
            seen[f["type"]] = seen.get(f["type"], 0) + 1
            last = max(last, f.get("seq", 0)) if f["type"] != "snapshot" else last
        await ws.close()
    assert seen["event"] == head and seen["state"] >= head - 1 and seen["log"] >= 1, seen
