"""JSON Schema shapes, written as data, of what a ruleset keeps in the state (issue 30 item 2).

A ruleset's `shapes.py` says what its part of the state (`state["rules"]`) and a pending reaction's
`resume` hold, with these few constructors, so that `/openapi.json` and `GET /rulesets/{id}/openapi.json`
type them to the key instead of a bare object. The fold (`state.py`) stays the truth; the shapes say it
in the contract's words, and tests/test_answer_schemas.py holds every answer of every golden stream to
them with every object closed.
"""

from __future__ import annotations

from typing import Any

Shape = dict[str, Any]

INT: Shape = {"type": "integer"}
STR: Shape = {"type": "string"}
BOOL: Shape = {"type": "boolean"}
NULL: Shape = {"type": "null"}
# A position on the encounter's grid: [q, r] on hexes, [x, y] on squares (rules/plane.py).
CELL: Shape = {"type": "array", "items": INT, "minItems": 2, "maxItems": 2}


def said(shape: Shape, meaning: str) -> Shape:
    """`shape` with what it means (every property of the documents says so)."""
    return {**shape, "description": meaning}


def nullable(shape: Shape) -> Shape:
    return {"anyOf": [shape, NULL]}


def list_of(items: Shape) -> Shape:
    return {"type": "array", "items": items}


def map_of(values: Shape, keys: str) -> Shape:
    """An object keyed by ids (`keys` says whose: "combatant id", "unit id" ...), each value `values`."""
    return {"type": "object", "additionalProperties": values, "description": f"By {keys}."}


def record(required: dict[str, Shape], optional: dict[str, Shape] | None = None, about: str = "") -> Shape:
    """An object with these keys: `required` always there, `optional` once something set them."""
    out: Shape = {
        "type": "object",
        "properties": {**required, **(optional or {})},
        "required": sorted(required),
    }
    if about:
        out["description"] = about
    return out


# The engine's own reactions (the common `ask`): resumed by the engine, never by a ruleset.
ENGINE_RESUME = record(
    {"engine": said({"type": "string", "enum": ["ask"]}, "The engine resumes it.")},
    about="An engine question (`ask`).",
)


# The common events' fields that hold lists of objects (events/common.py types them as dicts).
COMMON_EVENT_FIELDS: dict[str, dict[str, Shape]] = {
    "Wounded": {
        "stopped": said(
            list_of(
                record(
                    {
                        "by": said(STR, "What stopped part of the hit (armor, a shield ...)."),
                        "amount": said(INT, "How much it stopped."),
                    }
                )
            ),
            "What stopped how much of the hit, in order; absent where the ruleset does not say.",
        )
    },
}
