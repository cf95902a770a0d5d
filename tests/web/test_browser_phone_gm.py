"""What a tester met running fights at the page on a phone (390x844), each fixed in the page:

- the GM's "Go to your actions ↓" landed on the top of the GM's tools, and "Add combatants" stayed
  unfolded after figures were added (the default open of an empty fight was kept as if the GM had opened
  it): the "Start turn 2" button was some 2,400 px below where the link landed;
- Rogue Trader positions read in hundredths of an inch ("300,0") where the form takes inches (x = 3);
- the landing page's "Rotate the dice seed each turn" box sat centred above its label;
- a player's "You are" read "player (Alice (seat-1))";
- the seat form's boxes stayed ticked after a seat was made, so a second click made it twice.
"""

from __future__ import annotations

import re

import pytest

from tests.tft.helpers import simeth, troll
from tests.web.test_browser_play_words import CULTIST, KAEL

pytestmark = pytest.mark.browser

PHONE = {"width": 390, "height": 844}


def _gm(served, api, open_page, ruleset: str = "tft"):
    """A new encounter's GM page at phone size, live, opened before it has any figure."""
    enc = api.ok("POST", "/encounters", {"name": "On a phone", "ruleset": ruleset})
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", **PHONE)
    gm.page.locator("#connection.live").wait_for()
    return enc, gm


def test_add_combatants_folds_once_the_fight_has_figures_and_opens_again(served, api, open_page):
    enc, gm = _gm(served, api, open_page)
    g = gm.page
    add = g.locator("details.add-figures")
    assert add.get_attribute("open") is not None  # an empty fight: the form is what comes first
    fig = g.locator('#add-figures fieldset.figure-form[data-figure="1"]')
    fig.get_by_label("Name (required)").fill("Simeth")
    fig.get_by_label("Side (required)").fill("heroes")
    for stat, value in {"st": "12", "adj_dx": "13", "ma": "10"}.items():
        fig.locator(f'input[data-stat="{stat}"]').fill(value)
    g.get_by_role("button", name="Add to the fight").click()
    g.locator("ol.log li", has_text="Simeth joins the fight").wait_for()
    # Folded, its answer where every answer goes, and the summary says what the fight holds.
    g.wait_for_function("() => !document.querySelector('details.add-figures').open")
    g.locator("#last-result", has_text="Done").wait_for()
    assert "1 in the fight" in add.locator("summary").inner_text()
    # Still openable, and open it stays while the GM adds more (a redraw keeps what the GM chose).
    add.locator("summary").click()
    g.locator("#add-figures").wait_for()
    api.command(enc, "add_combatant", combatant=troll())
    g.locator("ol.log li", has_text="joins the fight").nth(1).wait_for()
    add.locator("summary", has_text="2 in the fight").wait_for()
    assert add.get_attribute("open") is not None
    add.locator("summary").click()
    api.command(enc, "start_turn", turn=1)
    g.locator('[data-fact="turn"]', has_text="1").wait_for()
    assert add.get_attribute("open") is None
    assert gm.script_errors() == []


def test_the_gms_go_to_your_actions_lands_on_the_next_step(served, api, open_page):
    enc, gm = _gm(served, api, open_page)
    g = gm.page
    api.command(enc, "add_combatants", combatants=[simeth(), troll()])
    api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["simeth"]}, enc["gm_token"]
    )
    api.command(enc, "start_turn", turn=1)
    step = g.locator("#gm button.offer", has_text="Start turn 2")
    step.wait_for(state="attached")
    g.evaluate("window.scrollTo(0, document.body.scrollHeight)")
    banner = g.locator("#banner")
    banner.get_by_role("link", name=re.compile("Go to your actions")).click()
    g.wait_for_timeout(300)  # a smooth scroll, if any, settles
    below = banner.bounding_box()
    box = step.bounding_box()
    assert below["y"] + below["height"] - 1 <= box["y"], (below, box)
    assert box["y"] + box["height"] <= PHONE["height"], box  # in view: no scrolling on to find it
    assert gm.script_errors() == []


def test_plane_positions_are_shown_in_the_inches_the_form_takes(served, api, open_page):
    enc, gm = _gm(served, api, open_page, "rogue-trader")
    g = gm.page
    api.command(enc, "add_combatants", combatants=[KAEL, CULTIST])  # the cultist at [300, 0]: 3 inches
    form = g.locator("#add-figures")
    g.locator('#combatants tr[data-combatant="cultist"]').wait_for()
    if g.locator("details.add-figures").get_attribute("open") is None:  # folded, now the fight has figures
        g.locator("details.add-figures summary").click()
    fig = form.locator('fieldset.figure-form[data-figure="1"]')
    for label, value in {
        "Name (required)": "Vex",
        "Side (required)": "red",
        "Position x (inches)": "2.5",
        "Position y (inches)": "-1.25",
        "profile": "4 4 4 4 4 1 4 1 8 8 8 8",
        "unit": "v",
    }.items():
        fig.get_by_label(label, exact=True).fill(value)
    form.get_by_role("button", name="Add to the fight").click()
    g.locator("ol.log li", has_text="Vex").first.wait_for()
    state = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])
    assert state["combatants"]["vex"]["position"] == [250, -125]  # sent in the geometry's 0.01 inch

    cell = lambda cid: g.locator(f'#combatants tr[data-combatant="{cid}"] td[data-col="position"]')  # noqa: E731
    cell("vex").wait_for()
    assert cell("cultist").inner_text().startswith("3″, 0″"), cell("cultist").inner_text()
    assert cell("vex").inner_text().startswith("2.5″, -1.25″"), cell("vex").inner_text()
    assert "300" not in cell("cultist").inner_text()
    # The map says it in inches too: its figures' titles and its label.
    title = g.locator('svg.map g[data-combatant="cultist"] title').text_content()
    assert "at 3″, 0″" in title, title
    label = g.locator("svg.map").get_attribute("aria-label")
    assert "Cultist at 3″, 0″" in label and "300" not in label, label
    assert gm.script_errors() == []


def test_the_rotate_each_turn_box_sits_beside_its_label(served, open_page):
    landing = open_page(served.url + "/", **PHONE)
    p = landing.page
    p.locator("#c-rotate-each-turn").wait_for()
    # The form is drawn again once the rulesets' options arrive: measure all three at once, after that
    # (two reads apart could catch the box before it and its label after).
    p.wait_for_load_state("networkidle")
    b, label, public = p.evaluate(
        """() => ['#c-rotate-each-turn', 'label[for="c-rotate-each-turn"]', '#c-public'].map((q) => {
            const r = document.querySelector(q).getBoundingClientRect();
            return { x: r.x, y: r.y, width: r.width, height: r.height };
        })"""
    )
    # Beside it, on its line, as the "Public" box is.
    assert b["x"] + b["width"] <= label["x"], (b, label)
    assert label["y"] <= b["y"] + b["height"] / 2 <= label["y"] + label["height"], (b, label)
    assert abs(public["x"] - b["x"]) < 2, (public, b)
    assert landing.script_errors() == []


def test_a_players_you_are_reads_as_words(served, api, open_page):
    enc = api.ok("POST", "/encounters", {"name": "Who", "ruleset": "tft"})
    api.command(enc, "add_combatants", combatants=[simeth(), troll()])
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["simeth"]}, enc["gm_token"]
    )
    alice = open_page(f"{served.url}/encounters/{enc['id']}/view#token={seat['token']}", **PHONE)
    you = alice.page.locator('[data-fact="you-are"]')
    you.filter(has_text="Alice").wait_for()
    assert you.inner_text() == f"Alice (player, {seat['seat']})", you.inner_text()
    assert alice.script_errors() == []


def test_the_seat_boxes_are_cleared_once_the_seat_is_made(served, api, open_page):
    """Cleared at the server's answer, not at the page's next redraw: on a phone's slow connection the
    state came a while after the link, and a second tap in between made the same seat again."""
    enc, gm = _gm(served, api, open_page)
    g = gm.page
    api.command(enc, "add_combatants", combatants=[simeth(), troll()])
    form = g.locator("#make-seat")
    boxes = form.locator("input[name=seat-combatant]")
    boxes.nth(1).wait_for()
    form.locator('input[value="simeth"]').check()
    form.get_by_label("Seat name").fill("Alice")
    held = []  # the page's state requests, held as a slow network would
    state = re.compile(r"/encounters/\w+/state(\?.*)?$")
    g.route(state, lambda route: held.append(route))
    form.get_by_role("button", name="Make a seat link").click()
    g.locator("#made-links", has_text="Seat link for Alice").wait_for()
    assert [b.is_checked() for b in boxes.all()] == [False, False]
    for route in held:
        route.continue_()
    g.unroute(state)
    g.locator("ul.seats li", has_text="Alice").wait_for()
    assert [b.is_checked() for b in boxes.all()] == [False, False]
    seats = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["seats"]
    assert [s["name"] for s in seats.values()] == ["Alice"]
    assert gm.script_errors() == []
