"""Issue 25 item 4: one verifier, three places. Every case of the issue's forged corpus is checked by
`tussle verify`'s verifier (server/audit/verifying.py verify_export, with the player's kept files), by the
page from disk (the export and the kept files opened in Chromium) and by the page live (the forged
stream served by a real server started on a forged database file, what the player's browser kept in
its storage): the same verdict, the same first bad seq, and the one the forger's change is at."""

from __future__ import annotations

from typing import Any

import pytest

from tests.support.forged_corpus import CASES, UNLIMITED, fight, jsonl, swapped_in_store, verified
from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse
from tests.test_verify_cases import _rewrite_db, swapped
from tests.web.conftest import Api

pytestmark = pytest.mark.browser


def _verdict(text: str) -> str:
    return "OK" if text.startswith(("OK", "Chain verified")) else text.split(" — ")[0].split(":")[0]


def _want(report: dict[str, Any]) -> str:
    return "OK" if report["ok"] else f"FAILED at seq {report['first_bad_seq']}"


def test_every_forged_case_is_named_at_the_same_seq_by_tussle_verify_and_the_page_from_disk_and_live(
    open_page, tmp_path
):
    db = str(tmp_path / "tussle.db")
    served = ServeProcess("--db", db, *UNLIMITED)
    try:
        assert served.port is not None, served.stderr
        _disk(served, open_page, tmp_path, [fight(Api(served.url)) for _ in CASES])
    finally:
        served.stop()


def _disk(served, open_page, tmp_path, fights):
    assert verified(fights[0].raw, {})["ok"]

    # From disk: the export and the kept files opened in the page.
    watched = open_page(
        f"{served.url}/encounters/{fights[0].enc['id']}/view#token={fights[0].enc['gm_token']}"
    )
    p = watched.page
    p.locator("#connection.closed").wait_for()
    live_cases = []
    for (tamper, keep), played in zip(CASES, fights, strict=True):
        name = tamper.__name__
        events, trailer = parse(played.raw)
        seq = tamper(events, trailer)
        data = encode(events, trailer)
        kept = keep(played, events)
        cli = verified(data, kept)
        assert cli["first_bad_seq"] == seq, (name, cli["problems"])
        files = {}
        for what in ("receipts", "sent"):
            files[what] = tmp_path / f"{name}.{what}.jsonl"
            files[what].write_text(jsonl(kept.get(what, [])))
        (tmp_path / f"{name}.jsonl").write_bytes(data)
        p.locator("#file-report").evaluate("b => b.replaceChildren()")
        p.set_input_files("#export-file", [])  # so the kept files, set first, check nothing yet
        p.set_input_files("#kept-receipts", str(files["receipts"]) if "receipts" in kept else [])
        p.set_input_files("#kept-sent", str(files["sent"]) if "sent" in kept else [])
        p.set_input_files("#export-file", str(tmp_path / f"{name}.jsonl"))
        p.locator("#file-report .chain-state").wait_for()
        shown = p.locator("#file-report .chain-state").inner_text()
        assert _verdict(shown) == _want(cli), (name, p.locator("#file-report").inner_text(), cli["problems"])
        live_cases.append((name, tamper, played, kept, seq))
    assert watched.script_errors() == []
    served.stop()
    _live(str(tmp_path / "tussle.db"), open_page, live_cases)


def _live(db, open_page, live_cases):
    """The same changes made in the database file, served by a real server started on it."""
    for _, tamper, played, _, _ in live_cases:
        events, trailer = parse(played.raw)
        (swapped_in_store if tamper is swapped else tamper)(events, trailer)
        # A thorough operator rewrites the listing's head too (a cut tail included: only receipts show it).
        _rewrite_db(db, played.enc["id"], events, {"seq": events[-1]["seq"], "hash": events[-1]["hash"]})
    forged = ServeProcess("--db", db, *UNLIMITED)
    try:
        assert forged.port is not None, forged.stderr
        served_api = Api(forged.url)
        first = open_page(f"{forged.url}/keys")
        for name, _, played, kept, seq in live_cases:
            stream = played.enc["id"]
            status, raw = served_api.call(
                "GET",
                f"/encounters/{stream}/events",
                token=played.enc["gm_token"],
                accept="application/x-ndjson",
            )
            cli = verified(raw, kept)
            assert cli["first_bad_seq"] == seq, (name, cli["problems"])
            # What the player's browser kept, where the page keeps it (receipts.js).
            storage = {
                f"tussle-receipts:{stream}": [
                    {"seq": r["seq"], "hash": r["hash"], "receipt": r} for r in kept.get("receipts", [])
                ],
                f"tussle-sent:{stream}": kept.get("sent", []),
            }
            first.page.evaluate(
                "s => { localStorage.clear(); for (const [k, v] of Object.entries(s)) localStorage.setItem(k, JSON.stringify(v)); }",
                storage,
            )
            live = open_page(
                f"{forged.url}/encounters/{stream}/view#token={played.enc['gm_token']}",
                context=first.page.context,
            )
            chain = live.page.locator("#chain .chain-state")
            chain.wait_for()
            shown = chain.inner_text()
            assert _verdict(shown) == _want(cli), (name, shown, cli["problems"])
            assert "reconnecting" not in live.page.locator("#connection").inner_text(), name
            live.page.close()
    finally:
        forged.stop()
