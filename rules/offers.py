"""Offers: the commands a combatant (or the GM) may send now, as concrete variants ready to click
(/work/prompts/offers-shape.md, docs/rulesets.md "Offers"). Plain JSON dicts:

    Offer  = {id, type, title, fields, choices: [Choice], reaction}
    Choice = {field, title, kind, options: [{value, title, path?, then?}], region?, required}

A command is built by copying `fields` and setting each chosen `field` (dotted: a nested key). The rule
every ruleset's offers keep: an offered variant is never refused for a reason the rules knew (dice
aside); tests/rules/test_offers.py plays every variant of every golden stream through decide.
"""

from __future__ import annotations

import functools
import itertools
import math
import re
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any

import msgspec
import msgspec.inspect

from rules.acting import name_of
from rules.hexes import Hex, as_hex, label, neighbours
from rules.wording import names_and, words_of_choice

Offer = dict[str, Any]
Choice = dict[str, Any]
GM = "gm"  # the key of the GM's own steps in `offers`
KINDS = ("combatant", "hex", "point", "item", "enum", "number", "text")


def offer(
    id: str,
    type: str,
    title: str,
    fields: dict[str, Any] | None = None,
    choices: Sequence[Choice] = (),
    reaction: str | None = None,
) -> Offer:
    """One offer; `choices` empty means the command is ready to send as `fields`."""
    return {
        "id": id,
        "type": type,
        "title": title,
        "fields": dict(fields or {}),
        "choices": list(choices),
        "reaction": reaction,
    }


def option(
    value: Any, title: str, path: list[Any] | None = None, then: Sequence[Choice] = ()
) -> dict[str, Any]:
    """One finite value of a choice; `then` holds the choices that depend on it, `path` a movement's hexes."""
    out: dict[str, Any] = {"value": value, "title": title}
    if path is not None:
        out["path"] = path
    if then:
        out["then"] = list(then)
    return out


def choice(
    field: str,
    title: str,
    kind: str,
    options: Sequence[dict[str, Any]] = (),
    region: dict[str, Any] | None = None,
    required: bool = True,
) -> Choice:
    """What the player still picks for `field` (dotted for a nested key such as `params.retreat`)."""
    assert kind in KINDS, kind
    out: Choice = {
        "field": field,
        "title": title,
        "kind": kind,
        "options": list(options),
        "required": required,
    }
    if region is not None:
        out["region"] = region
    return out


def region(
    centre: Sequence[int], radius: int, forbidden: Iterable[tuple[Sequence[int], int]] = ()
) -> dict[str, Any]:
    """Plane movement: any point within `radius` of `centre`, outside each forbidden (centre, radius) disc."""
    return {
        "centre": list(centre),
        "radius": radius,
        "forbidden": [{"centre": list(c), "radius": r} for c, r in forbidden],
    }


def reachable(
    start: Any, steps: int, through: Callable[[Hex], bool] = lambda h: True, limit: int = 60
) -> dict[Hex, list[list[int]]]:
    """Hexes within `steps` of `start`, each with a shortest path (the hexes entered, in order) that
    passes only through hexes `through` allows (the last hex of a path need not be one); at most `limit`
    destinations, nearest first."""
    origin = as_hex(start)
    if origin is None or steps < 1:
        return {}
    paths: dict[Hex, list[list[int]]] = {origin: []}
    frontier = [origin]
    for _ in range(steps):
        nxt = []
        for h in frontier:
            if h != origin and not through(h):
                continue
            for n in neighbours(h):
                if n not in paths:
                    paths[n] = [*paths[h], list(n)]
                    nxt.append(n)
        frontier = nxt
    del paths[origin]
    return dict(list(paths.items())[:limit])


def destination_choice(
    paths: dict[Hex, list[list[int]]],
    field: str = "path",
    title: str = "Where to move",
    path_value: bool = True,
) -> Choice:
    """Hex movement as the reachable destinations: each option's value is the path (or, with
    `path_value` false, the destination hex), its `path` the hexes entered."""
    return choice(
        field,
        title,
        "hex",
        [option(p if path_value else list(h), f"to {label(h)}", path=p) for h, p in paths.items()],
    )


def plane_move(combatant: str, r: dict[str, Any], title: str = "Move") -> Offer:
    """The common `move` on the plane: any point of the region `r`."""
    return offer(
        "move", "move", title, {"combatant": combatant}, [choice("to", "Where to move", "point", region=r)]
    )


def combatant_options(state: dict[str, Any], ids: Iterable[str]) -> list[dict[str, Any]]:
    """Each combatant id as an option titled by its name."""
    return [option(cid, name_of(state, cid)) for cid in ids]


def words(name: str) -> str:
    """A CamelCase struct name as words: "ChooseManeuver" -> "Choose maneuver"."""
    parts = re.findall(r"[A-Z]+(?![a-z])|[A-Z]?[a-z0-9]+", name)
    text = " ".join(p if p.isupper() and len(p) > 1 else p.lower() for p in parts)
    return text[:1].upper() + text[1:]


@functools.cache
def command_title(cls: type[msgspec.Struct]) -> str:
    """A command's title from its JSON Schema (the Struct's title, in words); cached: a schema is built
    in milliseconds, and every state view asks."""
    return words(msgspec.json.schema(cls).get("title") or cls.__name__)


def commands_by_type(commands: Iterable[type[msgspec.Struct]]) -> dict[str, type[msgspec.Struct]]:
    """Command Structs by `type` tag."""
    return {cls.__struct_config__.tag: cls for cls in commands}


def respond_offers(
    state: dict[str, Any], pending: dict[str, Any], choices: Iterable[str] | None = None
) -> list[Offer]:
    """One offer per answer of a pending reaction (`choices`: those the rules allow; default its options)."""
    pid = pending["id"]
    return [
        offer(
            f"respond:{pid}:{ch}",
            "respond",
            words_of_choice(ch),
            {"reaction": pid, "choice": ch},
            reaction=pid,
        )
        for ch in (pending.get("options") or [] if choices is None else choices)
    ]


def pending_for(state: dict[str, Any], combatant: str) -> list[dict[str, Any]]:
    """The pending reactions whose answer is this key's: a figure's own (asked of its seat), or the GM's."""
    if combatant == GM:
        return [p for p in state.get("pending", []) if p.get("asked_of", GM) == GM]
    return [
        p for p in state.get("pending", []) if p.get("combatant") == combatant and p.get("asked_of", GM) != GM
    ]


def default_offers(
    ruleset: Any, state: dict[str, Any], combatant: str, commands: Iterable[type[msgspec.Struct]] = ()
) -> list[Offer]:
    """What a ruleset defining no offers gets: one offer per command of `legal_actions`, titled from its
    schema, with `combatant` fixed where the command has one and no finite choices (its other required
    fields as blanks to fill); the answers of pending reactions; and for the GM the common steps (next
    turn, next phase). `commands`: the Structs of the types it may name (the common ones besides the
    ruleset's; `Ruleset.offers` passes them)."""
    if combatant == GM:
        return gm_steps(ruleset, state) + [
            o for p in pending_for(state, GM) for o in respond_offers(state, p)
        ]
    if combatant not in state["combatants"]:
        return []
    by_type = commands_by_type(commands or ruleset.commands)
    out: list[Offer] = [o for p in pending_for(state, combatant) for o in respond_offers(state, p)]
    for ctype in ruleset.legal_actions(state, combatant):
        cls = by_type.get(ctype) if ctype != "respond" else None
        if cls is None:
            continue
        fields = {"combatant": combatant} if "combatant" in cls.__struct_fields__ else {}
        out.append(offer(ctype, ctype, command_title(cls), fields, blanks(cls, fields, ruleset.geometry)))
    return out


def blanks(cls: type[msgspec.Struct], fixed: dict[str, Any], geometry: dict[str, Any]) -> list[Choice]:
    """The command's required fields not in `fixed`, as choices with nothing listed to pick from (a
    client asks for a value): a default offer says what is still missing rather than look ready."""
    plane = geometry.get("kind") == "plane"
    return [
        choice(name, words(name), "point" if kind == "hex" and plane else kind)
        for name, kind in _required(cls)
        if name not in fixed
    ]


@functools.cache
def _required(cls: type[msgspec.Struct]) -> tuple[tuple[str, str], ...]:
    """(name, kind) of each required field; cached: reading a Struct's annotations is slow."""
    return tuple((f.name, _kind(f.type)) for f in msgspec.structs.fields(cls) if f.required)


def _kind(t: Any) -> str:
    info = msgspec.inspect.type_info(t)
    if isinstance(info, msgspec.inspect.IntType | msgspec.inspect.FloatType):
        return "number"
    if isinstance(info, msgspec.inspect.ListType) and isinstance(info.item_type, msgspec.inspect.IntType):
        return "hex"
    return "text"


def next_phase(ruleset: Any, state: dict[str, Any]) -> str | None:
    """The phase after the current one in the ruleset's order (the first when none is started); None
    after the last."""
    phases = list(ruleset.phases)
    if not phases:
        return None
    now = state.get("phase")
    if now not in phases:
        return phases[0]
    i = phases.index(now) + 1
    return phases[i] if i < len(phases) else None


def gm_steps(ruleset: Any, state: dict[str, Any]) -> list[Offer]:
    """The GM's common steps while no reaction waits: start the next phase, or the next turn."""
    if state.get("pending") or state.get("closed"):
        return []
    out = []
    phase = next_phase(ruleset, state) if state.get("turn", 0) >= 1 else None
    if phase is not None:
        out.append(
            offer(
                f"start_phase:{phase}",
                "start_phase",
                f"Start the {words_of_choice(phase).lower()} phase",
                {"phase": phase},
            )
        )
    turn = state.get("turn", 0) + 1
    # Starting the next turn ends this one for whoever has yet to act: the title says who, so that a GM
    # does not skip a round by a tap (ap-grapple starts its next round itself once everyone has passed).
    still = (
        []
        if turn == 1
        else list(dict.fromkeys(a["combatant"] for a in ruleset.acting_now(state) if a.get("combatant")))
    )
    title = f"Start turn {turn}"
    if still:
        who = names_and([name_of(state, c) for c in still])
        title += f" now ({who} {'has' if len(still) == 1 else 'have'} yet to act this turn)"
    out.append(offer(f"start_turn:{turn}", "start_turn", title, {"turn": turn}))
    return out


# ---- Reading offers: the variants a player may build from one (bots, the property test) -------------


def set_field(command: dict[str, Any], dotted: str, value: Any) -> dict[str, Any]:
    """`command` with the dotted field set (a nested key is made as needed); the input is not changed."""
    head, _, rest = dotted.partition(".")
    if not rest:
        return {**command, head: value}
    inner = command.get(head) if isinstance(command.get(head), dict) else {}
    return {**command, head: set_field(inner, rest, value)}


def region_points(r: dict[str, Any], n: int = 6) -> list[list[int]]:
    """A few points of a plane region: its centre and points on rings inside it, none in a forbidden disc."""
    cx, cy = r["centre"]
    radius = r["radius"]
    candidates = [(cx, cy)]
    for frac in (0.5, 0.95):
        for k in range(n):
            a = 2 * math.pi * k / n + frac
            candidates.append((cx + int(radius * frac * math.cos(a)), cy + int(radius * frac * math.sin(a))))
    out = []
    for x, y in candidates:
        if math.hypot(x - cx, y - cy) > radius:
            continue
        if any(math.hypot(x - f["centre"][0], y - f["centre"][1]) <= f["radius"] for f in r["forbidden"]):
            continue
        out.append([x, y])
    return out


def _choice_values(ch: Choice) -> list[tuple[Any, Sequence[Choice]]]:
    values: list[tuple[Any, Sequence[Choice]]] = [(o["value"], o.get("then") or ()) for o in ch["options"]]
    if ch.get("region") is not None:
        values += [(p, ()) for p in region_points(ch["region"])]
    return values


def variants(o: Offer, limit: int = 64) -> Iterator[dict[str, Any]]:
    """Commands (without command_id, entropy, expected_seq) an offer lets a player send: every finite
    combination of its choices with their dependent ones, up to `limit` (spread over the combinations
    when there are more), regions sampled at a few points. A choice with nothing to pick from (a number
    or a text) is left out where it is optional and taken as the whole offer's blank otherwise."""
    base = {"type": o["type"], **o["fields"]}
    found = list(itertools.islice(_expand(base, list(o["choices"])), limit * 16))
    step = max(1, len(found) // limit)
    yield from found[::step][:limit]


def _expand(command: dict[str, Any], choices: list[Choice]) -> Iterator[dict[str, Any]]:
    if not choices:
        yield command
        return
    first, rest = choices[0], choices[1:]
    values = _choice_values(first)
    if not values:
        if not first["required"]:
            yield from _expand(command, rest)
        return
    for value, then in values:
        yield from _expand(set_field(command, first["field"], value), [*then, *rest])
