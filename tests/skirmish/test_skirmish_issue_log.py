"""Issue 8: a log sentence for every skirmish event, read through the real `GET /encounters/{id}/log`, and
`GET /rulesets` listing every skirmish command with its fields."""

from __future__ import annotations

from skirmish_http import data, draw, encounter, log_texts, strike, strike_and_answer
from skirmish_world import HALE, KURT, VOSS

from rules.skirmish.events import SKIRMISH_EVENTS

SKIRMISH_EVENT_TYPES = {cls.__name__ for cls in SKIRMISH_EVENTS}
MANUAL = " (manual dice, not verifiable)."


async def _entries(enc) -> list[dict]:
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    return r.body["entries"]


def _no_generic_sentence(entries: list[dict]) -> set[str]:
    """Every skirmish event has the ruleset's own sentence (the engine's fallback is "<Type> (<actor>).")."""
    seen = set()
    for e in entries:
        if e["type"] in SKIRMISH_EVENT_TYPES:
            seen.add(e["type"])
            assert not e["text"].startswith(e["type"]), e
    return seen


async def test_log_of_a_parry_counterstrike_and_a_gm_result(tussle):
    enc = await encounter(tussle, charts=False)
    await strike_and_answer(enc, "parry", [[35], [88], [70], [58], [48]])
    await enc.ok("skirmish.record_damage_result", result="light")
    texts = await log_texts(enc)
    for sentence in [
        "The deck: 1d2 over 2 undrawn cards gives [1]: Sgt Hale's card" + MANUAL,
        "Sgt Hale's card is drawn (1 card left this turn): Sgt Hale acts.",
        "Sgt Hale closes with Pvt Voss to strike a blow.",
        'Sgt Hale moves 4.0" to touch Pvt Voss, at (-1", 0").',
        'Sgt Hale and Pvt Voss are in close combat, Sgt Hale at (-1", 0") and Pvt Voss at (0", 0").',
        "Sgt Hale strikes at Pvt Voss.",
        "Pvt Voss must choose: parry or evade (asked of the GM; default parry).",
        "The GM answers for the defender: parry.",
        "Pvt Voss chooses to parry.",
        "Sgt Hale rolls 1d100 for the parry, as attacker: [35] +10 street fighter = 45: loses the parry"
        + MANUAL,
        "Pvt Voss rolls 1d100 for the parry, as defender: [88] -20 facing the wrong way = 68: wins the parry"
        + MANUAL,
        "Parry: Sgt Hale 45 against Pvt Voss 68. Pvt Voss wins: the blow does no damage, and Pvt Voss "
        "counterstrikes.",
        "Pvt Voss rolls 1d100 for the counterstrike: [70] = 70: wins the counterstrike" + MANUAL,
        "Sgt Hale rolls 1d100 for the counterstrike, against it: [58] +10 street fighter = 68: loses the "
        "counterstrike" + MANUAL,
        "Counterstrike: Pvt Voss 70 against Sgt Hale 68. Pvt Voss wins and strikes home: damage evaluation follows.",
        "Pvt Voss rolls 1d100 for damage evaluation: [48] +10 armed with a rifle and bayonet = 58: awaiting the "
        "GM's chart result" + MANUAL,
        "Damage: Pvt Voss's blow on Sgt Hale totals 58: the GM reads the chart.",
        "The GM is asked what 58 gives on the damage chart for Pvt Voss's blow on Sgt Hale.",
        "(The GM's choices: no effect, a light wound, a serious wound, a critical wound, a mortal wound, knocked "
        "unconscious, killed; default no effect.)",
        "The GM gives the damage chart result: a light wound.",
        "Sgt Hale is now lightly wounded (was unwounded).",
        "(1 wound level for Sgt Hale, from Pvt Voss's blow.)",
        "The hand to hand between Sgt Hale and Pvt Voss ends: after the damage evaluation.",
    ]:
        assert sentence in texts, (sentence, texts)
    entries = await _entries(enc)
    assert {
        "CardDrawn",
        "SkirmishDefenceAwaited",
        "ExchangeResolved",
        "DamageEvaluated",
        "DamageResultAwaited",
        "WoundLevelChanged",
        "HandToHandEnded",
    } <= _no_generic_sentence(entries)
    await enc.replay_matches_live()


async def test_log_of_an_evade(tussle):
    enc = await encounter(tussle)
    await strike_and_answer(enc, "evade", [[44], [37]], to=[400, 300], facing=90)
    texts = await log_texts(enc)
    for sentence in [
        'Pvt Voss chooses to evade, naming (4", 3") to go to.',
        "Pvt Voss rolls 1d100 for the evade: [37] +10 speedy = 47: wins the evade" + MANUAL,
        "Evade: Sgt Hale 44 against Pvt Voss 47. Pvt Voss wins and slips one move away.",
        'Pvt Voss slips away to (4", 3").',
        "Pvt Voss turns to face 90° (0° = +x, counter-clockwise).",
        "Pvt Voss leaves the close combat (evade).",
        "The hand to hand between Sgt Hale and Pvt Voss ends: the defender got away.",
    ]:
        assert sentence in texts, (sentence, texts)
    enc = await encounter(tussle)
    await strike_and_answer(enc, "evade", [[44], [30], [62]])
    texts = await log_texts(enc)
    assert (
        "Evade: Sgt Hale 44 against Pvt Voss 40. Sgt Hale wins, catches Pvt Voss, and the blow goes to damage "
        "evaluation." in texts
    )
    assert "Damage: Sgt Hale's blow on Pvt Voss totals 92: a serious wound." in texts
    await enc.replay_matches_live()


async def test_log_of_a_grapple_a_prisoner_and_his_liberation(tussle):
    enc = await encounter(
        tussle, figures=(HALE, VOSS, {**KURT, "position": [0, 100]}), fall_chart=None, morale_mode="gm"
    )
    await draw(enc, "hale")
    await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22], [71]])
    await enc.ok("skirmish.record_fall", result="light")
    await enc.ok("skirmish.record_morale", **{"pass": True})
    await draw(enc, "voss")
    await draw(enc, "kurt")
    await enc.ok("skirmish.strike", combatant="kurt", target="voss", dice=[[40]])
    await enc.ok("start_turn")
    await draw(enc, "hale")
    await enc.ok("skirmish.captor_acts", combatant="hale")
    await enc.ok("start_turn")  # one captor's act a card (version 5): the stand on his next card
    await draw(enc, "hale")
    await enc.ok("skirmish.captor_acts", combatant="hale", stand_up=True, path=[[-100, -300]])
    await enc.ok("skirmish.liberate", target="voss", how="Kurt cuts him loose")
    texts = await log_texts(enc)
    for sentence in [
        "Sgt Hale closes with Pvt Voss to grapple instead of striking.",
        "Pvt Voss rolls 1d100 for the free blow against the grappler (damage evaluation): [22] +10 armed with a "
        "rifle and bayonet = 32: no effect" + MANUAL,
        "Damage: Pvt Voss's blow on Sgt Hale totals 32: no effect.",
        "Pvt Voss falls on their back.",
        "Pvt Voss rolls 1d100 for a one-storey fall: [71] = 71: awaiting the GM's fall result" + MANUAL,
        "The GM is asked what a fall roll of 71 does to Pvt Voss.",
        "The GM gives the fall result: a light wound.",
        "Pvt Voss is now lightly wounded (was unwounded).",
        "(1 wound level for Pvt Voss, from a one-storey fall.)",
        "Pvt Voss drops their rifle and bayonet.",
        "Pvt Voss drops their grenade.",
        "The GM is asked whether Sgt Hale passes the morale test.",
        "The GM gives the morale test result: passed.",
        "Sgt Hale falls on their stomach.",
        "Sgt Hale falls holding Pvt Voss, preventing any movement.",
        'Sgt Hale and Pvt Voss are in close combat on the ground, Sgt Hale at (-1", 0") and Pvt Voss at (0", 0").',
        "Pvt Voss is taken prisoner.",
        "The grapple succeeds: Pvt Voss is Sgt Hale's prisoner, and moves on Sgt Hale's cards till liberated.",
        "Sgt Hale drops their sword.",
        "The hand to hand between Sgt Hale and Pvt Voss ends: both are down.",
        "Sgt Hale's activation ends with the grapple.",
        "Pvt Voss's card is drawn (1 card left this turn).",
        "Pvt Voss is a prisoner, moving only on the captor's cards, and does not act on this card.",
        "Pvt Voss is held and down and must accept Cpl Kurt's blow: it goes to damage evaluation.",
        "Sgt Hale, as captor, stays down, holding the prisoner.",
        "Sgt Hale keeps the hold on Pvt Voss.",
        "Sgt Hale, as captor, gets up to move, pulling the prisoner along.",
        "Sgt Hale lets go of Pvt Voss to stand up; Pvt Voss is still a prisoner.",
        'Pvt Voss is dragged along by the captor to (0", -3").',
        "GM ruling: Pvt Voss is liberated from Sgt Hale: Kurt cuts him loose",
        "Pvt Voss is no longer a prisoner.",
        "Pvt Voss is no longer Sgt Hale's prisoner (Kurt cuts him loose).",
    ]:
        assert sentence in texts, (sentence, texts)
    seen = _no_generic_sentence(await _entries(enc))
    assert {
        "FallResultAwaited",
        "MoraleAwaited",
        "PrisonerTaken",
        "ActivationSkipped",
        "BlowAccepted",
        "PrisonerLiberated",
    } <= seen
    await enc.replay_matches_live()


async def test_log_of_a_blow_out_of_reach_and_an_aborted_grapple(tussle):
    enc = await encounter(tussle, figures=(HALE, {**VOSS, "position": [1000, 0]}))
    await strike(enc)
    texts = await log_texts(enc)
    assert (
        'Sgt Hale cannot reach Pvt Voss: 14.0" to go, and one move is 6.0". No hand to hand occurs.' in texts
    )
    enc = await encounter(tussle, damage_chart=[{"min": 31, "result": "unconscious"}])
    await draw(enc, "hale")
    await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[40]])
    texts = await log_texts(enc)
    assert "Damage: Pvt Voss's blow on Sgt Hale totals 50: knocked unconscious." in texts
    assert "Sgt Hale's grapple on Pvt Voss is over before it began: the grappler is unconscious." in texts
    assert "GrappleAborted" in _no_generic_sentence(await _entries(enc))
    await enc.replay_matches_live()


async def test_every_skirmish_event_type_has_a_sentence_in_the_log(tussle):
    """One encounter that appends each of the 15 skirmish event types, read back through /log."""
    enc = await encounter(
        tussle,
        charts=False,
        figures=(HALE, VOSS, {**KURT, "position": [3000, 0]}),
        fall_chart=None,
        morale_mode="gm",
    )
    await draw(enc, "kurt")
    await enc.ok("skirmish.strike", combatant="kurt", target="voss")  # HandToHandImpossible
    await draw(enc, "hale")
    body = await enc.ok("skirmish.strike", combatant="hale", target="voss")  # SkirmishDefenceAwaited
    rid = data(body, "ReactionRequested")[0]["id"]
    await enc.ok("respond", reaction=rid, choice="parry", dice=[[35], [88], [70], [58], [48]])
    await enc.ok("skirmish.record_damage_result", result="light")  # WoundLevelChanged
    await enc.ok("start_turn")
    await draw(enc, "hale")
    await enc.ok("skirmish.grapple", combatant="hale", target="voss", dice=[[22]])
    await enc.ok("skirmish.record_damage_result", result="no_effect", dice=[[71]])
    await enc.ok("skirmish.record_fall", result="no_effect")  # FallResultAwaited
    await enc.ok("skirmish.record_morale", **{"pass": True})  # PrisonerTaken
    await draw(enc, "voss")  # ActivationSkipped
    await enc.ok(
        "ruling", text="Kurt comes closer", overrides={"combatants": {"kurt": {"position": [0, 300]}}}
    )
    await enc.ok("start_turn")
    await draw(enc, "kurt")
    await enc.ok("skirmish.strike", combatant="kurt", target="voss", dice=[[40]])  # BlowAccepted
    await enc.ok("skirmish.record_damage_result", result="no_effect")
    await enc.ok("skirmish.liberate", target="voss", how="a GM ruling")  # PrisonerLiberated
    await enc.ok("ruling", text="Voss stands", overrides={"combatants": {"voss": {"posture": "standing"}}})
    await draw(enc, "voss")
    await enc.ok("skirmish.grapple", combatant="voss", target="kurt", dice=[[95]])
    await enc.ok("skirmish.record_damage_result", result="dead")  # GrappleAborted
    seen = _no_generic_sentence(await _entries(enc))
    assert seen == SKIRMISH_EVENT_TYPES, SKIRMISH_EVENT_TYPES - seen
    await enc.replay_matches_live()


async def test_rulesets_lists_every_skirmish_command_with_its_fields(tussle):
    r = await tussle.request("GET", "/rulesets")
    assert r.status == 200, r.body
    sk = next(x for x in r.body["rulesets"] if x["id"] == "skirmish")
    fields = {c["type"]: {f["name"]: f["required"] for f in c["fields"]} for c in sk["commands"]}
    assert fields == {
        "skirmish.draw_card": {},
        "skirmish.strike": {"combatant": True, "target": True, "path": False, "facing_wrong_way": False},
        "skirmish.grapple": {"combatant": True, "target": True, "path": False},
        "skirmish.record_damage_result": {"result": True},
        "skirmish.record_fall": {"result": True},
        "skirmish.record_morale": {"pass": True},
        "skirmish.captor_acts": {"combatant": True, "stand_up": False, "path": False},
        "skirmish.liberate": {"target": True, "how": True},
    }
    assert all(c["doc"] for c in sk["commands"])
    options = {o["name"]: o["default"] for o in sk["options"]}
    assert {
        k: options[k]
        for k in (
            "deck",
            "damage_chart",
            "fall_roll",
            "fall_chart",
            "morale_mode",
            "wound_update",
            "attacker_drops_weapons",
            "hold_counts_as_pinned",
            "contact_distance",
        )
    } == {
        "deck": None,
        "damage_chart": None,
        "fall_roll": "1d100",
        "fall_chart": None,
        "morale_mode": "d100_under_stat",
        "wound_update": "worse_of",
        "attacker_drops_weapons": "always",
        "hold_counts_as_pinned": True,
        "contact_distance": 100,
    }
    # The spec's ChooseDefence is the common respond; the plain move is open to players here.
    assert {"respond", "move"} <= {c["type"] if isinstance(c, dict) else c for c in sk["common_commands"]}
