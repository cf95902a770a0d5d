"""Holding offers to the rules: a candidate variant is kept only if the pipeline, which runs every
`*_problems` check the decider refuses with, accepts it now with dice supplied (the dice aside: a
refusal that comes of a roll is the game, not a wrong offer). Each ruleset's offers.py builds its
candidates from its own checks and passes them through `kept`, so that an offered variant is never
refused for a reason the rules knew, even where a check lives inside a decider.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable
from typing import Any

import msgspec
import msgspec.inspect

from events.dice import BadDice, Dice, DiceNeeded
from rules.acting import asked_of
from rules.hexes import label
from rules.interface import BadCommand, Forbidden, RuleError, Ruleset, common_commands
from rules.offers import (
    GM,
    Choice,
    Offer,
    choice,
    combatant_options,
    command_title,
    commands_by_type,
    destination_choice,
    gm_steps,
    offer,
    option,
    pending_for,
    reachable,
    respond_offers,
    set_field,
    words,
    words_of_choice,
)
from rules.pipeline import Context, check_pending, check_seat, decide_command

PROBE = "offer-probe"
_TRIES = 40  # rolls a resolution may ask for, one DiceNeeded at a time


def actor_for(state: dict[str, Any], key: str, reaction: str | None = None) -> str:
    """Who would send it: the GM for the GM's steps, else the seat asked (or the figure's own)."""
    if key == GM:
        return "gm"
    pending = next((p for p in state.get("pending", []) if p["id"] == reaction), None)
    seat = pending.get("asked_of", GM) if pending else asked_of(state, key)
    return "gm" if seat == GM else f"seat:{seat}"


def refusal(ruleset: Ruleset, state: dict[str, Any], body: dict[str, Any], actor: str) -> str | None:
    """Why the rules refuse `body` sent by `actor` now (None: accepted), with whatever faces it asks."""
    from rules.registry import command_decoder  # the registry reads entry points; only decoding here

    decoder = _decoders.get(ruleset.id) or _decoders.setdefault(ruleset.id, command_decoder(ruleset))
    try:
        cmd = decoder.decode(msgspec.json.encode(body))
    except msgspec.ValidationError as exc:
        return str(exc)
    supplied: list[list[int]] = []
    own, ctype = frozenset(ruleset.commands), body["type"]
    for _ in range(_TRIES):
        dice = Dice(stream=state["stream"], command_id=PROBE, supplied=supplied)
        try:
            ctx = Context(stream=state["stream"], actor=actor, command_id=PROBE)
            if type(cmd) in own:
                # The pipeline's gates, then the decider alone: folding its events is what a probe
                # need not pay for (the pipeline adds no refusal after the decider's).
                cmd = msgspec.structs.replace(cmd, actor=actor)
                check_seat(state, ruleset, cmd, ctype, ctx)
                check_pending(state, ctype)
                ruleset.decide(state, cmd, dice)
            else:
                decide_command(state, ruleset, cmd, ctx, dice)
            return None
        except DiceNeeded as needed:
            supplied = [[(sides + 1) // 2] * count for count, sides, _, _ in needed.rolls]
        except (RuleError, BadCommand, Forbidden, BadDice) as exc:
            return exc.message if hasattr(exc, "message") else str(exc)
    return "it kept asking for dice"


_decoders: dict[str, msgspec.json.Decoder] = {}


def kept(ruleset: Ruleset, state: dict[str, Any], key: str, offers: list[Offer]) -> list[Offer]:
    """The offers with every variant the rules refuse taken out: finite choices are nested (each option
    carries the choices after it in `then`) and pruned leaf by leaf; an offer left with nothing to send
    is dropped. Region choices are kept as given (their ruleset draws them from its own limits)."""
    out = []
    for o in offers:
        actor = actor_for(state, key, o.get("reaction"))
        base = {"type": o["type"], **o["fields"]}
        pruned = _prune(ruleset, state, actor, base, list(o["choices"]))
        if pruned is not None:
            out.append({**o, "choices": pruned})
    return out


FREE_STAND_INS: dict[str, Any] = {"number": 0, "text": "by hand"}


def _prune(
    ruleset: Ruleset, state: dict[str, Any], actor: str, command: dict[str, Any], choices: list[Choice]
) -> list[Choice] | None:
    if not choices:
        return [] if refusal(ruleset, state, command, actor) is None else None
    first, rest = choices[0], choices[1:]
    if not first["options"]:
        # A region or a free value: the ruleset vouches for it; the rest is judged without it, or with a
        # stand-in where the command needs one (an injury of 0 hit points, a word for how).
        stand_in = FREE_STAND_INS.get(first["kind"]) if first["required"] else None
        if stand_in is not None:
            command = set_field(command, first["field"], stand_in)
        below = _prune(ruleset, state, actor, command, rest) if first.get("region") is None else rest
        return None if below is None else [first, *below]
    options = []
    for opt in first["options"]:
        below = _prune(
            ruleset,
            state,
            actor,
            set_field(command, first["field"], opt["value"]),
            [*opt.get("then", []), *rest],
        )
        if below is not None:
            options.append(
                {**{k: v for k, v in opt.items() if k != "then"}, **({"then": below} if below else {})}
            )
    if not options:
        return None if first["required"] else _prune(ruleset, state, actor, command, rest)
    return [{**first, "options": options}]


# ---- Candidates read off a command's fields, for the commands a ruleset's offers.py does not build ---

HEX_STEPS = 4  # how far a generic hex path is looked for; the rules' own limit prunes it


def field_candidates(
    state: dict[str, Any], cid: str, name: str, info: msgspec.inspect.Type, geometry: dict[str, Any]
) -> list[dict[str, Any]] | None:
    """The values worth offering for one field of a command `cid` sends, as options (None: nothing to
    offer, leave the field to its default)."""
    me = state["combatants"].get(cid) or {}
    others = [o for o in state["combatants"] if o != cid]
    if name == "combatant":  # only the GM's commands leave it open
        return combatant_options(state, others)
    if isinstance(info, msgspec.inspect.UnionType):
        real = [t for t in info.types if not isinstance(t, msgspec.inspect.NoneType)]
        return field_candidates(state, cid, name, real[0], geometry) if len(real) == 1 else None
    if isinstance(info, msgspec.inspect.LiteralType):
        return [option(v, words_of_choice(str(v))) for v in info.values]
    if isinstance(info, msgspec.inspect.StrType):
        if name in ("target", "defender", "foe"):
            foes = [o for o in others if state["combatants"][o].get("side") != me.get("side")]
            return combatant_options(state, foes + [o for o in others if o not in foes])
        if name in ("weapon", "item", "shield"):
            return [option(it["id"], it.get("name") or it["id"]) for it in me.get("items") or []]
        if name in ("unit", "group"):
            return None
        return None
    if isinstance(info, msgspec.inspect.ListType):
        item = info.item_type
        if name in ("targets", "helpers") and isinstance(item, msgspec.inspect.StrType):
            return [option([o], state["combatants"][o]["name"]) for o in others]
        if (
            name == "path"
            and isinstance(item, msgspec.inspect.ListType)
            and geometry.get("kind") != "plane"
            and me.get("position") is not None
        ):
            return destination_choice(reachable(me["position"], HEX_STEPS))["options"]
        if name == "to" and geometry.get("kind") != "plane" and me.get("position") is not None:
            return [option(list(h), f"to {label(h)}") for h in reachable(me["position"], 1)]
    return None


def _described(info: msgspec.inspect.Type) -> str | None:
    """A field's description up to its first comma or full stop ("Hit points lost, 0 or more, ..." ->
    "Hit points lost"): the label of the box a person types it in."""
    extra = info.extra_json_schema if isinstance(info, msgspec.inspect.Metadata) else None
    text = (extra or {}).get("description")
    return re.split(r"[,.(:;]", text, maxsplit=1)[0].strip() or None if isinstance(text, str) else None


def _free_kind(info: msgspec.inspect.Type) -> str | None:
    """ "number" or "text" for a field a person types freely; None for any other."""
    if isinstance(info, msgspec.inspect.IntType | msgspec.inspect.FloatType):
        return "number"
    return "text" if isinstance(info, msgspec.inspect.StrType) else None


@functools.cache
def _fields(cls: type[msgspec.Struct]) -> tuple[msgspec.inspect.Field, ...]:
    """A command's fields as msgspec describes them; cached: inspecting a Struct (its annotations
    evaluated) was a third of the offers' CPU, for a description that never changes."""
    info = msgspec.inspect.type_info(cls)
    assert isinstance(info, msgspec.inspect.StructType)
    return info.fields


CHOICE_TITLES = {
    "target": "Whom",
    "targets": "Whom",
    "helpers": "Who helps",
    "weapon": "With which weapon",
    "item": "Which item",
    "path": "Where to move",
    "to": "Where to",
    "combatant": "Which figure",
}
KINDS_BY_FIELD = {
    "target": "combatant",
    "targets": "combatant",
    "helpers": "combatant",
    "path": "hex",
    "to": "hex",
}


def schema_offers(
    ruleset: Ruleset,
    state: dict[str, Any],
    cid: str,
    types: list[str],
    titles: dict[str, str] | None = None,
    fixed: dict[str, Any] | None = None,
) -> list[Offer]:
    """Offers for command types a ruleset's offers.py does not build itself: `combatant` fixed, each
    required field it can name values for (targets, items, literal values, hexes) a choice, and the
    optional ones left to their defaults; `kept` then holds each variant to the rules. `titles` words a
    type (else its schema title); a title naming `{target}` makes one offer per target. `fixed`: values
    the ruleset knows for fields of that name (the model's unit, its combat group). For the GM (`cid`
    "gm") a `combatant` field is a choice among every combatant."""
    titles, fixed = titles or {}, fixed or {}
    by_type = commands_by_type((*common_commands(), *ruleset.commands))
    out = []
    for ctype in types:
        cls = by_type.get(ctype)
        if cls is None:
            continue
        fields: dict[str, Any] = {
            k: v for k, v in fixed.items() if k in cls.__struct_fields__ and v is not None
        }
        if "combatant" in cls.__struct_fields__ and cid != GM:
            fields["combatant"] = cid
        choices = []
        complete = True
        for f in _fields(cls):
            if f.name in fields or f.name in COMMAND_FIELDS:
                continue
            ftype = f.type
            if cid == GM and isinstance(ftype, msgspec.inspect.Metadata):  # a described field of the GM's
                ftype = ftype.type
            opts = field_candidates(state, cid, f.name, ftype, ruleset.geometry) if f.required else None
            if not f.required and f.name in ("weapon", "item") and isinstance(f.default, str):
                # An optional weapon (TFT's fist by default): the default first, then each of his items.
                items = field_candidates(state, cid, f.name, f.type, ruleset.geometry) or []
                opts = [
                    option(f.default, words_of_choice(f.default)),
                    *(o for o in items if o["value"] != f.default),
                ]
            if opts is None and f.required and cid == GM and (free := _free_kind(ftype)):
                # What only the GM can say (the hit points an injury costs, how a prisoner is freed):
                # asked in a box rather than left to the typed forms.
                choices.append(
                    choice(f.name, CHOICE_TITLES.get(f.name) or _described(f.type) or words(f.name), free)
                )
                continue
            if opts is None:
                complete = complete and not f.required
                continue
            kind = KINDS_BY_FIELD.get(f.name, "item" if f.name in ("weapon", "item") else "enum")
            choices.append(
                choice(f.name, CHOICE_TITLES.get(f.name) or words(f.name), kind, opts, required=f.required)
            )
        if not complete:
            continue
        title = titles.get(ctype) or command_title(cls)
        split = next((ch for ch in choices if ch["field"] == "target"), None) if "{target}" in title else None
        if split is None:
            out.append(offer(ctype, ctype, title, fields, choices))
            continue
        rest = [ch for ch in choices if ch is not split]
        out += [
            offer(
                f"{ctype}:{o['value']}",
                ctype,
                title.format(target=o["title"]),
                {**fields, "target": o["value"]},
                rest,
            )
            for o in split["options"]
        ]
    return out


COMMAND_FIELDS = frozenset({"command_id", "entropy", "expected_seq", "dice", "actor"})


def offers_of(
    ruleset: Ruleset,
    state: dict[str, Any],
    key: str,
    built: list[Offer],
    legal: list[str] | None = None,
    titles: dict[str, str] | None = None,
    fixed: dict[str, Any] | None = None,
) -> list[Offer]:
    """A ruleset's offers: those its offers.py `built`, the answers waiting for `key`, the commands of
    `legal_actions` it built none for (read off their fields), and for the GM the common steps; every
    variant held to the rules."""
    # An answer the ruleset built (a defence with its weapons) gets no second copy; the kernel adds
    # the plain answers it left to the kernel (a push-back's "short" beside the ruleset's "place").
    own_answers = {
        (o["fields"].get("reaction"), o["fields"].get("choice")) for o in built if o["type"] == "respond"
    }
    asked = [
        o
        for o in answers(ruleset, state, key)
        if (o["fields"].get("reaction"), o["fields"].get("choice")) not in own_answers
    ]
    if key == GM:
        own = [t for t in sorted(ruleset.gm_commands) if t not in {o["type"] for o in built}]
        gm = schema_offers(ruleset, state, GM, own, titles) if not state.get("pending") else []
        return kept(ruleset, state, GM, [*gm_steps(ruleset, state), *built, *gm, *asked])
    if key not in state["combatants"]:
        return []
    legal = ruleset.legal_actions(state, key) if legal is None else legal
    done = {o["type"] for o in built}
    rest = [t for t in legal if t not in done and t != "respond"]
    mine = [o for o in built if o["type"] in legal or o["type"] == "respond"]
    return kept(
        ruleset, state, key, [*asked, *mine, *schema_offers(ruleset, state, key, rest, titles, fixed)]
    )


def answers(ruleset: Ruleset, state: dict[str, Any], key: str) -> list[Offer]:
    """Each answer of the questions waiting for `key`; one the rules refuse bare is offered with the
    weapon or item it needs as a choice (a charge answered by standing to fire names the weapon)."""
    out = []
    for p in pending_for(state, key):
        who = p.get("combatant")
        items = (state["combatants"].get(who) or {}).get("items") or [] if who else []
        for o in respond_offers(state, p):
            actor = actor_for(state, key, p["id"])
            if refusal(ruleset, state, {"type": "respond", **o["fields"]}, actor) is None or not items:
                out.append(o)
                continue
            opts = [option(it["id"], it.get("name") or it["id"]) for it in items]
            out.append({**o, "choices": [choice("params.weapon", "With which weapon", "item", opts)]})
    return out


def titled(titles: dict[str, str]) -> Callable[[Any, dict[str, Any], str], list[Offer]]:
    """A ruleset's `offers` built wholly by `offers_of`, with its commands' titles in words."""

    def offers(ruleset: Ruleset, state: dict[str, Any], key: str) -> list[Offer]:
        return offers_of(ruleset, state, key, [], titles=titles)

    return offers
