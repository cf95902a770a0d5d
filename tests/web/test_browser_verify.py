"""Verification in the browser: the page's own chain and dice checks, the same algorithm as `tussle verify`,
on the live stream and on exports opened from disk, tampered ones included."""

from __future__ import annotations

import json

import pytest

from events.canonical import canonical
from events.envelope import event_hash
from tests.support.tampering import edited_export, forged_export, manual_faces_export
from tests.web.conftest import screenshots_dir

pytestmark = pytest.mark.browser

ANN = {"id": "ann", "name": "Ann", "side": "heroes", "position": [0, 0]}


def _rolled(api):
    enc = api.ok("POST", "/encounters", {"name": "Dice on the bridge", "ruleset": "freeform", "public": True})
    api.command(enc, "add_combatant", combatant=ANN)
    api.command(
        enc, "roll", expression="3d6", purpose="a check", combatant="ann", command_id="r-1", entropy="x" * 16
    )
    api.command(enc, "note", text="the bridge holds")
    api.command(enc, "roll", expression="1d100", purpose="another", command_id="r-2")
    api.command(
        enc, "roll", expression="4d6kh3", purpose="kept dice", command_id="r-3", entropy="k3Jx9Qm2Lp7Vw4Zt"
    )
    return enc


def badges(page) -> list[str]:
    return page.locator("ol.log .badge").all_inner_texts()


def test_after_close_every_badge_reads_verified_and_a_tampered_export_fails_at_its_seq(
    served, api, open_page, tmp_path
):
    enc = _rolled(api)
    watched = open_page(f"{served.url}/encounters/{enc['id']}/view")
    p = watched.page
    p.locator("#connection.live").wait_for()
    p.locator("ol.log .badge").first.wait_for()
    assert badges(p) == ["not yet revealed"] * 3  # the seed is still secret
    assert p.locator("[data-chain=ok]").count() == 1
    api.command(enc, "close")
    p.locator("#connection.closed").wait_for()
    p.wait_for_function(
        "() => [...document.querySelectorAll('ol.log .badge')].every(b => b.textContent === 'verified')"
    )
    assert badges(p) == ["verified"] * 3
    assert "3 verified" in p.locator("#chain").inner_text()
    p.locator("ol.log li.type-DieRolled summary").first.click()  # a roll opens into faces, modifiers, target
    details = p.locator("ol.log li.type-DieRolled dl.roll").first.inner_text()
    assert "Faces" in details and "Modifiers" in details and "Target" in details and "Outcome" in details
    shots = screenshots_dir()
    if shots:
        p.screenshot(path=f"{shots}/page-verified.png", full_page=True)
    # The forum helpers: the log as Markdown and BBCode, ending with the head hash (an outside copy).
    head = api.ok("GET", f"/encounters/{enc['id']}")["hash"]
    for button, mark in (("#copy-md", "**"), ("#copy-bb", "[b]")):
        p.click(button)
        p.wait_for_function(
            "([h, m]) => { const v = document.getElementById('copy-area').value; "
            "return v.includes(h) && v.includes(m); }",
            arg=[head, mark],
        )

    status, raw = api.call("GET", f"/encounters/{enc['id']}/events", accept="application/x-ndjson")
    assert status == 200
    cases = [
        ("honest", raw, None),
        ("forged", *forged_export(raw)),
        ("manual", *manual_faces_export(raw)),
        ("edited", *edited_export(raw)),
    ]
    for name, data, bad_seq in cases:
        path = tmp_path / f"{name}.jsonl"
        path.write_bytes(data)
        p.set_input_files("#export-file", str(path))
        report = p.locator("#file-report .chain-state")
        if name == "manual":  # faces nobody may supply in a server-dice encounter, not "not verifiable"
            p.locator("#file-report li[data-kind=dice]").filter(
                has_text=f"seq {bad_seq}: manual faces in an encounter whose dice are the server's"
            ).wait_for()
        if bad_seq is None:
            report.filter(has_text="OK").wait_for()
            assert p.locator("#file-report .file-rolls .badge").all_inner_texts() == ["verified"] * 3
        else:
            report.filter(has_text=f"FAILED at seq {bad_seq}").wait_for()
            assert f"FAILED at seq {bad_seq}" in p.locator("#file-report .file-rolls").inner_text()
        # The same file, the same verdict from `tussle verify` (its report over HTTP-free bytes).
        from server.audit.verifying import verify_export

        assert verify_export(data)["first_bad_seq"] == bad_seq, name
    kinds = p.locator("#file-report li[data-kind]").evaluate_all("els => els.map(e => e.dataset.kind)")
    assert set(kinds) == {"chain", "dice"}  # the last case: an edited face breaks both
    assert watched.script_errors() == []


def test_the_page_hashes_and_rolls_as_the_server_does(served, open_page):
    # The worked example of docs/verifying.md, and keys whose code-point order differs from UTF-16's.
    watched = open_page(served.url + "/")
    p = watched.page
    tricky = {"\ue000": 1, "\U0001f600": 2, "a": {"z": [1, "é\n\u0001"], "B": None}, "é": True}
    env = {
        "stream": "s1",
        "seq": 1,
        "type": "NotePosted",
        "data": tricky,
        "actor": "gm",
        "command_id": "c",
        "ts": "2026-05-01T19:04:11.250000Z",
        "prev_hash": "0" * 64,
    }
    got = p.evaluate(
        """async ([env]) => {
        const v = await import('/static/js/verify.js');
        const seed = new Uint8Array(32).map((_, i) => i);
        return {
          canonical: v.canonical(env.data),
          hash: v.eventHash(env),
          faces: [0, 1, 2].map(d => v.dieFace(seed, '3f2a9c1d5e7b8a60', 'turn3-ann-dx', d, 6, 'example')),
          d100: v.dieFace(seed, 's', 'c', 0, 100, ''),
          seedOk: v.seedMatches('000102030405060708090a0b0c0d0e0f101112131415161718191a1b1c1d1e1f',
                                '630dcd2966c4336691125448bbb25b4ff412a49c732db2c8abc1b8581bd710dd'),
        };
    }""",
        [env],
    )
    assert got["canonical"] == canonical(tricky).decode()
    assert got["hash"] == event_hash(**env)
    assert got["faces"] == [5, 5, 2]
    from events.dice import derive_face

    assert got["d100"] == derive_face(bytes(range(32)), "s", "c", 0, 100, "")
    assert got["seedOk"] is True
    assert watched.script_errors() == []
    json.dumps(got)  # plain data came back
