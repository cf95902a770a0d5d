"""Issue 25 item 4 (part): the page's verifier makes the checks `tussle verify` makes. The forged exports of
tests/test_verify_cases.py (the audit's cases a stream alone shows) are opened from disk in Chromium, and
the page must give the verdict and the first bad seq the Python verifier gives for the same bytes."""

from __future__ import annotations

import pytest

from server.audit.verifying import verify_export
from tests.support.tampering import encode, parse, rotated_mid_resolution
from tests.test_verify_cases import (
    ANN,
    SENT,
    TROLL,
    aimed,
    chosen_draws,
    deleted,
    extra_draw,
    replaced_seed,
    repointed_dice_key,
    stripped_declaration,
    stripped_key,
    substituted_entropy,
    swapped,
)

pytestmark = pytest.mark.browser

CASES = [
    aimed,
    chosen_draws,
    deleted,
    swapped,
    replaced_seed,
    substituted_entropy,
    rotated_mid_resolution,
    stripped_key,
    repointed_dice_key,
    extra_draw,
    stripped_declaration,
]


def _fight(api) -> dict:
    """tests/test_verify_cases.py's fight, over the served server: a grab the GM answers, rolls, a note, a
    rotation, close."""
    enc = api.ok("POST", "/encounters", {"name": "Corpus", "ruleset": "probe"})
    api.command(enc, "add_combatant", combatant=ANN)
    api.command(enc, "add_combatant", combatant=TROLL)
    seat = api.ok(
        "POST",
        f"/encounters/{enc['id']}/seats",
        {"name": "Ann's player", "combatants": ["ann"]},
        enc["gm_token"],
    )["token"]
    api.command(enc, "probe.grab", token=seat, combatant="ann", target="troll", **SENT[0])
    pending = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["pending"][0]["id"]
    api.command(enc, "respond", reaction=pending, choice="resist", command_id="gm-answer")
    api.command(enc, "roll", token=seat, expression="3d6", purpose="a check", combatant="ann", **SENT[1])
    api.command(enc, "note", text="the bridge holds", command_id="the-note")
    api.command(enc, "rotate_seed")
    api.command(enc, "roll", token=seat, expression="2d6", purpose="another", combatant="ann", **SENT[2])
    api.command(enc, "close")
    return enc


def test_every_forged_export_fails_on_the_page_at_the_seq_tussle_verify_names(
    served, api, open_page, tmp_path
):
    enc = _fight(api)
    status, raw = api.call(
        "GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"], accept="application/x-ndjson"
    )
    assert status == 200 and verify_export(raw)["ok"]
    watched = open_page(f"{served.url}/encounters/{enc['id']}/view#token={enc['gm_token']}")
    p = watched.page
    p.locator("#connection.closed").wait_for()
    for tamper in CASES:
        events, trailer = parse(raw)
        tamper(events, trailer)
        data = encode(events, trailer)
        want = verify_export(data)["first_bad_seq"]
        path = tmp_path / f"{tamper.__name__}.jsonl"
        path.write_bytes(data)
        p.locator("#file-report").evaluate("b => b.replaceChildren()")
        p.set_input_files("#export-file", str(path))
        p.locator("#file-report .chain-state").wait_for()
        shown = p.locator("#file-report .chain-state").inner_text()
        said = "OK" if shown.startswith("OK") else shown.split(" — ")[0]
        assert said == ("OK" if want is None else f"FAILED at seq {want}"), (
            tamper.__name__,
            p.locator("#file-report").inner_text(),
        )
    assert watched.script_errors() == []
