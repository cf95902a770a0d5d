"""What code generators need of /openapi.json beyond a valid document (issue 18 item 3).

A generator (openapi-python-client, openapi-generator) makes one class per schema and one union per
`oneOf`; it cannot make two classes of one name, so every schema a ruleset brings is named for its
ruleset (`TftPin`, `GurpsPin`); a command union keeps msgspec's `discriminator` on `type`, its mapping
following the new names; `add_combatant`'s combatant is described field by field, its `stats` by each
ruleset's own stats; a field without its own description gets the one its name has in every command.
"""

from __future__ import annotations

import json
import re
from typing import Any

import msgspec

from rules.common.field_meanings import COMMAND_FIELD_MEANINGS
from rules.interface import Ruleset

REF = "#/components/schemas/{name}"

# What a field of that name means wherever it appears without a msgspec.Meta description of its own: the
# commands' fields as rules/common/field_meanings.py has them (the guides read that too), and the server's.
FIELD_MEANINGS: dict[str, str] = {
    **COMMAND_FIELD_MEANINGS,
    "type": "The command type (the discriminator: it chooses the command's schema).",
    "stats": "The combatant's numbers, as its ruleset names them (GET /rulesets/{id}: stats).",
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
        for cls in _classes([*rs.commands, rs.Options, *rs.events]):
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


def stats_schema(rs: Ruleset, completed: bool = False) -> dict[str, Any]:
    """A ruleset's combatant stats as its guide names them (Ruleset.stats: name -> meaning): as sent to
    add_combatant (`required`: what it refuses a combatant without), or as `completed` in the state
    (`required`: what every combatant has once its defaults are filled in)."""
    title = f"{camel(rs.id)}{'CombatantStats' if completed else 'Stats'}"
    schema: dict[str, Any] = {
        "type": "object",
        "title": title,
        "description": f"The stats of a {rs.title} combatant"
        + (" as its ruleset completed them" if completed else "")
        + f" (GET /rulesets/{rs.id}).",
    }
    if rs.stats:
        schema["properties"] = {
            name: {**_stat_type(rs, name, completed), "description": meaning}
            for name, meaning in rs.stats.items()
        }
    else:
        # A ruleset that reads no stat (freeform) keeps the GM's numbers as given: an open map, on purpose.
        schema["additionalProperties"] = {"description": "Any value the GM keeps: the ruleset reads none."}
    required = rs.completed_stats if completed else rs.required_stats
    if required:
        schema["required"] = list(required)
    return schema


def _stat_type(rs: Ruleset, name: str, completed: bool) -> dict[str, Any]:
    if completed and name in rs.completed_stat_types:
        return rs.completed_stat_types[name]
    return rs.stat_types.get(name, {})


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


def _refs(value: Any, into: set[str]) -> None:
    if isinstance(value, dict):
        ref = value.get("$ref")
        if isinstance(ref, str) and ref.startswith("#/components/schemas/"):
            into.add(ref.rsplit("/", 1)[1])
        for v in value.values():
            _refs(v, into)
    elif isinstance(value, list):
        for v in value:
            _refs(v, into)


def reachable(components: dict[str, Any], roots: Any) -> set[str]:
    """The schemas `roots` refer to, directly or through other schemas."""
    seen: set[str] = set()
    todo: set[str] = set()
    _refs(roots, todo)
    while todo:
        name = todo.pop()
        if name in seen or name not in components:
            continue
        seen.add(name)
        _refs(components[name], todo)
    return seen


def defaults_in_words(doc: dict[str, Any]) -> None:
    """A schema only requests use says its fields' defaults in words, not as `default`.

    openapi-typescript (default settings: defaultNonNullable) makes every property with a `default`
    required, so `{type: "start_turn"}` would not compile for want of command_id, entropy ...; the server
    fills a missing field with its default, so for a request it is simply optional, in every generator.
    Responses keep `default`: the server always sends those fields. A schema both use (an offer's
    combatant is add_combatant's) is a request's: an offer's fields are a command's body, sent back.
    """
    components = doc["components"]["schemas"]
    bodies = [op.get("requestBody") for ops in doc["paths"].values() for op in ops.values()]
    requests = reachable(components, bodies)
    for name in sorted(requests):
        for prop in (components[name].get("properties") or {}).values():
            if isinstance(prop, dict) and "default" in prop:
                said = json.dumps(prop.pop("default"))
                text = prop.get("description", "").rstrip()
                prop["description"] = f"{text} Default (when omitted): {said}.".lstrip()
