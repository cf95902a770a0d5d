"""Issue 18 item 4: the AP grappling log a forum reads well, read against seed 001."""

from __future__ import annotations

import re

from ap_grapple_http import encounter, g1

GUESSED_PRONOUN = re.compile(r"\b(he|him|his|himself|she|her)\b", re.IGNORECASE)


async def test_the_grab_reads_as_the_seed_tells_it(tussle):
    """§Make a Grab: "The attacker must make an ordinary roll to hit ... a d100 rolled to determine if the enemy
    can be pulled off balance": who rolls, the target and how it was reached, and what follows; AP bookkeeping
    folded into the action in forum exports; no guessed pronouns."""
    enc = await encounter(tussle)
    await g1(enc)
    await enc.ok("ap-grapple.swing_target", combatant="aldo", to="own_hex")
    await enc.ok("ap-grapple.pass", combatant="aldo")
    await enc.ok("ap-grapple.pass", combatant="cade")
    md = (await enc.get("/log?format=markdown&turn=1")).body
    assert "Aldo rolls to hit Berk: d20 \\[13\\] (no modifiers) vs THAC0 16 − AC 6 = 10: hit" in md
    assert "Aldo swings Berk into Aldo's own hex." in md
    assert (
        "Cade passes, giving up 5 AP." in md
    )  # a pass is bookkeeping with no other sentence: the post keeps it
    assert "spends 3 AP on the grab" not in md
    assert not GUESSED_PRONOUN.search(md), GUESSED_PRONOUN.findall(md)
    bb = (await enc.get("/log?format=bbcode&turn=1")).body
    assert "\\[" not in bb and "d20 [13]" in bb
