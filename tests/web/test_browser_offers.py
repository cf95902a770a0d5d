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


def test_a_reactions_answer_buttons_are_the_answers_the_rules_offer_in_words(served, api, open_page):
    """ap-grapple: Aldo pulls Berk off balance and swings him; "in_place" is only for a swing against a
    barrier, which the rules know is not there. The card offered "Answer: in_place" and the server refused
    it (422): the buttons are now the offered answers, titled as the offers title them."""
    enc = api.ok("POST", "/encounters", {"name": "Swing", "ruleset": "ap-grapple", "dice": "manual"})
    aldo = {"id": "aldo", "name": "Aldo", "side": "heroes", "position": [0, 0], "facing": 0,
            "stats": {"weight_lb": 170, "strength": 14, "thac0": 16, "ac": 5, "ap_per_round": 5, "hp": 10}}  # fmt: skip
    berk = {"id": "berk", "name": "Berk", "side": "bandits", "position": [1, 0], "facing": 3,
            "stats": {"weight_lb": 180, "strength": 12, "thac0": 18, "ac": 6, "hp": 9}}  # fmt: skip
    api.command(enc, "add_combatants", combatants=[aldo, berk])
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["aldo"]}, enc["gm_token"]
    )
    api.command(enc, "start_turn", turn=1)
    api.command(enc, "ap-grapple.make_a_grab", combatant="aldo", target="berk", dice=[[20], [1]])
    (pending,) = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["pending"]
    assert "in_place" in pending["options"]  # the reaction lists it; the rules refuse it here
    alice = open_page(
        f"{served.url}/encounters/{enc['id']}/view#token={seat['token']}", width=390, height=844
    )
    a = alice.page
    a.locator("#connection.live").wait_for()
    buttons = a.locator(f'.reaction[data-reaction="{pending["id"]}"] button.answer')
    buttons.first.wait_for()
    choices = [b.get_attribute("data-choice") for b in buttons.all()]
    assert "in_place" not in choices and "own_hex" in choices, choices
    own = a.locator('.reaction button.answer[data-choice="own_hex"]')
    assert "own_hex" not in own.inner_text(), own.inner_text()  # in words, as the offers say it
    own.click()
    a.locator("#last-result", has_text="Done: seq").wait_for()
    assert alice.script_errors() == []
