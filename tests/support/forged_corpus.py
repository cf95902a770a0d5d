"""The forged corpus of issue 25 (its Done-when list, and the older cases of the same corpus): one honest
fight per case, as its player kept it, and for each case the forger's change and what the player kept.
Shared by the tests that feed it to `tussle verify`, docs/verifying.md's example verifier and the page
(from disk and live)."""

from __future__ import annotations

import copy
import json
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from server.audit.verifying import verify_export
from tests.support.tampering import rotated_mid_resolution
from tests.test_verify_cases import (
    ANN,
    SENT,
    TROLL,
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


def fight(api) -> Fight:
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


def jsonl(rows: list[dict[str, Any]]) -> str:
    return "".join(json.dumps(r) + "\n" for r in rows)


def verified(data: bytes, kept: dict[str, Any]) -> dict[str, Any]:
    """What `tussle verify FILE [--receipts R] [--sent S]` reports (the export's trailer holds the keys)."""
    return verify_export(
        data,
        jsonl(kept["receipts"]).encode() if "receipts" in kept else None,
        sent=jsonl(kept["sent"]).encode() if "sent" in kept else None,
    )


def swapped_in_store(events, trailer):
    """A store reads by seq: a swap at rest is two events exchanging their content (the page and the CLI
    then see the same stream the server serves)."""
    i = next(i for i, e in enumerate(events) if e["command_id"] == "the-note")
    a, b = events[i], events[i + 1]
    for k in ("type", "data", "actor", "command_id"):
        a[k], b[k] = b[k], a[k]
    return a["seq"]


# Twenty-one fights in a row from one address: no rate limit (it is not what this tests).
UNLIMITED = ("--rate-commands", "0", "--rate-reads", "0")
