"""Events typed in /openapi.json and /asyncapi.json (issue 30 item 3).

Each event type has its `data` schema, titled for its ruleset (common ones plain: `CombatantJoined`,
`TftHthEntryResolved`), and an envelope schema whose `type` is that one constant (`...Envelope`); each
ruleset has the union of the envelopes its encounters carry (`TftEnvelope`), and `Envelope` is the union
of all, every union discriminated by `type`. The first event of a command also carries `declaration`.
"""

from __future__ import annotations

from typing import Any

import msgspec

from events.envelope import Event
from server.http.openapi_generators import FIELD_MEANINGS

REF = "#/components/schemas/{name}"

DECLARATION: dict[str, Any] = {
    "title": "Declaration",
    "type": "object",
    "description": "On a command's first event: the command as decided, so that anyone with the ruleset's code "
    "of `version` can decide it again (docs/verifying.md §8).",
    "required": ["command"],
    "properties": {
        "command": {
            "type": "object",
            "description": "The command as sent, with its actor, without command_id, dice and expected_seq.",
            "required": ["type"],
            "properties": {"type": {"type": "string", "description": "The command type."}},
            # Any installed or past version's command: its fields are that command's.
            "additionalProperties": True,
        },
        "keyed_by": {
            "type": "string",
            "description": "Who chose the key of the dice: client (the sender chose its command_id), server, or discord (the interaction id Discord chose; docs/discord.md).",
        },
        "ruleset": {"type": "string", "description": "The ruleset that decided it."},
        "version": {"type": "string", "description": "That ruleset's version."},
    },
}


def typed_events(
    schemas: dict[str, Any], data_names: dict[str, str], by_ruleset: dict[str, tuple[str, list[str]]]
) -> None:
    """Add the envelope of each event type (`data_names`: event type -> its data schema) and the unions:
    `by_ruleset` is ruleset id -> (its schema prefix, the event types its encounters carry)."""
    schemas.pop("Envelope")  # the untyped one
    plain = msgspec.json.schema_components([Event])[1]["Event"]  # the store's: every envelope's fields
    schemas["Declaration"] = DECLARATION
    for etype, name in data_names.items():
        data = schemas[name]
        data["description"] = data.get("description") or f"The data of a {etype} event."
        for field, prop in data.setdefault("properties", {}).items():
            if isinstance(prop, dict) and not prop.get("description"):
                # The events' fields have no words of their own yet: the command field's meaning where
                # the name has one, else where the event's own words are.
                prop["description"] = FIELD_MEANINGS.get(field) or (
                    f"The event's {field.replace('_', ' ')}: see {etype} in GET /rulesets/{{id}} (events)."
                )
        data["properties"]["declaration"] = {
            "$ref": REF.format(name="Declaration"),
            "description": "Only on a command's first event: the command as decided.",
        }
        props = dict(plain["properties"])
        props["type"] = {"const": etype, "description": props["type"].get("description", "")}
        props["data"] = {"$ref": REF.format(name=name), "description": props["data"].get("description", "")}
        schemas[f"{name}Envelope"] = {
            "title": f"{name}Envelope",
            "type": "object",
            "description": f"A {etype} event in its envelope: {data['description']}",
            "required": plain["required"],
            "properties": props,
        }

    def union(types: list[str], description: str) -> dict[str, Any]:
        return {
            "description": description,
            "oneOf": [{"$ref": REF.format(name=f"{data_names[t]}Envelope")} for t in types],
            "discriminator": {
                "propertyName": "type",
                "mapping": {t: REF.format(name=f"{data_names[t]}Envelope") for t in types},
            },
        }

    for rid, (prefix, types) in by_ruleset.items():
        schemas[f"{prefix}Envelope"] = {
            "title": f"{prefix}Envelope",
            **union(types, f"One stored event of a {rid} encounter, chosen by `type`."),
        }
    schemas["Envelope"] = {
        "title": "Envelope",
        **union(
            list(data_names),
            'One stored event (DESIGN.md "The event envelope"), chosen by `type`; '
            "an encounter's are its ruleset's (e.g. TftEnvelope).",
        ),
    }
