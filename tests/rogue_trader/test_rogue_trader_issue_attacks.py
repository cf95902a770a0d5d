"""Issue 6 audit: special attacks with their arcs and damage (stomp, bite, gore, claw, tail, tentacle), the
Catachan Devil's variants, multiple weapons and free hands, through the HTTP API with manual dice."""

from __future__ import annotations

import pytest
from rt_support import LASPISTOL, at, cultist, encounter, marine, of_type, rolls

BEAST_ATTACKS = [{"kind": k, "count": 1} for k in ("stomp", "gore", "claw", "tail", "tentacle", "bite")]


async def _beast(tussle):
    """A beast (r 1") facing 90° with ef in front, es on its right side, er behind; all three charged it."""
    beast = {
        "id": "bx",
        "name": "Beast",
        "side": "red",
        "position": at(0, 0),
        "facing": 90,
        "reactions": {"charged": "hold"},
        "stats": {
            "M": 5,
            "WS": 3,
            "BS": 0,
            "S": 6,
            "T": 6,
            "W": 6,
            "I": 8,
            "A": 6,
            "Ld": 10,
            "base_radius": 100,
            "special_attacks": BEAST_ATTACKS,
        },
    }
    enemies = [
        cultist("ef", 0, 4, unit="E", W=10, facing=270),
        cultist("es", 4, 0, unit="E", W=10, facing=180),
        cultist("er", 0, -4, unit="E", W=10, facing=90),
    ]
    enc = await encounter(tussle, [beast, *enemies], options={"turn_order": ["blue", "red"]})
    for e in ("ef", "es", "er"):
        await enc.ok("rogue-trader.charge", combatant=e, target="bx")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    return enc


@pytest.mark.parametrize(
    ("kind", "target", "arc"),
    [
        ("gore", "es", "right side"),
        ("bite", "es", "right side"),
        ("claw", "er", "rear"),
        ("tail", "ef", "front"),
    ],
)
async def test_special_attack_outside_its_arc_is_refused(tussle, kind, target, arc):
    enc = await _beast(tussle)
    allocations = [
        {
            "attack": k,
            "target": "er" if k in ("stomp", "tentacle") else "ef" if k in ("gore", "bite") else "es",
        }
        for k in ("stomp", "gore", "claw", "tail", "tentacle", "bite")
    ]
    for a in allocations:
        if a["attack"] == kind:
            a["target"] = target
    r = await enc.command("rogue-trader.allocate_attacks", combatant="bx", round=2, allocations=allocations)
    assert r.status == 422, r.body
    assert f"is in Beast's {arc} arc; a {kind} attack strikes only" in r.body["error"]["message"]


async def test_every_special_attack_in_its_arc_with_its_damage(tussle):
    enc = await _beast(tussle)
    await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="bx",
        round=2,
        allocations=[
            {"attack": "stomp", "target": "er"},
            {"attack": "gore", "target": "ef"},
            {"attack": "claw", "target": "es"},
            {"attack": "tail", "target": "es"},
            {"attack": "tentacle", "target": "er"},
            {"attack": "bite", "target": "ef"},
        ],
    )
    # Each attack hits (5 vs 5) and wounds (2 vs 2+, S6 v T3); no saves. Claw 1d4 = 3, tail 1d6 = 4 (living),
    # tentacle 1d4 = 2; stomp, gore and bite do 1. Then ef, er, es miss; E rout test 2+3.
    dice = [[5], [2], [5], [2], [5], [2], [3], [5], [2], [4], [5], [2], [2], [5], [2], [1], [1], [1], [2, 3]]
    body = await enc.ok("rogue-trader.resolve_round", group="bx", dice=dice)
    evs = body["events"]
    assert [r["notation"] for r in rolls(evs, "damage")] == ["1d4", "1d6", "1d4"]
    wounds = [(e["data"]["combatant"], e["data"]["amount"]) for e in of_type(evs, "Wounded")]
    assert wounds == [("er", 1), ("ef", 1), ("es", 3), ("es", 4), ("er", 2), ("ef", 1)]
    assert all(r["modifiers"] == [] for r in rolls(evs, "to_hit") if r["combatant"] == "bx")
    res = of_type(evs, "RtCombatRoundResolved")[0]["data"]
    assert {"unit": "bx", "vs": "E", "caused": 12, "received": 0, "result": "win"} in res["pairs"]
    await enc.replay_matches_live()


async def test_large_devil_variants(tussle):
    enc = await tussle.create("rogue-trader", options={"turn_order": ["red", "blue"]}, dice="manual")
    base = {"side": "red", "position": at(0, 0), "stats": {"creature": "catachan_devil", "size": "large"}}
    r = await enc.command(
        "add_combatant", dice=[[30], [50]], combatant={**base, "id": "male", "name": "Male"}
    )
    variant = of_type(r.body["events"], "RtCreatureVariantDetermined")[0]["data"]
    assert variant["variant"] == "male"
    assert [a for a in variant["attacks"] if a["kind"] == "claw"] == [
        {"kind": "claw", "count": 2, "damage": "D4"}
    ]
    assert sum(a["count"] for a in variant["attacks"]) == 11  # the itemised 9 + 2 claws
    r = await enc.command(
        "add_combatant", dice=[[51]], combatant={**base, "id": "fem", "name": "Female", "position": at(10, 0)}
    )
    variant = of_type(r.body["events"], "RtCreatureVariantDetermined")[0]["data"]
    assert variant["variant"] == "female" and not [a for a in variant["attacks"] if a["kind"] == "claw"]
    r = await enc.command(
        "add_combatant",
        combatant={
            **base,
            "id": "given",
            "name": "Given",
            "position": at(20, 0),
            "stats": {**base["stats"], "variant": "fiddler"},
        },
    )
    assert r.status == 201 and not of_type(r.body["events"], "DieRolled")
    r = await enc.command(
        "add_combatant",
        combatant={
            "id": "small",
            "name": "Small",
            "side": "red",
            "position": at(30, 0),
            "stats": {
                "creature": "catachan_devil",
                "size": "small",
                "special_attacks": [{"kind": "bite", "count": 2}],
            },
        },
    )
    assert r.status == 201
    st = await enc.state()
    assert st["combatants"]["small"]["stats"]["S"] == 5 and st["combatants"]["small"]["stats"]["A"] == 2
    assert st["rules"]["models"]["male"]["variant"] == "male"
    assert st["combatants"]["male"]["stats"]["W"] == 8
    await enc.replay_matches_live()


async def test_medium_devil_profile(tussle):
    enc = await tussle.create("rogue-trader", dice="manual")
    await enc.add(
        {
            "id": "dv",
            "name": "Devil",
            "side": "red",
            "position": at(0, 0),
            "stats": {"creature": "catachan_devil", "size": "medium"},
        }
    )
    st = await enc.state()
    s = st["combatants"]["dv"]["stats"]
    assert (s["M"], s["WS"], s["S"], s["T"], s["W"], s["I"], s["Ld"], s["base_radius"]) == (
        5,
        3,
        6,
        6,
        6,
        8,
        10,
        100,
    )
    assert sum(a["count"] for a in s["special_attacks"]) == 7


async def test_free_hands_and_two_handed_weapons(tussle):
    left = {**LASPISTOL, "id": "laspistol_l", "held_in": "L"}
    great = {"id": "great_axe", "type": "C", "S": 6, "hands": 2}
    k1 = marine("k1", 0, 0, equipment_hands=1, weapons=[dict(LASPISTOL), left, great])
    enc = await encounter(tussle, [k1, cultist("c1", 3, 0)])
    await enc.ok("rogue-trader.charge", combatant="k1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "laspistol", "target": "c1"}, {"weapon": "laspistol_l", "target": "c1"}],
    )
    assert r.status == 422 and "has 1 free hand(s) but the weapons need 2" in r.body["error"]["message"]
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "great_axe", "target": "c1"}],
    )
    assert r.status == 422 and "has 1 free hand(s) but the weapons need 2" in r.body["error"]["message"]
    body = await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="k1",
        round=1,
        allocations=[{"weapon": "laspistol_l", "target": "c1"}],
    )
    assert of_type(body["events"], "RtAttacksAllocated")[0]["data"]["allocations"] == [
        {"attack": "weapon", "weapon": "laspistol_l", "hand": "L", "target": "c1"}
    ]
    # One weapon, in the off hand: -1 wrong hand only, +1 charging.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[1], [1]])
    hit = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "k1"][0]
    assert [(m["value"], m["reason"]) for m in hit["modifiers"]] == [(1, "charging"), (-1, "wrong hand")]
    await enc.replay_matches_live()


async def test_two_handed_weapon_makes_a_attacks_with_its_own_s(tussle):
    great = {"id": "great_axe", "type": "C", "S": 6, "hands": 2}
    enc = await encounter(tussle, [marine("k1", 0, 0, A=2, weapons=[great]), cultist("c1", 3, 0, T=6)])
    await enc.ok("rogue-trader.charge", combatant="k1", target="c1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    # Two attacks (A2) with the axe: hit 4, wound S6 v T6 4+ on a 1 fails; miss; c1 misses.
    body = await enc.ok("rogue-trader.resolve_round", group="c1", dice=[[4], [1], [1], [1]])
    k1 = [r for r in rolls(body["events"], "to_hit") if r["combatant"] == "k1"]
    assert len(k1) == 2 and all(r["modifiers"] == [] for r in k1)
    assert rolls(body["events"], "to_wound")[0]["target"] == 4
    await enc.replay_matches_live()


@pytest.mark.parametrize(("bite_s", "need"), [(None, 2), (3, 4), (8, 2)])
async def test_special_attack_with_its_own_s(tussle, bite_s, need):
    """Spec 4.7: special attacks use the creature's S (6) unless the attack lists its own."""
    bite = {"kind": "bite", "count": 1} if bite_s is None else {"kind": "bite", "count": 1, "S": bite_s}
    beast = {
        "id": "bx",
        "name": "Beast",
        "side": "red",
        "position": at(0, 0),
        "facing": 0,
        "stats": {
            "M": 5,
            "WS": 3,
            "S": 6,
            "T": 6,
            "W": 6,
            "I": 8,
            "A": 1,
            "Ld": 10,
            "special_attacks": [bite],
        },
    }
    enc = await encounter(tussle, [beast, cultist("c1", 3, 0)])
    await enc.ok("rogue-trader.charge", combatant="bx", target="c1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="close_combat")
    body = await enc.ok("rogue-trader.resolve_round", group="bx", dice=[[5], [1], [1]])
    assert rolls(body["events"], "to_wound")[0]["target"] == need
    await enc.replay_matches_live()


def test_default_wound_chart_follows_the_spec_rule():
    """Spec §7: d = T - S; d <= -2 -> 2; -1 -> 3; 0 -> 4; 1 -> 5; 2-3 -> 6; >= 4 -> N."""
    from rules.rogue_trader.tables import DEFAULT_WOUND_CHART

    def rule(s: int, t: int) -> int | str:
        d = t - s
        return 2 if d <= -2 else 3 if d == -1 else 4 if d == 0 else 5 if d == 1 else 6 if d <= 3 else "N"

    assert [list(r) for r in DEFAULT_WOUND_CHART] == [
        [rule(s, t) for t in range(1, 11)] for s in range(1, 11)
    ]


async def test_allocation_naming_only_targets_uses_the_models_weapons(tussle):
    enc = await encounter(tussle, [marine("m1", 0, 0, A=2), cultist("c1", 3, 0)])
    await enc.ok("rogue-trader.charge", combatant="m1", target="c1")
    await enc.ok("start_phase", phase="close_combat")
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="m1",
        round=1,
        allocations=[{"target": "c1"}, {"target": "c1"}, {"target": "c1"}],
    )
    assert (
        r.status == 422
        and "allocations[2]: M1 has no more weapon attack to give" in r.body["error"]["message"]
    )
    # A new player's guess names the weapon as the attack: the refusal says what `attack` takes and what is left.
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="m1",
        round=1,
        allocations=[{"attack": "chainsword", "weapon": "chainsword", "target": "c1"}],
    )
    assert (
        r.status == 422
        and (
            "allocations[0]: M1 has no chainsword attack with chainsword to give (attack is "
            'weapon, improvised or a special attack\'s kind; left to give: {"attack": "weapon", '
            '"weapon": "chainsword"}, {"attack": "weapon", "weapon": "chainsword"})'
        )
        in r.body["error"]["message"]
    ), r.body
    r = await enc.command(
        "rogue-trader.allocate_attacks",
        combatant="m1",
        round=1,
        allocations=[{"target": "qq"}, {"target": "c1"}],
    )
    assert (
        r.status == 422 and "allocations[0]: qq is not in base contact with M1" in r.body["error"]["message"]
    )
    body = await enc.ok(
        "rogue-trader.allocate_attacks",
        combatant="m1",
        round=1,
        allocations=[{"target": "c1"}, {"target": "c1"}],
    )
    assert (
        of_type(body["events"], "RtAttacksAllocated")[0]["data"]["allocations"]
        == [{"attack": "weapon", "weapon": "chainsword", "hand": "R", "target": "c1"}] * 2
    )
    await enc.replay_matches_live()


@pytest.mark.parametrize(
    ("extra", "field"),
    [
        ({"weapons": [{"id": "x", "damage": "lots"}]}, "stats.weapons[0].damage"),
        ({"weapons": [{"id": "x", "hands": 3}]}, "stats.weapons[0].hands"),
        ({"weapons": [{"id": "x", "held_in": "X"}]}, "stats.weapons[0].held_in"),
        ({"save": 9}, "stats.save"),
        ({"special_attacks": [{"kind": "claw", "damage": "a lot"}]}, "stats.special_attacks[0].damage"),
    ],
)
async def test_model_data_of_the_wrong_shape_is_a_400(tussle, extra, field):
    enc = await tussle.create("rogue-trader", dice="manual")
    stats = {"M": 4, "WS": 4, "S": 4, "T": 4, "W": 1, "I": 4, "A": 1, "Ld": 7, **extra}
    r = await enc.command(
        "add_combatant",
        combatant={"id": "w", "name": "W", "side": "red", "position": at(0, 0), "stats": stats},
    )
    assert r.status == 400 and field in r.body["error"]["message"], r.body
    r = await enc.command(
        "add_combatant",
        combatant={
            "id": "w",
            "name": "W",
            "side": "red",
            "position": at(0, 0),
            "stats": {
                **stats,
                **{
                    k: v
                    for k, v in {
                        "weapons": [{"id": "x", "damage": "2D6", "held_in": "both", "hands": 2}],
                        "save": 2,
                        "special_attacks": [],
                    }.items()
                    if k in extra
                },
            },
        },
    )
    assert r.status == 201, r.body
