"""The create answer's receipt (seq 1, docs/verifying.md §1): the landing page keeps it with the receipts of
the encounter's own commands, so the GM's page, opened in the same browser, counts and checks it."""

from __future__ import annotations

import json

import pytest

pytestmark = pytest.mark.browser


def test_the_landing_page_keeps_the_create_answers_receipt_and_the_gm_page_checks_it(served, open_page):
    landing = open_page(served.url + "/")
    p = landing.page
    p.locator("#c-options .field").first.wait_for()
    p.fill("#c-name", "Receipt from the start")
    p.click("#create button[type=submit]")
    gm_url = p.locator("#created .link-row output.link").first.inner_text()
    stream = gm_url.split("/encounters/")[1].split("/")[0]
    kept = json.loads(p.evaluate(f"localStorage.getItem('tussle-receipts:{stream}')") or "[]")
    assert [r["seq"] for r in kept] == [1] and set(kept[0]) == {"seq", "hash", "receipt"}

    gm = open_page(gm_url, context=p.context)  # the link followed in the same browser
    g = gm.page
    g.locator("#connection.live").wait_for()
    chain = g.locator("#chain")
    chain.get_by_text("Receipts kept in this browser: 1, all match the stream").wait_for()
    assert chain.locator('[data-chain="ok"]').count() == 1

    # A stream whose seq 1 is not the one this browser was answered with: the page says so, at seq 1.
    forged = [{"seq": 1, "hash": "0" * 64}]
    g.evaluate(f"localStorage.setItem('tussle-receipts:{stream}', {json.dumps(json.dumps(forged))})")
    g.reload()
    g.locator("#connection.live").wait_for()
    chain.get_by_text("one does not match!").wait_for()
    assert "FAILED at seq 1" in chain.locator('[data-chain="failed"]').inner_text()
    for w in (landing, gm):
        assert w.script_errors() == []
