"""What a user met playing GURPS and Rogue Trader at the page on a phone (390x844), each fixed in the page:

- a tap in the middle of a foe's hex, a lit destination of a move, landed on the foe's figure and did
  nothing (entering that hex is how close combat starts);
- "Whose turn" spoke the API: "(gurps.choose_maneuver)", "(start_turn)", and the phase read "close_combat";
- a reaction's card listed its choices as the API names them ("choices hold, run_away") and the answer's
  result said "Answer run_away";
- a figure's skills typed as the help says ("Wrestling: 13"), a profile as its 12 numbers ("4 4 4 ...")
  or traits as words ("flight") were a 400: only JSON was read;
- a player's own tools were titled "roll", "note" and "rotate_seed", each with an "expected commitment"
  box that the page fills in itself anyway.
"""

from __future__ import annotations

import re

import pytest

pytestmark = pytest.mark.browser

HAND = {"name": "hand", "kind": "melee", "reach": ["C"], "parry": 7, "damage": "1d-2"}
RT_PROFILE = ("M", "WS", "BS", "S", "T", "W", "I", "A", "Ld", "Int", "Cl", "WP")


def _rt(values: str, unit: str) -> dict:
    """A Rogue Trader profile from its 12 numbers, as the seed prints it."""
    return {**dict(zip(RT_PROFILE, map(int, values.split()), strict=True)), "unit": unit}


def _figure(cid: str, side: str, position: list[int], facing: int, stats: dict) -> dict:
    return dict(id=cid, name=cid.capitalize(), side=side, position=position, facing=facing, stats=stats)


ANA = _figure(
    "ana", "heroes", [-2, 0], 0, {"ST": 10, "DX": 12, "basic_move": 6, "dodge": 8, "weapons": [HAND]}
)
BORS = _figure("bors", "thugs", [0, 0], 3, {"ST": 11, "DX": 11, "basic_move": 5, "dodge": 8})
KAEL = _figure("kael", "red", [0, 0], 0, _rt("4 4 4 4 4 1 4 1 8 8 8 8", "k"))
CULTIST = _figure(
    "cultist",
    "blue",
    [300, 0],
    180,
    _rt("4 3 3 3 3 1 3 1 7 7 7 7", "c"),
)


def _gurps(api, served, open_page):
    enc = api.ok("POST", "/encounters", {"name": "Alley", "ruleset": "gurps"})
    api.command(enc, "add_combatants", combatants=[ANA, BORS])
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["ana"]}, enc["gm_token"]
    )
    api.command(enc, "start_turn", turn=1)
    view = f"{served.url}/encounters/{enc['id']}/view"
    alice = open_page(f"{view}#token={seat['token']}", width=390, height=844)
    alice.page.locator("#connection.live").wait_for()
    return enc, view, alice.page


def test_a_tap_in_the_middle_of_a_foes_hex_moves_there(served, api, open_page):
    enc, _, a = _gurps(api, served, open_page)
    api.command(enc, "gurps.choose_maneuver", combatant="ana", maneuver="move_and_attack")
    a.locator("button.offer", has_text="Move…").click()
    dest = a.locator('svg.map polygon.dest[data-hex="0,0"]')  # Bors' hex: Bors is drawn on it
    dest.wait_for()
    dest.scroll_into_view_if_needed()
    box = dest.bounding_box()
    a.mouse.click(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2)
    send = a.locator("button.send-offer")
    send.wait_for()
    assert "to 0,0" in send.inner_text()
    send.click()
    a.locator("ol.log li", has_text="Bors and Ana are in close combat").wait_for()


def test_whose_turn_and_the_phase_are_said_in_words(served, api, open_page):
    _, _, a = _gurps(api, served, open_page)
    whose = a.locator('[data-fact="whose-turn"]')
    whose.filter(has_text="Ana has not yet had a turn").wait_for()
    text = whose.inner_text() + a.locator("#banner").inner_text()
    assert "gurps." not in text and "choose_maneuver" not in text, text

    enc = api.ok("POST", "/encounters", {"name": "Hive", "ruleset": "rogue-trader"})
    api.command(enc, "add_combatant", combatant=KAEL)
    gm = open_page(
        f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844
    ).page
    gm.locator("#connection.live").wait_for()
    gm.locator('[data-fact="whose-turn"]', has_text="no turn has started").wait_for()
    assert "start_turn" not in gm.locator('[data-fact="whose-turn"]').inner_text()
    api.command(enc, "start_turn", turn=1)
    for phase in ("movement", "shooting", "close_combat"):
        api.command(enc, "start_phase", phase=phase)
    gm.locator('[data-fact="phase"]', has_text="close combat").wait_for()
    assert "start_phase" not in gm.locator('[data-fact="whose-turn"]').inner_text()


def test_a_reactions_choices_are_in_words(served, api, open_page):
    enc = api.ok(
        "POST",
        "/encounters",
        {"name": "Hive", "ruleset": "rogue-trader", "options": {"turn_order": ["red", "blue"]}},
    )
    api.command(enc, "add_combatants", combatants=[KAEL, CULTIST])
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Bob", "combatants": ["cultist"]}, enc["gm_token"]
    )
    api.command(enc, "start_turn", turn=1)
    api.command(enc, "start_phase", phase="movement")
    api.command(enc, "rogue-trader.charge", combatant="kael", target="cultist")
    view = f"{served.url}/encounters/{enc['id']}/view"
    b = open_page(f"{view}#token={seat['token']}", width=390, height=844).page
    card = b.locator("#pending .reaction")
    card.wait_for()
    assert "run_away" not in card.inner_text() and "run away" in card.inner_text(), card.inner_text()
    # Running away still asks which way to face (§Being Charged): the card's answer opens that choice
    # where the actions are, rather than sending the answer without it.
    card.locator('button.answer[data-choice="run_away"]').click()
    chooser = b.locator(".offers .chooser")
    chooser.get_by_role("button", name="Turn to face Kael").click()
    chooser.get_by_role("button", name=re.compile(r"^Send: Run away")).click()
    result = b.locator("#last-result")
    result.filter(has_text="Done").wait_for()
    assert "run_away" not in result.inner_text(), result.inner_text()
    evs = api.ok("GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"])["events"]
    assert any(e["type"] == "FacingChanged" and e["data"]["combatant"] == "cultist" for e in evs)


def _added_at_the_page(served, api, open_page, ruleset, boxes):
    """One figure added through the GM's boxes, each filled as typed: its stats as the server holds them."""
    enc = api.ok("POST", "/encounters", {"name": "Words", "ruleset": ruleset})
    url = f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}"
    form = open_page(url, width=390, height=844).page.locator("#add-figures")
    form.wait_for()
    for label, value in boxes.items():
        form.get_by_label(label, exact=True).fill(value)
    form.get_by_role("button", name="Add to the fight").click()
    form.locator(".status.ok").wait_for(state="attached")  # the section folds once the fight has figures
    (figure,) = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["combatants"].values()
    return figure["stats"]


def test_list_and_map_stats_are_read_from_words(served, api, open_page):
    ana = {"Name (required)": "Ana", "Side (required)": "heroes", "ST": "10", "DX": "12", "basic move": "6"}
    stats = _added_at_the_page(
        served,
        api,
        open_page,
        "gurps",
        {**ana, "dodge": "8", "skills": "Wrestling: 13, Judo: 12", "traits": "flight"},
    )
    assert stats["skills"] == {"Wrestling": 13, "Judo": 12} and stats["traits"] == ["flight"], stats
    kael = {
        "Name (required)": "Kael",
        "Side (required)": "red",
        "profile": "4 4 4 4 4 1 4 1 8 8 8 8",
        "unit": "k",
    }
    stats = _added_at_the_page(served, api, open_page, "rogue-trader", kael)
    assert (stats["M"], stats["W"], stats["Ld"], stats["WP"]) == (4, 1, 8, 8), stats


def test_a_players_own_tools_are_titled_in_words(served, api, open_page):
    _, _, a = _gurps(api, served, open_page)
    tools = a.locator("#actions .card", has_text="Anyone at the table")
    tools.wait_for()
    titles = tools.locator("details > summary").all_inner_texts()
    assert titles == [
        "Roll dice",
        "Write a note in the log",
        "Ask for a new dice seed (the current one is revealed)",
    ], titles
    assert tools.locator("input[name=expected_commitment]").count() == 0


def test_a_d100s_face_is_typed_not_picked_from_a_hundred(served, api, open_page):
    """Manual dice at 390x844: a d100's face was a select of a hundred options; it is a number box."""
    from tests.ap_grapple.ap_grapple_world import ALDO, ALDO_HEX, BERK, BERK_HEX

    enc = api.ok("POST", "/encounters", {"name": "Yard", "ruleset": "ap-grapple", "dice": "manual"})
    api.command(
        enc,
        "add_combatants",
        combatants=[
            {
                "id": "aldo",
                "name": "Aldo",
                "side": "a",
                "position": ALDO_HEX,
                "facing": 0,
                "stats": dict(ALDO),
            },
            {
                "id": "berk",
                "name": "Berk",
                "side": "b",
                "position": BERK_HEX,
                "facing": 3,
                "stats": dict(BERK),
            },
        ],
    )
    api.command(enc, "start_turn")
    g = open_page(
        f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}", width=390, height=844
    ).page
    g.locator('.offers[data-owner="aldo"] button.offer', has_text="Grab Berk").first.click()
    form = g.locator("#dice-box form")
    form.locator('select[data-roll="0"][data-die="0"]').select_option("13")  # the d20 to hit
    form.locator("button.send-dice").click()
    d100 = form.locator('input[type="number"][data-roll="1"][data-die="0"]')
    d100.wait_for()
    assert d100.get_attribute("max") == "100" and form.locator('select[data-roll="1"]').count() == 0
    d100.fill("37")
    form.locator("button.send-dice").click()
    g.locator("#last-result").filter(has_text="Done").wait_for()
    g.locator("#log", has_text="off balance").wait_for()  # the log follows over the websocket
