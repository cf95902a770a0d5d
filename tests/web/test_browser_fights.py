"""A whole short fight by clicks only, for every installed ruleset (issue 27 "Done when"): a GM and two
players in three browser contexts at 390×844; created from GET / with a non-default option, figures
added through the structured stats form, seat links handed out, a move by clicking the map (a hex, or a
point of the offered region on the plane), an attack, a reaction answered by its buttons, manual dice
chosen in the dice panel where the encounter is manual, close (confirmed), every badge verified; the
same pages checked at 1280×800 and by axe. One driver (fight_driver.py); each ruleset is data and a
short script of what its fight clicks."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from tests.web.fight_driver import Figure, Table

pytestmark = pytest.mark.browser


@dataclass
class Fight:
    ruleset: str
    dice: str
    set_options: Callable[[Any], None]  # a non-default option, set on the landing page
    expect_options: dict[str, Any]
    figures: tuple[Figure, Figure]  # Alice's, Bob's
    play: Callable[[Table], None]
    plane: bool = False


def _select(option: str, label: str) -> Callable[[Any], None]:
    return lambda p: p.select_option(f'#c-options [data-option="{option}"] select', label=label)


def _check(option: str) -> Callable[[Any], None]:
    return lambda p: p.check(f'#c-options [data-option="{option}"] input[type=checkbox]')


def _number(option: str, value: str) -> Callable[[Any], None]:
    return lambda p: p.fill(f'#c-options [data-option="{option}"] input', value)


def _all(*setters: Callable[[Any], None]) -> Callable[[Any], None]:
    def run(p: Any) -> None:
        for s in setters:
            s(p)

    return run


def _manual(
    ruleset: str, checked: str, figures: tuple[Figure, Figure], play: Callable[[Table], None]
) -> Fight:
    """A fight with manual dice whose faces the actor enters, and one of the ruleset's boxes ticked."""
    return Fight(
        ruleset,
        "manual",
        _all(_select("manual_dice_from", "actor"), _check(checked)),
        {"manual_dice_from": "actor", checked: True},
        figures,
        play,
    )


# ---- the fights ----


def _tft(t: Table) -> None:
    t.offer("gm", "Start turn 1")
    t.offer("gm", "Start the movement phase")
    t.move_to_hex("Alice", "simeth", "1,0")
    t.log(t.page_of("Bob"), "Simeth moves from [2, 0] to [1, 0]").wait_for()
    t.offer("gm", "Start the action phase")
    t.offer("Alice", "Enter hand-to-hand with Troll")
    t.faces("Alice", [[3]])  # the troll's defence roll: Simeth gets in
    t.log(t.page_of("Alice"), "Simeth").filter(has_text="HTH").first.wait_for()
    t.players["Bob"].page.locator(".reaction", has_text="entry dagger").wait_for()
    t.phone_layout("Bob")
    t.shot(
        "Bob", "page-fight-phone.png", at="#banner"
    )  # mid-turn: the troll's player asked, the answer first
    t.answer("Bob", "dagger")  # the troll's seat readies its dagger as Simeth comes in
    t.page_of("gm").locator(
        '#combatants tr[data-combatant="troll"] [data-col="ready"]', has_text="Dagger"
    ).wait_for()


def _freeform(t: Table) -> None:
    t.offer("gm", "Start turn 1")
    t.move_to_hex("Alice", "brenna", "1,0")
    t.log(t.page_of("gm"), "Brenna").filter(has_text="1, 0").first.wait_for()
    # The attack is a roll: Alice's, from the form of boxes every seat has.
    roll = t.form("Alice", "p:roll")
    roll.locator("input[name=expression]").fill("2d6+3")
    roll.locator("input[name=purpose]").fill("Brenna's haymaker")
    roll.locator("select[name=combatant]").select_option(label="Brenna")
    t.sent("Alice", roll)
    t.log(t.page_of("Bob"), "Brenna's haymaker").wait_for()
    note = t.gm_form("note")
    note.locator("input[name=text]").fill("The bouncer reels into the bar.")
    t.sent("gm", note)
    # The GM asks the bouncer's player; its answers are rows added with +, never a JSON list.
    ask = t.gm_form("ask")
    ask.locator("input[name=kind]").fill("give_up")
    for answer in ("yield", "fight_on"):
        ask.get_by_role("button", name="Add to options").click()
        ask.locator('[data-option="options"] input[type=text]').last.fill(answer)
    ask.locator("input[name=default]").fill("fight_on")
    ask.locator("select[name=combatant]").select_option(label="Bouncer")
    ask.locator("input[name=question]").fill("Does the bouncer yield?")
    t.axe(t.page_of("gm"), "gm:ask")
    t.sent("gm", ask)
    t.page_of("Bob").locator(".reaction", has_text="Does the bouncer yield?").wait_for()
    t.phone_layout("Bob")
    t.answer("Bob", "yield")
    t.log(t.page_of("gm"), "yield").first.wait_for()


def _rows(scope: Any, option: str, values: tuple[str, ...]) -> None:
    """A list of strings filled row by row: its + button, then the new row's box."""
    box = scope.locator(f'[data-option="{option}"]').first
    for v in values:
        box.get_by_role("button", name=f"Add to {option.replace('_', ' ')}").click()
        box.locator("input[type=text]").last.fill(v)


def _skirmish_deck(p: Any) -> None:
    """A deck of one card that activates both figures (a list of structs, each with a list)."""
    deck = p.locator('#c-options [data-option="deck"]')
    deck.get_by_label("Set deck").check()
    deck.get_by_role("button", name="Add to deck").click()
    card = deck.locator("fieldset.struct").first
    card.locator('[data-option="card"] input').fill("all")
    _rows(card, "combatants", ("hale", "voss"))


def _skirmish(t: Table) -> None:
    t.offer("gm", "Start turn 1")
    t.offer("gm", "Draw the next card")
    # On the plane: a point of the region of one move around the figure, clear of its name and facing.
    t.move_to_point("Alice", "hale", toward=250, fraction=0.15)
    t.log(t.page_of("Bob"), re.compile("Hale (moves|walks)")).first.wait_for()
    t.offer("Alice", "Strike Voss")
    t.answer("Bob", "parry")
    t.log(t.page_of("gm"), "parr").first.wait_for()


def _ap_grapple(t: Table) -> None:
    t.offer("gm", "Start turn 1")
    t.move_to_hex("Alice", "aldo", "1,0")
    t.offer("Alice", "Grab Berk")
    t.faces("Alice", [[15], [5]])  # the to-hit, then (it hit) the d100 pull off balance
    t.log(t.page_of("Bob"), "off balance").first.wait_for()
    t.answer("Alice", "own_hex")  # where Aldo swings the stunned Berk


def _gurps(t: Table) -> None:
    t.offer("gm", "Start turn 1")
    t.offer("Alice", "Choose a maneuver")
    t.choose("Alice", "Move and attack")
    t.send_offer("Alice", "Move and attack")
    t.move_to_hex("Alice", "ana", "0,0")  # into Bors' hex: close combat
    t.offer("Alice", "Strike Bors with the knife")
    t.faces("Alice", [[2, 3, 3]])  # 8: a hit, not a critical one
    # Bors' seat parries with his hand and retreats, the hex picked on the map.
    t.offer("Bob", "Parry and retreat")
    t.choose("Bob", "hand")
    t.click_hex("Bob", "1,0")
    t.send_offer("Bob", "Parry and retreat — hand — to 1,0")
    t.faces("Bob", [[2, 3, 2]])
    t.page_of("gm").locator(
        '#combatants tr[data-combatant="bors"] [data-col="position"]', has_text="1,0"
    ).wait_for()
    # The GM records an injury from the offers (spec 4.4), the hit points typed in the chooser's box.
    t.offer("gm", "Record an injury")
    t.choose("gm", "Bors")
    t.type_in("gm", "2")
    t.send_offer("gm", "Record an injury — Bors — Hit points lost: 2")
    t.log(t.page_of("Bob"), "Bors takes 2 damage").wait_for()


def _turn_order(p: Any) -> None:
    """Red's turn first, then blue's: a list of strings, two rows added."""
    _rows(p.locator("#c-options"), "turn_order", ("red", "blue"))


def _rogue_trader(t: Table) -> None:
    t.offer("gm", "Start turn 1")
    t.offer("gm", "Start the movement phase")
    t.move_to_point("Alice", "kael", toward=0, fraction=0.3)  # within M, out of contact with the cultist
    t.log(t.page_of("Bob"), re.compile("Kael moves")).first.wait_for()
    t.offer("gm", "Start turn 2")  # blue's turn
    t.offer("gm", "Start the movement phase")
    t.offer("Bob", "Charge Kael")
    t.answer("Alice", "hold")  # the charged seat holds
    t.log(t.page_of("gm"), re.compile("holds|hold")).first.wait_for()
    t.offer("gm", "Start the shooting phase")
    t.offer("gm", "Start the close combat phase")
    t.offer("Alice", "Every attack at Cultist")
    t.offer("Bob", "Every attack at Kael")
    t.offer("Bob", "Fight the round")  # the round's rolls, the server's
    t.page_of("gm").locator("ol.log [data-badge]").first.wait_for()


def _rt_profile(unit: str, ws: str, weapon: dict[str, str]) -> dict[str, Any]:
    stats = {
        "M": "4",
        "WS": ws,
        "BS": ws,
        "S": ws,
        "T": ws,
        "W": "1",
        "I": ws,
        "A": "1",
        "Ld": "8",
        "unit": unit,
    }
    return {"stats": stats, "records": {"weapons": [weapon]}}


FIGHTS = [
    _manual(
        "tft",
        "pins",
        (
            Figure("Simeth", "heroes", (2, 0), {"st": "12", "adj_dx": "13", "ma": "12"}, facing="3"),
            Figure(
                "Troll",
                "monsters",
                (0, 0),
                {"st": "30", "adj_dx": "11", "ma": "10"},
                [
                    {
                        "id": "dagger",
                        "name": "Dagger",
                        "state": "carried",
                        "damage": "1d6-1",
                        "dagger_list": "true",
                        "hth_damage": "1d6+1",
                    }
                ],
            ),
        ),
        _tft,
    ),
    Fight(
        "freeform",
        "server",
        _number("reaction_timeout_s", "3600"),
        {"reaction_timeout_s": 3600},
        (Figure("Brenna", "guests", (0, 0), {}), Figure("Bouncer", "house", (3, 0), {})),
        _freeform,
    ),
    Fight(
        "skirmish",
        "server",
        _skirmish_deck,
        {"deck": [{"card": "all", "combatants": ["hale", "voss"]}]},
        (
            Figure(
                "Hale",
                "allies",
                (-1, 0),
                {"street_fighter": "true", "hth_weapon": "sword", "morale": "60", "move_in": "6"},
                [{"id": "sword", "name": "sword", "kind": "regular_weapon"}],
            ),
            Figure(
                "Voss",
                "axis",
                (0, 0),
                {"hth_weapon": "rifle_bayonet", "speedy": "true", "move_in": "6"},
                [{"id": "rifle", "name": "rifle and bayonet", "kind": "regular_weapon"}],
            ),
        ),
        _skirmish,
        plane=True,
    ),
    _manual(
        "ap-grapple",
        "natural_20_hits",
        (
            Figure(
                "Aldo",
                "heroes",
                (0, 0),
                {
                    "weight_lb": "170",
                    "strength": "14",
                    "thac0": "16",
                    "ac": "5",
                    "ap_per_round": "5",
                    "hp": "10",
                },
            ),
            Figure(
                "Berk",
                "bandits",
                (2, 0),
                {"weight_lb": "180", "strength": "12", "thac0": "18", "ac": "6", "hp": "9"},
                facing="3",
            ),
        ),
        _ap_grapple,
    ),
    _manual(
        "gurps",
        "assume_foes_stop",
        (
            Figure(
                "Ana",
                "heroes",
                (-2, 0),
                {"ST": "10", "DX": "12", "basic_move": "6", "dodge": "8"},
                records={
                    "weapons": [
                        {"name": "knife", "kind": "melee", "reach": "C, 1", "parry": "7", "damage": "1d-2"}
                    ]
                },
            ),
            Figure(
                "Bors",
                "thugs",
                (0, 0),
                {"ST": "10", "DX": "11", "basic_move": "5", "dodge": "8"},
                facing="3",
                records={
                    "weapons": [
                        {"name": "hand", "kind": "melee", "reach": "C", "parry": "7", "damage": "1d-2"}
                    ]
                },
            ),
        ),
        _gurps,
    ),
    Fight(
        "rogue-trader",
        "server",
        _turn_order,
        {"turn_order": ["red", "blue"]},
        (
            Figure(
                "Kael",
                "red",
                (0, 0),
                facing="0",
                **_rt_profile("kael", "4", {"id": "chainsword", "name": "chainsword", "type": "C", "S": "4"}),
            ),
            Figure(
                "Cultist",
                "blue",
                (5, 0),
                facing="180",
                **_rt_profile("cult", "3", {"id": "knife", "name": "knife", "type": "C", "S": "3"}),
            ),
        ),
        _rogue_trader,
        plane=True,
    ),
]


@pytest.mark.parametrize("fight", FIGHTS, ids=[f.ruleset for f in FIGHTS])
def test_a_whole_fight_by_clicks_on_a_phone(fight: Fight, served, api, open_page):
    t = Table(served.url, open_page, api)
    t.create(fight.ruleset, f"Clicks only: {fight.ruleset}", fight.set_options, fight.dice)
    options = api.ok("GET", f"/encounters/{t.enc}", token=t.gm_url.split("#token=")[1])["options"]
    assert {k: options.get(k) for k in fight.expect_options} == fight.expect_options
    t.add_figures(list(fight.figures), fight.plane)
    alice, bob = fight.figures
    t.seat("Alice", alice.id)
    t.seat("Bob", bob.id)
    fight.play(t)
    t.phone_layout("gm")
    t.wide_layout("gm", "page-fight-wide.png" if fight.ruleset == "tft" else None)
    t.wide_layout("Alice")
    t.close()
    assert t.badges(manual=fight.dice == "manual") >= 1
    assert re.search(r"closed", t.page_of("Bob").locator('[data-fact="status"]').inner_text())
    t.no_script_errors(fight.dice == "manual")
