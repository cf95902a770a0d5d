"""The page plays from the offers (issue 27 item 3): buttons titled in words, a move by clicking the
figure and then a highlighted hex (by keyboard too), a GM step and an attack by their buttons, a reaction
answered by its buttons; no typed form is opened."""

from __future__ import annotations

import re

import pytest

from tests.tft.helpers import DAGGER, simeth, troll
from tests.web.conftest import axe_violations

pytestmark = pytest.mark.browser


def _log(page, text: str):
    return page.locator("ol.log li", has_text=text)


def test_a_tft_turn_is_played_by_clicks_on_offers_and_the_map(served, api, open_page):
    t = troll()
    t["items"].append({**DAGGER, "id": "troll-dagger"})
    enc, seat_token = api.tft_movement({"name": "Clicks only"}, [simeth(), t])
    view = f"{served.url}/encounters/{enc['id']}/view"
    alice = open_page(f"{view}#token={seat_token}", width=390, height=844)
    a = alice.page
    a.locator("#connection.live").wait_for()
    gm = open_page(f"{view}#token={enc['gm_token']}", width=390, height=844)
    g = gm.page
    g.locator("#connection.live").wait_for()

    # Offers are titled in words, never by command ids.
    offers = a.locator('#actions .offers[data-owner="simeth"] button.offer')
    offers.first.wait_for()
    assert not [b for b in offers.all_inner_texts() if re.search(r"tft\.\w+", b)]
    # Her figure on the map, by keyboard: focus it, Enter; its destinations light up, one is chosen by Enter.
    figure = a.locator('svg.map g.mine[data-combatant="simeth"]')
    figure.focus()
    a.keyboard.press("Enter")
    dest = a.locator('svg.map polygon.dest[data-hex="1,0"]')
    dest.wait_for()
    assert a.locator("svg.map polygon.dest").count() > 3
    assert not [v for v in axe_violations(a) if v["impact"] in ("serious", "critical")]
    dest.focus()
    a.keyboard.press("Enter")
    send = a.locator("button.send-offer")
    assert "to 1,0" in send.inner_text()
    send.click()
    _log(a, "Simeth moves from [2, 0] to [1, 0]").wait_for()

    # The GM's next step is a button: "Start the action phase".
    g.locator('.offers[data-owner="gm"] button.offer', has_text="Start the action phase").click()
    _log(g, "The action phase begins").wait_for()

    # Alice's attack is a button named for its target; the roll is the server's, explained in the log.
    a.locator("button.offer", has_text="Enter hand-to-hand with Troll").click()
    _log(a, "Simeth tries to get into HTH with Troll").wait_for()

    # Where the entry got in (server dice: the troll's defence roll may knock Simeth back), the reaction
    # it raised (Troll may ready its dagger) is answered by its button on the GM's page.
    pending = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["pending"]
    if any(p["kind"] == "entry_dagger" for p in pending):
        g.locator('.reaction button[data-choice="dagger"]').click()
        g.locator("#pending", has_text="No reaction is pending").wait_for()
        a.locator('tr[data-combatant="troll"] td[data-col="ready"]', has_text="Dagger").wait_for()
    for page in (a, g):  # no typed form was filled in: every step above is a click or a key
        assert page.locator('[data-chain="ok"]').count() == 1
    for w in (alice, gm):
        assert w.script_errors() == []


def test_a_player_whose_gm_types_the_dice_is_told_who_sends_the_roll(served, api, open_page):
    """Physical dice typed in by the GM (manual_dice_from "gm", the default): a player's action that
    needs dice is not a dead end asking for faces the page gives no box for; it says who sends it."""
    enc, seat_token = api.tft_movement({"name": "Table dice", "dice": "manual"}, [simeth(), troll()])
    api.command(enc, "tft.move", token=seat_token, combatant="simeth", path=[[1, 0]])
    api.command(enc, "start_phase", phase="action")
    alice = open_page(f"{served.url}/encounters/{enc['id']}/view#token={seat_token}", width=390, height=844)
    a = alice.page
    a.locator("#connection.live").wait_for()
    a.locator("button.offer", has_text="Enter hand-to-hand with Troll").click()
    said = a.locator("#last-result", has_text="Not sent")
    said.wait_for()
    assert "the GM types in the dice" in said.inner_text() and "Ask your GM" in said.inner_text()
    assert a.locator("#dice-box form").count() == 0
    assert alice.script_errors(allow_status=(422,)) == []


def test_after_an_offer_is_sent_on_a_phone_its_answer_is_in_view(served, api, open_page):
    """The chooser folds away once sent, and the window was left on the panel below it (the webhooks)."""
    enc, seat_token = api.tft_movement({"name": "Where am I"}, [simeth(), troll()])
    alice = open_page(f"{served.url}/encounters/{enc['id']}/view#token={seat_token}", width=390, height=844)
    a = alice.page
    a.locator("#connection.live").wait_for()
    a.locator('#actions button.offer[data-offer="tft.move"]').click()  # the chooser, in "Your actions"
    a.locator("#actions button.choice").first.click()
    send = a.locator("#actions button.send-offer")
    # The window scrolled on past the answer's place (as it is once a long chooser folds), then Send.
    a.evaluate(
        "() => { const r = document.getElementById('last-result').getBoundingClientRect();"
        " window.scrollTo(0, window.scrollY + r.bottom + 10); }"
    )
    top_before = a.locator("#last-result").bounding_box()["y"]
    send.dispatch_event("click")
    _log(a, "Simeth moves from [2, 0]").wait_for()
    a.locator("#last-result", has_text="Done: seq").wait_for()
    assert top_before < 0  # the answer's place was above the window when the button was pressed
    a.wait_for_timeout(200)
    box = a.locator("#last-result").bounding_box()
    assert 0 <= box["y"] and box["y"] + box["height"] <= 844, box
    assert alice.script_errors() == []
