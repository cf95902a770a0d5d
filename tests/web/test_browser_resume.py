"""Reconnect, reload and time travel; where the token travels; console errors and accessibility."""

from __future__ import annotations

import pytest

from tests.tft.helpers import simeth, troll
from tests.web.conftest import axe_violations, screenshots_dir
from tests.web.test_browser_play import open_action

pytestmark = pytest.mark.browser


def seqs(page) -> list[int]:
    return [int(s) for s in page.locator("ol.log li").evaluate_all("els => els.map(e => e.dataset.seq)")]


def _fight(api, public: bool = False):
    return api.tft_movement({"name": "Resumed", "public": public}, [simeth(), troll()])


def test_a_dropped_socket_and_a_reload_resume_with_no_gap_or_duplicate(served, api, open_page):
    enc, _ = _fight(api)
    watched = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
    p = watched.page
    p.locator("#connection.live").wait_for()
    head = api.ok("GET", f"/encounters/{enc['id']}", token=enc["gm_token"])["seq"]
    p.locator(f'ol.log li[data-seq="{head}"]').wait_for()
    p.evaluate("window.tussleDebug.dropConnection()")
    api.command(enc, "note", text="Said while the page was away.")  # appended while it reconnects
    p.locator("ol.log li", has_text="Said while the page was away.").wait_for()
    p.locator("#connection.live").wait_for()
    api.command(enc, "note", text="And after.")
    p.locator("ol.log li", has_text="And after.").wait_for()
    got = seqs(p)
    assert got == sorted(set(got)) and got[-1] == head + 2
    assert p.evaluate("window.tussleDebug.page.chain.events.map(e => e.seq)") == list(range(1, head + 3))
    assert p.locator("[data-chain=ok]").count() == 1  # every link checked: seq + 1 and prev_hash
    p.reload()
    p.locator("#connection.live").wait_for()
    p.locator(f'ol.log li[data-seq="{head + 2}"]').wait_for()
    assert seqs(p) == got
    assert watched.script_errors() == []


def test_the_time_slider_shows_an_earlier_state_and_back_to_live(served, api, open_page):
    enc, seat_token = _fight(api)
    before = api.ok("GET", f"/encounters/{enc['id']}", token=enc["gm_token"])["seq"]
    api.command(enc, "tft.move", token=seat_token, combatant="simeth", path=[[1, 0]])
    watched = open_page(f"{served.url}/encounters/{enc['id']}/view#token={seat_token}")
    p = watched.page
    p.locator("#connection.live").wait_for()
    position = p.locator('tr[data-combatant="simeth"] td[data-col="position"]')
    position.filter(has_text="1,0").wait_for()
    p.locator("#at").fill(str(before))
    position.filter(has_text="2,0").wait_for()  # Simeth back where he stood before his move
    assert f"?at={before}" in p.url and "#token=" in p.url
    assert f"{before} of" in p.locator("#at-value").inner_text()
    assert max(seqs(p)) == before and p.locator("#play").is_hidden()  # no playing in the past
    p.click("#live")
    position.filter(has_text="1,0").wait_for()
    assert "?at=" not in p.url
    # A link with ?at= opens in the past.
    again = open_page(f"{served.url}/encounters/{enc['id']}/view?at={before}#token={seat_token}")
    again.page.locator('tr[data-combatant="simeth"] td[data-col="position"]', has_text="2,0").wait_for()
    assert watched.script_errors() == [] and again.script_errors() == []


def test_the_token_never_appears_in_a_request_url_or_a_server_log_line(served, api, open_page):
    enc, seat_token = _fight(api)
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
    alice = open_page(f"{served.url}/encounters/{enc['id']}/view#token={seat_token}")
    for w in (gm, alice):
        w.page.on("websocket", lambda ws, w=w: w.urls.append(ws.url))
    alice.page.locator("#connection.live").wait_for()
    form_details = open_action(alice.page, "simeth:tft.move")  # the typed form, under "advanced"
    form_details.locator("textarea[name=path]").fill("[[1, 0]]")
    form_details.locator("button[type=submit]").click()
    gm.page.locator("ol.log li", has_text="Simeth moves").wait_for()
    gm.page.click("#make-read-link")
    read_url = gm.page.locator("#made-links output.link").first.inner_text()
    read_token = read_url.split("#token=")[1]
    reader = open_page(read_url)
    reader.page.locator("#connection.live").wait_for()
    reader.page.reload()
    reader.page.locator("#connection.live").wait_for()
    log = served.stop()
    urls = gm.urls + alice.urls + reader.urls
    assert any("/ws" in u for u in urls) and any("/commands" in u for u in urls)
    for token in (enc["gm_token"], seat_token, read_token):
        assert not [u for u in urls if token in u]
        assert token not in log
    assert "path" in log and "/commands" in log  # the log was there to look at


def test_no_console_errors_and_no_accessibility_violations(served, api, open_page):
    enc, seat_token = _fight(api, public=True)
    api.command(enc, "roll", expression="3d6", purpose="courage", combatant="troll")
    pages = {
        "landing": (served.url + "/", "#c-options .field"),
        "gm": (f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", "#gm-tools form"),
        "player": (f"{served.url}/encounters/{enc['id']}/view#token={seat_token}", "#actions form"),
        "observer": (f"{served.url}/encounters/{enc['id']}/view", "ol.log li"),
    }
    for name, (url, ready) in pages.items():
        watched = open_page(url)
        p = watched.page
        p.locator(ready).first.wait_for(state="attached")
        p.wait_for_timeout(300)  # let the last refresh render
        assert axe_violations(p) == [], name
        assert watched.script_errors() == [], name


def test_the_page_fits_a_phone(served, api, open_page):
    enc, seat_token = _fight(api)
    watched = open_page(f"{served.url}/encounters/{enc['id']}/view#token={seat_token}", width=390, height=844)
    p = watched.page
    p.locator("#actions form").first.wait_for(state="attached")
    # Nothing but the combatants table (which scrolls in its own box) is wider than the screen.
    assert p.evaluate("document.documentElement.scrollWidth") <= 390
    shots = screenshots_dir()
    if shots:
        p.screenshot(path=f"{shots}/page-phone.png", full_page=True)
    assert watched.script_errors() == []
