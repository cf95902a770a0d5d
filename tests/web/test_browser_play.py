"""Playing from the browser: create a fight from GET /, hand out a seat link, play turns through the
forms the page generates from /openapi.json, answer a reaction from another page."""

from __future__ import annotations

import json
import re

import pytest

from tests.tft.helpers import DAGGER, simeth, troll
from tests.web.conftest import screenshots_dir

pytestmark = pytest.mark.browser


def open_action(page, key: str):
    """Open the <details> of one generated form (data-key `combatant:type`, `gm:type`, `p:type`)."""
    details = page.locator(f'details[data-key="{key}"]')
    # The typed forms are folded under "advanced" (the offers come first): open that too.
    details.evaluate(
        "d => { for (let e = d.parentElement; e; e = e.parentElement) if (e.tagName === 'DETAILS') e.open = true; }"
    )
    if details.get_attribute("open") is None:  # the page keeps a form open across its rebuilds
        details.locator("summary").click()
    return details.locator("form")


def send(form, expect: str = "Done: seq"):
    result = form.page.locator("#last-result")
    result.evaluate("s => { s.textContent = ''; }")
    form.locator("button[type=submit]").click()
    result.filter(has_text=re.compile(r"\S")).wait_for()  # the page's answer, whatever it is
    said = result.inner_text()
    assert re.search(expect, said), said
    return said


def log_entry(page, text: str):
    return page.locator("ol.log li", has_text=text)


def test_a_tft_fight_created_from_the_landing_page_is_played_from_a_seat_link(served, open_page):
    landing = open_page(served.url + "/")
    p = landing.page
    p.locator("#c-options .field").first.wait_for()
    assert p.locator("#c-ruleset").input_value() == "tft"
    assert p.locator("#opt-pins").is_visible()  # the ruleset's options, from GET /rulesets
    p.fill("#c-name", "Troll bridge")
    p.check("#c-public")
    p.click("#create button[type=submit]")
    gm_url = p.locator("#created .link-row output.link").first.inner_text()
    assert re.fullmatch(rf"{re.escape(served.url)}/encounters/\w+/view#token=[\w-]+", gm_url)
    shots = screenshots_dir()
    if shots:
        p.screenshot(path=f"{shots}/page-landing.png", full_page=True)

    gm = open_page(gm_url)
    g = gm.page
    g.locator("#connection.live").wait_for()
    for fig in (simeth(), troll()):
        form = open_action(g, "gm:add_combatant")
        form.locator("textarea[name=combatant]").fill(json.dumps(fig))
        send(form)
        log_entry(g, f"{fig['name']} joins the fight").wait_for()
    g.locator("#make-seat label", has_text="Simeth").locator("input").check()
    g.fill("#gm-seat-name", "Alice")
    g.click("#make-seat button[type=submit]")
    seat_url = g.locator("#made-links output.link").first.inner_text()
    assert "#token=" in seat_url and seat_url != gm_url
    send(open_action(g, "gm:start_turn"))
    form = open_action(g, "gm:start_phase")
    form.locator("input[name=phase]").fill("movement")
    send(form)
    log_entry(g, "The movement phase begins").wait_for()

    alice = open_page(seat_url)
    a = alice.page
    a.locator("#banner .banner", has_text="Your turn").wait_for()
    assert "Alice (player, " in a.locator('[data-fact="you-are"]').inner_text()
    assert a.locator('details[data-key^="troll:"]').count() == 0  # only her own combatant's actions
    form = open_action(a, "simeth:tft.move")
    form.locator("textarea[name=path]").fill("[[1, 0]]")
    send(form)
    log_entry(a, "Simeth moves from [2, 0] to [1, 0]").wait_for()
    log_entry(g, "Simeth moves from [2, 0] to [1, 0]").wait_for()  # the GM's page, live
    a.locator('tr[data-combatant="simeth"] td[data-col="position"]', has_text="1,0").wait_for()
    receipts = json.loads(a.evaluate("JSON.stringify(Object.entries(localStorage))"))
    kept = json.loads(dict(receipts)[next(k for k, _ in receipts if k.startswith("tussle-receipts:"))])
    assert len(kept) == 1 and set(kept[0]) == {"seq", "hash", "receipt"}
    assert "all match the stream" in a.locator("#chain").inner_text()
    for w in (landing, gm, alice):
        assert w.script_errors() == []


def test_a_command_sent_over_http_appears_in_an_open_page_without_reload(served, api, open_page):
    enc = api.ok("POST", "/encounters", {"name": "Watched", "ruleset": "freeform", "public": True})
    watcher = open_page(f"{served.url}/encounters/{enc['id']}/view")  # public: no token at all
    w = watcher.page
    w.locator("#connection.live").wait_for()
    w.evaluate("window.notReloaded = true")
    api.command(enc, "note", text="The troll sniffs the air.")
    log_entry(w, "The troll sniffs the air.").wait_for()
    assert w.evaluate("window.notReloaded") is True
    assert w.locator("#play").is_hidden() and w.locator("#gm").is_hidden()  # an observer gets no forms
    assert watcher.script_errors() == []


def _hth_fight(api):
    """Simeth (a seat) and a troll with a carried dagger; manual dice, faces typed in by the actor."""
    t = troll()
    t["items"].append({**DAGGER, "id": "troll-dagger"})
    return api.tft_movement(
        {"name": "Into the brawl", "dice": "manual", "options": {"manual_dice_from": "actor"}}, [simeth(), t]
    )


def test_a_player_enters_hth_through_the_forms_and_the_gm_answers_the_reaction(served, api, open_page):
    enc, seat_token = _hth_fight(api)
    view = f"{served.url}/encounters/{enc['id']}/view"
    alice = open_page(f"{view}#token={seat_token}")
    a = alice.page
    a.locator("#connection.live").wait_for()
    form = open_action(a, "simeth:tft.move")
    form.locator("textarea[name=path]").fill("1,0")  # a position may be typed as q,r
    # A path is a list of positions: the page says so when it is not JSON.
    send(form, expect="not JSON|Done")
    form.locator("textarea[name=path]").fill("[[1,0]]")
    send(form)
    api.command(enc, "start_phase", phase="action")
    form = open_action(a, "simeth:tft.enter_hth")
    form.locator("select[name=target]").select_option(label="Troll")
    # Manual dice, no faces yet: the page asks for them (dice_needed) in its dice panel, a select per die.
    form.locator("button[type=submit]").click()
    dice = a.locator("#dice-box form")
    dice.wait_for()
    assert "Troll's HTH defense roll" in dice.inner_text()
    dice.locator('select[data-roll="0"][data-die="0"]').select_option("3")
    dice.locator("button.send-dice").click()
    a.locator("#last-result", has_text="Done: seq").wait_for()
    log_entry(a, "Simeth").filter(has_text="HTH").first.wait_for()

    gm = open_page(f"{view}#token={enc['gm_token']}")
    g = gm.page
    reaction = g.locator(".reaction", has_text="entry dagger")
    reaction.wait_for()
    assert "Asked of the GM" in reaction.inner_text()
    a.locator(".reaction", has_text="entry dagger").wait_for()  # Alice sees what the table waits for ...
    assert a.locator(".reaction button.answer").count() == 0  # ... but it is not hers to answer
    reaction.locator('button[data-choice="dagger"]').click()
    g.locator("#pending", has_text="No reaction is pending").wait_for()
    a.locator("#pending", has_text="No reaction is pending").wait_for()
    g.locator('tr[data-combatant="troll"] td[data-col="ready"]', has_text="Dagger").wait_for()
    hth = g.locator('tr[data-combatant="simeth"] td[data-col="hth"]').inner_text()
    assert "with Troll" in hth
    assert g.locator("svg.map line.hth").count() == 1  # the brawl drawn between the two figures
    assert gm.script_errors() == []
    assert alice.script_errors(allow_status=(422,)) == []  # the dice_needed answer, on purpose


def test_the_gm_sees_each_webhooks_health_on_the_page(tmp_path, open_page):
    """A webhook whose receiver refuses connections shows as failing, with its host and last error, to
    the GM only; the URL's path never reaches the page."""
    import socket
    import time

    from tests.support.serving import ServeProcess
    from tests.web.conftest import Api

    with socket.socket() as s:  # a port nobody listens on: every delivery is refused
        s.bind(("127.0.0.1", 0))
        dead = s.getsockname()[1]
    srv = ServeProcess(
        "--db", str(tmp_path / "tussle.db"), "--webhook-allow-private", "--webhook-retry-s", "0.2"
    )
    try:
        api = Api(srv.url)
        enc = api.ok("POST", "/encounters", {"name": "Told", "ruleset": "freeform"})
        base = f"/encounters/{enc['id']}"
        api.ok(
            "POST",
            f"{base}/webhooks",
            {"url": f"http://127.0.0.1:{dead}/secret-path", "deliver": ["events"], "format": "json"},
            enc["gm_token"],
        )
        api.command(enc, "note", text="Someone is listening.")
        deadline = time.monotonic() + 30
        while not api.ok("GET", f"{base}/webhooks", token=enc["gm_token"])["webhooks"][0]["failing_since"]:
            assert time.monotonic() < deadline, "the dispatcher never tried the webhook"
            time.sleep(0.1)
        gm = open_page(f"{srv.url}{base}/view#token={enc['gm_token']}")
        card = gm.page.locator("#webhooks-list tr[data-webhook]")  # the webhooks panel (webhooks.js)
        card.wait_for()
        text = card.inner_text()
        assert "127.0.0.1" in text and "failing since" in text and "secret-path" not in text
        assert gm.script_errors() == []
    finally:
        srv.stop()
