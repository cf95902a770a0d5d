"""A GM ruling may overrule the rules but not break the shape of what they read (DESIGN.md: `RulingMade`
overrides `combatants.<id>.{stats, posture, position, facing, conditions, items}`).

Before this check, a ruling that set `conditions` to a number or `items` to a list of numbers was appended,
and every later read of the state and most commands of that encounter answered 500.
"""

from __future__ import annotations

from typing import Any

import pytest

ANA = {
    "id": "ana",
    "name": "Ana",
    "side": "a",
    "position": [0, 0],
    "facing": 0,
    "stats": {"ST": 10, "DX": 12, "basic_move": 5, "dodge": 8},
}
TROLL = {
    "id": "troll",
    "name": "Troll",
    "side": "b",
    "position": [0, 0],
    "facing": 0,
    "stats": {"st": 35, "adj_dx": 11, "ma": 12, "iq": 8},
}

BROKEN = [
    ("freeform", {"conditions": 5}, "conditions"),
    ("freeform", {"conditions": [5]}, "conditions"),
    ("freeform", {"items": [5]}, "items"),
    ("freeform", {"items": 3}, "items"),
    ("freeform", {"stats": 4}, "stats"),
    ("freeform", {"posture": "flying"}, "posture"),
    ("gurps", {"position": "here"}, "position"),
    ("gurps", {"facing": 9}, "facing"),
    ("gurps", {"stats": {"weapons": 5}}, "stats.weapons"),
]


async def _encounter(tussle: Any, ruleset: str) -> Any:
    enc = await tussle.create(ruleset)
    if ruleset == "tft":
        await enc.add(TROLL)
    else:
        await enc.add(ANA)
    return enc


@pytest.mark.parametrize(("ruleset", "patch", "field"), BROKEN, ids=[f"{r}-{f}" for r, _, f in BROKEN])
async def test_a_ruling_that_breaks_a_shape_is_a_400_and_appends_nothing(tussle, ruleset, patch, field):
    enc = await _encounter(tussle, ruleset)
    cid = "ana"
    before = await enc.state()
    r = await enc.command("ruling", text="as the GM says", overrides={"combatants": {cid: patch}})
    assert r.status == 400, r.body
    assert r.body["error"]["code"] == "bad_request"
    assert field in r.body["error"]["details"]["field"]
    assert r.body["error"]["details"]["field"].startswith(f"overrides.combatants.{cid}")
    assert (await enc.state())["seq"] == before["seq"]


async def test_a_ruling_still_overrules_a_rule(tussle):
    """Judo 2 needs IQ 14 (a RuleError at add_combatant); the GM's ruling may grant it all the same."""
    enc = await _encounter(tussle, "tft")
    r = await enc.command(
        "add_combatant", combatant={**TROLL, "id": "t2", "stats": {**TROLL["stats"], "judo": 2}}
    )
    assert r.status == 422
    await enc.ok(
        "ruling", text="this troll studied", overrides={"combatants": {"troll": {"stats": {"judo": 2}}}}
    )
    await enc.ok(
        "ruling",
        text="knocked down",
        overrides={
            "combatants": {
                "troll": {
                    "posture": "prone",
                    "position": [1, 0],
                    "facing": 3,
                    "conditions": ["stunned"],
                    "items": [{"id": "club", "name": "Club", "kind": "weapon", "state": "dropped"}],
                }
            }
        },
    )
    troll = (await enc.state())["combatants"]["troll"]
    assert troll["stats"]["judo"] == 2
    assert (troll["posture"], troll["position"], troll["facing"], troll["conditions"]) == (
        "prone",
        [1, 0],
        3,
        ["stunned"],
    )


async def test_a_refused_override_names_the_accepted_shape_exactly(tussle):
    """Issue 17 "Every ruleset": the refusal shows the JSON a ruling takes, no stray brace, and a dotted path is
    answered with its nested form, which is then accepted."""
    enc = await _encounter(tussle, "tft")
    r = await enc.command("ruling", text="down", overrides={"combatants.troll.posture": "prone"})
    assert r.status == 422, r.body
    msg = r.body["error"]["message"]
    assert 'not dotted paths (write {"combatants": {"troll": {"posture": "prone"}}})' in msg, msg
    assert (
        'overrides takes {"combatants": {"<id>": {"posture": "prone"}}} (a combatant\'s conditions, facing, '
        "items, position, posture, stats)" in msg
    ), msg
    assert "}}}" not in msg.replace('"prone"}}}', ""), msg
    await enc.ok("ruling", text="down", overrides={"combatants": {"troll": {"posture": "prone"}}})
    r = await enc.command("ruling", text="x", overrides={"weather": "rain"})
    assert "this ruleset declares no state of its own to override" in r.body["error"]["message"], r.body
    enc = await tussle.create("ap-grapple")
    r = await enc.command("ruling", text="x", overrides={"rules": {"round": 3}})
    msg = r.body["error"]["message"]
    assert (
        r.status == 422 and 'and {"rules": {"ap_left": ...}} (this ruleset\'s ap_left, ap_per_round, ' in msg
    ), msg
    r = await enc.command("ruling", text="x", overrides={"rules.ap_left": {}})
    assert '(write {"rules": {"ap_left": {}}})' in r.body["error"]["message"], r.body
    await enc.ok("ruling", text="x", overrides={"rules": {"ap_left": {}}})
