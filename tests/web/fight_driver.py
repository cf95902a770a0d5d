"""One driver for a whole fight played by clicks (issue 27 "Done when"): a GM and two players, each in a
browser context of their own at phone size, from creation on GET / to the close and its badges. What
differs between rulesets (options, figures, which offers make the fight) is data in
tests/web/test_browser_fights.py; every click goes through the helpers here, and none types JSON.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from tests.web.conftest import Watched, axe_violations, screenshots_dir

PHONE = (390, 844)
WIDE = (1280, 800)


@dataclass
class Figure:
    """A figure as the GM enters it in the structured form: stats are the boxes' text, items rows."""

    name: str
    side: str
    at: tuple[float, float]  # hex q, r; or inches x, y on the plane
    stats: dict[str, str]
    items: list[dict[str, str]] = field(default_factory=list)
    facing: str | None = None  # the facing select's value (hexes) or degrees (plane)
    records: dict[str, list[dict[str, str]]] = field(default_factory=dict)  # a stat that is a list of records

    @property
    def id(self) -> str:
        return re.sub(r"[^a-z0-9]+", "-", self.name.lower()).strip("-")


def no_serious_axe(page: Any, where: str) -> None:
    bad = [v for v in axe_violations(page) if v["impact"] in ("serious", "critical")]
    assert not bad, (where, bad)


def _top(page: Any, selector: str) -> float:
    """Where an element starts on the page, measured in one go (a redraw cannot come in between)."""
    return page.locator(selector).evaluate("e => e.getBoundingClientRect().top + window.scrollY")


@dataclass
class Table:
    """The three pages of one fight and the server they talk to."""

    url: str
    open_page: Callable[..., Watched]
    api: Any
    gm: Watched | None = None
    players: dict[str, Watched] = field(default_factory=dict)
    enc: str = ""
    gm_url: str = ""
    seat_urls: dict[str, str] = field(default_factory=dict)
    figures: dict[str, Figure] = field(default_factory=dict)
    checked: set[str] = field(default_factory=set)  # page states axe has looked at

    # ---- creating, from GET / ----

    def create(
        self, ruleset: str, name: str, set_options: Callable[[Any], None], dice: str = "server"
    ) -> Any:
        """Create from the landing page with the options `set_options` sets; the GM's page, opened."""
        landing = self.open_page(self.url + "/", *PHONE)
        p = landing.page
        p.locator("#c-options .field").first.wait_for()
        p.select_option("#c-ruleset", ruleset)
        p.locator(f'#c-options[data-ruleset="{ruleset}"]').wait_for()
        p.select_option("#c-dice", dice)
        set_options(p)
        p.fill("#c-name", name)
        self.axe(p, f"landing:{ruleset}")
        p.click("#create button[type=submit]")
        p.locator("#created h3", has_text=f"“{name}” is ready").wait_for()
        self.gm_url = p.locator("#created .link-row output.link").first.inner_text()
        self.enc = re.search(r"/encounters/(\w+)/view", self.gm_url).group(1)
        assert landing.script_errors() == []
        p.context.close()
        self.gm = self.open_page(self.gm_url, *PHONE)
        self.gm.page.locator("#connection.live").wait_for()
        return self.gm.page

    def axe(self, page: Any, state: str) -> None:
        if state not in self.checked:
            self.checked.add(state)
            no_serious_axe(page, state)

    # ---- the GM's set-up ----

    def add_figures(self, figures: list[Figure], plane: bool) -> None:
        """Both figures in one send of the structured form (add_combatants)."""
        g = self.gm.page
        form = g.locator("#add-figures")
        assert form.locator("textarea").count() == 0
        for n, fig in enumerate(figures, 1):
            if n > 1:
                form.get_by_role("button", name="Add another figure").click()
            box = form.locator(f'fieldset.figure-form[data-figure="{n}"]')
            box.get_by_label("Name (required)").fill(fig.name)
            box.get_by_label("Side (required)").fill(fig.side)
            box.get_by_label("Position x (inches)" if plane else "Position q").fill(str(fig.at[0]))
            box.get_by_label("Position y (inches)" if plane else "Position r").fill(str(fig.at[1]))
            if fig.facing is not None:
                facing = box.locator('[id$="-facing"]')
                if plane:
                    facing.fill(fig.facing)
                else:
                    facing.select_option(fig.facing)
            for stat, value in fig.stats.items():
                box.locator(f'input[data-stat="{stat}"]').fill(value)
            for stat, records in fig.records.items():
                rows = box.locator(f'[data-stat-records="{stat}"]')
                for i, rec in enumerate(records):
                    rows.get_by_role("button", name=f"Add to {stat.replace('_', ' ')}").click()
                    row = rows.locator(".list-row").nth(i)
                    for k, v in rec.items():
                        row.locator(f'[data-option="{k}"] input').fill(v)
            for i, item in enumerate(fig.items):
                box.get_by_role("button", name="Add to items").click()
                row = box.locator('[data-option="items"] .list-row').nth(i)
                for k, v in item.items():
                    cell = row.locator(f'[data-option="{k}"]').locator("input, select").first
                    if cell.evaluate("e => e.tagName") == "SELECT":
                        cell.select_option(label=v)
                    else:
                        cell.fill(v)
            self.figures[fig.id] = fig
        self.axe(g, "gm:add-figures")
        form.get_by_role("button", name="Add to the fight").click()
        # Attached, not visible: once the fight has figures the section folds away (its answer is in #last-result too).
        status = form.locator(".status")
        status.filter(has_text=re.compile(r"Done|\w{4,}")).wait_for(state="attached")
        status.filter(has_text=re.compile(r"^(?!sending)")).wait_for(state="attached")
        assert "Done" in status.text_content(), status.text_content()
        for fig in figures:
            self.log(g, f"{fig.name} joins the fight").wait_for()

    def seat(self, player: str, figure: str) -> None:
        """A seat link for `player` playing `figure`, handed over: the player's page opens from it."""
        g = self.gm.page
        g.locator("#make-seat label", has_text=self.figures[figure].name).locator("input").check()
        g.fill("#gm-seat-name", player)
        g.click("#make-seat button[type=submit]")
        link = g.locator("#made-links .link-row", has_text=f"Seat link for {player}").locator("output.link")
        url = link.inner_text()
        assert "#token=" in url and url != self.gm_url
        self.seat_urls[player] = url
        w = self.open_page(url, *PHONE)
        w.page.locator("#connection.live").wait_for()
        assert player in w.page.locator('[data-fact="you-are"]').inner_text()
        self.players[player] = w

    # ---- playing ----

    def settle(self) -> None:
        """Every page has drawn the log (and so the state: one refresh draws both) of the stream's
        head: a click on a page still one event behind would find yesterday's offers."""
        seq = self.api.ok("GET", f"/encounters/{self.enc}/log", token=self.gm_url.split("#token=")[1])[
            "entries"
        ][-1]["seq"]
        for w in (self.gm, *self.players.values()):
            for _ in range(200):
                shown = w.page.evaluate(
                    "() => { const l = window.tussleDebug.page.log; const e = (l && l.entries) || [];"
                    " return e.length ? e[e.length - 1].seq : 0; }"
                )
                if shown >= seq:
                    break
                w.page.wait_for_timeout(100)
            else:
                raise AssertionError(f"a page's log never reached seq {seq}")

    def page_of(self, who: str) -> Any:
        return self.gm.page if who == "gm" else self.players[who].page

    @staticmethod
    def log(page: Any, text: str | re.Pattern[str]) -> Any:
        return page.locator("ol.log li", has_text=text)

    def offer(self, who: str, title: str | re.Pattern[str], owner: str | None = None) -> None:
        """Click the offer so titled (of `owner`: a figure id or "gm"; any of the reader's by default)."""
        self.settle()
        p = self.page_of(who)
        scope = f'.offers[data-owner="{owner}"] ' if owner else ".offers "
        button = p.locator(f"{scope}button.offer", has_text=title).first
        try:
            button.wait_for()
        except Exception as exc:  # say what was offered instead
            raise AssertionError(
                f"{who}: no offer {title!r} among {p.locator('.offers').all_inner_texts()}; "
                f"{p.locator('#summary').inner_text()} {p.locator('#last-result').inner_text()}"
            ) from exc
        assert not re.search(r"\b[a-z-]+\.[a-z_]+\b", button.inner_text()), (
            button.inner_text()
        )  # words, no ids
        ready = "ready" in (button.get_attribute("class") or "")
        self._clear(p)
        button.click()
        if ready:
            self._answered(p)

    @staticmethod
    def _clear(p: Any) -> None:
        p.locator("#last-result").evaluate("s => { s.textContent = ''; }")

    @staticmethod
    def _answered(p: Any) -> None:
        """The server's answer to what was just sent is on the page, or the page asks for dice."""
        p.locator("#last-result:not(:empty), #dice-box:not([hidden])").first.wait_for()
        said = p.locator("#last-result").inner_text()
        assert not said or "Done: seq" in said or "Waiting for the faces" in said, said

    def choose(self, who: str, title: str | re.Pattern[str]) -> None:
        """In the chooser open now, the option button so titled."""
        self.page_of(who).locator(".chooser button.choice", has_text=title).first.click()

    def type_in(self, who: str, value: str) -> None:
        """In the chooser open now, a value typed in its box (a number or words the rules cannot list)."""
        chooser = self.page_of(who).locator(".chooser")
        chooser.locator("input").fill(value)
        chooser.get_by_role("button", name="Choose").click()

    def send_offer(self, who: str, expect: str | re.Pattern[str] | None = None) -> str:
        p = self.page_of(who)
        button = p.locator("button.send-offer")
        title = button.inner_text()
        if expect is not None:
            assert re.search(expect, title), title
        self._clear(p)
        button.click()
        self._answered(p)
        return title

    def mark_mine(self, who: str, figure: str) -> None:
        """Click the player's own figure on the map: its move opens, its destinations light up."""
        self.settle()
        p = self.page_of(who)
        p.locator(f'svg.map g.mine[data-combatant="{figure}"]').click()
        try:
            p.locator("svg.map .region, svg.map .dest").first.wait_for()
        except Exception as exc:
            raise AssertionError(
                f"{who}: no destinations; offers {p.locator('.offers').all_inner_texts()}"
            ) from exc

    def click_hex(self, who: str, hex_label: str) -> None:
        p = self.page_of(who)
        dest = p.locator(f'svg.map polygon.dest[data-hex="{hex_label}"]')
        dest.wait_for()
        self.axe(p, f"{who}:map-destinations")
        dest.dispatch_event("click")  # the hex, not a figure's token drawn over its centre

    def move_to_hex(self, who: str, figure: str, hex_label: str) -> None:
        """The figure clicked, then a highlighted destination, then the send: a move by the map."""
        self.mark_mine(who, figure)
        self.click_hex(who, hex_label)
        self.send_offer(who, f"to {hex_label}")

    def move_to_point(self, who: str, figure: str, toward: float, fraction: float) -> None:
        """On the plane: the figure clicked, then a point of its highlighted region, then the send."""
        self.mark_mine(who, figure)
        self.click_region(who, toward, fraction)
        self.send_offer(who, r"Move — to \(")

    def click_region(self, who: str, toward: float, fraction: float = 0.5) -> None:
        """Click the point of the offered region `fraction` of its radius from its centre, at `toward`
        degrees (0 = +x, counter-clockwise, as the page draws the plane)."""
        p = self.page_of(who)
        region = p.locator("svg.map circle.region")
        region.wait_for()
        self.axe(p, f"{who}:map-region")
        box = None
        for _ in range(50):  # the map is redrawn on every refresh: measure the one drawn now
            box = region.bounding_box()
            if box:
                break
            p.wait_for_timeout(100)
        assert box, "the region vanished"
        cx, cy = box["x"] + box["width"] / 2, box["y"] + box["height"] / 2
        r = box["width"] / 2 * fraction
        a = math.radians(toward)
        x, y = cx + r * math.cos(a), cy - r * math.sin(a)
        p.mouse.click(x, y)
        p.locator("button.send-offer").wait_for()

    def faces(self, who: str, faces: list[list[int]]) -> None:
        """Manual dice: the faces the table rolled, chosen in the page's dice panel and sent, as many
        rounds as the rules ask for (a roll whose result decides what follows comes alone first)."""
        p = self.page_of(who)
        form = p.locator("#dice-box form")
        form.wait_for()
        # Not the previous command's answer: the page says this one waits for the dice.
        assert "Waiting for the faces" in p.locator("#last-result").inner_text()
        self.axe(p, f"{who}:dice")
        for _ in range(len(faces)):
            for i, roll in enumerate(faces):
                for d, face in enumerate(roll):
                    sel = form.locator(f'[data-roll="{i}"][data-die="{d}"]:is(select, input)')
                    if not sel.count():
                        continue
                    if sel.evaluate("e => e.tagName") == "SELECT":
                        sel.select_option(str(face))
                    else:  # a d100's face is typed
                        sel.fill(str(face))
            self._clear(p)
            form.locator("button.send-dice").click()
            self._answered(p)
            if not p.locator("#dice-box:not([hidden])").count():
                break
        assert p.locator("#dice-box").is_hidden(), "the rules asked for more dice than the fight gave"

    def answer(self, who: str, choice: str) -> None:
        """A pending reaction answered by its button on the page of whoever is asked."""
        self.settle()
        p = self.page_of(who)
        p.locator("#banner .banner", has_text="You are asked").wait_for()
        self.axe(p, f"{who}:asked")
        button = p.locator(f'.reaction button.answer[data-choice="{choice}"]').first
        reaction = button.evaluate("b => b.closest('.reaction').dataset.reaction")
        self._clear(p)
        button.click()
        # An answer that still asks something (Rogue Trader's "which way to face") opens its chooser among
        # the actions: its first option at each step, then its send.
        chooser = p.locator(".offers .chooser")
        for _ in range(5):
            if not chooser.count() or chooser.locator("button.send-offer").count():
                break
            chooser.locator(".choices button").first.click()
        if chooser.count():
            chooser.locator("button.send-offer").click()
        self._answered(p)
        if not p.locator("#dice-box:not([hidden])").count():  # answered (manual dice: once the faces are in)
            p.locator(f'.reaction[data-reaction="{reaction}"]').wait_for(state="detached")

    def gm_form(self, type: str) -> Any:
        """The GM's form of one of the table's tools (roll, note, ask, ruling, close), opened."""
        return self.form("gm", f"gm:{type}")

    def form(self, who: str, key: str) -> Any:
        """A form of boxes (data-key `gm:roll`, `p:note` ...), opened; never one of the typed fallbacks."""
        g = self.page_of(who)
        d = g.locator(f'details[data-key="{key}"]')
        assert d.evaluate("d => !d.closest('details.advanced')"), key
        if d.get_attribute("open") is None:
            d.locator("summary").click()
        return d.locator("form")

    def sent(self, who: str, form: Any) -> None:
        p = self.page_of(who)
        result = p.locator("#last-result")
        result.evaluate("s => { s.textContent = ''; }")
        form.locator("button[type=submit]").click()
        result.filter(has_text=re.compile(r"\S")).wait_for()
        assert "Done: seq" in result.inner_text(), result.inner_text()

    # ---- the end ----

    def close(self) -> None:
        """Close, asked first; every page sees it closed."""
        g = self.gm.page
        form = self.gm_form("close")
        form.locator("input[name=reason]").fill("The fight is over")
        form.locator("button[type=submit]").click()
        confirm = form.locator(".confirm")
        assert "cannot be undone" in confirm.inner_text()
        self.axe(g, "gm:confirm-close")
        confirm.get_by_role("button", name="Yes, close").click()
        for w in (self.gm, *self.players.values()):
            w.page.locator('[data-fact="status"]', has_text="closed").wait_for()

    def badges(self, manual: bool) -> int:
        """Every roll's badge on every page: verified (server dice, the seed revealed at close) or
        manual (faces the table typed in), none failed, pending or unrevealed; the chain verified."""
        counts = []
        for w in (self.gm, *self.players.values()):
            p = w.page
            p.locator('[data-chain="ok"]').wait_for()
            p.locator('[data-badge="checking"], [data-badge="pending"]').first.wait_for(state="detached")
            marks = p.locator("ol.log [data-badge]").evaluate_all("bs => bs.map(b => b.dataset.badge)")
            assert marks, "no roll in the fight"
            allowed = {"verified", "manual"} if manual else {"verified"}
            assert set(marks) <= allowed, marks
            counts.append(len(marks))
        assert len(set(counts)) == 1, counts
        return counts[0]

    def wide_layout(self, who: str, shot: str | None = None) -> None:
        """The same page at 1280×800: nothing clipped, the actions before the log, axe clean; `shot`:
        the screenshot's name under docs/ (with TUSSLE_SCREENSHOTS=1)."""
        url = self.gm_url if who == "gm" else self.seat_urls[who]
        w = self.open_page(url, *WIDE)
        p = w.page
        p.locator("#connection.live").wait_for()
        p.locator('#combatants td[data-col="stats"]').first.wait_for()
        assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth")
        assert p.evaluate(
            "(() => { const e = document.querySelector('#combatants'); return e.scrollWidth <= e.clientWidth + 1; })()"
        )
        panel = "#gm" if who == "gm" else "#play"
        if p.locator(panel).is_visible():
            assert _top(p, panel) < _top(p, "#log")
        shots = screenshots_dir()
        if shot and shots:
            p.screenshot(path=f"{shots}/{shot}", full_page=False)
        no_serious_axe(p, f"{who}:wide")
        assert w.script_errors() == []
        p.context.close()

    def shot(self, who: str, name: str, at: str | None = None) -> None:
        """With TUSSLE_SCREENSHOTS=1, the reader's screen as it is now (scrolled to `at`, as the
        banner's link does), under docs/ (the README's)."""
        shots = screenshots_dir()
        if shots:
            p = self.page_of(who)
            if at:
                p.locator(at).evaluate("e => e.scrollIntoView()")
            p.screenshot(path=f"{shots}/{name}", full_page=False)

    def phone_layout(self, who: str) -> None:
        """At 390 px: nothing wider than the screen; what the reader may do comes before the log."""
        p = self.page_of(who)
        wider = p.evaluate(
            "[...document.querySelectorAll('body *')].filter(e => e.getBoundingClientRect().right > innerWidth + 1"
            " && !e.closest('svg')).slice(0, 5).map(e => e.tagName + '.' + e.className + '#' + e.id + ' '"
            " + Math.round(e.getBoundingClientRect().right))"
        )
        assert p.evaluate("document.documentElement.scrollWidth <= window.innerWidth"), (who, wider)
        for panel in ("#pending-box", "#play", "#gm"):
            if p.locator(panel).is_visible():
                assert _top(p, panel) < _top(p, "#log"), (who, panel)

    def no_script_errors(self, manual: bool) -> None:
        """No console error nor exception; with manual dice, the dice_needed 422s that ask for faces."""
        allow = (422,) if manual else ()
        for w in (self.gm, *self.players.values()):
            assert w.script_errors(allow_status=allow) == [], w.script_errors(allow_status=allow)
