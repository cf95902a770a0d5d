"""Issue 5: pins (OPTION `pins`) through the HTTP API: a pin held across four turns with turns-held counted, what a
pinned figure may do, every break-pin refusal (first two turns, weaker), release, the UC dice of the contest and
OPTION `pin_resolution: gm`."""

from __future__ import annotations

from typing import Any

import pytest

from tests.tft.helpers import fig, next_turn, of_type, refused, types


async def _grapple(
    tussle,
    hal: dict[str, Any] | None = None,
    ivo: dict[str, Any] | None = None,
    options: dict[str, Any] | None = None,
):
    """Turn 4: Hal gets into HTH with the prone Ivo; both pass. Turn 5's action phase has begun."""
    enc = await tussle.create("tft", dice="manual", options={"pins": True, **(options or {})})
    h = {"st": 12, "adj_dx": 12, "ma": 10, **(hal or {})}
    i = {"st": 13, "adj_dx": 11, "ma": 10, "posture": "prone", **(ivo or {})}
    await enc.add(fig("hal", "a", h.pop("st"), h.pop("adj_dx"), [1, 0], 3, **h))
    await enc.add(fig("ivo", "b", i.pop("st"), i.pop("adj_dx"), [0, 0], 0, **i))
    await next_turn(enc, 4)
    await enc.ok("tft.enter_hth", combatant="hal", target="ivo", condition="C2", dice=[[1]])
    for cid in (await enc.state())["initiative"]:
        await enc.ok("tft.pass", combatant=cid)
    await next_turn(enc, 5)
    return enc


async def _pin(enc, pinner_dice: list[int] | None = None, target_dice: list[int] | None = None) -> dict:
    """Whoever is first before Hal passes; Hal pins Ivo on turn 5."""
    order = (await enc.state())["initiative"]
    for cid in order[: order.index("hal")]:
        await enc.ok("tft.pass", combatant=cid)
    return await enc.ok(
        "tft.pin", combatant="hal", target="ivo", dice=[pinner_dice or [3, 3, 3], target_dice or [6, 6, 6]]
    )


async def test_a_pin_held_across_four_turns(tussle):
    enc = await _grapple(tussle)
    b = await _pin(enc)
    assert types(b) == [
        "ActionDeclared",
        "DieRolled",
        "DieRolled",
        "PinApplied",
        "ConditionChanged",
        "ActionSpent",
    ]
    attempt, resist = of_type(b, "DieRolled")
    assert (
        attempt["purpose"],
        attempt["combatant"],
        attempt["notation"],
        attempt["target"],
        attempt["outcome"],
    ) == ("pin_attempt", "hal", "3d6", 12, "success")
    assert (resist["purpose"], resist["combatant"], resist["target"], resist["outcome"]) == (
        "pin_resist",
        "ivo",
        13,
        "failure",
    )
    assert resist["modifiers"] == [{"value": 2, "reason": "strongest figure in HTH"}]
    st = await enc.state()
    assert st["pins"] == [{"holder": "hal", "pinned": "ivo", "turn": 5, "turns_held": 0, "last_held_turn": 5}]

    for held, turn in enumerate((6, 7, 8, 9), 1):
        b = await next_turn(enc, turn)
        assert of_type(b, "PinHeld") == [{"holder": "hal", "pinned": "ivo", "turn": turn}]
        assert {"combatant": "hal", "turn": turn, "why": "holding pin"} in of_type(b, "ActionSpent")
        st = await enc.state()
        assert [(p["holder"], p["pinned"], p["turn"], p["turns_held"]) for p in st["pins"]] == [
            ("hal", "ivo", 5, held)
        ]
        assert st["actions_spent"]["hal"] == "holding pin"
        legal = st["legal_actions"]["ivo"]
        assert (
            "tft.hth_attack" not in legal
            and "tft.disengage" not in legal
            and "tft.cast_spell_in_hth" in legal
        )
        if turn in (6, 7):
            assert "tft.break_pin" not in legal
            await refused(enc, "tft.break_pin", "first try to break free on turn 8", combatant="ivo")
            await refused(enc, "tft.hth_attack", "Ivo is pinned", combatant="ivo", target="hal")
            await refused(enc, "tft.draw_dagger", "Ivo is pinned", combatant="ivo")
            await refused(enc, "tft.disengage", "Ivo is pinned", combatant="ivo", to=[1, 0])
            if turn == 6:
                await refused(
                    enc,
                    "tft.cast_spell_in_hth",
                    "may cast only a spell without hand motions",
                    combatant="ivo",
                )
                b = await enc.ok(
                    "tft.cast_spell_in_hth",
                    combatant="ivo",
                    spell="Drop Weapon",
                    motion=False,
                    dice=[[1, 2, 3]],
                )
                assert of_type(b, "DieRolled")[0]["target"] == 11 + 2 - 6
            else:
                await enc.ok("tft.pass", combatant="ivo")
        elif turn == 8:
            assert "tft.break_pin" in legal
            b = await enc.ok("tft.break_pin", combatant="ivo", dice=[[6, 6, 6, 6]])
            roll = of_type(b, "DieRolled")[0]
            assert (roll["purpose"], roll["notation"], roll["total"], roll["target"], roll["outcome"]) == (
                "break_pin",
                "4d6",
                24,
                13,
                "failure",
            )
            assert "PinBroken" not in types(b) and types(b)[-1] == "ActionSpent"
    b = await enc.ok("tft.break_pin", combatant="ivo", dice=[[1, 2, 3, 4]])
    assert of_type(b, "PinBroken") == [{"pinned": "ivo", "holder": "hal"}]
    st = await enc.state()
    assert st["pins"] == [] and st["actions_spent"]["hal"] == "holding pin"
    await refused(enc, "tft.pin", "already used this turn's action", combatant="hal", target="ivo")
    await enc.replay_matches_live()


async def test_a_figure_pinned_before_it_acted_loses_its_action(tussle):
    enc = await _grapple(tussle, hal={"adj_dx": 16})
    assert (await enc.state())["initiative"] == ["hal", "ivo"]
    b = await _pin(enc)
    assert of_type(b, "ActionSpent") == [
        {"combatant": "ivo", "turn": 5, "why": "pinned"},
        {"combatant": "hal", "turn": 5, "why": "pin"},
    ]
    await enc.replay_matches_live()


async def test_failed_pin_spends_only_the_pinners_action(tussle):
    enc = await _grapple(tussle)
    b = await _pin(enc, [3, 3, 3], [1, 1, 1])  # both succeed: the target resists
    assert "PinApplied" not in types(b)
    assert of_type(b, "ActionSpent") == [{"combatant": "hal", "turn": 5, "why": "pin"}]
    assert (await enc.state())["pins"] == []


async def test_breaking_a_pin_when_weaker_is_refused(tussle):
    enc = await _grapple(tussle, hal={"st": 14}, ivo={"st": 12})
    await _pin(enc)
    for turn in (6, 7, 8):
        await next_turn(enc, turn)
    st = await enc.state()
    assert "tft.break_pin" not in st["legal_actions"]["ivo"]
    await refused(
        enc,
        "tft.break_pin",
        "Ivo's ST in HTH (12) is less than Hal's (14)",
        "only an equal or stronger figure can break a pin",
        combatant="ivo",
    )
    await enc.replay_matches_live()


async def test_judo_st_lets_a_weaker_figure_break_the_pin(tussle):
    enc = await _grapple(tussle, hal={"st": 14}, ivo={"st": 12, "judo": 1})
    await _pin(enc)
    for turn in (6, 7, 8):
        await next_turn(enc, turn)
    b = await enc.ok("tft.break_pin", combatant="ivo", dice=[[4, 4, 4, 4]])
    roll = of_type(b, "DieRolled")[0]
    assert roll["modifiers"] == [{"value": 4, "reason": "Judo 1 (ST in HTH)"}]
    assert (roll["total"], roll["target"], roll["outcome"]) == (16, 16, "success")
    await enc.replay_matches_live()


async def test_release_before_the_hold_keeps_the_holders_action(tussle):
    enc = await _grapple(tussle)
    await _pin(enc)
    await enc.ok("start_turn", turn=6)
    await enc.ok("start_phase", phase="movement")
    st = await enc.state()
    assert "tft.release_pin" in st["legal_actions"]["hal"]
    b = await enc.ok("tft.release_pin", combatant="hal")
    assert types(b) == ["PinReleased", "ConditionChanged"]
    b = await enc.ok("start_phase", phase="action")
    assert "PinHeld" not in types(b)
    st = await enc.state()
    assert st["pins"] == [] and "hal" not in st["actions_spent"]
    await enc.replay_matches_live()


async def test_holding_a_pin_bars_other_actions(tussle):
    enc = await _grapple(tussle, hal={"adj_dx": 16})
    await _pin(enc)
    b = await next_turn(enc, 6)
    assert "PinHeld" in types(b)
    await enc.ok("tft.release_pin", combatant="hal")  # after the hold: the action stays spent
    st = await enc.state()
    assert st["actions_spent"]["hal"] == "holding pin"
    await next_turn(enc, 7)
    b = await enc.ok("tft.pin", combatant="hal", target="ivo", dice=[[3, 3, 3], [6, 6, 6]])
    assert "PinApplied" in types(b)
    await next_turn(enc, 8)
    await refused(enc, "tft.pin", "Hal is holding a pin", combatant="hal", target="ivo")


@pytest.mark.parametrize(
    "hal_uc, ivo_uc, dice_counts", [(2, 0, (3, 5)), (0, 1, (4, 3)), (None, None, (3, 3))]
)
async def test_pin_contest_dice_follow_the_uc_difference(tussle, hal_uc, ivo_uc, dice_counts):
    hal = {} if hal_uc is None else {"uc": hal_uc}
    ivo = {"judo": 1} if ivo_uc is None else {"uc": ivo_uc}  # Judo never counts as UC
    enc = await _grapple(tussle, hal=hal, ivo=ivo)
    np_, nt = dice_counts
    b = await _pin(enc, [1] * np_, [6] * nt)
    assert [r["notation"] for r in of_type(b, "DieRolled")] == [f"{np_}d6", f"{nt}d6"]


async def test_pin_resolution_gm(tussle):
    enc = await _grapple(tussle, options={"pin_resolution": "gm"})
    order = (await enc.state())["initiative"]
    for cid in order[: order.index("hal")]:
        await enc.ok("tft.pass", combatant=cid)
    b = await enc.ok("tft.pin", combatant="hal", target="ivo")
    assert types(b) == ["ActionDeclared", "ReactionRequested"]
    req = of_type(b, "ReactionRequested")[0]
    assert (req["kind"], req["asked_of"], req["options"]) == ("pin_ruling", "gm", ["pinned", "not_pinned"])
    b = await enc.ok("respond", reaction=req["id"], choice="pinned")
    assert types(b) == ["ReactionAnswered", "RulingMade", "PinApplied", "ConditionChanged", "ActionSpent"]
    assert of_type(b, "RulingMade")[0]["text"] == "Hal pins Ivo"
    assert (await enc.state())["pins"][0]["holder"] == "hal"
    await enc.replay_matches_live()


async def test_pin_resolution_gm_not_pinned(tussle):
    enc = await _grapple(tussle, hal={"adj_dx": 16}, options={"pin_resolution": "gm"})
    b = await enc.ok("tft.pin", combatant="hal", target="ivo")
    b = await enc.ok("respond", reaction=of_type(b, "ReactionRequested")[0]["id"], choice="not_pinned")
    assert types(b) == ["ReactionAnswered", "RulingMade", "ActionSpent"]
    assert (await enc.state())["pins"] == []


async def test_pin_refusals(tussle):
    enc = await _grapple(tussle, hal={"adj_dx": 16})
    await refused(enc, "tft.pin", "Hal is not in HTH with Hal", combatant="hal", target="hal")
    await enc.ok("tft.pin", combatant="hal", target="ivo", dice=[[3, 3, 3], [6, 6, 6]])
    await enc.add(fig("cy", "a", 10, 9, [0, 1], 2, ma=10))
    await next_turn(enc, 6)
    await enc.ok("tft.join_hth", combatant="cy", target="ivo")
    await next_turn(enc, 7)
    if (await enc.state())["initiative"][0] == "ivo":
        await enc.ok("tft.pass", combatant="ivo")
    await refused(enc, "tft.pin", "Ivo is already pinned", combatant="cy", target="ivo")


async def test_no_pins_in_a_standing_brawl(tussle):
    enc = await tussle.create("tft", dice="manual", options={"pins": True, "standing_in_hth": True})
    await enc.add(fig("hal", "a", 12, 12, [1, 0], 3, ma=10))
    await enc.add(fig("ivo", "b", 12, 11, [0, 0], 0, ma=10))
    for cid in ("hal", "ivo"):
        await enc.ok("tft.set_hth_preferences", combatant=cid, hth_wish="stand")
    await next_turn(enc, 1)
    await enc.ok("tft.consent_hth", combatant="ivo", target="hal")
    await enc.ok("tft.enter_hth", combatant="hal", target="ivo", dice=[[1], [3, 3, 3], [3, 3, 3]])
    await enc.ok("tft.pass", combatant="ivo")
    await enc.ok("tft.pass", combatant="hal")
    await enc.ok("start_turn", turn=2)
    await enc.ok("start_phase", phase="movement")
    await enc.ok("start_phase", phase="action", dice=[[3, 3, 3], [3, 3, 3]])
    st = await enc.state()
    assert st["groups"]["g1"]["standing"] is True and "tft.pin" not in st["legal_actions"]["hal"]
    await refused(enc, "tft.pin", "pins are made only in a fallen brawl", combatant="hal", target="ivo")
