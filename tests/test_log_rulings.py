"""A GM ruling's log sentence says what its overrides set, in words a forum reader follows (issue 18 item 4)."""

from __future__ import annotations


async def test_a_ruling_says_what_it_sets(tussle):
    enc = await tussle.create("freeform")
    await enc.add({"id": "bouncer", "name": "Bouncer", "side": "house", "position": [0, 0]})
    await enc.ok(
        "ruling",
        text="The bouncer slips",
        overrides={
            "combatants": {"bouncer": {"posture": "prone", "position": [1, 0], "conditions": ["dazed"]}}
        },
    )
    md = (await enc.get("/log?format=markdown")).body
    assert (
        "GM ruling: The bouncer slips (sets Bouncer's conditions to dazed; sets Bouncer's position to \\[1, 0\\]; "
        "sets Bouncer's posture to prone)"
    ) in md, md
    assert "overrides combatants" not in md
