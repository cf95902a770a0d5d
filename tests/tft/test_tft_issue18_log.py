"""Issue 18 item 4: the TFT log a forum reads well (GET /log?format=markdown|bbcode), read against seed 000."""

from __future__ import annotations

import re

from tests.tft.helpers import encounter, fig, simeth, troll

GUESSED_PRONOUN = re.compile(r"\b(he|him|his|himself|she|her)\b", re.IGNORECASE)


async def _troll_turn(tussle):
    """§Example-Troll: Simeth shifts one hex, gets into HTH, the troll bites, Simeth punches; a friend strikes in."""
    brenna = fig(
        "brenna",
        "a",
        11,
        12,
        [0, 1],
        2,
        ma=10,
        items=[{"id": "spear", "name": "Spear", "kind": "weapon", "damage": "1d6+1", "state": "ready"}],
    )
    enc = await encounter(tussle, simeth(), troll(), brenna, phase="movement")
    await enc.ok("tft.move", combatant="simeth", path=[[1, 0]])
    await enc.ok("start_phase", phase="action")
    await enc.ok("tft.enter_hth", combatant="simeth", target="troll", condition="C2", dice=[[2]])
    await enc.ok("tft.hth_attack", combatant="troll", target="simeth", weapon="bite", dice=[[3, 4, 4], [4]])
    await enc.ok("tft.hth_attack", combatant="simeth", target="troll", dice=[[2, 3, 4], [5]])
    await enc.ok(
        "tft.strike_into_hth",
        combatant="brenna",
        target="troll",
        weapon="spear",
        dice=[[6, 6, 3], [5, 5, 5], [2]],
    )
    await enc.ok("start_turn", turn=2)
    return enc


async def test_the_troll_turn_reads_as_the_seed_tells_it(tussle):
    """§DX-Mods: "Simeth has -4 adj DX since he entered HTH this turn": each target says how it was reached;
    bookkeeping is folded into the action it belongs to; no internal names, no guessed pronouns."""
    enc = await _troll_turn(tussle)
    md = (await enc.get("/log?format=markdown&turn=1")).body
    assert "vs DX 15 − 4 (entered HTH this turn) = 11: hit" in md
    assert "vs DX 11 + 2 (strongest figure in HTH) = 13: hit" in md
    assert "hth\\_attack" not in md and "(physical dice)" not in md
    assert "this turn Simeth may only attack, at -4 DX" in md
    assert not GUESSED_PRONOUN.search(md.replace("Troll bridge", "")), GUESSED_PRONOUN.findall(md)
    bb = (await enc.get("/log?format=bbcode&turn=1")).body
    assert "\\[" not in bb and "[*][i]#7[/i] Simeth moves from [2, 0] to [1, 0]" in bb
    plain = "\n".join(e["text"] for e in (await enc.get("/log?format=json")).body["entries"])
    assert "\\" not in plain and "Troll has used the action of turn 1." in plain  # /log keeps every event
    assert "Troll has used the action of turn 1." not in md  # bookkeeping: the post leaves it out


async def test_remaining_standing_names_figures_never_a_guessed_pronoun(tussle):
    """§Standing (a standing brawl, its checks and the Take Down): names, or "they", for any figure."""
    from tests.tft.test_tft_issue_standing import _standing_pair

    enc, _ = await _standing_pair(tussle)
    text = "\n".join(e["text"] for e in (await enc.get("/log?format=json")).body["entries"])
    assert not GUESSED_PRONOUN.search(text), GUESSED_PRONOUN.findall(text)


async def test_a_pass_stays_in_the_forum_post(tussle):
    """A pass is ActionSpent alone (bookkeeping elsewhere): with no other sentence saying it, the post keeps it."""
    enc = await encounter(tussle, simeth(), troll())
    await enc.ok("tft.pass", combatant="simeth")
    md = (await enc.get("/log?format=markdown&turn=1")).body
    assert "Simeth passes: no action this turn" in md
