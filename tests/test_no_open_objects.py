"""No open object left in the contract (issue 30 item 2): every object in /openapi.json and in each
ruleset's own document names its properties, or is a map whose values are typed, except the few listed
here, each with why. A new bare `{type: object}` fails this test until it is typed or listed."""

from __future__ import annotations

from typing import Any

import pytest

from rules.registry import Registry
from server.http.openapi import build_openapi
from server.http.openapi_generators import camel

# Open on purpose: what they hold is another standard's, or any request's.
REASONED = {
    "/paths/~1openapi.json/get/responses/200/content/application~1json/schema": "an OpenAPI 3.1 document",
    "/paths/~1rulesets~1{id}~1openapi.json/get/responses/200/content/application~1json/schema": (
        "an OpenAPI 3.1 document"
    ),
    "/paths/~1asyncapi.json/get/responses/200/content/application~1json/schema": "an AsyncAPI 3 document",
    "/paths/~1discord~1interactions/post/responses/200/content/application~1json/schema/properties/data": (
        "Discord's interaction response data, which Discord's own documentation types"
    ),
    "/components/schemas/GuideStep/properties/body/anyOf/0": (
        "the body of whichever request a guide step sends: a command, a seat, a webhook ..."
    ),
    "/components/schemas/ActionDeclared/properties/params": (
        "an action's parameters, of every ruleset's actions and past versions; the declaring command "
        "itself is typed, in the event's `declaration`"
    ),
}
# Error details: facts by name that differ by code and by rule (a field, a limit, a seq ...); the codes
# whose details are fixed have their own schema (Error.seq_conflict ...).
ERROR_DETAILS = "/properties/error/properties/details"


def bare_objects(value: Any, path: str = "") -> list[str]:
    """JSON pointers of every `{type: object}` that names neither properties nor its values' type."""
    found = []
    if isinstance(value, dict):
        if (
            value.get("type") == "object"
            and "properties" not in value
            and "additionalProperties" not in value
        ):
            found.append(path)
        for key, v in value.items():
            found += bare_objects(v, f"{path}/{str(key).replace('~', '~0').replace('/', '~1')}")
    elif isinstance(value, list):
        for i, v in enumerate(value):
            found += bare_objects(v, f"{path}/{i}")
    return found


def undeclared() -> set[str]:
    """The components of a plug-in ruleset that declares no shapes (the tests' probe): open, and said so."""
    out = set()
    for rs in Registry.discover().rulesets.values():
        if rs.rules_shape is None:
            out.add(f"/components/schemas/{camel(rs.id)}RulesState")
        if rs.resume_shape is None:
            out.add(f"/components/schemas/{camel(rs.id)}Resume")
    return out


def unreasoned(doc: dict[str, Any]) -> list[str]:
    allowed = set(REASONED) | undeclared() | {"/components/schemas/ErrorDetail/properties/details"}
    return [
        p
        for p in bare_objects(doc)
        if p not in allowed and not (p.startswith("/components/schemas/Error.") and p.endswith(ERROR_DETAILS))
    ]


def test_the_whole_document_has_no_open_object_but_the_reasoned_ones() -> None:
    assert unreasoned(build_openapi(Registry.discover())) == []


@pytest.mark.parametrize("rid", sorted(Registry.discover().rulesets))
def test_each_rulesets_document_has_no_open_object_but_the_reasoned_ones(rid: str) -> None:
    assert unreasoned(build_openapi(Registry.discover(), rid)) == []


def test_the_check_finds_a_bare_object() -> None:
    doc = build_openapi(Registry.discover())
    doc["components"]["schemas"]["EncounterState"]["properties"]["rules"] = {"type": "object"}
    assert unreasoned(doc) == ["/components/schemas/EncounterState/properties/rules"]
