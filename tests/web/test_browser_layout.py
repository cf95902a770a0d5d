"""Layout for people (issue 27 item 4): the answer or action panel first with a sticky banner, the log
folded by turn, combatant cards at phone width and no clipping at 1280 px, figures sharing a hex drawn as
a numbered stack with a legend, pan and zoom, deadlines in local relative time, and a confirmation
before what cannot be undone."""

from __future__ import annotations

import re

import pytest

from tests.tft.helpers import DAGGER, simeth, troll
from tests.web.conftest import axe_violations, screenshots_dir
from tests.web.test_browser_play import open_action

pytestmark = pytest.mark.browser


def _brawl(api):
    """Simeth (seat "Alice") has entered HTH with the troll, which carries a dagger: the GM is asked
    whether it draws it, with a deadline (reaction_timeout_s), and turn 1 is under way."""
    t = troll()
    t["items"].append({**DAGGER, "id": "troll-dagger"})
    enc, seat_token = api.tft_movement(
        {
            "name": "The brawl",
            "dice": "manual",
            "options": {"reaction_timeout_s": 3600, "manual_dice_from": "actor"},
        },
        [simeth(), t],
    )
    api.command(enc, "tft.move", combatant="simeth", path=[[1, 0]])
    api.command(enc, "start_phase", phase="action")
    api.command(enc, "tft.enter_hth", token=seat_token, combatant="simeth", target="troll", dice=[[3]])
    return enc, seat_token


def _no_overflow(page, selector: str) -> bool:
    return page.evaluate(
        f"(() => {{ const e = document.querySelector({selector!r}); return e.scrollWidth <= e.clientWidth + 1; }})()"
    )


def test_the_page_puts_what_you_must_do_first_at_phone_width_and_clips_nothing_at_1280(
    served, api, open_page
):
    enc, seat_token = _brawl(api)
    view = f"{served.url}/encounters/{enc['id']}/view"
    gm = open_page(f"{view}#token={enc['gm_token']}", width=390, height=844)
    g = gm.page
    g.locator("#connection.live").wait_for()

    # Asked: the banner says so, links to the answer, and the answers come before the map and the log.
    banner = g.locator("#banner .banner", has_text="You are asked")
    banner.wait_for()
    assert banner.get_by_role("link", name=re.compile("Answer")).get_attribute("href") == "#pending-box"
    answer = g.locator('.reaction button[data-choice="dagger"]')
    top = lambda sel: g.locator(sel).first.bounding_box()["y"]  # noqa: E731
    assert top('.reaction button[data-choice="dagger"]') < top("#map") < top("#log")
    assert top("#gm") < top("#log")
    # The deadline in the reader's time, relative: "in 59 min (hh:mm)", not an ISO timestamp.
    deadline = g.locator(".reaction time.deadline").inner_text()
    assert re.match(r"in (59|60) min|in 1 h 0 min", deadline), deadline
    assert "T" not in deadline.split("(")[0]
    # The banner stays in view however far down the page is scrolled.
    g.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    assert 0 <= g.locator("#banner").bounding_box()["y"] < 5
    g.evaluate("window.scrollTo(0, 0)")

    # The two figures share a hex: a numbered stack and a legend, no names printed over each other.
    g.locator(".map-legend", has_text=re.compile(r"At 0,0: 1 Simeth, 2 Troll")).wait_for()
    assert g.locator("svg.map text.name").count() == 0
    assert g.locator("svg.map text.stack-number").count() == 2
    before = g.locator("svg.map").get_attribute("viewBox")
    g.get_by_role("button", name="Zoom in").click()
    zoomed = g.locator("svg.map").get_attribute("viewBox")
    assert float(zoomed.split()[2]) < float(before.split()[2])
    g.locator(".map-frame").focus()
    g.keyboard.press("ArrowRight")
    assert float(g.locator("svg.map").get_attribute("viewBox").split()[0]) > float(zoomed.split()[0])
    g.keyboard.press("0")
    assert g.locator("svg.map").get_attribute("viewBox") == before

    # Combatants are cards at phone width: each row a block, each value labelled; nothing wider than the screen.
    assert (
        g.locator('#combatants tr[data-combatant="simeth"]').evaluate("e => getComputedStyle(e).display")
        == "block"
    )
    assert g.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    # The log folds by turn: the newest open, the setting-up folded.
    assert g.locator('#log details.turn[data-turn="1"]').get_attribute("open") is not None
    assert g.locator('#log details.turn[data-turn="0"]').get_attribute("open") is None
    shots = screenshots_dir()
    if shots:
        g.screenshot(path=f"{shots}/page-brawl-phone.png", full_page=True)
    assert not [v for v in axe_violations(g) if v["impact"] in ("serious", "critical")]

    # Close asks first: "No" sends nothing, the encounter stays open.
    close = open_action(g, "gm:close")
    close.locator("button[type=submit]").click()
    confirm = close.locator(".confirm")
    assert "cannot be undone" in confirm.inner_text()
    confirm.get_by_role("button", name="No, keep it").click()
    g.locator("#last-result", has_text="Not sent").wait_for()
    assert api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["closed"] is False
    # Revoking a seat asks too; "Yes" revokes it.
    seat = g.locator("ul.seats li", has_text="Alice")
    seat.get_by_role("button", name="Revoke").click()
    seat.get_by_role("button", name="Yes, revoke Alice").click()
    g.locator("ul.seats li", has_text="Alice").wait_for(state="detached")

    # At 1280 px the combatants table clips nothing, and the answer still comes before the log.
    answer.click()
    wide = open_page(f"{view}#token={enc['gm_token']}", width=1280, height=800)
    w = wide.page
    w.locator("#connection.live").wait_for()
    w.locator('#combatants td[data-col="stats"]').first.wait_for()
    assert _no_overflow(w, "#combatants")
    assert w.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
    assert w.locator("#gm").bounding_box()["y"] < w.locator("#log").bounding_box()["y"]
    if shots:
        w.screenshot(path=f"{shots}/page-brawl-wide.png", full_page=True)
    assert not [v for v in axe_violations(w) if v["impact"] in ("serious", "critical")]
    for page in (gm, wide):
        assert page.script_errors() == []


def test_the_banners_link_scrolls_what_it_names_below_the_banner_not_under_it(served, api, open_page):
    """On a phone the sticky banner is two or three lines tall: its "Answer" link (and any scroll to a
    form) must stop below it, or it covers the question it leads to."""
    enc, _ = _brawl(api)
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844)
    g = gm.page
    g.locator("#connection.live").wait_for()
    banner = g.locator("#banner")
    banner.locator(".banner", has_text="You are asked").wait_for()
    g.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    banner.get_by_role("link", name=re.compile("Answer")).click()
    g.wait_for_function(
        "() => window.scrollY > 0 || document.getElementById('pending-box').getBoundingClientRect().top >= 0"
    )
    g.wait_for_timeout(300)  # the smooth scroll, if any, settles
    below = banner.bounding_box()
    target = g.locator("#pending-box").bounding_box()
    assert target["y"] >= below["y"] + below["height"] - 1, (below, target)
    assert gm.script_errors() == []
