"""The GM's rolls behind the screen, in the browser: the player's page holds only the commitment, the GM's
page also the faces and a Reveal button, and the page's own verifier checks each reveal against its
commitment and, after close, every hidden roll against the hidden seed (docs/verifying.md §5)."""

from __future__ import annotations

import os

import pytest

from tests.support.tampering import encode, parse
from tests.test_hidden_rolls import changed_hidden_roll, recommitted_hidden_roll
from tests.web.conftest import axe_violations, screenshots_dir
from tests.web.test_browser_play import open_action, send

pytestmark = pytest.mark.browser

ANN = {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]}
MADE = "li.type-HiddenRollMade"


def shown(roll) -> str:
    """The faces as the page (and the log) writes them: 4+2+6 = 12."""
    return f"{'+'.join(str(f) for group in roll['faces'] for f in group)} = {roll['total']}"


def screenshot(page, name: str) -> None:
    shots = screenshots_dir()
    path = f"{shots}/{name}.png" if shots else os.path.join("/tmp", f"tussle-{name}.png")
    page.screenshot(path=path, full_page=True)


def test_a_hidden_roll_is_the_gms_alone_until_revealed_and_verified_on_every_page(
    served, api, open_page, tmp_path
):
    enc = api.ok("POST", "/encounters", {"name": "Behind the screen", "ruleset": "freeform"})
    api.command(enc, "add_combatant", combatant=ANN)
    seat = api.ok(
        "POST", f"/encounters/{enc['id']}/seats", {"name": "Alice", "combatants": ["ann"]}, enc["gm_token"]
    )
    api.command(enc, "roll", expression="2d6", purpose="in the open", combatant="ann")
    view = f"{served.url}/encounters/{enc['id']}/view"
    gm, player = open_page(f"{view}#token={enc['gm_token']}"), open_page(f"{view}#token={seat['token']}")
    g, p = gm.page, player.page
    for page in (g, p):
        page.locator("#connection.live").wait_for()

    # Only the GM's roll form has the box; the player's has none.
    assert open_action(p, "p:roll").locator("input[name=hidden]").count() == 0
    form = open_action(g, "gm:roll")
    box = form.locator("input[name=hidden]")
    assert "behind the screen" in form.locator(f"label[for='{box.get_attribute('id')}']").inner_text()
    form.locator("input[name=expression]").fill("3d6")
    form.locator("input[name=purpose]").fill("the guard's perception")
    box.check()
    send(form)

    for page in (g, p):
        entry = page.locator(MADE).first
        entry.locator(".badge", has_text="hidden — committed").wait_for()
        assert "The GM rolls behind the screen (3d6)" in entry.inner_text()
    made_seq = int(g.locator(MADE).first.get_attribute("data-seq"))
    roll = api.ok("GET", f"/encounters/{enc['id']}/hidden-rolls", token=enc["gm_token"])["hidden_rolls"][0]
    assert roll["seq"] == made_seq and not roll["revealed"]
    faces = shown(roll)
    gm_faces = g.locator(MADE).first.locator(".gm-only")
    gm_faces.wait_for()
    assert faces in gm_faces.inner_text() and "only you see this" in gm_faces.inner_text()
    # Nowhere in the player's page, hidden elements included, nor asked of the server.
    player_text = p.evaluate("() => document.body.textContent")
    assert faces not in player_text and "only you see this" not in player_text
    assert p.locator("[data-reveal]").count() == 0
    assert not any("hidden-rolls" in u for u in player.urls)
    screenshot(g, "hidden-roll-gm")
    screenshot(p, "hidden-roll-player")
    assert axe_violations(g) == [] and axe_violations(p) == []

    g.locator(MADE).first.locator("button[data-reveal]").click()
    for page in (g, p):
        page.locator(MADE).first.locator(".badge", has_text="verified").wait_for()
        assert faces in page.locator(MADE).first.locator("[data-hidden-faces]").inner_text()
        page.locator("li.type-HiddenRollRevealed .badge", has_text="verified").wait_for()
        assert page.locator("[data-chain=ok]").count() == 1
    assert g.locator(".gm-only").count() == 0 and g.locator("[data-reveal]").count() == 0

    # One more the GM never reveals, keep-highest over two terms and a constant: close reveals it.
    api.command(enc, "roll", expression="4d6kh3+1d4+1", purpose="the second guard", hidden=True)
    g.locator(MADE).nth(1).locator(".gm-only").wait_for()
    api.command(enc, "close")
    for page in (g, p):
        page.locator("#connection.closed").wait_for()
        page.locator("li.type-HiddenSeedRevealed").wait_for()
        page.locator("[data-fact=hidden-rolls]", has_text="2 made, 2 revealed, 2 of them verified").wait_for()
        assert page.locator(f"{MADE} .badge").all_inner_texts() == ["verified"] * 2
        assert page.locator("[data-chain=ok]").count() == 1
        assert page.locator("li.type-DieRolled .badge").inner_text() == "verified"
    screenshot(p, "hidden-roll-closed")
    assert axe_violations(p) == []

    # The chain the pages verified holds declarations and every hidden event type.
    status, raw = api.call(
        "GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"], accept="application/x-ndjson"
    )
    assert status == 200
    events, _ = parse(raw)
    assert any("declaration" in e["data"] for e in events)
    assert {"HiddenRollMade", "HiddenRollRevealed", "HiddenSeedRevealed"} <= {e["type"] for e in events}

    # The export from disk: honest, a reveal changed afterwards, a commitment replaced with it.
    from server.audit.verifying import verify_export

    cases = [("honest", raw, None)]
    for tamper in (changed_hidden_roll, recommitted_hidden_roll):
        events, trailer = parse(raw)
        seq = tamper(events, trailer)
        cases.append((tamper.__name__, encode(events, trailer), seq))
    for name, data, bad_seq in cases:
        assert verify_export(data)["first_bad_seq"] == bad_seq, name
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        p.set_input_files("#export-file", str(path))
        report = p.locator("#file-report .chain-state")
        report.filter(has_text="OK" if bad_seq is None else f"FAILED at seq {bad_seq}").wait_for()
        hidden_badge = p.locator(f"#file-report .file-rolls li[data-seq='{made_seq}'] .badge").inner_text()
        if bad_seq is None:
            assert hidden_badge == "verified"
        else:
            assert p.locator("#file-report li[data-kind=hidden]").count() >= 1, name
            assert hidden_badge == f"FAILED at seq {bad_seq}", name
    assert gm.script_errors() == [] and player.script_errors() == []


def test_with_physical_dice_the_gms_roll_form_has_no_screen(served, api, open_page):
    """Manual dice have no hidden seed to roll from, so the box would only earn a refusal."""
    enc = api.ok(
        "POST", "/encounters", {"name": "Dice on the table", "ruleset": "freeform", "dice": "manual"}
    )
    gm = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
    gm.page.locator("#connection.live").wait_for()
    form = open_action(gm.page, "gm:roll")
    assert form.locator("input[name=expression]").count() == 1
    assert form.locator("input[name=hidden]").count() == 0
    assert gm.script_errors() == []
