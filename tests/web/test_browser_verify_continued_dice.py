"""A GURPS evade stop answered by the GM, on phones: the answer's dice continue the key of the player's
evade (DESIGN.md "Dice", docs/verifying.md §5 "The keying command"), so the GM's page, checking what it
sent (verify.js sentProblems, as `tussle verify --sent`), must not take the GM's respond for one whose
dice were keyed behind its back. Both pages say the chain is verified, and the receipts' line does not
say a receipt fails when every receipt matches."""

from __future__ import annotations

import json
import re

import pytest

from tests.web.fight_driver import Figure, Table

pytestmark = pytest.mark.browser

ANA = Figure("Ana", "heroes", (-2, 0), {"ST": "10", "DX": "12", "basic_move": "6", "dodge": "8"})
BORS = Figure("Bors", "thugs", (0, 0), {"ST": "10", "DX": "11", "basic_move": "5", "dodge": "8"}, facing="3")


def _events(t: Table) -> list[dict]:
    """The stream as GET /events gives it to the GM."""
    token = t.gm_url.split("#token=")[1]
    status, raw = t.api.call("GET", f"/encounters/{t.enc}/events", token=token, accept="application/x-ndjson")
    assert status == 200
    return [e for e in map(json.loads, raw.decode().splitlines()) if "seq" in e]


def _verified_at_head(t: Table, who: str, head: int) -> str:
    """The page's verification panel once its chain has reached seq `head`: verified, not FAILED."""
    p = t.page_of(who)
    p.wait_for_function("h => window.tussleDebug.page.chain.head.seq >= h", arg=head)
    chain = p.locator("#chain")
    chain.locator("[data-chain]").first.wait_for()
    text = chain.inner_text()
    assert chain.locator('[data-chain="failed"]').count() == 0, (who, text)
    assert chain.locator('[data-chain="ok"]').count() == 1, (who, text)
    assert "FAILED" not in text and "does not match" not in text, (who, text)
    return text


def test_the_gm_answers_a_gurps_evade_stop_and_both_pages_verify_what_they_sent(served, api, open_page):
    t = Table(served.url, open_page, api)
    t.create("gurps", "Evade at the ford", lambda p: None, "server")
    t.add_figures([ANA, BORS], plane=False)
    t.seat("Alice", "ana")  # Bors has no seat: the evade_stop question is the GM's
    t.offer("gm", "Start turn 1")
    t.offer("Alice", "Choose a maneuver")
    t.choose("Alice", re.compile(r"^Move: full move"))
    t.send_offer("Alice", "Move: full move")
    t.offer("Alice", "Evade")
    t.choose("Alice", "Bors")
    t.click_hex("Alice", "1,0")  # through Bors's hex and out beyond it
    t.send_offer("Alice", "Evade")
    t.answer("gm", "stop")  # the Quick Contest of DX: the server's dice, keyed by Alice's evade
    t.log(t.page_of("gm"), "tries to evade").first.wait_for()
    t.settle()

    events = _events(t)
    sent = json.loads(t.page_of("gm").evaluate(f"localStorage.getItem('tussle-sent:{t.enc}')") or "[]")
    answer = next(e for e in events if e["type"] == "ReactionAnswered" and e["actor"] == "gm")
    assert answer["command_id"] in {s["command_id"] for s in sent}  # the GM's page sent the respond
    evade = next(e for e in events if e["type"] == "EvadeChallenged")
    dice = [e for e in events if e["type"] == "DieRolled" and e["command_id"] == answer["command_id"]]
    assert len(dice) == 2  # mover's and foe's 3d6
    assert {e["data"]["keyed_command_id"] for e in dice} == {evade["command_id"]}  # the evade's keys
    head = events[-1]["seq"]
    for who in ("gm", "Alice"):
        text = _verified_at_head(t, who, head)
        assert "all match the stream" in text, (who, text)

    t.close()  # the seed revealed: every roll recomputed, the sent records checked again
    t.badges(manual=False)
    head = _events(t)[-1]["seq"]
    for who in ("gm", "Alice"):
        _verified_at_head(t, who, head)

    # A sent record the stream does not bear out (a command that never arrived) fails the check, named by
    # the status line; the receipts, all matching, are not blamed for it.
    g = t.page_of("gm")
    lost = [*sent, {"command_id": "web-never-arrived", "entropy": "x" * 16}]
    g.evaluate("([k, v]) => localStorage.setItem(k, v)", [f"tussle-sent:{t.enc}", json.dumps(lost)])
    g.reload()
    chain = g.locator("#chain")
    chain.locator('[data-chain="failed"]').wait_for()
    assert "web-never-arrived" in chain.locator('[data-chain="failed"]').inner_text()
    kept = chain.locator('[data-fact="kept"]').inner_text()
    assert "all match the stream" in kept and "does not match" not in kept, kept
    t.no_script_errors(manual=False)
