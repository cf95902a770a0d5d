"""Issue 7, Weapons, readying and defence in close combat, through the HTTP API with manual dice:
reach C only, ranged weapons at their Bulk, damage and injury, readying with a DX roll (a failure
still spends the Ready), Fast-Draw's two rolls, dodge, parry only with an empty hand or a reach-C
weapon, no block, retreat (with its bonus, OPTION retreat_bonus) and every refusal."""

from __future__ import annotations

import pytest

from tests.gurps.gurps_http_scenes import (
    encounter,
    in_close_combat,
    last_request,
    log_text,
    of_type,
    refused,
    replay_equals_live,
    rolls,
    types,
)
from tests.gurps.gurps_world import BROADSWORD, HAND, KNIFE, PISTOL, fig

RAPIER = {
    "name": "main-gauche",
    "kind": "melee",
    "reach": ["C", "1"],
    "parry": 9,
    "damage": "1d-1",
    "fencing": True,
}


def cai(**kw):
    base = {
        "dx": 12,
        "move": 5,
        "weapons": [KNIFE, HAND, BROADSWORD, PISTOL],
        "skills": {"Knife": 13, "Guns": 12},
    }
    return fig("cai", "a", [-1, 0], **{**base, **kw})


def dun(**kw):
    base = {"facing": 3, "dx": 11, "dodge": 8, "weapons": [dict(KNIFE), HAND, BROADSWORD]}
    return fig("dun", "b", [0, 0], **{**base, **kw})


async def attack_hits(enc, weapon="knife", who="cai", target="dun"):
    """`who` (whose turn it is) takes Attack and hits `target` with 3,3,3; the defence request."""
    await enc.ok("gurps.choose_maneuver", combatant=who, maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant=who, target=target, weapon=weapon, dice=[[3, 3, 3]]
    )
    return last_request(b)


async def test_a_reach_c_knife_hits_the_dodge_fails_and_damage_is_rolled(tussle):
    enc = await in_close_combat(tussle, cai(), dun())
    req = await attack_hits(enc)
    assert req["kind"] == "defence" and req["options"] == ["dodge", "parry"] and req["default"] == "dodge"
    b = await enc.ok("respond", reaction=req["id"], choice="dodge", dice=[[6, 6, 5], [4]])
    dodge, damage = rolls(b)
    assert (dodge["purpose"], dodge["target"], dodge["margin"]) == ("dodge", 8, -9)
    assert (damage["purpose"], damage["faces"], damage["total"], damage["target"], damage["margin"]) == (
        "damage",
        [4],
        3,
        None,
        None,
    )
    assert damage["modifiers"] == [{"value": -1, "reason": "damage adds"}]
    b = await enc.ok("gurps.record_injury", target="dun", amount=3, source="Cai's knife")
    assert of_type(b, "Wounded")[0] == {"combatant": "dun", "amount": 3, "source": "Cai's knife"}
    text = await log_text(enc)
    assert "Cai rolls 1d6 for damage: [4] − 1 (damage adds) = 3 — 3 basic damage with the knife" in text
    assert "Dun takes 3 damage (Cai's knife)." in text
    await refused(
        enc, "gurps.record_injury", "amount cannot be negative", status=400, target="dun", amount=-1
    )
    await replay_equals_live(enc)


SHEATHED = [
    {"id": "broadsword", "name": "broadsword", "state": "carried"},
    {"id": "pistol", "name": "pistol", "state": "carried"},
]


async def test_an_empty_hand_strikes_at_dx(tussle):
    enc = await in_close_combat(tussle, cai(items=SHEATHED), dun())
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="hand", dice=[[6, 6, 6]]
    )
    assert (rolls(b)[0]["target"], rolls(b)[0]["outcome"]) == (12, "failure by 6")
    assert "ReactionRequested" not in types(b)  # a miss asks for no defence
    await replay_equals_live(enc)


async def test_a_ranged_weapon_takes_its_bulk_and_no_other_penalty(tussle):
    enc = await in_close_combat(tussle, cai(), dun())
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="pistol", dice=[[3, 3, 4]]
    )
    roll = rolls(b)[0]
    assert (roll["target"], roll["modifiers"]) == (10, [{"value": -2, "reason": "Bulk of the pistol"}])
    await replay_equals_live(enc)


async def test_attack_refusals_through_http(tussle):
    carried = [
        {"id": "knife", "name": "knife", "state": "carried"},
        {"id": "pistol", "name": "pistol", "state": "carried"},
    ]
    enc = await in_close_combat(tussle, cai(items=carried), dun())
    await enc.add(fig("eve", "b", [3, 3]))
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(
        enc,
        "gurps.close_combat_attack",
        "move does not allow an attack",
        combatant="cai",
        target="dun",
        weapon="hand",
    )
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    cases = [
        ({"weapon": "broadsword"}, "cannot attack with the broadsword in close combat: its reach 1 lacks C"),
        (
            {"weapon": "knife"},
            "Cai's knife is carried, not ready: readying it takes a Ready maneuver (gurps.ready_item)",
        ),
        ({"weapon": "spear"}, "Cai has no weapon named 'spear'"),
        ({"weapon": "hand", "target": "eve"}, "Cai is not in close combat with Eve (enter that hex first)"),
        ({"weapon": "hand", "target": "nobody"}, "no combatant"),
    ]
    for fields, message in cases:
        await refused(
            enc, "gurps.close_combat_attack", message, **{"combatant": "cai", "target": "dun", **fields}
        )
    await enc.ok("gurps.close_combat_attack", combatant="cai", target="dun", weapon="hand", dice=[[6, 6, 6]])
    await refused(
        enc,
        "gurps.close_combat_attack",
        "Cai has already attacked this maneuver",
        combatant="cai",
        target="dun",
        weapon="hand",
    )


async def test_joining_with_bad_weapon_stats_is_refused(tussle):
    enc = await encounter(tussle, turn=None)
    r = await enc.command("add_combatant", combatant=fig("x", "a", [0, 0], weapons=[{**PISTOL, "bulk": 3}]))
    assert r.status == 422 and "Bulk is stored negative" in r.body["error"]["message"], r.body
    r = await enc.command("add_combatant", combatant=fig("x", "a", [0, 0], weapons=[{"name": "rock"}]))
    assert r.status == 400 and "needs a name and a kind" in r.body["error"]["message"], r.body
    r = await enc.command("add_combatant", combatant={**fig("x", "a", [0, 0]), "stats": {"ST": 10}})
    assert r.status == 400 and "stats.DX must be an integer" in r.body["error"]["message"], r.body


# ---- defence ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "weapon, parry", [("knife", 8), ("hand", 7), (None, 8)]
)  # None: his best legal parry
async def test_parry_with_a_reach_c_weapon_or_an_empty_hand(tussle, weapon, parry):
    enc = await in_close_combat(tussle, cai(), dun(items=SHEATHED[:1]))
    req = await attack_hits(enc)
    extra = {"weapon": weapon} if weapon else {}
    b = await enc.ok("respond", reaction=req["id"], choice="parry", dice=[[2, 2, 2]], **extra)
    roll = rolls(b)[0]
    assert (roll["purpose"], roll["target"], roll["margin"]) == ("parry", parry, parry - 6)
    assert "DieRolled" in types(b) and len(rolls(b)) == 1  # a parried blow rolls no damage
    await replay_equals_live(enc)


async def test_defence_refusals_through_http(tussle):
    enc = await in_close_combat(tussle, cai(), dun())
    req = await attack_hits(enc)
    rid = req["id"]
    cases = [
        (
            {"choice": "parry", "weapon": "broadsword"},
            "Dun cannot parry with the broadsword: in close combat only an empty hand or a reach-C weapon parries, "
            "and the broadsword's reach 1 lacks C",
        ),
        ({"choice": "parry", "weapon": "axe"}, "Dun has no weapon named 'axe'"),
        ({"choice": "block"}, "block"),
        ({"choice": "dodge", "retreat": True, "to": [-1, 0]}, "is not one of the three hexes on Dun's side"),
    ]
    for fields, message in cases:
        r = await enc.command("respond", reaction=rid, **fields)
        assert r.status == 422 and message in r.body["error"]["message"], (fields, r.body)
    for fields in (
        {"choice": "dodge", "retreat": True},
        {"choice": "dodge", "feint": 2},
        {"choice": "parry", "weapon": 3},
    ):
        r = await enc.command("respond", reaction=rid, **fields)
        assert r.status == 400, (fields, r.body)
    b = await enc.ok("respond", reaction=rid, choice="dodge", dice=[[2, 3, 3]])
    assert rolls(b)[0]["outcome"] == "success by 0"


async def test_a_figure_with_no_reach_c_weapon_may_only_dodge(tussle):
    enc = await in_close_combat(tussle, cai(), dun(weapons=[BROADSWORD]))
    req = await attack_hits(enc)
    assert req["options"] == ["dodge"]
    r = await enc.command("respond", reaction=req["id"], choice="parry")
    assert r.status == 422, r.body


@pytest.mark.parametrize(
    "choice, weapon, options, bonus",
    [
        ("dodge", None, None, 3),
        ("parry", "knife", None, 1),
        ("parry", "hand", None, 3),
        ("parry", "main-gauche", None, 3),
        ("dodge", None, {"dodge": 2, "parry": 0, "parry_fencing_or_unarmed": 1}, 2),
        ("parry", "knife", {"dodge": 2, "parry": 0, "parry_fencing_or_unarmed": 1}, 0),
        ("parry", "hand", {"dodge": 2, "parry": 0, "parry_fencing_or_unarmed": 1}, 1),
    ],
)
async def test_retreat_bonus_and_the_retreat_bonus_option(tussle, choice, weapon, options, bonus):
    opts = {"retreat_bonus": options} if options else {}
    # Two hands: the weapon not used stays sheathed, so the hand is empty.
    sheathed = "knife" if weapon == "main-gauche" else "main-gauche"
    enc = await in_close_combat(
        tussle,
        cai(),
        dun(
            weapons=[dict(KNIFE), HAND, RAPIER],
            items=[{"id": sheathed, "name": sheathed, "state": "carried"}],
        ),
        **opts,
    )
    req = await attack_hits(enc)
    extra = {"weapon": weapon} if weapon else {}
    b = await enc.ok(
        "respond", reaction=req["id"], choice=choice, retreat=True, to=[1, 0], dice=[[2, 2, 2]], **extra
    )
    assert types(b)[1:4] == ["Moved", "CloseCombatLeft", "DieRolled"]
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "retreat"
    roll = rolls(b)[0]
    mods = [m for m in roll["modifiers"] if m["reason"].startswith("retreat")]
    assert [m["value"] for m in mods] == ([bonus] if bonus else [])
    st = await enc.state()
    assert st["combatants"]["dun"]["position"] == [1, 0] and st["rules"]["hexes"] == {}
    await replay_equals_live(enc)


async def test_retreat_once_per_turn_and_never_while_grappled(tussle):
    enc = await in_close_combat(tussle, cai(), dun())
    await enc.add(fig("eli", "a", [2, 0], dx=12, move=5, weapons=[KNIFE], skills={"Knife": 12}))
    req = await attack_hits(enc)
    await enc.ok(
        "respond", reaction=req["id"], choice="dodge", retreat=True, to=[1, 0], dice=[[6, 6, 6], [1]]
    )
    # Eli runs into Dun's new hex and stabs him in the same turn: Dun may not retreat again.
    await enc.ok("gurps.choose_maneuver", combatant="eli", maneuver="move_and_attack")
    await enc.ok("gurps.move", combatant="eli", path=[[1, 0]])
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="eli", target="dun", weapon="knife", dice=[[3, 3, 3]]
    )
    r = await enc.command("respond", reaction=last_request(b)["id"], choice="dodge", retreat=True, to=[0, 1])
    assert r.status == 422 and "Dun has already retreated this turn" in r.body["error"]["message"], r.body

    enc = await in_close_combat(tussle, cai(weapons=[KNIFE, HAND]), dun())
    await enc.add(fig("eli", "a", [-1, 1], dx=12, move=5, weapons=[KNIFE], skills={"Knife": 12}))
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="cai", target="dun", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    await enc.ok("gurps.choose_maneuver", combatant="eli", maneuver="move_and_attack")
    await enc.ok("gurps.move", combatant="eli", path=[[0, 0]])
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="eli", target="dun", weapon="knife", dice=[[3, 3, 3]]
    )
    r = await enc.command("respond", reaction=last_request(b)["id"], choice="dodge", retreat=True, to=[1, 0])
    assert r.status == 422 and "Dun cannot retreat while grappled" in r.body["error"]["message"], r.body
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[2, 2, 2]])
    dodge = rolls(b)[0]
    assert dodge["target"] == 8  # Dodge is not DX-based here: no -4 for being grappled (BASE as given)
    await replay_equals_live(enc)


# ---- readying ---------------------------------------------------------------------------------

CARRIED = [{"id": "knife", "name": "knife", "state": "carried"}]


async def test_readying_in_close_combat_needs_a_dx_roll(tussle):
    enc = await in_close_combat(tussle, cai(items=CARRIED), dun())
    b = await enc.ok("gurps.ready_item", combatant="cai", item="knife", dice=[[3, 4, 5]])
    assert types(b) == ["ManeuverChosen", "DieRolled", "ItemReadied"]
    roll = rolls(b)[0]
    assert (roll["purpose"], roll["target"], roll["modifiers"]) == ("ready", 12, [])
    st = await enc.state()
    assert st["rules"]["fighters"]["cai"]["readied"] == ["knife"]
    assert next(i for i in st["combatants"]["cai"]["items"] if i["id"] == "knife")["state"] == "ready"
    await replay_equals_live(enc)


async def test_a_failed_ready_roll_still_spends_the_ready_and_readies_nothing(tussle):
    enc = await in_close_combat(tussle, cai(items=CARRIED), dun())
    b = await enc.ok("gurps.ready_item", combatant="cai", item="knife", dice=[[6, 6, 5]])
    assert "ItemReadied" not in types(b)
    assert of_type(b, "ManeuverChosen")[0]["maneuver"] == "ready"
    # The Ready is spent: no second try in the same maneuver, and no new maneuver this second.
    await refused(enc, "gurps.ready_item", "knife", combatant="cai", item="knife")
    await refused(enc, "gurps.choose_maneuver", "Cai", combatant="cai", maneuver="attack")
    st = await enc.state()
    assert next(i for i in st["combatants"]["cai"]["items"] if i["id"] == "knife")["state"] == "carried"
    await replay_equals_live(enc)


async def test_with_nothing_to_ready_ready_item_is_not_listed(tussle):
    """Gurps version 4: a figure with no item to ready chose Ready (its step allowed) and was then named
    as acting, told "your turn", with `gurps.ready_item` listed and no offer for it."""
    enc = await encounter(tussle, cai(), fig("dun", "b", [5, 0]))
    st = await enc.state()
    assert st["legal_actions"]["cai"] == ["gurps.choose_maneuver"]
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="ready")
    st = await enc.state()
    assert "gurps.ready_item" not in st["legal_actions"]["cai"]
    offered = {o["type"] for o in st["offers"]["cai"]}
    assert set(st["legal_actions"]["cai"]) <= offered | {"respond"}, (st["legal_actions"], offered)
    # With a carried knife the same figure may ready it, and is offered it.
    enc = await encounter(tussle, cai(items=CARRIED), fig("dun", "b", [5, 0]))
    st = await enc.state()
    assert "gurps.ready_item" in st["legal_actions"]["cai"]
    assert any(o["type"] == "gurps.ready_item" for o in st["offers"]["cai"])


async def test_readying_outside_close_combat_needs_no_roll(tussle):
    enc = await encounter(tussle, cai(items=CARRIED), fig("dun", "b", [5, 0]))
    b = await enc.ok("gurps.ready_item", combatant="cai", item="knife")
    assert types(b) == ["ManeuverChosen", "ItemReadied"]
    await replay_equals_live(enc)


async def test_readying_while_grappled_is_at_minus_4(tussle):
    enc = await in_close_combat(tussle, cai(weapons=[KNIFE, HAND]), dun(items=CARRIED), turns=1)
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok("gurps.grapple", combatant="cai", target="dun", dice=[[3, 3, 3]])
    await enc.ok("respond", reaction=last_request(b)["id"], choice="dodge", dice=[[6, 6, 6]])
    b = await enc.ok("gurps.ready_item", combatant="dun", item="knife", dice=[[2, 2, 2]])
    assert [m["value"] for m in rolls(b)[0]["modifiers"]] == [-4] and rolls(b)[0]["target"] == 7
    await replay_equals_live(enc)


FAST = {"Knife": 13, "Fast-Draw (knife)": 12}


async def test_fast_draw_both_rolls_succeed_and_he_still_picks_a_maneuver(tussle):
    enc = await in_close_combat(tussle, cai(items=CARRIED, skills=FAST), dun())
    b = await enc.ok(
        "gurps.ready_item", combatant="cai", item="knife", fast_draw=True, dice=[[3, 4, 4], [3, 4, 4]]
    )
    assert types(b) == ["DieRolled", "DieRolled", "ItemReadied"]
    assert [(r["purpose"], r["target"]) for r in rolls(b)] == [("ready", 12), ("fast_draw", 12)]
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[6, 6, 6]]
    )
    assert rolls(b)[0]["target"] == 13
    assert "Cai rolls 3d6 for Fast-Draw" in await log_text(enc)
    await replay_equals_live(enc)


async def test_a_failed_fast_draw_readies_the_knife_as_a_full_ready(tussle):
    enc = await in_close_combat(tussle, cai(items=CARRIED, skills=FAST), dun())
    b = await enc.ok(
        "gurps.ready_item", combatant="cai", item="knife", fast_draw=True, dice=[[3, 4, 4], [6, 6, 5]]
    )
    assert types(b) == ["ManeuverChosen", "DieRolled", "DieRolled", "ItemReadied", "ActionSpent"]
    assert of_type(b, "ManeuverChosen")[0]["maneuver"] == "ready"
    await refused(enc, "gurps.choose_maneuver", "has already had a turn", combatant="cai", maneuver="attack")
    await replay_equals_live(enc)


async def test_fast_draw_after_a_failed_dx_roll_is_not_rolled(tussle):
    enc = await in_close_combat(tussle, cai(items=CARRIED, skills=FAST), dun())
    b = await enc.ok("gurps.ready_item", combatant="cai", item="knife", fast_draw=True, dice=[[6, 6, 5]])
    assert [r["purpose"] for r in rolls(b)] == ["ready"] and "ItemReadied" not in types(b)
    assert of_type(b, "ManeuverChosen")[0]["maneuver"] == "ready"
    await refused(enc, "gurps.ready_item", "knife", combatant="cai", item="knife")
    await replay_equals_live(enc)


async def test_ready_refusals_through_http(tussle):
    items = [*CARRIED, {"id": "pistol", "name": "pistol", "state": "dropped"}]
    enc = await in_close_combat(tussle, cai(items=items, skills=FAST), dun())
    cases = [
        ({"item": "rope"}, "Cai has no item 'rope'"),
        ({"item": "broadsword"}, "Cai's broadsword is already ready"),
        ({"item": "pistol"}, "Cai's pistol lies on the ground (pick it up first)"),
        ({"item": "broadsword", "fast_draw": True}, "no Fast-Draw (broadsword) skill"),
    ]
    for fields, message in cases:
        await refused(enc, "gurps.ready_item", message, combatant="cai", **fields)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await refused(
        enc,
        "gurps.ready_item",
        "readying needs a Ready maneuver, and Cai chose attack",
        combatant="cai",
        item="knife",
    )
    await refused(
        enc,
        "gurps.ready_item",
        "Fast-Draw comes before the maneuver",
        combatant="cai",
        item="knife",
        fast_draw=True,
    )
    enc = await in_close_combat(
        tussle, cai(items=[*CARRIED, {"id": "pistol", "name": "pistol", "state": "carried"}]), dun()
    )
    await enc.ok("gurps.ready_item", combatant="cai", item="knife", dice=[[3, 3, 3]])
    await refused(
        enc, "gurps.ready_item", "already readied something this maneuver", combatant="cai", item="pistol"
    )
