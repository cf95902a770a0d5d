"""Issue 17, GURPS (seed 003), through the HTTP API with manual dice: each test is named after the seed
clause it plays. Close combat follows occupancy however a figure came to stand in a hex; parry needs an
empty hand or a ready reach-C weapon; stepping out and striking at reach 1; evading through a hex that
holds two foes (a DECISION, option crowded_evade); the spec's event names in the guide."""

from __future__ import annotations

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
from tests.gurps.gurps_world import BROADSWORD, HAND, KNIFE, fig

BUCKLER = {"name": "buckler", "db": 1}


def cc_of(st: dict, cid: str) -> str | None:
    """The close-combat group a figure is in (None when he is in none)."""
    return st["combatants"][cid].get("group")


# ---- "any situation in which you occupy the same hex as your foe" ------------------------------


async def test_you_occupy_the_same_hex_as_your_foe_when_the_gm_places_you_there(tussle):
    enc = await encounter(
        tussle,
        fig("cai", "a", [0, 0], facing=0, dx=12, weapons=[KNIFE, HAND], skills={"Knife": 13}),
        turn=None,
    )
    r = await enc.add(fig("dun", "b", [0, 0], facing=3, weapons=[HAND]))
    assert r.status == 201, r.body
    st = await enc.state()
    assert cc_of(st, "cai") == cc_of(st, "dun") == "cc:0,0"
    seats = st["rules"]["hexes"]["0,0"]["occupants"]
    # DECISION: the GM's figure takes the half behind his facing; the one already there the other half.
    assert (seats["dun"]["entry_edge"], seats["cai"]["entry_edge"]) == (0, 3)
    await enc.ok("start_turn", turn=1)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 3, 4]]
    )
    assert rolls(b)[0]["target"] == 13  # no "enter his hex first"
    await replay_equals_live(enc)


async def test_you_occupy_the_same_hex_as_your_foe_when_the_gm_moves_you_there(tussle):
    enc = await encounter(tussle, fig("ana", "a", [0, 0], weapons=[HAND]), fig("bors", "b", [3, 0], facing=3))
    b = await enc.ok("move", combatant="bors", to=[0, 0])
    assert types(b) == ["Moved", "CloseCombatJoined", "HalfHexTaken", "HalfHexTaken"]
    b = await enc.ok("move", combatant="bors", to=[3, 0])
    assert types(b) == ["Moved", "CloseCombatLeft"]
    b = await enc.ok(
        "ruling",
        text="Bors was in Ana's hex all along",
        overrides={"combatants": {"bors": {"position": [0, 0]}}},
    )
    assert types(b) == ["RulingMade", "CloseCombatJoined", "HalfHexTaken", "HalfHexTaken"]
    b = await enc.ok("move", combatant="bors", to=[3, 0])
    st = await enc.state()
    assert cc_of(st, "ana") is None and st["groups"] == {} and st["rules"]["hexes"] == {}
    await replay_equals_live(enc)


async def test_simply_step_out_of_close_combat__a_retreat_into_another_foes_hex_is_close_combat_there(tussle):
    enc = await in_close_combat(tussle)  # Cai in Dun's hex [0, 0]; Dun's side is [1, 0], [1, -1], [0, 1]
    await enc.add(fig("eve", "a", [1, 0], facing=3, weapons=[HAND]))
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 3, 3]]
    )
    b = await enc.ok(
        "respond", reaction=last_request(b)["id"], choice="dodge", retreat=True, to=[1, 0], dice=[[2, 2, 2]]
    )
    assert types(b)[:6] == [
        "ReactionAnswered",
        "Moved",
        "CloseCombatLeft",
        "CloseCombatJoined",
        "HalfHexTaken",
        "HalfHexTaken",
    ]
    st = await enc.state()
    assert cc_of(st, "dun") == cc_of(st, "eve") == "cc:1,0" and cc_of(st, "cai") is None
    assert st["rules"]["hexes"]["1,0"]["occupants"]["dun"]["entry_edge"] == 3  # the half he came in by
    await replay_equals_live(enc)


async def test_leaving_a_foes_hex_into_a_hex_that_holds_another_foe_is_entering_his_hex(tussle):
    enc = await in_close_combat(tussle)
    await enc.add(fig("fay", "b", [-1, 1], facing=0, weapons=[HAND]))  # on Cai's side of the hex
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="move")
    await refused(
        enc,
        "gurps.move",
        "cannot move through Fay's hex at [-1, 1] without evading",
        combatant="cai",
        path=[[-1, 1], [-2, 1]],
    )
    b = await enc.ok("gurps.move", combatant="cai", path=[[-1, 1]])
    assert types(b) == [
        "Moved",
        "CloseCombatLeft",
        "CloseCombatJoined",
        "HalfHexTaken",
        "HalfHexTaken",
        "FacingChanged",
        "GurpsMovementUsed",
    ]
    assert of_type(b, "GurpsMovementUsed")[0]["stopped"] is True
    st = await enc.state()
    assert cc_of(st, "cai") == cc_of(st, "fay") == "cc:-1,1" and cc_of(st, "dun") is None
    await replay_equals_live(enc)


async def test_two_allies_alone_in_a_hex_are_not_in_close_combat_once_their_foe_leaves(tussle):
    enc = await in_close_combat(tussle, turns=1)
    await enc.add(fig("al", "a", [0, 1], weapons=[HAND]))
    await enc.ok("start_turn", turn=2)
    await enc.ok("gurps.choose_maneuver", combatant="al", maneuver="move")
    await enc.ok("gurps.move", combatant="al", path=[[0, 0]])
    assert (await enc.state())["groups"]["cc:0,0"]["combatants"] == ["dun", "cai", "al"]
    await enc.ok("start_turn", turn=3)
    await enc.ok("gurps.choose_maneuver", combatant="dun", maneuver="move")
    b = await enc.ok("gurps.move", combatant="dun", path=[[1, 0]])
    left = of_type(b, "CloseCombatLeft")
    assert [(x["combatant"], x["how"]) for x in left] == [("dun", "move"), ("cai", "no foe left")]
    st = await enc.state()
    assert st["groups"] == {} and st["rules"]["hexes"] == {} and cc_of(st, "cai") is cc_of(st, "al") is None
    assert "Cai is no longer in close combat: no foe is left in the hex." in await log_text(enc)
    await replay_equals_live(enc)


# ---- "You can only parry using an empty hand or a weapon with reach C" ---------------------------


async def test_you_can_only_parry_using_an_empty_hand__a_broadsword_and_a_shield_fill_both_hands(tussle):
    dun = fig("dun", "b", [0, 0], facing=3, weapons=[BROADSWORD, HAND], shield=BUCKLER)
    enc = await in_close_combat(tussle, dun=dun)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 3, 3]]
    )
    ask = last_request(b)
    assert ask["options"] == ["dodge"], ask
    assert (
        "the hand: Dun has no empty hand: the broadsword and the buckler fill his 2 hands" in ask["question"]
    )
    assert of_type(b, "GurpsDefenceAwaited")[0]["options"] == ["dodge"]
    await refused(
        enc,
        "respond",
        "Dun cannot parry (§Defense in Close Combat: only with an empty hand or a ready "
        "weapon of reach C): the broadsword: in close combat only",
        reaction=ask["id"],
        choice="parry",
        weapon="hand",
    )
    await replay_equals_live(enc)


async def test_you_can_only_parry_using_a_weapon_with_reach_c__that_is_ready(tussle):
    dun = fig(
        "dun",
        "b",
        [0, 0],
        facing=3,
        weapons=[dict(KNIFE), HAND],
        items=[{"id": "knife", "name": "knife", "state": "carried"}],
    )
    enc = await in_close_combat(tussle, dun=dun)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    b = await enc.ok(
        "gurps.close_combat_attack", combatant="cai", target="dun", weapon="knife", dice=[[3, 3, 3]]
    )
    rid = last_request(b)["id"]
    await refused(
        enc,
        "respond",
        "Dun cannot parry with the knife: Dun's knife is carried, not ready",
        reaction=rid,
        choice="parry",
        weapon="knife",
    )
    b = await enc.ok(
        "respond", reaction=rid, choice="parry", dice=[[2, 2, 2]]
    )  # the best legal parry: the hand
    assert rolls(b)[0]["target"] == 7
    await replay_equals_live(enc)


# ---- "you can step out of the hex and attack ... with a one-hex reach weapon" ---------------------


async def test_you_can_step_out_of_the_hex_and_attack_with_a_one_hex_reach_weapon(tussle):
    cai = fig(
        "cai",
        "a",
        [-1, 0],
        dx=12,
        move=5,
        weapons=[KNIFE, HAND, BROADSWORD],
        shield={"name": "shield", "db": 2},
        skills={"Knife": 13, "Broadsword": 14},
        items=[{"id": "knife", "name": "knife", "state": "carried"}],
    )
    dun = fig("dun", "b", [0, 0], facing=3, dx=11, weapons=[dict(KNIFE), HAND], shield=BUCKLER, block=9)
    enc = await in_close_combat(tussle, cai, dun)
    await enc.ok("gurps.choose_maneuver", combatant="cai", maneuver="attack")
    await refused(
        enc,
        "gurps.step_out_attack",
        "the hand (reach C) is not a one-hex-reach weapon",
        combatant="cai",
        to=[-1, 0],
        target="dun",
        weapon="hand",
    )
    await refused(
        enc,
        "gurps.step_out_attack",
        "is not one of the three hexes on Cai's side",
        combatant="cai",
        to=[1, 0],
        target="dun",
        weapon="broadsword",
    )
    b = await enc.ok(
        "gurps.step_out_attack",
        combatant="cai",
        to=[-1, 0],
        target="dun",
        weapon="broadsword",
        dice=[[3, 4, 5]],
    )
    assert types(b)[:5] == ["Moved", "CloseCombatLeft", "GurpsMovementUsed", "ActionDeclared", "DieRolled"]
    assert of_type(b, "CloseCombatLeft")[0]["how"] == "step"
    hit = rolls(b)[0]
    assert (hit["target"], hit["modifiers"]) == (14, [])  # out of close combat: no shield penalty
    ask = last_request(b)
    assert ask["options"] == ["dodge", "parry", "block"]  # no longer in close combat: he may block
    b = await enc.ok("respond", reaction=ask["id"], choice="block", dice=[[3, 3, 4]])
    assert (rolls(b)[0]["purpose"], rolls(b)[0]["target"]) == ("block", 10)
    await refused(
        enc,
        "gurps.close_combat_attack",
        "has already attacked this maneuver",
        combatant="cai",
        target="dun",
        weapon="knife",
    )
    st = await enc.state()
    assert st["combatants"]["cai"]["position"] == [-1, 0] and st["groups"] == {}
    assert "Cai steps out of the hex to [-1, 0] and strikes at Dun with the broadsword." in await log_text(
        enc
    )
    await replay_equals_live(enc)


# ---- "You cannot evade a foe if there is no logical way you could avoid hitting him" -------------


async def crowded(tussle, **options):
    ana = fig("ana", "a", [-2, 0], dx=12, move=6, weapons=[HAND])
    return await encounter(
        tussle,
        ana,
        fig("bors", "b", [0, 0], facing=3, posture="prone"),
        fig("cato", "b", [0, 0], facing=0),
        **options,
    )


async def test_no_logical_way_to_avoid_two_foes_in_one_hex__refused_unless_the_gm_allows_it(tussle):
    enc = await crowded(tussle)
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    await refused(
        enc,
        "gurps.evade",
        "Bors's hex also holds Cato: two foes fill the hex, so there is no way past "
        "them (the GM may allow it: option crowded_evade)",
        combatant="ana",
        target="bors",
        path=[[-1, 0], [0, 0], [1, 0]],
    )

    enc = await crowded(tussle, crowded_evade="each_foe")
    await enc.ok("gurps.choose_maneuver", combatant="ana", maneuver="move")
    b = await enc.ok("gurps.evade", combatant="ana", target="bors", path=[[-1, 0], [0, 0], [1, 0]])
    assert last_request(b)["combatant"] == "bors"
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="let_pass")
    assert of_type(b, "EvadeChallenged")[0]["foe"] == "cato" and last_request(b)["combatant"] == "cato"
    assert of_type(b, "EvadeChallenged")[0]["approach"] == "back"  # Cato faces away from Ana
    b = await enc.ok("respond", reaction=last_request(b)["id"], choice="stop", dice=[[3, 3, 3], [6, 6, 6]])
    contest = of_type(b, "QuickContestResolved")[0]
    assert contest["winner"] == "ana" and rolls(b)[0]["target"] == 12 - 5 + 5  # standing, from behind
    st = await enc.state()
    assert st["combatants"]["ana"]["position"] == [1, 0] and st["groups"] == {}
    await replay_equals_live(enc)


# ---- the spec's event names ------------------------------------------------------------------------


async def test_the_guide_lists_the_events_renamed_from_the_spec(tussle):
    r = await tussle.request("GET", "/rulesets/gurps")
    assert r.status == 200, r.body
    docs = {e["type"]: e["doc"] for e in r.body["events"]}
    assert "The spec's `DefenceAwaited`" in docs["GurpsDefenceAwaited"]
    assert all(docs.values()), [t for t, d in docs.items() if not d]
    page = await tussle.session.get(tussle.base_url + "/rulesets/gurps/guide")
    assert "DefenceAwaited" in await page.text()
