"""Tampered exports, made the ways a forger would: shared by the verify tests (CLI, HTTP) and the
browser tests (the page's own verifier must name the same seq)."""

from __future__ import annotations

import json
from typing import Any

import msgspec

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
