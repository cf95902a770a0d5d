"""Issue 25 item 4: one verifier, three places. Every case of the issue's forged corpus is checked by
`tussle verify`'s verifier (server/audit/verifying.py verify_export, with the player's kept files), by the
page from disk (the export and the kept files opened in Chromium) and by the page live (the forged
stream served by a real server started on a forged database file, what the player's browser kept in
its storage): the same verdict, the same first bad seq, and the one the forger's change is at."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest

from server.audit.verifying import verify_export
from tests.support.serving import ServeProcess
from tests.support.tampering import encode, parse, rotated_mid_resolution
from tests.test_verify_cases import (
    ANN,
    SENT,
    TROLL,
    _rewrite_db,
    aimed,
    chosen_draws,
    cut_tail,
    deleted,
    extra_draw,
    forged_receipt,
    forged_respond,
    forged_seat_command,
    held_and_rotated,
    manual_faces,
    replaced_seed,
    repointed_dice_key,
    seat_changed_unseen,
    stripped_declaration,
    stripped_declarations,
    stripped_key,
    substituted_entropy,
    swapped,
    swapped_draws,
    version_99,
)
from tests.web.conftest import Api

pytestmark = pytest.mark.browser


@dataclass
class Fight:
    """One honest fight as its players kept it: the export, the signed receipts of the player's answers,
    the player's sent records (seat and the head its page had seen, as the page writes them) and the
    record of the send the server refused when the seed was rotated first."""

    enc: dict[str, Any]
    raw: bytes
    receipts: list[dict[str, Any]]
    sent: list[dict[str, Any]]
    refused: dict[str, Any]


def _fight(api) -> Fight:
    """tests/test_verify_cases.py's fight, over the served server: a grab the GM answers, rolls, a note, a
    rotation (and a roll sent bound to the commitment it replaced, refused), a roll, close."""
    enc = api.ok("POST", "/encounters", {"name": "Corpus", "ruleset": "probe"})
    api.command(enc, "add_combatant", combatant=ANN)
    api.command(enc, "add_combatant", combatant=TROLL)
    made = api.ok(
        "POST",
        f"/encounters/{enc['id']}/seats",
        {"name": "Ann's player", "combatants": ["ann"]},
        enc["gm_token"],
    )
    seat, head = made["token"], api.ok("GET", f"/encounters/{enc['id']}", token=enc["gm_token"])["seq"]
    receipts, sent = [], []

    def as_player(type_: str, n: int, **fields: Any) -> None:
        nonlocal head
        r = api.command(enc, type_, token=seat, **fields, **SENT[n])
        sent.append({**SENT[n], "type": type_, "seat": made["seat"], "seen_seq": head, "seq": r["seq"]})
        receipts.append(r["receipt"])
        head = r["seq"]

    def as_gm(type_: str, **fields: Any) -> None:
        nonlocal head
        head = api.command(enc, type_, **fields)["seq"]

    as_player("probe.grab", 0, combatant="ann", target="troll")
    pending = api.ok("GET", f"/encounters/{enc['id']}/state", token=enc["gm_token"])["pending"][0]["id"]
    as_gm("respond", reaction=pending, choice="resist", command_id="gm-answer")
    as_player("roll", 1, expression="3d6", purpose="a check", combatant="ann")
    as_gm("note", text="the bridge holds", command_id="the-note")
    before = api.ok("GET", f"/encounters/{enc['id']}/state", token=seat)["commitment"]
    as_gm("rotate_seed")
    held = {"command_id": "ann-held", "entropy": "d" * 20, "expected_commitment": before}
    status, answer = api.call(
        "POST",
        f"/encounters/{enc['id']}/commands",
        {"type": "roll", "expression": "1d100", "purpose": "held", "combatant": "ann", **held},
        seat,
    )
    assert status == 409 and answer["error"]["code"] == "commitment_moved", answer
    refused = {
        **held,
        "type": "roll",
        "seat": made["seat"],
        "seen_seq": head,
        "refused": {"status": 409, **answer["error"]},
    }
    as_player("roll", 2, expression="2d6", purpose="another", combatant="ann")
    as_gm("close")
    status, raw = api.call(
        "GET", f"/encounters/{enc['id']}/events", token=enc["gm_token"], accept="application/x-ndjson"
    )
    assert status == 200
    return Fight(enc, raw, receipts, sent, refused)


def _none(f: Fight, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {}


def _receipts(f: Fight, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"receipts": f.receipts}


def _sent(f: Fight, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"sent": f.sent}


def _sent_and_refused(f: Fight, events: list[dict[str, Any]]) -> dict[str, Any]:
    return {"sent": [*f.sent, f.refused]}


def _a_forged_receipt(f: Fight, events: list[dict[str, Any]]) -> dict[str, Any]:
    forged = copy.deepcopy(f.receipts)
    r = next(r for r in forged if r["seq"] == forged_receipt(events, None))
    r["time"] = f"{r['time'][:-2]}{(int(r['time'][-2]) + 1) % 10}Z"  # a microsecond later
    return {"receipts": forged}


# (the forger's change -> its seq, what the player kept): the Done-when list, in its order, and
# the older cases of the same corpus.
CASES: list[tuple[Callable[..., int], Callable[[Fight, list[dict[str, Any]]], dict[str, Any]]]] = [
    (rotated_mid_resolution, _none),
    (held_and_rotated, _sent_and_refused),
    (cut_tail, _receipts),
    (aimed, _none),  # re-keyed dice
    (chosen_draws, _none),  # draw 7 shown
    (swapped_draws, _none),
    (deleted, _none),  # a missing event
    (replaced_seed, _none),
    (stripped_key, _none),
    (repointed_dice_key, _none),
    (extra_draw, _none),
    (version_99, _none),
    (stripped_declarations, _none),
    (stripped_declaration, _none),
    (forged_seat_command, _sent),
    (forged_respond, _sent),
    (seat_changed_unseen, _sent),
    (swapped, _none),
    (substituted_entropy, _sent),
    (manual_faces, _none),
    (forged_receipt, _a_forged_receipt),
]


def _jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def _verdict(text: str) -> str:
    return "OK" if text.startswith(("OK", "Chain verified")) else text.split(" — ")[0].split(":")[0]


def _want(report: dict[str, Any]) -> str:
    return "OK" if report["ok"] else f"FAILED at seq {report['first_bad_seq']}"


def _cli(data: bytes, kept: dict[str, Any]) -> dict[str, Any]:
    """What `tussle verify FILE [--receipts R] [--sent S]` reports (the export's trailer holds the keys)."""
    return verify_export(
        data,
        _jsonl(kept["receipts"]).encode() if "receipts" in kept else None,
        sent=_jsonl(kept["sent"]).encode() if "sent" in kept else None,
    )


def _swapped_in_store(events, trailer):
    """A store reads by seq: a swap at rest is two events exchanging their content (the page and the CLI
    then see the same stream the server serves)."""
    i = next(i for i, e in enumerate(events) if e["command_id"] == "the-note")
    a, b = events[i], events[i + 1]
    for k in ("type", "data", "actor", "command_id"):
        a[k], b[k] = b[k], a[k]
    return a["seq"]


# Twenty-one fights in a row from one address: no rate limit (it is not what this tests).
UNLIMITED = ("--rate-commands", "0", "--rate-reads", "0")


def test_every_forged_case_is_named_at_the_same_seq_by_tussle_verify_and_the_page_from_disk_and_live(
    open_page, tmp_path
):
    db = str(tmp_path / "tussle.db")
    served = ServeProcess("--db", db, *UNLIMITED)
    try:
        assert served.port is not None, served.stderr
        _disk(served, open_page, tmp_path, [_fight(Api(served.url)) for _ in CASES])
    finally:
        served.stop()


def _disk(served, open_page, tmp_path, fights):
    assert verify_export(fights[0].raw)["ok"]

    # From disk: the export and the kept files opened in the page.
    watched = open_page(
        f"{served.url}/encounters/{fights[0].enc['id']}/view#token={fights[0].enc['gm_token']}"
    )
    p = watched.page
    p.locator("#connection.closed").wait_for()
    live_cases = []
    for (tamper, keep), fight in zip(CASES, fights, strict=True):
        name = tamper.__name__
        events, trailer = parse(fight.raw)
        seq = tamper(events, trailer)
        data = encode(events, trailer)
        kept = keep(fight, events)
        cli = _cli(data, kept)
        assert cli["first_bad_seq"] == seq, (name, cli["problems"])
        files = {}
        for what in ("receipts", "sent"):
            files[what] = tmp_path / f"{name}.{what}.jsonl"
            files[what].write_text(_jsonl(kept.get(what, [])))
        (tmp_path / f"{name}.jsonl").write_bytes(data)
        p.locator("#file-report").evaluate("b => b.replaceChildren()")
        p.set_input_files("#export-file", [])  # so the kept files, set first, check nothing yet
        p.set_input_files("#kept-receipts", str(files["receipts"]) if "receipts" in kept else [])
        p.set_input_files("#kept-sent", str(files["sent"]) if "sent" in kept else [])
        p.set_input_files("#export-file", str(tmp_path / f"{name}.jsonl"))
        p.locator("#file-report .chain-state").wait_for()
        shown = p.locator("#file-report .chain-state").inner_text()
        assert _verdict(shown) == _want(cli), (name, p.locator("#file-report").inner_text(), cli["problems"])
        live_cases.append((name, tamper, fight, kept, seq))
    assert watched.script_errors() == []
    served.stop()
    _live(str(tmp_path / "tussle.db"), open_page, live_cases)


def _live(db, open_page, live_cases):
    """The same changes made in the database file, served by a real server started on it."""
    for _, tamper, fight, _, _ in live_cases:
        events, trailer = parse(fight.raw)
        (_swapped_in_store if tamper is swapped else tamper)(events, trailer)
        # A thorough operator rewrites the listing's head too (a cut tail included: only receipts show it).
        _rewrite_db(db, fight.enc["id"], events, {"seq": events[-1]["seq"], "hash": events[-1]["hash"]})
    forged = ServeProcess("--db", db, *UNLIMITED)
    try:
        assert forged.port is not None, forged.stderr
        served_api = Api(forged.url)
        first = open_page(f"{forged.url}/keys")
        for name, _, fight, kept, seq in live_cases:
            stream = fight.enc["id"]
            status, raw = served_api.call(
                "GET",
                f"/encounters/{stream}/events",
                token=fight.enc["gm_token"],
                accept="application/x-ndjson",
            )
            cli = _cli(raw, kept)
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
                f"{forged.url}/encounters/{stream}/view#token={fight.enc['gm_token']}",
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
