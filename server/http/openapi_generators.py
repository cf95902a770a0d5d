"""What code generators need of /openapi.json beyond a valid document (issue 18 item 3).

A generator (openapi-python-client, openapi-generator) makes one class per schema and one union per
`oneOf`; it cannot make two classes of one name, so every schema a ruleset brings is named for its
ruleset (`TftPin`, `GurpsPin`); a command union keeps msgspec's `discriminator` on `type`, its mapping
following the new names; `add_combatant`'s combatant is described field by field, its `stats` by each
ruleset's own stats; a field without its own description gets the one its name has in every command.
"""

from __future__ import annotations

import re
from typing import Any

import msgspec

from rules.interface import Ruleset

REF = "#/components/schemas/{name}"

# What a field of that name means wherever it appears (a field's own msgspec.Meta description wins).
FIELD_MEANINGS: dict[str, str] = {
    "type": "The command type (the discriminator: it chooses the command's schema).",
    "command_id": "Your id for this command (1-64 of A-Z a-z 0-9 _ . : -): resending it with the same body "
    "answers 200 with the original events instead of acting twice.",
    "entropy": "Your contribution to the dice of this command (mixed into the seed; up to 128 characters).",
    "expected_seq": "Act only if the encounter is at this seq (else 409 seq_conflict): no blind overwrites.",
    "dice": "With physical dice (dice: manual): the faces rolled, one list per roll in the order asked.",
    "combatant": "The id of the combatant who acts.",
    "target": "The id of the combatant acted on.",
    "targets": "The ids of the combatants acted on.",
    "combatants": "Combatant ids.",
    "to": "Where to: a position in the encounter's geometry ([q, r] hex, or [x, y] in 0.01 inch).",
    "path": "The way taken, position by position in the encounter's geometry.",
    "facing": "Facing: a hex direction 0-5, or degrees 0-359 on a table top.",
    "position": "A position in the encounter's geometry ([q, r] hex, or [x, y] in 0.01 inch); null: none.",
    "modifiers": "Extra modifiers of the roll, each {value, reason}.",
    "value": "The modifier's value, added to the roll.",
    "reason": "Why: written into the log and the audit.",
    "weapon": "The id of the weapon (an item of the combatant), or its natural attack.",
    "item": "The id of an item of the combatant.",
    "unit": "The unit's name.",
    "group": "The id of a close-combat group.",
    "name": "A name as the log writes it.",
    "id": "An id, unique in the encounter.",
    "side": "The side the combatant fights on.",
    "seq": "An event's position in the encounter's stream (1 = EncounterCreated).",
    "hash": "The event's chain hash (SHA-256, hex).",
    "turn": "The turn number (0 before the first).",
    "phase": "The phase of the turn, one of the ruleset's phases.",
    "kind": "What kind it is.",
    "reaction": "The id of the reaction being answered (from ReactionRequested).",
    "choice": "The chosen option, one of the reaction's options.",
    "params": "The answer's extra fields, as the reaction asks.",
    "text": "Free text.",
    "options": "Option name to value.",
    "result": "The result, one of those the ruleset lists.",
    "force": "Do it even where the ruleset would refuse the order (the GM's override).",
    "helpers": "The ids of the combatants who help.",
    "condition": "Which condition lets it happen.",
    "maneuver": "The maneuver chosen for the turn.",
    "to_hit_target": "The to-hit target the GM states (only with the option to_hit: gm_target).",
    "stats": "The combatant's numbers, as its ruleset names them (GET /rulesets/{id}: stats).",
    "items": "What the combatant carries: each {id, name, kind, state, ...}.",
    "talents": "The combatant's talents or skills, name to level.",
    "reactions": "Standing orders: reaction kind to the choice given without asking.",
    "controller": "The seat that controls the combatant (null: the GM).",
    "posture": "standing, kneeling, prone, on_back or on_stomach.",
    "seat": "A seat id.",
    "events": "The events appended, as envelopes.",
    "error": "The error.",
    "ruleset": "The ruleset's id.",
    "geometry": "How positions and facings are written in this encounter.",
    "public": "Listed on GET /encounters for anyone, and readable without a token.",
    "closed": "Closed encounters can be read but not changed.",
    "status": "Its state.",
    "format": "The format.",
    "description": "What it is for.",
    "default": "The value when none is given.",
    "token": "A bearer token: shown once.",
    "secret": "The signing secret: shown once.",
}


def camel(ruleset_id: str) -> str:
    """A ruleset id as a schema prefix: ap-grapple -> ApGrapple."""
    return "".join(part.capitalize() for part in re.split(r"[^A-Za-z0-9]+", ruleset_id) if part)


def _normalize(name: str) -> str:
    # msgspec's own normalisation of component names.
    return re.sub(r"[^a-zA-Z0-9.\-_]", "_", name)


def _classes(types: list[Any]) -> set[type]:
    """Every class msgspec names a component for, reachable from `types`."""
    found: set[type] = set()

    def walk(info: Any) -> None:
        if isinstance(info, (list, tuple)):
            for i in info:
                walk(i)
            return
        if not isinstance(info, (msgspec.inspect.Type, msgspec.inspect.Field)):
            return
        cls = getattr(info, "cls", None)
        if isinstance(cls, type) and not isinstance(info, msgspec.inspect.CustomType):
            if cls in found:
                return
            found.add(cls)
        for attr in ("type", "types", "item_type", "key_type", "value_type", "item_types", "fields"):
            walk(getattr(info, attr, None))

    walk(list(msgspec.inspect.multi_type_info(types)))
    return found


def ruleset_names(components: dict[str, Any], rulesets: list[Ruleset]) -> dict[str, str]:
    """Old component name -> ruleset-qualified name, for every schema of a class a ruleset defines."""
    renames: dict[str, str] = {}
    for rs in rulesets:
        prefix, package = camel(rs.id), type(rs).__module__
        for cls in _classes([*rs.commands, rs.Options]):
            if not (cls.__module__ == package or cls.__module__.startswith(package + ".")):
                continue
            short = _normalize(cls.__name__)
            new = short if short.startswith(prefix) else prefix + short
            for old in (_normalize(f"{cls.__module__}.{cls.__qualname__}"), short):
                if old in components and old not in renames:
                    renames[old] = new
                    break
    taken = set(components) - set(renames)
    # A common class whose short name a ruleset class also has (common `Move`, ap-grapple's `Move`) was
    # qualified by its module; once the ruleset's is renamed, the short name is free for it again.
    free = taken | set(renames.values())
    for old in sorted(components):
        short = old.rsplit(".", 1)[-1]
        if old.startswith("rules.") and old not in renames and short not in free:
            renames[old], free = short, free | {short}
    taken = set(components) - set(renames)
    clash = {n for n in renames.values() if n in taken} | {
        n for n in renames.values() if list(renames.values()).count(n) > 1
    }
    if clash:
        raise ValueError(f"ruleset-qualified schema names clash: {sorted(clash)}")
    return renames


def renamed(value: Any, renames: dict[str, str]) -> Any:
    """`value` with every reference to a renamed schema following it."""
    refs = {REF.format(name=old): REF.format(name=new) for old, new in renames.items()}

    def walk(v: Any) -> Any:
        if isinstance(v, dict):
            return {k: walk(x) for k, x in v.items()}
        if isinstance(v, list):
            return [walk(x) for x in v]
        if isinstance(v, str):
            return refs.get(v, v)
        return v

    return walk(value)


def stats_schema(rs: Ruleset) -> dict[str, Any]:
    """A ruleset's combatant stats as its guide names them (Ruleset.stats: name -> meaning)."""
    schema: dict[str, Any] = {
        "type": "object",
        "title": f"{camel(rs.id)}Stats",
        "description": f"The stats of a {rs.title} combatant (GET /rulesets/{rs.id}).",
    }
    if rs.stats:
        schema["properties"] = {name: {"description": meaning} for name, meaning in rs.stats.items()}
    return schema


# Names whose meaning above is a command's: elsewhere (an encounter's `dice` mode, a webhook's `format`)
# the field says what it means itself.
COMMAND_ONLY = frozenset(
    {"type", "dice", "to", "path", "choice", "params", "kind", "result", "format", "status"}
)


def described(components: dict[str, Any]) -> None:
    """Give every property without a description the meaning its name has in every command."""
    for schema in components.values():
        props = schema.get("properties") or {}
        command = "enum" in (props.get("type") or {})
        for name, prop in props.items():
            if not isinstance(prop, dict) or "description" in prop or name not in FIELD_MEANINGS:
                continue
            if command or name not in COMMAND_ONLY:
                prop["description"] = FIELD_MEANINGS[name]


def arrays_have_items(value: Any) -> None:
    """An array schema says what its items are (a generator needs `items`; {} means anything)."""
    if isinstance(value, dict):
        if value.get("type") == "array" and "items" not in value and "prefixItems" not in value:
            value["items"] = {}
        for v in value.values():
            arrays_have_items(v)
    elif isinstance(value, list):
        for v in value:
            arrays_have_items(v)
