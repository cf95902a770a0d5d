"""A player acts only as the combatants his seat controls (issue 12 item 2): every command of every
installed ruleset that acts as another seat's combatant is a 403 `forbidden` and appends nothing;
naming a foe as the `target` stays allowed.

The command types come from `GET /rulesets` and their field types from the registry, so a ruleset
installed later is walked too (it needs only a sample figure below when its combatants need stats).
"""

from __future__ import annotations

from typing import Any

import msgspec
import msgspec.inspect as mi
import pytest

from rules.common.commands import COMMON_COMMANDS
from rules.interface import Command
from rules.registry import Registry

THEIRS, MINE = "theirs", "mine"
ENVELOPE = set(Command.__struct_fields__)

# Stats and items a figure of these rulesets needs to join (the other rulesets take a bare figure).
FIGURES: dict[str, dict[str, Any]] = {
    "gurps": {
        "stats": {
            "ST": 10,
            "DX": 12,
            "basic_move": 5,
            "dodge": 8,
            "weapons": [
                {"name": "knife", "kind": "melee", "reach": ["C", "1"], "parry": 8, "damage": "1d-1"}
            ],
        }
    },
    "tft": {"stats": {"st": 12, "adj_dx": 11, "ma": 10}},
    "rogue-trader": {
        "stats": {
            "M": 4,
            "WS": 4,
            "BS": 4,
            "S": 4,
            "T": 4,
            "W": 1,
            "I": 4,
            "A": 1,
            "Ld": 8,
            "save": 4,
            "weapons": [{"id": "chainsword", "type": "C", "S": 4}],
        }
    },
    "ap-grapple": {"stats": {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "hp": 10}},
    "skirmish": {"stats": {"hth_weapon": "other", "move_in": 6}},
}
# Per-figure stats that make "theirs" the id of what a command names besides a combatant.
UNIT_STAT = {"rogue-trader": "unit"}
# State some commands act through (a combat group), set by a GM ruling where the ruleset allows it.
GROUPS = {"rogue-trader": {"rules": {"groups": {THEIRS: [THEIRS, MINE]}}}}
# Common commands that act as no combatant, so a player may send them with nothing of his own.
ACTS_AS_NOBODY = {"note", "respond", "rotate_seed"}


def _value(t: mi.Type) -> Any:
    """A value of type `t` that decodes; every identifier in it names the other seat's figure."""
    if isinstance(t, mi.Metadata):  # a field's description (msgspec.Meta) wraps its type
        return _value(t.type)
    if isinstance(t, mi.StrType):
        return THEIRS
    if isinstance(t, mi.BoolType):
        return False
    if isinstance(t, mi.IntType):
        return max(1, t.ge or 0, (t.gt or 0) + 1)
    if isinstance(t, mi.LiteralType):
        return t.values[0]
    if isinstance(t, mi.UnionType):
        return _value(next(x for x in t.types if not isinstance(x, mi.NoneType)))
    if isinstance(t, mi.ListType):
        return [_value(t.item_type)]
    if isinstance(t, (mi.DictType, mi.AnyType)):
        return {}
    if isinstance(t, mi.StructType):
        return {f.encode_name: _value(f.type) for f in t.fields if f.required}
    raise AssertionError(f"the walk cannot make a value of {t}: teach _value this type")


def _names_someone(t: mi.Type) -> bool:
    if isinstance(t, mi.UnionType):
        return any(_names_someone(x) for x in t.types)
    return isinstance(t, mi.StrType) or (isinstance(t, mi.ListType) and isinstance(t.item_type, mi.StrType))


def _body(cls: type[msgspec.Struct]) -> dict[str, Any]:
    """The command with its required fields, and every optional one that could name a combatant, filled."""
    info = mi.type_info(cls)
    assert isinstance(info, mi.StructType)
    return {
        "type": cls.__struct_config__.tag,
        **{
            f.encode_name: _value(f.type)
            for f in info.fields
            if f.name not in ENVELOPE and (f.required or _names_someone(f.type))
        },
    }


def _figure(ruleset: str, cid: str, side: str, at: list[int]) -> dict[str, Any]:
    extra = FIGURES.get(ruleset, {})
    stats = dict(extra.get("stats", {}))
    if ruleset in UNIT_STAT:
        stats[UNIT_STAT[ruleset]] = cid
    return {
        "id": cid,
        "name": cid.title(),
        "side": side,
        "position": at,
        "facing": 0,
        **extra,
        "stats": stats,
    }


async def _two_seats(tussle, ruleset: str, geometry: dict[str, Any]):
    """An encounter where seat A holds MINE and seat B holds THEIRS (who joins first, so his side
    moves first); returns it and seat A's token."""
    enc = await tussle.create(ruleset)
    step = 1 if geometry["kind"] == "hex_axial" else 100
    await enc.add(_figure(ruleset, THEIRS, "b", [step, 0]))
    await enc.add(_figure(ruleset, MINE, "a", [0, 0]))
    token = await enc.seat("A", [MINE])
    await enc.seat("B", [THEIRS])
    if ruleset in GROUPS:
        await enc.ok("ruling", text="these two are locked in combat", overrides=GROUPS[ruleset])
    await enc.ok("start_turn")
    return enc, token


async def test_every_command_of_every_ruleset_refuses_a_foreign_acting_combatant(tussle):
    described = (await tussle.request("GET", "/rulesets")).body["rulesets"]
    registry = Registry.discover()
    assert {r["id"] for r in described} == set(registry.rulesets)
    walked = 0
    for rs in described:
        classes = {c.__struct_config__.tag: c for c in registry.rulesets[rs["id"]].commands}
        classes |= {c.__struct_config__.tag: c for c in COMMON_COMMANDS}
        enc, token = await _two_seats(tussle, rs["id"], rs["geometry"])
        before = await enc.events()
        for described_command in [*rs["commands"], *rs["common_commands"]]:
            ctype = described_command["type"]
            if ctype in ACTS_AS_NOBODY:
                continue
            body = _body(classes[ctype])
            r = await tussle.request("POST", f"{enc.path}/commands", body, token=token)
            assert r.status == 403, (rs["id"], body, r.status, r.body)
            assert r.body["error"]["code"] == "forbidden", r.body
            walked += 1
        assert await enc.events() == before, f"{rs['id']}: a refused command appended"
    assert walked > 60  # every ruleset's commands, not a few


@pytest.mark.parametrize("who", [THEIRS, MINE])
async def test_a_player_rolls_only_for_his_own_combatant(tussle, who):
    enc = await tussle.create("freeform")
    for cid in (MINE, THEIRS):
        await enc.add({"id": cid, "name": cid.title(), "side": cid})
    token = await enc.seat("A", [MINE])
    await enc.seat("B", [THEIRS])
    seq = (await enc.state())["seq"]
    r = await enc.command("roll", token=token, expression="1d6", purpose="strength", combatant=who)
    log = (await enc.get("/log")).body
    if who == THEIRS:
        assert r.status == 403, r.body
        assert r.body["error"]["code"] == "forbidden"
        assert "Theirs" in r.body["error"]["message"]
        assert (await enc.state())["seq"] == seq
        assert "Theirs rolls" not in str(log)
    else:
        assert r.status == 201, r.body
        assert "Mine rolls" in str(log)


async def test_a_foe_may_be_the_target(tussle):
    enc = await tussle.create("probe")
    for cid in (MINE, THEIRS):
        await enc.add({"id": cid, "name": cid.title(), "side": cid})
    token = await enc.seat("A", [MINE])
    await enc.seat("B", [THEIRS])
    r = await enc.command("probe.grab", token=token, combatant=MINE, target=THEIRS)
    assert r.status == 201, r.body
    # While that grab waits for B's answer, the seat check still comes first.
    r = await enc.command("probe.grab", token=token, combatant=THEIRS, target=MINE)
    assert r.status == 403, r.body


async def test_a_gurps_helper_must_be_the_senders_too(tussle):
    enc, token = await _two_seats(tussle, "gurps", {"kind": "hex_axial"})
    await enc.add(_figure("gurps", "foe", "c", [0, 1]))
    r = await enc.command("gurps.takedown", token=token, combatant=MINE, target="foe", helpers=[THEIRS])
    assert r.status == 403, r.body
    assert "Theirs" in r.body["error"]["message"]
