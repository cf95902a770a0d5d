"""Tampered exports, made the ways a forger would: shared by the verify tests (CLI, HTTP) and the
browser tests (the page's own verifier must name the same seq)."""

from __future__ import annotations

import hashlib
import json
from typing import Any

import msgspec

from events.dice import derive_face
from events.envelope import event_hash

BODY = ("stream", "seq", "type", "data", "actor", "command_id", "ts", "prev_hash")


def parse(raw: bytes | str) -> tuple[list[dict[str, Any]], dict[str, Any]]:
    """An export's envelopes and its trailer."""
    lines = [
        json.loads(line)
        for line in (raw.decode() if isinstance(raw, bytes) else raw).splitlines()
        if line.strip()
    ]
    return lines[:-1], lines[-1]["trailer"]


def encode(events: list[dict[str, Any]], trailer: dict[str, Any]) -> bytes:
    return b"".join(msgspec.json.encode(x) + b"\n" for x in [*events, {"trailer": trailer}])


def changed_face(events: list[dict[str, Any]]) -> dict[str, Any]:
    """Change the first face of the first DieRolled (and its total), in place; the roll's envelope."""
    roll = next(e for e in events if e["type"] == "DieRolled")
    roll["data"]["faces"][0] = roll["data"]["faces"][0] % roll["data"]["sides"] + 1
    roll["data"]["total"] = sum(roll["data"]["faces"])
    return roll


def rewrite_chain(events: list[dict[str, Any]], trailer: dict[str, Any]) -> None:
    """Recompute every hash after a change, as a forger with the stream would (in place)."""
    prev = "0" * 64
    for e in events:
        e["prev_hash"] = prev
        e["hash"] = prev = event_hash(**{k: e[k] for k in BODY})
    trailer["head_hash"] = prev


def forged_export(raw: bytes) -> tuple[bytes, int]:
    """A die face changed and the whole chain rewritten: only the dice check (and receipts) catch it."""
    events, trailer = parse(raw)
    roll = changed_face(events)
    rewrite_chain(events, trailer)
    return encode(events, trailer), roll["seq"]


def manual_faces_export(raw: bytes) -> tuple[bytes, int]:
    """The first server roll rewritten as faces "typed in by the table" (every face its highest), the chain
    rewritten: in an encounter of server dice no command may supply faces, so it is a dice problem."""
    events, trailer = parse(raw)
    roll = next(e for e in events if e["type"] == "DieRolled" and e["data"]["source"] == "server")
    d = roll["data"]
    d.update(faces=[d["sides"]] * len(d["faces"]), source="manual", keyed_by="manual", entropy="")
    d["total"] = sum(d["faces"])
    rewrite_chain(events, trailer)
    return encode(events, trailer), roll["seq"]


def edited_export(raw: bytes) -> tuple[bytes, int]:
    """A die face changed in place, hashes left alone: the chain and the dice both break at that seq."""
    events, trailer = parse(raw)
    roll = changed_face(events)
    return encode(events, trailer), roll["seq"]


def refaced(e: dict[str, Any], seed: bytes) -> None:
    """Recompute a DieRolled's faces (and total) for its inputs, as a forger holding the seed would."""
    d = e["data"]
    key = d.get("keyed_command_id") or e["command_id"]
    d["faces"] = [derive_face(seed, e["stream"], key, n, d["sides"], d["entropy"]) for n in d["draws"]]
    d["total"] = sum(d["faces"])


def renumbered(events: list[dict[str, Any]]) -> None:
    """Seqs 1, 2, 3 ... again after an event was inserted (in place)."""
    for n, e in enumerate(events, start=1):
        e["seq"] = n


def rotated_mid_resolution(events: list[dict[str, Any]], trailer: dict[str, Any]) -> int:
    """The audit's attack as the stock server of round 2 let it be written: the operator rotates the seed
    while the first question waits (a `rotate_seed` right after the command that asked it), so the answer's
    dice, keyed by the player's command, come from a seed the operator picked after seeing the question.
    Every roll is valid for the seed in force when it was drawn. Returns the seq of the answer's first die."""
    asked = next(i for i, e in enumerate(events) if e["type"] == "ReactionRequested")
    end = asked
    while end + 1 < len(events) and events[end + 1]["command_id"] == events[asked]["command_id"]:
        end += 1
    real = next(e for e in events if e["type"] == "DiceSeedRotated")
    chosen = bytes(range(100, 132))  # the seed the operator rotated to, having tried it offline
    inserted = {
        **{k: events[end][k] for k in ("stream", "ts")},
        "seq": 0,
        "type": "DiceSeedRotated",
        "data": {
            "revealed_seed": real["data"]["revealed_seed"],
            "commitment": hashlib.sha256(chosen).hexdigest(),
            # declared as the real rotate_seed was, or the missing declaration would give it away
            **({"declaration": real["data"]["declaration"]} if "declaration" in real["data"] else {}),
        },
        "actor": "gm",
        "command_id": "gm-rotates-mid-resolution",
        "prev_hash": "",
        "hash": "",
    }
    events.insert(end + 1, inserted)
    for e in events[end + 2 : events.index(real)]:
        if e["type"] == "DieRolled" and e["data"]["source"] == "server":
            refaced(e, chosen)
    real["data"]["revealed_seed"] = chosen.hex()
    renumbered(events)
    trailer["head_seq"] = events[-1]["seq"]
    trailer["commitments"] = [
        e["data"]["commitment"]
        for e in events
        if e["type"] in ("EncounterCreated", "DiceSeedRotated") and e["data"]["commitment"]
    ]
    rewrite_chain(events, trailer)
    return next(e["seq"] for e in events[end + 2 :] if e["type"] == "DieRolled")


def as_seat(events: list[dict[str, Any]], command_id: str, seat: str) -> int:
    """The command sent, as the stream says, by the player's seat (`seat:<id>`), its declaration too (in
    place); its first seq."""
    run = [e for e in events if e["command_id"] == command_id]
    for e in run:
        e["actor"] = seat
        if "declaration" in e["data"]:
            e["data"]["declaration"]["command"]["actor"] = seat
    return run[0]["seq"]
