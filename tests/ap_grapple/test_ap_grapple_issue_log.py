"""Issue 8: a log sentence for every ap-grapple event (spec section 7), read through the real
`GET /encounters/{id}/log`, and `GET /rulesets` listing every ap-grapple command with its fields."""

from __future__ import annotations

from ap_grapple_http import encounter, g1, log_texts

from rules.ap_grapple.events import RULESET_EVENTS

AP_GRAPPLE_EVENT_TYPES = {cls.__name__ for cls in RULESET_EVENTS}
MANUAL = " (manual dice, not verifiable)."


async def _seen_with_own_sentence(enc) -> set[str]:
    """The ap-grapple event types in the log, each checked to have the ruleset's sentence, not the engine's
    fallback "<Type> (<actor>)."."""
    r = await enc.get("/log?format=json")
    assert r.status == 200, r.body
    seen = set()
    for e in r.body["entries"]:
        if e["type"] in AP_GRAPPLE_EVENT_TYPES:
            seen.add(e["type"])
            assert not e["text"].startswith(e["type"]), e
    return seen


async def test_log_of_the_grab_the_swing_against_a_wall_and_the_brawls(tussle):
    """Spec section 7, line by line (G1, G6, B1 after the round's end, B2)."""
    enc = await encounter(tussle)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="right", barrier=True, dice=[[2]])
    await enc.ok(
        "ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0], [1, 0]], dice=[[9]]
    )
    await enc.ok("ap-grapple.pass", combatant="aldo")  # everyone done: the server starts round 2
    await enc.ok("ap-grapple.brawl", combatant="aldo", target="berk", dice=[[10]])
    texts = await log_texts(enc)
    for sentence in [
        "Round 1 begins; every combatant's AP are back to full.",
        "Round 1. Aldo tries to grab Berk (3 AP; 2 AP left).",
        "Aldo spends 3 AP on the grab (2 AP left).",
        "Aldo rolls to hit Berk: d20 [13] (no modifiers) vs THAC0 16 − AC 6 = 10: hit" + MANUAL,
        "Aldo has a grip on Berk.",
        "Pull chance: 170 + 3x14 = 212 vs 212 + 180 = 392, so 54% (exactly 212/392, rounded down).",
        "d100 [37] <= 54: Berk is pulled off balance" + MANUAL,
        "Berk is stunned.",
        "Berk is stunned until the end of round 2; Aldo may swing Berk left, right, into Aldo's own hex or against a "
        "barrier where Berk stands.",
        "Aldo swings Berk right, against the wall.",
        "Berk is pulled to [0, 1].",
        "Berk takes 2 (7 hp left).",
        "Aldo releases the grip on Berk (swing complete).",
        "Round 1. Cade charges 3 hexes and brawls Berk using all 5 AP.",
        "Cade charges to [3, 0].",
        "Cade spends 5 AP on the brawl (0 AP left).",
        "Cade has no AP left this round.",
        "Weight 250 vs 180 (25/18) counts as one third greater (+1).",
        "Cade rolls to hit Berk: d20 [9] + 1 (weight ratio one third greater) = 10 vs THAC0 17 − AC 6 = 11: miss"
        + MANUAL,
        "Aldo passes, giving up 2 AP.",
        "Round 2 begins; every combatant's AP are back to full.",
        "Round 2. Aldo brawls Berk using all 5 AP.",
        "Weight 170 vs 180 (17/18) counts as even (0).",
        "Aldo rolls to hit Berk: d20 [10] + 0 (weight ratio even) = 10 vs THAC0 16 − AC 6 = 10: hit" + MANUAL,
        "Aldo takes Berk to the ground: both go prone.",
        "Aldo follows into [0, 1].",
        "Aldo and Berk are on the ground together in the hex [0, 1].",
    ]:
        assert sentence in texts, (sentence, texts)
    assert any(t.startswith("Against the barrier: d3 [2]") for t in texts)
    seen = await _seen_with_own_sentence(enc)
    assert {
        "APSpent",
        "GripTaken",
        "PullChance",
        "PulledOffBalance",
        "GripReleased",
        "WeightRatio",
        "BrawlTakedown",
    } <= seen
    await enc.replay_matches_live()


async def test_log_of_a_failed_pull_and_an_own_hex_swing(tussle):
    enc = await encounter(tussle)
    await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [55]])
    texts = await log_texts(enc)
    assert "d100 [55] > 54: Berk is not pulled off balance, and the grip is lost" + MANUAL in texts
    assert "Aldo loses the grip on Berk (not pulled off balance)." in texts
    assert "GripLost" in await _seen_with_own_sentence(enc)
    enc = await encounter(tussle)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    texts = await log_texts(enc)
    assert "Aldo swings Berk into Aldo's own hex." in texts
    assert "Aldo and Berk are now in close combat in the hex [0, 0]." in texts
    enc = await encounter(tussle, swing_destinations="any_adjacent_to_attacker")
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="dir_3")
    texts = await log_texts(enc)
    assert (
        "Berk is stunned until the end of round 2; Aldo may swing Berk left, right, into Aldo's own hex, to the hex "
        "in direction 2, to the hex in direction 3, to the hex in direction 4 or against a barrier where Berk "
        "stands."
    ) in texts
    assert "Aldo swings Berk to [-1, 0]." in texts
    await enc.replay_matches_live()


async def test_every_ap_grapple_event_type_has_a_sentence_in_the_log(tussle):
    enc = await encounter(tussle)
    await enc.ok("ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[13], [55]])  # GripLost
    await enc.ok("start_turn")
    await g1(enc)  # PulledOffBalance
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")  # GripReleased
    await enc.ok(
        "ap-grapple.brawl", combatant="cade", target="berk", path=[[3, 0], [2, 0], [1, 0]], dice=[[15]]
    )  # BrawlTakedown
    seen = await _seen_with_own_sentence(enc)
    assert seen == AP_GRAPPLE_EVENT_TYPES, AP_GRAPPLE_EVENT_TYPES - seen
    await enc.replay_matches_live()


async def test_rulesets_lists_every_ap_grapple_command_with_its_fields(tussle):
    r = await tussle.request("GET", "/rulesets")
    assert r.status == 200, r.body
    ap = next(x for x in r.body["rulesets"] if x["id"] == "ap-grapple")
    fields = {c["type"]: {f["name"]: f["required"] for f in c["fields"]} for c in ap["commands"]}
    assert fields == {
        "ap-grapple.pass": {"combatant": True},
        "ap-grapple.make_a_grab": {
            "combatant": True,
            "target": True,
            "modifiers": False,
            "to_hit_target": False,
        },
        "ap-grapple.swing_target": {"combatant": True, "to": True, "barrier": False},
        "ap-grapple.brawl": {
            "combatant": True,
            "target": True,
            "path": False,
            "modifiers": False,
            "to_hit_target": False,
        },
        "ap-grapple.move": {"combatant": True, "path": True, "facing": False},
    }
    assert all(c["doc"] for c in ap["commands"])
    options = {o["name"]: o["default"] for o in ap["options"]}
    assert {
        k: options[k]
        for k in (
            "strict_initiative",
            "to_hit",
            "natural_20_hits",
            "natural_1_misses",
            "stun_duration",
            "swing_destinations",
            "brawl_ratio_rule",
        )
    } == {
        "strict_initiative": False,
        "to_hit": "thac0_minus_ac",
        "natural_20_hits": False,
        "natural_1_misses": False,
        "stun_duration": "through_next_round",
        "swing_destinations": "shared_neighbours_and_own",
        "brawl_ratio_rule": "toward_even",
    }
    # StartRound, Ruling and Void are the common start_turn, ruling and void; the swing may also be a respond.
    assert {"start_turn", "ruling", "void", "respond"} <= {
        c["type"] if isinstance(c, dict) else c for c in ap["common_commands"]
    }
