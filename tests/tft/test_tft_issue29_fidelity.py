"""Issue 29 (rules fidelity, round 3), tft: each test is named after the seed clause (or the guide's sentence)
it plays, through the HTTP API."""

from __future__ import annotations

import pytest

from tests.tft.helpers import brawl, fig, next_turn, of_type, refused, tv3_dive, types


async def test_the_gm_sends_start_turn_then_start_phase_with_each_phase_in_order(tussle):
    # Turn 1: a1 got into HTH with the prone b1 (his action); b1 passes. Turn 2 begins in no phase.
    enc = await brawl(tussle)
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("start_turn", turn=2)
    st = await enc.state()
    assert st["phase"] is None
    (now,) = st["acting_now"]
    assert (now["combatant"], now["asked_of"]) == (None, "gm")
    assert "the GM starts its movement phase (start_phase movement)" in now["why"]
    assert st["legal_actions"] == {c: ["tft.consent_hth", "tft.set_hth_preferences"] for c in ("a1", "b1")}
    # Action commands before the action phase are refused for everyone, the GM included.
    seat = await enc.seat("a1's player", ["a1"])
    for token in (None, seat):
        await refused(
            enc,
            "tft.hth_attack",
            "actions are taken in the action phase",
            "start_phase movement",
            token=token,
            combatant="a1",
            target="b1",
            weapon="fist",
        )
    await refused(enc, "tft.pass", "turn 2 is in no phase yet", combatant="b1")
    await refused(enc, "tft.move", "figures move in the movement phase", combatant="a1", path=[[2, 0]])
    # In the movement phase the refusal names the next step, the action phase.
    await enc.ok("start_phase", phase="movement")
    await refused(enc, "tft.pass", "the GM starts the action phase (start_phase action)", combatant="b1")
    await enc.replay_matches_live()


async def test_the_gms_force_skips_the_movement_phase_and_actions_follow(tussle):
    enc = await brawl(tussle)
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="action", force=True)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="fist", dice=[[1, 1, 1], [1]])
    assert "DieRolled" in types(b)
    await enc.replay_matches_live()


async def test_judo2_they_may_defend_against_unarmed_attacks_while_on_the_ground(tussle):
    # §Judo-2: "They may defend against unarmed attacks while on the ground": every unarmed attack, so a
    # standing Hob's fist from outside HTH (attack_fallen) and a fist struck into a brawl roll 4 dice too.
    enc = await tussle.create("tft", dice="manual")
    await enc.add(fig("kiri", "a", 10, 14, [0, 0], 0, judo=2, ma=10, posture="prone"))
    await enc.add(fig("hob", "b", 12, 12, [1, 0], 3, ma=10))
    await enc.add(fig("olaf", "b", 12, 11, [0, 1], 0, ma=10))
    await next_turn(enc, 1)
    await enc.ok("tft.defend", combatant="kiri")
    b = await enc.ok(
        "tft.attack_fallen", combatant="hob", target="kiri", weapon="fist", dice=[[1, 1, 1, 1], [3]]
    )
    assert [r["notation"] for r in of_type(b, "DieRolled")][0] == "4d6"
    b = await enc.ok("tft.enter_hth", combatant="olaf", target="kiri", dice=[[1]])
    assert of_type(b, "CloseCombatJoined")
    await next_turn(enc, 2)
    await enc.ok("tft.defend", combatant="kiri")
    b = await enc.ok(
        "tft.strike_into_hth", combatant="hob", target="kiri", weapon="fist", dice=[[1, 1, 1, 1], [3]]
    )
    assert [r["notation"] for r in of_type(b, "DieRolled")][0] == "4d6"
    await enc.replay_matches_live()


CESTUS = {"id": "cestus", "name": "Cestus", "kind": "weapon", "damage": "1d6", "hth_usable": True}


@pytest.mark.parametrize("state", ["worn", "ready"])
async def test_only_those_on_the_dagger_list_and_the_cestus_can_be_used_in_hth(tussle, state):
    # §Overview: "Only very short weapons (those on the dagger list and the cestus) can be used in HTH". A
    # cestus is worn on the hand: it stays on entering HTH (no drawing, no drop) and strikes there.
    enc = await brawl(tussle, a_items=[{**CESTUS, "state": state}])
    st = await enc.state()
    assert [i["state"] for i in st["combatants"]["a1"]["items"]] == [state]
    await enc.ok("tft.pass", combatant="b1")
    await next_turn(enc, 2)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="cestus", dice=[[1, 2, 2], [4]])
    hit, dmg = of_type(b, "DieRolled")
    assert (hit["outcome"], dmg["notation"], dmg["total"]) == ("hit", "1d6", 4)
    await enc.replay_matches_live()


async def test_a_carried_cestus_is_not_drawn_like_a_dagger(tussle):
    # A cestus in the pack is not on the hand: hth_attack says what must change (worn), not draw_dagger,
    # which takes only dagger-list weapons.
    enc = await brawl(tussle, a_items=[{**CESTUS, "state": "carried"}])
    await enc.ok("tft.pass", combatant="b1")
    await next_turn(enc, 2)
    msg = await refused(enc, "tft.hth_attack", "worn", combatant="a1", target="b1", weapon="cestus")
    assert "draw_dagger" not in msg
    await enc.replay_matches_live()


async def _log(enc) -> list[str]:
    return [e["text"] for e in (await enc.get("/log?format=json")).body["entries"]]


async def test_armor_stops_hits_and_the_log_says_how_much(tussle):
    # TV3: Gorm's free hit on the knocked-back Rolf does 8; Rolf's armor stops 2 of it; Rolf takes 6.
    enc = await tv3_dive(tussle)
    b = await enc.ok("tft.dive_for_legs", combatant="rolf", target="gorm", condition="C1", dice=[[4], [3, 5]])
    assert of_type(b, "Wounded") == [
        {
            "combatant": "rolf",
            "amount": 6,
            "source": "Gorm's free hit",
            "damage": 8,
            "stopped": [{"by": "armor", "amount": 2}],
        }
    ]
    assert "Gorm's free hit does 8; Rolf's armor stops 2; Rolf takes 6, 6 ST left." in await _log(enc)
    await enc.replay_matches_live()


async def test_armor_is_said_on_an_ordinary_hth_hit(tussle):
    enc = await brawl(tussle)
    await enc.ok("tft.pass", combatant="b1")
    await enc.ok(
        "ruling", text="b1 wears leather", overrides={"combatants": {"b1": {"stats": {"armor_stops": 2}}}}
    )
    await next_turn(enc, 2)
    b = await enc.ok("tft.hth_attack", combatant="a1", target="b1", weapon="fist", dice=[[1, 2, 2], [6]])
    (w,) = of_type(b, "Wounded")
    (dmg,) = [r for r in of_type(b, "DieRolled") if r["purpose"] == "damage"]
    assert (w["damage"], w["stopped"], w["amount"]) == (
        dmg["total"],
        [{"by": "armor", "amount": 2}],
        dmg["total"] - 2,
    )
    assert f"A1's fist does {dmg['total']}; B1's armor stops 2; B1 takes {dmg['total'] - 2}" in "\n".join(
        await _log(enc)
    )
    b = await enc.ok("tft.hth_attack", combatant="b1", target="a1", weapon="fist", dice=[[1, 2, 2], [1]])
    assert of_type(b, "Wounded")[0]["stopped"] == []
    await enc.replay_matches_live()


async def test_a_consent_given_holds_for_the_turn_and_is_not_offered_or_given_twice(tussle):
    """C4: the defender lets this entrant try this turn. A player playing at the page saw "Let Troll
    into hand-to-hand" still offered after it was given, and the log repeat it."""
    enc = await tussle.create("tft")
    await enc.ok("add_combatant", combatant=fig("a1", "a", 12, 12, [1, 0]))
    await enc.ok("add_combatant", combatant=fig("b1", "b", 12, 12, [0, 0]))
    await enc.ok("start_turn", turn=1)

    def targets(offers: list) -> set:
        return {o["fields"].get("target") for o in offers if o["type"] == "tft.consent_hth"}

    before = (await enc.get("/me")).body["offers"]["b1"]
    assert "a1" in targets(before), before
    await enc.ok("tft.consent_hth", combatant="b1", target="a1")
    after = (await enc.get("/me")).body["offers"]["b1"]
    assert "a1" not in targets(after), after
    await refused(enc, "tft.consent_hth", "already agreed this turn to let", combatant="b1", target="a1")
    await enc.ok("start_turn", turn=2)  # a new turn: asked again
    assert "a1" in targets((await enc.get("/me")).body["offers"]["b1"])
